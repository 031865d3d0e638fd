/**
 * Opens and closes many `GET /api/events` streams against a real server on
 * loopback and prints the server's RSS before and after (issue 25: each
 * stream used to leave a listener on the server-wide shutdown signal, 27 KB a
 * connection, never returned). The server runs in a child process (flows on
 * the memory store) so that the client's own memory is not counted; it is
 * garbage-collected before each reading.
 *
 *   npx tsx test/bench/event-streams.ts [connections=20000] [concurrency=100]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';

type Message = { port: number } | { rss: number; heap: number; listeners: number };

if (process.argv[2] === '--serve') await serveChild();
else await main(Number(process.argv[2] ?? 20_000), Number(process.argv[3] ?? 100));

async function serveChild(): Promise<void> {
  const { serve } = await import('@hono/node-server');
  const { createFlowRuntime } = await import('../../src/flow/runtime.js');
  const { createApp } = await import('../../src/server/app.js');
  const { createMemoryStore } = await import('../../src/store/memory.js');
  const { exampleFlows } = await import('../helpers/http.js');
  const shutdown = new AbortController();
  const runtime = createFlowRuntime({ flows: exampleFlows(), store: createMemoryStore() });
  const app = createApp({ runtime, shutdown: shutdown.signal, eventStreams: { perCaller: 100_000, total: 100_000 } });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.send!({ port: info.port } satisfies Message));
  process.on('message', (m) => {
    if (m === 'measure') {
      // Twice: the first pass frees what finalizers hold.
      globalThis.gc?.();
      globalThis.gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      process.send!({ rss, heap: heapUsed, listeners: getEventListeners(shutdown.signal, 'abort').length } satisfies Message);
    } else if (m === 'stop') {
      shutdown.abort();
      server.close();
      runtime.close();
      process.exit(0);
    }
  });
}

async function main(connections: number, concurrency: number): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: ['--import', 'tsx', '--expose-gc'] });
  const next = () => new Promise<Message>((resolve) => child.once('message', (m) => resolve(m as Message)));
  const { port } = (await next()) as { port: number };
  const measure = async () => {
    const reading = next();
    child.send('measure');
    return (await reading) as { rss: number; heap: number; listeners: number };
  };
  // A few streams first, so that what is allocated once (modules, JIT) is in the baseline.
  await openAndClose(port, 200, concurrency);
  const before = await measure();
  const started = Date.now();
  await openAndClose(port, connections, concurrency);
  const seconds = (Date.now() - started) / 1000;
  // Streams end on the server once it sees the sockets close.
  await new Promise((r) => setTimeout(r, 1000));
  const after = await measure();
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  console.log(`event streams: ${connections} opened and closed, ${concurrency} at a time, in ${seconds.toFixed(1)} s`);
  console.log(`server RSS:  before ${mb(before.rss)}, after ${mb(after.rss)} (${after.rss >= before.rss ? '+' : ''}${mb(after.rss - before.rss)})`);
  console.log(`server heap: before ${mb(before.heap)}, after ${mb(after.heap)} (${after.heap >= before.heap ? '+' : ''}${mb(after.heap - before.heap)})`);
  console.log(`listeners on the shutdown signal: before ${before.listeners}, after ${after.listeners}`);
  stop(child);
}

function stop(child: ChildProcess) {
  child.send('stop');
}

/** Opens `count` streams, `concurrency` at once; each is closed by the client once its first line arrived. */
async function openAndClose(port: number, count: number, concurrency: number): Promise<void> {
  let started = 0;
  const worker = async () => {
    while (started < count) {
      started++;
      await openOne(port);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function openOne(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/events', agent: false }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    req.end();
  });
}
