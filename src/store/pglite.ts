import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { acquireDirectoryLock, type DirectoryLock } from './dir-lock.js';
import { createSqlStore, upgradeSchema, type SqlClient } from './sql/sql-store.js';
import type { Store } from './types.js';

export { DirectoryLockedError, type LockHolder } from './dir-lock.js';

export const DEFAULT_PGLITE_DIR = '.gateflow/db';

/**
 * The embedded default: PostgreSQL compiled to WASM, in a directory (created on
 * first use), or in memory when `dataDir` is omitted. One process at a time: a
 * directory held by another live process throws {@link DirectoryLockedError}.
 */
export async function createPgliteStore(options: { dataDir?: string } = {}): Promise<Store> {
  const client = createPgliteClient(options);
  try {
    await upgradeSchema(client);
  } catch (error) {
    await client.close().catch(() => undefined); // releases the directory
    throw error;
  }
  return createSqlStore('pglite', client);
}

/** The SQL client a PGlite store runs on (exported for instrumented stores, e.g. the benchmark). Locks `dataDir` until closed. */
export function createPgliteClient(options: { dataDir?: string } = {}): SqlClient {
  let lock: DirectoryLock | undefined;
  let db: PGlite;
  if (options.dataDir !== undefined) {
    mkdirSync(options.dataDir, { recursive: true });
    lock = acquireDirectoryLock(options.dataDir);
  }
  try {
    db = options.dataDir !== undefined ? new PGlite(options.dataDir) : new PGlite();
  } catch (error) {
    lock?.release();
    throw error;
  }
  // Failed to open (a damaged directory): PGlite is not using it.
  db.waitReady.catch(() => lock?.release());
  return {
    query: (text, params) => db.query(text, params),
    transaction: (fn) => db.transaction((tx) => fn({ query: (text, params) => tx.query(text, params) })),
    close: async () => {
      try {
        if (!db.closed) await db.close();
      } finally {
        lock?.release();
      }
    },
  };
}
