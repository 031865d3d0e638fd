/**
 * Empties a SQL store's gateflow tables (the migrations stay, identities start
 * again at 1): the store is then as a new one, so a suite can share one PGlite
 * store or PostgreSQL schema between its tests instead of loading the template
 * or creating and migrating a schema for each.
 */
import type { Store } from '../../src/store/types.js';

export async function emptySqlStore(store: Store): Promise<void> {
  if (!store.sql) throw new Error(`the ${store.kind} store has no SQL database to empty`);
  const { rows } = await store.sql.query<{ tablename: string }>(
    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'gateflow\\_%' AND tablename <> 'gateflow_migrations'",
  );
  // An empty list would mean another schema than the store's: nothing emptied, every later test wrong.
  if (!rows.some((r) => r.tablename === 'gateflow_sessions')) throw new Error(`no gateflow tables in the current schema: ${JSON.stringify(rows)}`);
  const truncate = `TRUNCATE ${rows.map((r) => r.tablename).join(', ')} RESTART IDENTITY CASCADE`;
  // TRUNCATE makes new files for every table: on a machine busy with I/O it once outlasted the
  // store's 5 s statement timeout (CI, 2026-11-28). A cancelled TRUNCATE changes nothing, so it is
  // tried again; a lock some earlier test leaked would fail all three tries, and the test with it.
  for (let attempt = 1; ; attempt++) {
    try {
      await store.sql.query(truncate);
      return;
    } catch (error) {
      if (attempt === 3 || !/statement timeout/i.test(String((error as Error).message))) throw error;
    }
  }
}
