import { mkdirSync } from 'node:fs';
import type { Extensions } from '@electric-sql/pglite';
import { importOptional } from '../error/optional-dependency.js';
import { acquireDirectoryLock, type DirectoryLock } from './dir-lock.js';
import { createSqlStore, upgradeSchema, type SqlClient } from './sql/sql-store.js';
import type { Store } from './types.js';

export { DirectoryLockedError, type LockHolder } from './dir-lock.js';

export { DEFAULT_PGLITE_DIR } from './pglite-dir.js';

// An optional peer dependency: importing this module is using it, and says what to install when it is missing.
const { PGlite } = await importOptional('@electric-sql/pglite', 'the PGlite store (gateflow/pglite)', () => import('@electric-sql/pglite'));

/** Where a PGlite store lives, and what PGlite loads with it. */
export interface PgliteStoreOptions {
  /** A directory (created on first use); in memory when omitted. */
  dataDir?: string;
  /**
   * PGlite extensions to load, e.g. Apache AGE for the task agent's graph
   * (`graphPgliteOptions().extensions` from gateflow's graph module). Each
   * adds to the time the store takes to open.
   */
  extensions?: Extensions;
  /**
   * Start from a dumped data directory (PGlite's `dumpDataDir()`), e.g. an
   * initialised template: skips initdb, which takes seconds. Only for a store
   * in memory or a new, empty `dataDir`.
   */
  loadDataDir?: Blob;
}

/**
 * The embedded default: PostgreSQL compiled to WASM, in a directory (created on
 * first use), or in memory when `dataDir` is omitted. One process at a time: a
 * directory held by another live process throws {@link DirectoryLockedError}.
 */
export async function createPgliteStore(options: PgliteStoreOptions = {}): Promise<Store> {
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
export function createPgliteClient(options: PgliteStoreOptions = {}): SqlClient {
  let lock: DirectoryLock | undefined;
  let db: InstanceType<typeof PGlite>;
  if (options.dataDir !== undefined) {
    mkdirSync(options.dataDir, { recursive: true });
    lock = acquireDirectoryLock(options.dataDir);
  }
  try {
    const opened = {
      ...(options.extensions && { extensions: options.extensions }),
      ...(options.loadDataDir && { loadDataDir: options.loadDataDir }),
    };
    db = options.dataDir !== undefined ? new PGlite(options.dataDir, opened) : new PGlite(opened);
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
