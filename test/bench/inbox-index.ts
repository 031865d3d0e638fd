/**
 * The inbox query at 100,000 open gates (and 100,000 closed), with and
 * without the partial indexes on open gates (schema change 6: their opening order, by owner, by role):
 * the median of 15 runs of the first page and of a page deep in the list, as
 * the SQL store sends them. PostgreSQL at GATEFLOW_TEST_DATABASE_URL (a schema
 * of its own, dropped after), and in-memory PGlite.
 *
 *   GATEFLOW_TEST_DATABASE_URL=postgres://... npx tsx test/bench/inbox-index.ts
 */
import { createPgliteStore } from '../../src/store/pglite.js';
import { createPostgresStore } from '../../src/store/postgres.js';
import type { SqlDatabase, Store } from '../../src/store/types.js';
import { createTestSchema, hasPostgres } from '../helpers/postgres.js';

const OPEN = 100_000;
const RUNS = 15;

async function measure(name: string, store: Store): Promise<void> {
  const sql = store.sql as SqlDatabase;
  await sql.query(
    `INSERT INTO gateflow_inputs (gate_id, session_id, workflow_id, owner, state, name, spec, addressed_to, status, opened_at)
     SELECT 'in_' || i, 's_' || (i / 4), 'wf', CASE WHEN i % 3 = 0 THEN NULL ELSE 'owner' || (i % 50) END, 'waiting', 'f',
            '{"name":"f","type":"string"}', CASE WHEN i % 5 = 0 THEN 'manager' END,
            CASE WHEN i % 2 = 0 THEN 'open' ELSE 'answered' END, now()
       FROM generate_series(1, $1) AS i`,
    [OPEN * 2],
  );
  await sql.query('ANALYZE gateflow_inputs');
  const { rows: deep } = await sql.query<{ n: string }>(`SELECT n FROM gateflow_inputs WHERE status = 'open' ORDER BY n OFFSET ${OPEN - 1000} LIMIT 1`);
  const pages = {
    'first page, anonymous': { after: 0, owner: null as string | null },
    'first page, owner7 (1 gate in 50)': { after: 0, owner: 'owner7' },
    'page near the end, anonymous': { after: Number(deep[0]!.n), owner: null },
  };
  const time = async () => {
    const results: Record<string, number> = {};
    for (const [label, { after, owner }] of Object.entries(pages)) {
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        await store.listInputs({ visibleTo: { owner, roles: [] }, after, limit: 101 });
        times.push(performance.now() - started);
      }
      results[label] = times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
    }
    return results;
  };
  const withIndex = await time();
  for (const index of ['gateflow_inputs_open_order', 'gateflow_inputs_open_owner', 'gateflow_inputs_open_role']) await sql.query(`DROP INDEX ${index}`);
  const without = await time();
  console.log(`${name}: ${OPEN} open gates, ${OPEN} closed; median of ${RUNS} runs, page of 100`);
  for (const label of Object.keys(pages))
    console.log(`  ${label.padEnd(36)} with the index ${withIndex[label]!.toFixed(1).padStart(7)} ms   without ${without[label]!.toFixed(1).padStart(7)} ms`);
}

if (hasPostgres) {
  const schema = await createTestSchema('gf_inbox_bench');
  const store = await createPostgresStore({ connectionString: schema.url });
  try {
    await measure('PostgreSQL', store);
  } finally {
    await store.close();
    await schema.drop();
  }
}
const pglite = await createPgliteStore();
try {
  await measure('PGlite', pglite);
} finally {
  await pglite.close();
}
