import type { PoolClient, QueryResult } from 'pg';
import { importOptional } from '../error/optional-dependency.js';
import { redactUrl, scrubSecrets } from './connection-secrets.js';
import { resolvePostgresTimeouts, type PostgresTimeouts } from './postgres-timeouts.js';
import { createSqlStore, upgradeSchema, type SqlClient } from './sql/sql-store.js';
import { StoreUnavailableError, type Store } from './types.js';

export { redactUrl, scrubSecrets } from './connection-secrets.js';
export {
  DEFAULT_POSTGRES_TIMEOUTS,
  POSTGRES_TIMEOUT_ENV,
  postgresTimeoutsFromEnv,
  resolvePostgresTimeouts,
  type PostgresTimeouts,
} from './postgres-timeouts.js';

// An optional peer dependency: importing this module is using it, and says what to install when it is missing.
const { default: pg } = await importOptional('pg', 'the PostgreSQL store (gateflow/postgres)', () => import('pg'));

export interface PostgresStoreOptions {
  connectionString: string;
  /** Connections in the pool. Default 10. */
  max?: number;
  timeouts?: PostgresTimeouts;
}

/** A PostgreSQL server through `pg` (DATABASE_URL): for many processes or machines. */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const client = createPostgresClient(options);
  try {
    await upgradeSchema(client);
  } catch (error) {
    await client.close().catch(() => undefined);
    const message = (error as Error)?.message ?? String(error);
    const safe = scrubSecrets(message, options.connectionString);
    throw new StoreUnavailableError(
      `postgres store: cannot open ${redactUrl(options.connectionString)}: ${safe}`,
      // A cause whose message had to be cleaned would carry the secret along.
      { cause: safe === message ? error : new Error(safe) },
    );
  }
  return createSqlStore('postgres', client);
}

/** The SQL client a PostgreSQL store runs on: a `pg` pool (exported for instrumented stores). */
export function createPostgresClient(options: PostgresStoreOptions): SqlClient {
  const timeouts = resolvePostgresTimeouts(options.timeouts);
  const max = options.max ?? 10;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max,
    // Bounds opening a connection and, in pg-pool, waiting for a free one (pool.connect and pool.query).
    connectionTimeoutMillis: timeouts.connectMs,
    // Sent as startup parameters: the server cancels (57014) or ends the session itself.
    statement_timeout: timeouts.statementMs || undefined,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs || undefined,
    // Client-side: the query fails with 'Query read timeout' while its connection
    // still waits for an answer; it must never serve another query (see below).
    query_timeout: timeouts.queryMs || undefined,
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // pg types rows as QueryResultRow; the store names its own row shapes.
  const rowsOf = <Row>(result: QueryResult) => result as unknown as { rows: Row[] };
  // Named statements are parsed and planned once per connection, not on every turn.
  const names = new Map<string, string>();
  const named = (text: string, values: unknown[] | undefined) => {
    let name = names.get(text);
    if (name === undefined) names.set(text, (name = `gateflow_${names.size + 1}`));
    return { name, text, values: values ?? [] };
  };
  /** pg's timeout errors, said in words an operator can act on (still without SQLSTATE: an outage). */
  const explained = (error: unknown): unknown => {
    if (!(error instanceof Error) || error instanceof pg.DatabaseError) return error;
    if (error.message === 'Query read timeout')
      return new Error(`no answer from PostgreSQL within ${timeouts.queryMs} ms (query timeout); the connection was dropped`, { cause: error });
    if (error.message === 'timeout exceeded when trying to connect')
      return new Error(`no free PostgreSQL connection within ${timeouts.connectMs} ms (all ${max} busy)`, { cause: error });
    if (error.message === 'Connection terminated due to connection timeout')
      return new Error(`cannot connect to PostgreSQL within ${timeouts.connectMs} ms (connect timeout)`, { cause: error });
    return error;
  };
  return {
    // pg-pool releases the client with the error when a query fails, which
    // removes it from the pool and ends it; pg's end() destroys the socket of a
    // client whose (timed-out) query is still active. So a connection stuck on a
    // frozen link is never handed out again.
    query: async <Row>(text: string, params?: unknown[]) => {
      try {
        return rowsOf<Row>(await pool.query(named(text, params)));
      } catch (error) {
        throw explained(error);
      }
    },
    transaction: async (fn) => {
      let conn: PoolClient;
      try {
        conn = await pool.connect();
      } catch (error) {
        throw explained(error);
      }
      // The server may end the session between statements (idle_in_transaction_session_timeout,
      // a shutdown): an 'error' event on a checked-out client with no listener would crash the process.
      let lost: Error | undefined;
      const onError = (error: Error) => void (lost ??= error);
      conn.on('error', onError);
      // Set when a query failed without the server answering (a timeout, a broken link): the
      // connection may still be waiting for that answer, so no ROLLBACK on it and no reuse.
      let broken: Error | undefined;
      const run = async (text: string, params?: unknown[]) => {
        try {
          return await conn.query(text, params);
        } catch (error) {
          if (!(error instanceof pg.DatabaseError)) broken ??= error instanceof Error ? error : new Error(String(error));
          throw explained(error);
        }
      };
      try {
        await run('BEGIN');
        const result = await fn({ query: async <Row>(text: string, params?: unknown[]) => rowsOf<Row>(await run(text, params)) });
        await run('COMMIT');
        return result;
      } catch (error) {
        // Rolled back by the server anyway when the connection is dropped.
        if (!broken && !lost) await run('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        conn.off('error', onError);
        // With an error, pg-pool removes the client and ends it (destroying a stuck socket).
        conn.release(broken ?? lost);
      }
    },
    close: async () => {
      if (!pool.ended && !pool.ending) await pool.end();
    },
  };
}
