import { TransportError, type Transport } from './transport.js';

export interface HttpTransportOptions {
  /** Where the API lives, e.g. `''` (same origin) or `http://127.0.0.1:3000`. */
  baseUrl?: string;
  /** A bearer token, when the server asks for one. */
  token?: string | (() => string | undefined);
  fetch?: typeof globalThis.fetch;
}

/** The HTTP API of `gateflow serve` as a transport. */
export function createHttpTransport(options: HttpTransportOptions = {}): Transport {
  const base = (options.baseUrl ?? '').replace(/\/$/, '');
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const token = typeof options.token === 'function' ? options.token() : options.token;
    let response: Response;
    try {
      response = await doFetch(`${base}/api${path}`, {
        method,
        headers: {
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...(token && { authorization: `Bearer ${token}` }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
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
    start: (flowId) => call('POST', `/flows/${encodeURIComponent(flowId)}/sessions`),
    turn: (sessionId, turn) => call('POST', `/sessions/${encodeURIComponent(sessionId)}/turns`, turn),
    session: (sessionId) => call('GET', `/sessions/${encodeURIComponent(sessionId)}`),
  };
}
