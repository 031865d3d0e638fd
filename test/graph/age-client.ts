/**
 * PGlite with Apache AGE as a SqlClient, for the graph suites. Opening it
 * takes seconds (the AGE bundle): one per file, shared by its cases.
 */
import { PGlite } from '@electric-sql/pglite';
import { ensureGraphSupport } from '../../src/graph/index.js';
import { graphPgliteOptions } from '../../src/graph/pglite.js';
import type { SqlClient } from '../../src/store/sql/sql-store.js';
import { templateTarball } from '../helpers/pglite-template.js';

export function pgliteClient(db: PGlite): SqlClient {
  return {
    query: (text, params) => db.query(text, params),
    transaction: (fn) => db.transaction((tx) => fn({ query: (text, params) => tx.query(text, params) })),
    close: async () => {
      if (!db.closed) await db.close();
    },
  };
}

/** An in-memory PGlite with AGE enabled, loaded from the run's graph template. */
export async function openAgeClient(): Promise<SqlClient> {
  const client = pgliteClient(new PGlite({ ...graphPgliteOptions(), loadDataDir: templateTarball('graph') }));
  await ensureGraphSupport(client);
  return client;
}
