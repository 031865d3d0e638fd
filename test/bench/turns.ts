/**
 * `npm run bench`: per store (memory, PGlite, PostgreSQL), the latency of one
 * turn through the runtime with the offline matcher (p50, p95), database round
 * trips per turn, the bytes a completed five-gate conversation persists, and
 * turns per second with 50 sessions driven at once.
 *
 * PostgreSQL is measured when GATEFLOW_BENCH_DATABASE_URL (or
 * GATEFLOW_TEST_DATABASE_URL) names a server; its tables go in a fresh schema.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { parseFlowText } from '../../src/flow/parse.js';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import type { Turn } from '../../src/workflow/turn.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { createPgliteClient } from '../../src/store/pglite.js';
import { createPostgresClient } from '../../src/store/postgres.js';
import { createSqlStore, upgradeSchema, type SqlClient } from '../../src/store/sql/sql-store.js';
import type { Store } from '../../src/store/types.js';

const flow = parseFlowText(
  readFileSync(new URL('../../machines/flows/patient-intake.json', import.meta.url), 'utf8'),
  'patient-intake.json',
);
/** A whole intake: five gates (buttons and free text the matcher reads), then confirm. */
const INTAKE: Turn[] = [
  { button: 'Yes' },
  { text: 'no, always covered' },
  { button: 'Follow-up' },
  { text: 'an adult' },
  { button: 'Email' },
  { button: 'confirm' },
];
const LATENCY_SESSIONS = Number(process.env.BENCH_SESSIONS ?? 300);
const CONCURRENT_SESSIONS = 50;

interface Counted {
  store: Store;
  queries: () => number;
  cleanup: () => Promise<void>;
}

/** A SQL client that counts its queries (round trips: each is one statement). */
function counting(client: SqlClient): { client: SqlClient; queries: () => number } {
  let n = 0;
  return {
    client: {
      query: (text, params) => {
        n++;
        return client.query(text, params);
      },
      transaction: (fn) => client.transaction(fn),
      close: () => client.close(),
    },
    queries: () => n,
  };
}

async function memory(): Promise<Counted> {
  return { store: createMemoryStore(), queries: () => 0, cleanup: async () => {} };
}

async function pglite(): Promise<Counted> {
  const dir = mkdtempSync(join(tmpdir(), 'gateflow-bench-'));
  const { client, queries } = counting(createPgliteClient({ dataDir: dir }));
  await upgradeSchema(client);
  return { store: createSqlStore('pglite', client), queries, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

async function postgres(url: string): Promise<Counted> {
  const schema = `gf_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema}`);
  const { client, queries } = counting(createPostgresClient({ connectionString: withSchema.toString(), max: 20 }));
  await upgradeSchema(client);
  return {
    store: createSqlStore('postgres', client),
    queries,
    cleanup: async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function completeIntake(runtime: Runtime, sampler?: number[]): Promise<string> {
  const { sessionId } = await runtime.start(flow.id);
  for (const turn of INTAKE) {
    const t0 = performance.now();
    await runtime.turn(sessionId, turn);
    sampler?.push(performance.now() - t0);
  }
  return sessionId;
}

async function measure(name: string, open: () => Promise<Counted>) {
  const { store, queries, cleanup } = await open();
  const runtime = createFlowRuntime({ flows: [flow], store });
  try {
    for (let i = 0; i < 30; i++) await completeIntake(runtime); // warm-up: JIT, caches, connections

    const samples: number[] = [];
    const before = queries();
    let lastSession = '';
    for (let i = 0; i < LATENCY_SESSIONS; i++) lastSession = await completeIntake(runtime, samples);
    const perTurn = (queries() - before - LATENCY_SESSIONS) / samples.length; // minus one create per session
    samples.sort((a, b) => a - b);

    const loaded = await store.load(lastSession);
    const history = await store.history(lastSession);
    const snapshotBytes = Buffer.byteLength(JSON.stringify(loaded!.session.snapshot));
    const journalBytes = history.reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e.reply)) + Buffer.byteLength(JSON.stringify(e.turn)), 0);

    const t0 = performance.now();
    await Promise.all(Array.from({ length: CONCURRENT_SESSIONS }, () => completeIntake(runtime)));
    const seconds = (performance.now() - t0) / 1000;
    const turnsPerSecond = (CONCURRENT_SESSIONS * INTAKE.length) / seconds;

    return {
      store: name,
      'p50 ms': samples.length ? percentile(samples, 50).toFixed(3) : '-',
      'p95 ms': samples.length ? percentile(samples, 95).toFixed(3) : '-',
      'queries/turn': name === 'memory' ? '-' : perTurn.toFixed(2),
      'snapshot B': snapshotBytes,
      'journal B': journalBytes,
      rows: name === 'memory' ? '-' : 1 + history.length,
      'turns/s (50 sessions)': Math.round(turnsPerSecond),
    };
  } finally {
    await store.close();
    await cleanup();
  }
}

const url = process.env.GATEFLOW_BENCH_DATABASE_URL?.trim() || process.env.GATEFLOW_TEST_DATABASE_URL?.trim();
console.log(
  `gateflow bench: flow ${flow.id}@${flow.version}, ${INTAKE.length} turns per intake (5 gates + confirm), ` +
    `${LATENCY_SESSIONS} sequential intakes for latency, ${CONCURRENT_SESSIONS} concurrent for throughput; offline matcher, no model`,
);
const rows = [await measure('memory', memory), await measure('pglite', pglite)];
if (url) rows.push(await measure('postgres', () => postgres(url)));
console.table(rows);
if (!url) console.log('postgres: skipped (set GATEFLOW_BENCH_DATABASE_URL or GATEFLOW_TEST_DATABASE_URL)');
console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} cores`);
