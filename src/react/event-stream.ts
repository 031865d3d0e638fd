import { createParser } from 'eventsource-parser';
import type { RuntimeEvent } from '../runtime/runtime.js';
import { TransportError, type EventsHandlers } from './transport.js';

/**
 * A server-sent events stream read with `fetch` rather than `EventSource`, so
 * that a bearer token can go in the Authorization header. It reconnects by
 * itself (after the server's `retry:` or a growing delay) and sends the last
 * event's id as `Last-Event-ID`, so a server that keeps its events can send
 * the missed ones; `onOpen` tells every (re)connection, so a caller can read
 * again what it shows.
 */
export interface EventStreamOptions extends EventsHandlers {
  url: string;
  fetch: typeof globalThis.fetch;
  headers: () => Record<string, string>;
  onEvent: (event: RuntimeEvent) => void;
  /** The first delay before reconnecting (doubled after each failure in a row, up to `maxDelayMs`). */
  retryMs?: number;
  maxDelayMs?: number;
}

/** Answers that asking again cannot change: the stream stops and says why. */
const isFinal = (status: number) => status >= 400 && status < 500 && status !== 401 && status !== 408 && status !== 429;

/** Opens the stream; returns the function that closes it. */
export function openEventStream(options: EventStreamOptions): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  const firstDelay = options.retryMs ?? 1000;
  const maxDelay = options.maxDelayMs ?? 30_000;
  let lastEventId: string | undefined;
  let delay = firstDelay;
  let serverRetry: number | undefined;

  const parser = createParser({
    onEvent: (message) => {
      if (message.id !== undefined) lastEventId = message.id;
      let event: RuntimeEvent;
      try {
        event = JSON.parse(message.data) as RuntimeEvent;
      } catch {
        options.onError?.(new TransportError('invalid_event', `the events stream sent data that is not JSON: ${message.data.slice(0, 60)}`));
        return;
      }
      options.onEvent(event);
    },
    onRetry: (ms) => {
      serverRetry = ms;
    },
  });

  /** One connection: resolves when it ends (closed by the server or failed); true when it should not be tried again. */
  async function connect(): Promise<boolean> {
    let response: Response;
    try {
      response = await options.fetch(options.url, {
        method: 'GET',
        headers: { accept: 'text/event-stream', ...options.headers(), ...(lastEventId !== undefined && { 'last-event-id': lastEventId }) },
        cache: 'no-store',
        signal,
      });
    } catch (error) {
      if (signal.aborted) return true;
      options.onError?.(new TransportError('network', `cannot reach the events stream: ${(error as Error).message}`));
      return false;
    }
    if (!response.ok || !response.body) {
      const payload = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
      options.onError?.(
        new TransportError(
          payload?.error?.code ?? `http_${response.status}`,
          payload?.error?.message ?? `the events stream answered ${response.status}`,
          response.status,
        ),
      );
      return isFinal(response.status);
    }
    delay = firstDelay;
    parser.reset();
    options.onOpen?.();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch (error) {
      if (signal.aborted) return true;
      options.onError?.(new TransportError('network', `the events stream broke off: ${(error as Error).message}`));
    } finally {
      reader.releaseLock();
    }
    return signal.aborted;
  }

  void (async () => {
    while (!signal.aborted) {
      if (await connect()) return;
      const wait = serverRetry ?? delay;
      delay = Math.min(delay * 2, maxDelay);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
  })();

  return () => controller.abort();
}
