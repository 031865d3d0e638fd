/**
 * The events stream as a resource (issue 25, section 1): a stream that ends
 * leaves nothing behind on the server-wide shutdown signal, concurrent streams
 * are capped per caller (429) and in total (503), a quiet stream sends
 * heartbeat comments, and a client that vanishes is let go (its place freed).
 */
import { getEventListeners } from 'node:events';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { sign } from 'hono/jwt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { createApp, type AppOptions } from '../../src/server/app.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { exampleFlows, serveOnLoopback, type LoopbackServer } from '../helpers/http.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const SECRET = 'a-secret-of-at-least-32-bytes-for-event-streams';
const tokenFor = (sub: string) => sign({ sub }, SECRET, 'HS256');

interface Served extends LoopbackServer {
  /** Streams the server is serving now (subscribed to the runtime and not yet let go). */
  active(): number;
  shutdown: AbortController;
}

const servers: Served[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serveStreams(options: Partial<Omit<AppOptions, 'runtime'>> = {}): Promise<Served> {
  const runtime = createFlowRuntime({ flows: exampleFlows(), store: createMemoryStore() });
  let active = 0;
  // The stream subscribes on open and unsubscribes when it ends: the count says which streams the server still holds.
  const counted: Runtime = {
    ...runtime,
    subscribe: (listener, caller) => {
      active++;
      const unsubscribe = runtime.subscribe(listener, caller);
      return () => {
        active--;
        unsubscribe();
      };
    },
  };
  const shutdown = new AbortController();
  const server = await serveOnLoopback(createApp({ runtime: counted, shutdown: shutdown.signal, ...options }));
  const served: Served = {
    ...server,
    active: () => active,
    shutdown,
    close: async () => {
      shutdown.abort();
      await server.close();
      runtime.close();
    },
  };
  servers.push(served);
  return served;
}

interface RawStream {
  status: number;
  response: IncomingMessage;
  request: ClientRequest;
  /** Everything received so far. */
  text(): string;
  body: string;
  /** Resolves when the body ended. */
  ended: Promise<void>;
}

/** Opens `GET /api/events` on its own connection (no agent), resolving once the head arrived; the body is read as it comes. */
function openStream(url: string, token?: string): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}/api/events`, { agent: false, headers: token ? { authorization: `Bearer ${token}` } : {} }, (response) => {
      const ended = new Promise<void>((done) => response.once('end', () => done()));
      const stream: RawStream = { status: response.statusCode ?? 0, response, request, body: '', text: () => stream.body, ended };
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (stream.body += chunk));
      response.on('error', () => undefined);
      resolve(stream);
    });
    request.on('error', reject);
    request.end();
  });
}

/** Reads a refused stream's JSON answer to the end. */
async function refusal(stream: RawStream): Promise<{ code: string; message: string }> {
  await stream.ended;
  expect(stream.response.headers['content-type']).toMatch(/^application\/json/);
  return (JSON.parse(stream.body) as { error: { code: string; message: string } }).error;
}

const until = (what: string, test: () => boolean) =>
  vi.waitFor(() => {
    if (!test()) throw new Error(`waiting for ${what}`);
  }, { timeout: PATIENCE_MS, interval: 20 });

describe('GET /api/events as a resource', () => {
  it('a stream that ends removes its listener from the shutdown signal (none left after 30 streams)', async () => {
    const server = await serveStreams();
    const before = getEventListeners(server.shutdown.signal, 'abort').length;
    for (let round = 0; round < 3; round++) {
      const streams = await Promise.all(Array.from({ length: 10 }, () => openStream(server.url)));
      expect(streams.map((s) => s.status)).toEqual(Array(10).fill(200));
      await until('the streams to be served', () => server.active() === 10);
      for (const s of streams) s.request.destroy();
      await until('the server to let the streams go', () => server.active() === 0);
    }
    expect(getEventListeners(server.shutdown.signal, 'abort').length).toBe(before);
  });

  it('caps streams per caller (429 too_many_streams) and in total (503 streams_unavailable); a closed stream frees its place', async () => {
    const server = await serveStreams({ jwtSecret: SECRET, eventStreams: { perCaller: 2, total: 3 } });
    const [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map(tokenFor));
    const a1 = await openStream(server.url, alice);
    const a2 = await openStream(server.url, alice);
    expect([a1.status, a2.status]).toEqual([200, 200]);

    const a3 = await openStream(server.url, alice);
    expect(a3.status).toBe(429);
    expect(a3.response.headers['retry-after']).toBeDefined();
    expect(await refusal(a3)).toEqual({ code: 'too_many_streams', message: expect.stringMatching(/at most 2 event streams at once/) });

    const b1 = await openStream(server.url, bob);
    expect(b1.status).toBe(200);
    const c1 = await openStream(server.url, carol);
    expect(c1.status).toBe(503);
    expect(c1.response.headers['retry-after']).toBeDefined();
    expect(await refusal(c1)).toEqual({ code: 'streams_unavailable', message: expect.stringMatching(/3 event streams/) });

    a1.request.destroy();
    await until('the closed stream to be let go', () => server.active() === 2);
    const c2 = await openStream(server.url, carol);
    expect(c2.status).toBe(200);
    const a4 = await openStream(server.url, alice);
    expect(a4.status).toBe(503);
    a4.request.destroy();
    for (const s of [a2, b1, c2]) s.request.destroy();
  });

  it('anonymous callers are counted by their address', async () => {
    const server = await serveStreams({ eventStreams: { perCaller: 1, total: 10 } });
    const first = await openStream(server.url);
    expect(first.status).toBe(200);
    const second = await openStream(server.url);
    expect(second.status).toBe(429);
    expect((await refusal(second)).code).toBe('too_many_streams');
    first.request.destroy();
  });

  it('caps that are not whole numbers of at least 1 are refused when the app is made', () => {
    const runtime = createFlowRuntime({ flows: exampleFlows(), store: createMemoryStore() });
    try {
      expect(() => createApp({ runtime, eventStreams: { perCaller: 0 } })).toThrow(/perCaller must be a whole number of at least 1/);
      expect(() => createApp({ runtime, eventStreams: { total: 1.5 } })).toThrow(/total must be a whole number of at least 1/);
    } finally {
      runtime.close();
    }
  });

  it('a quiet stream sends heartbeat comments', async () => {
    const server = await serveStreams({ heartbeatMs: 30 });
    const stream = await openStream(server.url);
    await until('two heartbeats', () => stream.text().split(': heartbeat\n\n').length >= 3);
    expect(stream.text().startsWith(': connected\n\n')).toBe(true);
    stream.request.destroy();
  });

  it('a client whose connection is gone is let go, and its place freed', async () => {
    const server = await serveStreams({ heartbeatMs: 30, eventStreams: { perCaller: 1, total: 10 } });
    const stream = await openStream(server.url);
    await until('the stream to be served', () => server.active() === 1);
    // The socket dies without the HTTP request being aborted politely.
    stream.request.socket?.destroy();
    await until('the server to let the dead client go', () => server.active() === 0);
    const next = await openStream(server.url);
    expect(next.status).toBe(200);
    next.request.destroy();
  });

  it('server shutdown ends every open stream', async () => {
    const server = await serveStreams();
    const streams = await Promise.all([openStream(server.url), openStream(server.url)]);
    await until('the streams to be served', () => server.active() === 2);
    server.shutdown.abort();
    await Promise.all(streams.map((s) => s.ended));
    await until('the server to let the streams go', () => server.active() === 0);
  });
});
