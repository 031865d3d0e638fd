import pg from 'pg';
import { createSqlStore, migrate, type SqlClient } from './sql/sql-store.js';
import { StoreUnavailableError, type Store } from './types.js';

/** A PostgreSQL server through `pg` (DATABASE_URL): for many processes or machines. */
export async function createPostgresStore(options: { connectionString: string; max?: number }): Promise<Store> {
  const client = createPostgresClient(options);
  try {
    await migrate(client);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new StoreUnavailableError(
      `postgres store: cannot open ${redactUrl(options.connectionString)}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return createSqlStore('postgres', client);
}

/** The SQL client a PostgreSQL store runs on: a `pg` pool (exported for instrumented stores). */
export function createPostgresClient(options: { connectionString: string; max?: number }): SqlClient {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max ?? 10 });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // pg types rows as QueryResultRow; the store names its own row shapes.
  const rowsOf = <Row>(result: pg.QueryResult) => result as unknown as { rows: Row[] };
  // Named statements are parsed and planned once per connection, not on every turn.
  const names = new Map<string, string>();
  const named = (text: string, values: unknown[] | undefined) => {
    let name = names.get(text);
    if (name === undefined) names.set(text, (name = `gateflow_${names.size + 1}`));
    return { name, text, values: values ?? [] };
  };
  return {
    query: async <Row>(text: string, params?: unknown[]) => rowsOf<Row>(await pool.query(named(text, params))),
    transaction: async (fn) => {
      const conn = await pool.connect();
      try {
        await conn.query('BEGIN');
        const result = await fn({ query: async <Row>(text: string, params?: unknown[]) => rowsOf<Row>(await conn.query(text, params)) });
        await conn.query('COMMIT');
        return result;
      } catch (error) {
        await conn.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        conn.release();
      }
    },
    close: async () => {
      if (!pool.ended) await pool.end();
    },
  };
}

/** A connection string with its password hidden, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
