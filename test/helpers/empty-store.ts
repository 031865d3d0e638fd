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
  await store.sql.query(`TRUNCATE ${rows.map((r) => r.tablename).join(', ')} RESTART IDENTITY CASCADE`);
}
