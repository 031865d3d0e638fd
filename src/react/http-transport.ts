import { MAX_HISTORY_PAGE_SIZE } from '../runtime/runtime.js';
import type { OpenInput } from '../inputs/gate.js';
import { retryingImport } from './retrying-import.js';
import { eventMatches, readWholeSession, TransportError, type InputQuery, type SessionPage, type Transport } from './transport.js';

export interface HttpTransportOptions {
  /** Where the API lives, e.g. `''` (same origin) or `http://127.0.0.1:3000`. */
  baseUrl?: string;
  /** A bearer token, when the server asks for one. */
  token?: string | (() => string | undefined);
  fetch?: typeof globalThis.fetch;
  /**
   * What a new session of a workflow starts from, sent as the start body's
   * `context` (the document agent's `{ projectId }`); undefined: an empty
   * body, as every flow is started.
   */
  startContext?: (flowId: string) => Record<string, unknown> | undefined;
}

/**
 * The events stream's reader (./event-stream.ts, with eventsource-parser) is a
 * chunk of its own: only a session that waits for others follows events, never
 * the first paint. A failed load is tried again (./retrying-import.ts).
 */
const eventStream = retryingImport(() => import('./event-stream.js'));

/** The HTTP API of `gateflow serve` as a transport. */
export function createHttpTransport(options: HttpTransportOptions = {}): Transport {
  const base = (options.baseUrl ?? '').replace(/\/$/, '');
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  const authorization = (): Record<string, string> => {
    const token = typeof options.token === 'function' ? options.token() : options.token;
    return token ? { authorization: `Bearer ${token}` } : {};
  };

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(`${base}/api${path}`, {
        method,
        headers: {
          // Every POST is JSON, the empty start body included: the server refuses other types (no "simple" cross-site requests).
          ...(method === 'POST' && { 'content-type': 'application/json' }),
          ...authorization(),
        },
        ...(method === 'POST' && { body: JSON.stringify(body ?? {}) }),
      });
    } catch (error) {
      throw new TransportError('network', `cannot reach the server: ${(error as Error).message}`);
    }
    const payload = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    if (!response.ok)
      throw new TransportError(
        payload?.error?.code ?? `http_${response.status}`,
        payload?.error?.message ?? `the server answered ${response.status}`,
        response.status,
      );
    return payload as T;
  }

  return {
    flows: async () => (await call<{ flows: Awaited<ReturnType<Transport['flows']>> }>('GET', '/flows')).flows,
    start: (flowId) => {
      const context = options.startContext?.(flowId);
      return call('POST', `/flows/${encodeURIComponent(flowId)}/sessions`, context && { context });
    },
    turn: (sessionId, turn) => call('POST', `/sessions/${encodeURIComponent(sessionId)}/turns`, turn),
    session: (sessionId) =>
      readWholeSession((after) =>
        call<SessionPage>('GET', `/sessions/${encodeURIComponent(sessionId)}?after=${after}&limit=${MAX_HISTORY_PAGE_SIZE}`),
      ),
    inputs: async (query = {}) => (await call<{ inputs: OpenInput[] }>('GET', `/inputs${searchOf(query)}`)).inputs,
    answer: (gateId, value) => call('POST', `/inputs/${encodeURIComponent(gateId)}`, { value }),
    cancel: (sessionId) => call('POST', `/sessions/${encodeURIComponent(sessionId)}/cancel`),
    events: (listener, query = {}, handlers = {}) => {
      let close: (() => void) | undefined;
      let closed = false;
      const open = () => {
        const loaded = eventStream.current();
        if (closed || close || !loaded) return;
        close = loaded.openEventStream({
          // The server narrows the stream to a session; a workflow is narrowed here.
          url: `${base}/api/events${searchOf({ ...(query.sessionId !== undefined && { sessionId: query.sessionId }) })}`,
          fetch: doFetch,
          headers: authorization,
          onEvent: (event) => {
            if (eventMatches(event, query)) listener(event);
          },
          ...handlers,
        });
      };
      // Opened once its code is there: at once after the first stream, else when the chunk loads (tried again while followed).
      const unsubscribe = eventStream.subscribe(open);
      eventStream.load().then(open, (error: unknown) => {
        if (!closed) handlers.onError?.(new TransportError('network', `cannot load the events stream's code: ${(error as Error).message}`));
      });
      return () => {
        closed = true;
        unsubscribe();
        close?.();
      };
    },
  };
}

/** `?sessionId=…&workflowId=…` for the parts of a query that are given. */
function searchOf(query: InputQuery): string {
  const params = new URLSearchParams();
  if (query.sessionId !== undefined) params.set('sessionId', query.sessionId);
  if (query.workflowId !== undefined) params.set('workflowId', query.workflowId);
  const search = params.toString();
  return search ? `?${search}` : '';
}
