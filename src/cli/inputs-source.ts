import type { AnyActorLogic } from 'xstate';
import { GateflowError } from '../error/gateflow-error.js';
import type { OpenInput } from '../inputs/gate.js';
import { createRuntime, type AnswerReceipt } from '../runtime/runtime.js';
import { StoreUnavailableError } from '../store/types.js';
import type { ReplyEnvelope } from '../workflow/reply.js';
import type { Workflow } from '../workflow/types.js';
import type { InputsSource } from './inputs.js';
import { CliError } from './io.js';
import { openLocalStore, type LocalStoreLocation } from './local-store.js';

/**
 * The two places `gateflow inputs` and `gateflow input` find gates: the
 * store itself (PGlite's directory or PostgreSQL, with the workflows `serve`
 * serves), or a running server over HTTP (`--server`). A refusal (an unknown
 * gate, a value the gate does not take, a closed gate) is one line and exit 1.
 */

/** How long a request to a server may take. */
const SERVER_TIMEOUT_MS = 30_000;

/** Where the store is (as `gateflow serve` reads it from the environment), and what its sessions run. */
export interface LocalStoreOptions extends LocalStoreLocation {
  workflows: Workflow[];
  actors?: Record<string, AnyActorLogic>;
}

/**
 * Opens the store and a runtime on it. PGlite's directory is held by a
 * running server: then the error says to talk to that server instead.
 * Deadlines that passed are fired first (what a server would have done), so
 * a gate past its deadline is neither listed nor answered.
 */
export async function localInputsSource(options: LocalStoreOptions): Promise<InputsSource> {
  const store = await openLocalStore(options);
  const runtime = createRuntime({ workflows: options.workflows, store, ...(options.actors && { actors: options.actors }) });
  // The terminal's user has no token: they see and answer what a caller without auth may.
  const caller = { owner: null, roles: [] };
  const refused = (error: unknown): never => {
    if (error instanceof StoreUnavailableError) throw new CliError(`gateflow: ${error.message}`, 1);
    if (error instanceof GateflowError && error.status < 500) throw new CliError(`gateflow: ${error.publicMessage}`, 1);
    throw error;
  };
  let swept: Promise<unknown> | null = null;
  const sweep = () => (swept ??= runtime.fireDeadlines());
  return {
    async list(query) {
      try {
        await sweep();
        return await runtime.inputs(caller, query);
      } catch (error) {
        return refused(error);
      }
    },
    async answer(gateId, value) {
      try {
        await sweep();
        return await runtime.answer(gateId, value, caller);
      } catch (error) {
        return refused(error);
      }
    },
    async close() {
      runtime.close();
      await store.close();
    },
  };
}

/** A server's base URL as given (`--server`, GATEFLOW_SERVER): http or https, without a trailing slash. */
export function serverUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`gateflow: --server must be a URL such as http://127.0.0.1:3000, not ${JSON.stringify(text)}`, 2);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`gateflow: --server must be an http or https URL, not ${JSON.stringify(text)}`, 2);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Where a command finds a running server (`--server`, GATEFLOW_SERVER) and the token it sends (GATEFLOW_TOKEN). */
export interface ServerAccess {
  server: string;
  token?: string | undefined;
  fetch?: typeof fetch;
}

/** Gates on a running server: `GET /api/inputs`, `POST /api/inputs/{gateId}`, with a bearer token when given. */
export function remoteInputsSource(options: ServerAccess): InputsSource {
  const request = serverRequester(options);
  return {
    async list(query) {
      const params = new URLSearchParams();
      if (query.sessionId !== undefined) params.set('sessionId', query.sessionId);
      if (query.workflowId !== undefined) params.set('workflowId', query.workflowId);
      const search = params.size > 0 ? `?${params}` : '';
      return (await request<{ inputs: OpenInput[] }>('GET', `/api/inputs${search}`)).inputs;
    },
    answer: (gateId, value) => request<ReplyEnvelope | AnswerReceipt>('POST', `/api/inputs/${encodeURIComponent(gateId)}`, { value }),
    close: async () => {},
  };
}

/**
 * Requests to a server's API as a command makes them: JSON, the bearer token
 * when given, a time limit; a server that cannot be reached or refuses is one
 * line (its error message) and exit 1.
 */
export function serverRequester(options: ServerAccess): <T>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T> {
  const base = serverUrl(options.server);
  const doFetch = options.fetch ?? fetch;
  const request = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers,
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(SERVER_TIMEOUT_MS),
      });
    } catch (error) {
      throw new CliError(`gateflow: cannot reach the server at ${base}: ${reachReason(error)}`, 1);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new CliError(`gateflow: the server at ${base} answered ${response.status} without JSON: is it a gateflow server?`, 1);
    }
    if (!response.ok) {
      const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
      const message = typeof error?.message === 'string' ? error.message : `the server answered ${response.status}`;
      throw new CliError(`gateflow: ${message}${response.status === 401 ? ' (set GATEFLOW_TOKEN)' : ''}`, 1);
    }
    return parsed as T;
  };
  return request;
}

/** Why a request did not get through, in a few words (fetch's own message is "fetch failed"). */
function reachReason(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return `no answer within ${SERVER_TIMEOUT_MS / 1000} s`;
  if (e.cause?.code === 'ECONNREFUSED') return 'connection refused (is it running?)';
  return e.cause?.message ?? e.message ?? String(error);
}
