import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AnyActorLogic } from 'xstate';
import { GateflowError } from '../error/gateflow-error.js';
import type { OpenInput } from '../inputs/gate.js';
import { createRuntime } from '../runtime/runtime.js';
import { DirectoryLockedError } from '../store/dir-lock.js';
import type { PostgresTimeouts } from '../store/postgres.js';
import { StoreUnavailableError, type Store } from '../store/types.js';
import type { ReplyEnvelope } from '../workflow/reply.js';
import type { Workflow } from '../workflow/types.js';
import type { InputsSource } from './inputs.js';
import { CliError } from './io.js';

/**
 * The two places `gateflow inputs` and `gateflow input` find gates: the
 * store itself (PGlite's directory or PostgreSQL, with the workflows `serve`
 * serves), or a running server over HTTP (`--server`). A refusal (an unknown
 * gate, a value the gate does not take, a closed gate) is one line and exit 1.
 */

/** How long a request to a server may take. */
const SERVER_TIMEOUT_MS = 30_000;

/** Where the store is: as `gateflow serve` reads it from the environment. */
export interface LocalStoreOptions {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  postgresTimeouts?: PostgresTimeouts;
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
  let store: Store;
  try {
    if (options.databaseUrl) {
      const { createPostgresStore } = await import('../store/postgres.js');
      store = await createPostgresStore({ connectionString: options.databaseUrl, ...(options.postgresTimeouts && { timeouts: options.postgresTimeouts }) });
    } else {
      const { createPgliteStore, DEFAULT_PGLITE_DIR } = await import('../store/pglite.js');
      const dataDir = options.dataDir ?? DEFAULT_PGLITE_DIR;
      // Opening a directory that holds no store would create an empty one there (and
      // answer "no open input gates"): a mistyped path or another working directory.
      if (!existsSync(join(dataDir, 'PG_VERSION')))
        throw new CliError(
          `gateflow: no gateflow store in ${resolve(dataDir)}: set GATEFLOW_DB_DIR to the directory gateflow serve uses (DATABASE_URL for PostgreSQL), or ask a running server with --server URL`,
          1,
        );
      store = await createPgliteStore({ dataDir });
    }
  } catch (error) {
    if (error instanceof DirectoryLockedError) throw new CliError(`gateflow: ${error.message}.\ngateflow: ${lockedAdvice(error)}`, 1);
    if (error instanceof StoreUnavailableError) throw new CliError(`gateflow: ${error.message}`, 1);
    throw error;
  }
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

/**
 * What to do about a held PGlite directory: a server is asked with `--server`;
 * another command (a second `gateflow input` at the same moment, a chat) is
 * waited for, which the advice to use a server would not help with.
 */
function lockedAdvice(error: DirectoryLockedError): string {
  const command = error.holder.command;
  if (command !== undefined && !/\bserve\b/.test(command))
    return 'another gateflow command holds this store: try again once it has finished (or ask a running server with --server URL)';
  return 'a server holds this store: ask it instead with --server URL (e.g. --server http://127.0.0.1:3000, or set GATEFLOW_SERVER)';
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

/** Gates on a running server: `GET /api/inputs`, `POST /api/inputs/{gateId}`, with a bearer token when given. */
export function remoteInputsSource(options: { server: string; token?: string | undefined; fetch?: typeof fetch }): InputsSource {
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
  return {
    async list(query) {
      const params = new URLSearchParams();
      if (query.sessionId !== undefined) params.set('sessionId', query.sessionId);
      if (query.workflowId !== undefined) params.set('workflowId', query.workflowId);
      const search = params.size > 0 ? `?${params}` : '';
      return (await request<{ inputs: OpenInput[] }>('GET', `/api/inputs${search}`)).inputs;
    },
    answer: (gateId, value) => request<ReplyEnvelope>('POST', `/api/inputs/${encodeURIComponent(gateId)}`, { value }),
    close: async () => {},
  };
}

/** Why a request did not get through, in a few words (fetch's own message is "fetch failed"). */
function reachReason(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return `no answer within ${SERVER_TIMEOUT_MS / 1000} s`;
  if (e.cause?.code === 'ECONNREFUSED') return 'connection refused (is it running?)';
  return e.cause?.message ?? e.message ?? String(error);
}
