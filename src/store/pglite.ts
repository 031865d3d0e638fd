import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { createSqlStore, migrate, type SqlClient } from './sql/sql-store.js';
import type { Store } from './types.js';

export const DEFAULT_PGLITE_DIR = '.gateflow/db';

/**
 * The embedded default: PostgreSQL compiled to WASM, in a directory (created on
 * first use), or in memory when `dataDir` is omitted. One process at a time.
 */
export async function createPgliteStore(options: { dataDir?: string } = {}): Promise<Store> {
  const client = createPgliteClient(options);
  await migrate(client);
  return createSqlStore('pglite', client);
}

/** The SQL client a PGlite store runs on (exported for instrumented stores, e.g. the benchmark). */
export function createPgliteClient(options: { dataDir?: string } = {}): SqlClient {
  if (options.dataDir !== undefined) mkdirSync(options.dataDir, { recursive: true });
  const db = options.dataDir !== undefined ? new PGlite(options.dataDir) : new PGlite();
  return {
    query: (text, params) => db.query(text, params),
    transaction: (fn) => db.transaction((tx) => fn({ query: (text, params) => tx.query(text, params) })),
    close: async () => {
      if (!db.closed) await db.close();
    },
  };
}
