/**
 * The HTTP transport's events stream, whose reader (src/react/event-stream.ts
 * with eventsource-parser) is a chunk of its own, loaded when a session first
 * follows events (the widget's first load does without it). A stream read
 * from a fetch that answers with server-sent events; a chunk that fails to
 * load once is said as a network error, then loaded again by itself and the
 * stream opened. Fake timers: nothing waits on the clock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeEvent } from '../../src/runtime/runtime.js';
import { createHttpTransport } from '../../src/react/http-transport.js';
import type { TransportError } from '../../src/react/transport.js';

/** The stream's chunk fails to load the first time it is imported. */
const chunk = vi.hoisted(() => ({ failures: 1 }));
vi.mock('../../src/react/event-stream.js', async (original) => {
  if (chunk.failures > 0) {
    chunk.failures--;
    throw new TypeError('Failed to fetch dynamically imported module: /assets/event-stream.js');
  }
  return original();
});

const EVENT = { type: 'session.updated', sessionId: 's1', workflowId: 'w' } as unknown as RuntimeEvent;

/** A fetch that answers /api/events with one event and keeps the stream open; counts its calls. */
function eventsFetch() {
  return vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`id: 1\ndata: ${JSON.stringify(EVENT)}\n\n`));
        init?.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the http transport's events stream", () => {
  it("says a failed load of the stream's code as a network error, loads it again by itself, then opens the stream", async () => {
    vi.useFakeTimers();
    const fetch = eventsFetch();
    const transport = createHttpTransport({ baseUrl: 'http://gateflow.test', fetch });
    const events: RuntimeEvent[] = [];
    const errors: TransportError[] = [];
    const opened = vi.fn();
    const close = transport.events((e) => events.push(e), { sessionId: 's1' }, { onOpen: opened, onError: (e) => errors.push(e) });
    await vi.advanceTimersByTimeAsync(0);
    expect(errors.map((e) => [e.code, e.message])).toEqual([['network', expect.stringMatching(/^cannot load the events stream's code: /)]]);
    expect(fetch).not.toHaveBeenCalled();
    // The pause after the failure: the chunk is loaded again, and the stream opens.
    await vi.advanceTimersByTimeAsync(2_000);
    await vi.waitFor(() => expect(events).toEqual([EVENT]));
    expect(opened).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls.map(([url]) => String(url))).toEqual(['http://gateflow.test/api/events?sessionId=s1']);
    close();
  });

  it('opens at once once the code is there, and a stream closed before it opened never opens', async () => {
    const fetch = eventsFetch();
    const transport = createHttpTransport({ baseUrl: 'http://gateflow.test', fetch });
    const seen: RuntimeEvent[] = [];
    // Closed at once: nothing is fetched, even once the code has loaded.
    transport.events(() => undefined, { sessionId: 's1' })();
    const close = transport.events((e) => seen.push(e), { sessionId: 's1' });
    await vi.waitFor(() => expect(seen).toEqual([EVENT]));
    expect(fetch).toHaveBeenCalledTimes(1);
    close();
  });
});
