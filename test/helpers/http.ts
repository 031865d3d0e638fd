/**
 * Helpers for the HTTP suite: the example flows, a real Node server on
 * loopback around an app, a small JSON client over global fetch, and a store
 * wrapper whose methods can be made to fail (or whose store can be swapped).
 */
import { serve, type ServerType } from '@hono/node-server';
import { readFileSync, readdirSync } from 'node:fs';
import { PATIENCE_MS } from './patience.js';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseFlowText } from '../../src/flow/parse.js';
import type { FlowDocument } from '../../src/flow/schema.js';
import { StoreUnavailableError, type Store } from '../../src/store/types.js';

export const FLOWS_DIR = fileURLToPath(new URL('../../machines/flows/', import.meta.url));

/** Every flow in machines/flows, parsed and checked, sorted by file name. */
export function exampleFlows(): FlowDocument[] {
  return readdirSync(FLOWS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => parseFlowText(readFileSync(`${FLOWS_DIR}${f}`, 'utf8'), f));
}

export interface LoopbackServer {
  /** e.g. http://127.0.0.1:43121 */
  url: string;
  close(): Promise<void>;
}

/** Serves a Fetch handler on 127.0.0.1 on a free port. */
export async function serveOnLoopback(app: { fetch: (request: Request) => Response | Promise<Response> }): Promise<LoopbackServer> {
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  // This process blocks its event loop for seconds under load (PGlite's WebAssembly runs
  // synchronously), so Node's 5 s keep-alive timeout could close an idle connection just as fetch
  // reuses it (ECONNRESET on a request that never reached the server): idle connections are kept
  // as long as any wait here.
  (server as { keepAliveTimeout: number }).keepAliveTimeout = PATIENCE_MS;
  const { port, address } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections from fetch would otherwise hold close() open.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: T;
  text: string;
}

export interface RequestOptions {
  method?: string;
  /** Sent as JSON (JSON.stringify). */
  json?: unknown;
  /** Sent as is. */
  body?: string | ReadableStream<Uint8Array> | Uint8Array;
  token?: string;
  headers?: Record<string, string>;
}

/** One request; the JSON body parsed. */
export async function call<T = any>(base: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: RequestInit['body'] | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = options.body as RequestInit['body'];
    headers['content-type'] ??= 'application/json';
  }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const method = options.method ?? (body === undefined ? 'GET' : 'POST');
  // The API takes POSTs as JSON only, an empty start body included; a test of that sets its own content-type.
  if (method === 'POST') headers['content-type'] ??= 'application/json';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (body !== undefined) init.body = body;
  if (options.body instanceof ReadableStream) init.duplex = 'half';
  const response = await fetch(`${base}${path}`, init).catch((error: unknown) => {
    // fetch's own message is only "fetch failed": say which request, and why (the socket's error).
    throw new Error(`${method} ${path} failed: ${causes(error)}`, { cause: error });
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/**
 * `request(path)` GETs, `request(path, json)` POSTs `json`, on an app in this
 * process (Hono's `app.request`): the status, the body's text and its JSON.
 */
export function jsonRequests(app: { request: (path: string, init?: RequestInit) => Response | Promise<Response> }) {
  return async (path: string, json?: unknown): Promise<{ status: number; text: string; body: any }> => {
    const response = await app.request(path, json === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) };
  };
}

/** A body sent with chunked transfer encoding (no Content-Length), in pieces of `chunk` bytes. */
export function chunkedBody(text: string, chunk = 1024): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + chunk));
      offset += chunk;
    },
  });
}

/** `json` followed by spaces, `bytes` long in UTF-8 (still valid JSON). */
export function paddedJson(value: unknown, bytes: number): string {
  const text = JSON.stringify(value);
  const length = Buffer.byteLength(text);
  if (length > bytes) throw new Error(`${text} is already longer than ${bytes} bytes`);
  return text + ' '.repeat(bytes - length);
}

type StoreMethod = 'create' | 'load' | 'commitTurn' | 'history';

export interface FlakyStore {
  store: Store;
  /** Methods that throw StoreUnavailableError without touching the inner store. */
  down: Set<StoreMethod>;
  /** Methods that throw a plain Error (not a store error) instead. */
  broken: Set<StoreMethod>;
  /** The store calls go to; may be replaced (e.g. by a store reopened on the same directory). */
  inner: Store;
  /** Calls per method, failed ones included. */
  calls: Record<StoreMethod, number>;
  heal(): void;
}

/** Wraps a store so that its methods can be made unreachable, then healed. */
export function flakyStore(inner: Store): FlakyStore {
  const flaky: FlakyStore = {
    inner,
    down: new Set(),
    broken: new Set(),
    calls: { create: 0, load: 0, commitTurn: 0, history: 0 },
    heal() {
      flaky.down.clear();
      flaky.broken.clear();
    },
    store: undefined as unknown as Store,
  };
  const gate = (method: StoreMethod) => {
    flaky.calls[method]++;
    if (flaky.down.has(method)) throw new StoreUnavailableError(`test store: ${method} is unreachable`);
    if (flaky.broken.has(method)) throw new Error(`test store: ${method} broke with a secret detail`);
  };
  flaky.store = {
    get kind() {
      return `flaky(${flaky.inner.kind})`;
    },
    async create(session) {
      gate('create');
      return flaky.inner.create(session);
    },
    async load(sessionId, turnId) {
      gate('load');
      return flaky.inner.load(sessionId, turnId);
    },
    async commitTurn(sessionId, expectedVersion, turn) {
      gate('commitTurn');
      return flaky.inner.commitTurn(sessionId, expectedVersion, turn);
    },
    async history(sessionId, page) {
      gate('history');
      return flaky.inner.history(sessionId, page);
    },
    async ping() {
      gate('load');
      return flaky.inner.ping();
    },
    // Gates and events are read as loads are: down when loads are.
    findInput: async (gateId) => (gate('load'), flaky.inner.findInput(gateId)),
    listInputs: async (filter) => (gate('load'), flaky.inner.listInputs(filter)),
    listSessions: async (filter) => (gate('load'), flaky.inner.listSessions(filter)),
    claimDueInputs: async (now, leaseMs, limit) => (gate('load'), flaky.inner.claimDueInputs(now, leaseMs, limit)),
    nextDeadline: async () => (gate('load'), flaky.inner.nextDeadline()),
    readEvents: async (after, limit) => (gate('load'), flaky.inner.readEvents(after, limit)),
    lastEventId: async () => (gate('load'), flaky.inner.lastEventId()),
    close: () => flaky.inner.close(),
  };
  return flaky;
}

/** An error and its causes, as one line. */
function causes(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error && parts.length < 5; e = e.cause) parts.push(`${e.message}${'code' in e && e.code ? ` (${String(e.code)})` : ''}`);
  return parts.join(': ') || String(error);
}
