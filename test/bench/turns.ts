/**
 * `npm run bench`: gateflow beside LangGraph.js in one run. Per store
 * (memory, PGlite, PostgreSQL) the latency of one turn of a five-question
 * intake through the runtime with the offline matcher (p50, p95), the CPU one
 * conversation costs this process, database round trips and commits per step
 * (the start or a turn; LangGraph.js's counted on its pool too), turns per
 * second with 50 sessions driven at once, and the rows and bytes a completed
 * conversation leaves in each table; the same intake as a LangGraph.js
 * StateGraph with MemorySaver and PostgresSaver (test/bench/langgraph-anchor.ts),
 * and the ratios; on PostgreSQL also one durable commit on its own (the floor
 * of a turn that writes once). Then what a correction at the summary costs beside a gate turn.
 *
 * The machine may be loaded: the two sides run in alternating rounds, so that
 * the ratios compare like with like; absolute figures move with the load.
 *
 * PostgreSQL is measured when GATEFLOW_BENCH_DATABASE_URL (or
 * GATEFLOW_TEST_DATABASE_URL) names a server; each side's tables go in a fresh schema.
 * BENCH_SESSIONS sets the conversations per side (default 300), BENCH_ROUNDS the rounds (default 5).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
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
import { LANGGRAPH_TABLES, memoryAnchor, postgresAnchor, type Anchor, type Question, type Sent } from './langgraph-anchor.js';

const flowText = readFileSync(new URL('../../machines/flows/patient-intake.json', import.meta.url), 'utf8');
const flow = parseFlowText(flowText, 'patient-intake.json');
/** A whole intake: five gates (buttons and free text the matcher reads), then confirm. */
const INTAKE: Turn[] = [
  { button: 'Yes' },
  { text: 'no, always covered' },
  { button: 'Follow-up' },
  { text: 'an adult' },
  { button: 'Email' },
  { button: 'confirm' },
];
/** The same, with a correction in words at the summary before confirming. */
const CORRECTED: Turn[] = [...INTAKE.slice(0, 5), { text: 'change the preferred contact to phone' }, { button: 'confirm' }];
const CORRECTION_AT = 5;
const TEXT_TURNS = [1, 3];
const QUESTIONS: Question[] = (() => {
  const doc = JSON.parse(flowText) as { gate_order: string[]; gates: Record<string, { question: string; expected_categories: string[] }> };
  return doc.gate_order.map((key) => ({ key, question: doc.gates[key]!.question, categories: doc.gates[key]!.expected_categories }));
})();

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 300);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const CONCURRENT_SESSIONS = 50;
const url = process.env.GATEFLOW_BENCH_DATABASE_URL?.trim() || process.env.GATEFLOW_TEST_DATABASE_URL?.trim();

/** Rows and bytes (as stored: pg_column_size of each row) per table. */
type Footprint = { table: string; rows: number; bytes: number }[];

/** One side of the comparison: conversations it runs, and what one leaves stored. */
interface Subject {
  name: string;
  /** Runs one whole intake; pushes each turn's milliseconds; returns its id. */
  conversation(samples?: number[]): Promise<string>;
  /** Statements sent to the database so far, and the commits among them (null: not counted). */
  queries(): Sent | null;
  footprint(id: string): Promise<Footprint | null>;
  close(): Promise<void>;
}

/** A SQL client that counts its queries (round trips: each is one statement) and commits (a write on its own, or a transaction). */
function counting(client: SqlClient): { client: SqlClient; queries: () => Sent } {
  const sent: Sent = { roundTrips: 0, commits: 0 };
  return {
    client: {
      query: (text, params) => {
        sent.roundTrips++;
        if (!/^\s*SELECT\b/i.test(text)) sent.commits++;
        return client.query(text, params);
      },
      transaction: (fn) => {
        sent.roundTrips += 2;
        sent.commits++;
        return client.transaction(fn);
      },
      close: () => client.close(),
    },
    queries: () => ({ ...sent }),
  };
}

async function sumRows(query: SqlClient['query'], tables: Record<string, string>, id: string): Promise<Footprint> {
  const footprint: Footprint = [];
  for (const [table, column] of Object.entries(tables)) {
    const { rows } = await query<{ rows: string | number; bytes: string | number | null }>(
      `SELECT count(*) AS rows, sum(pg_column_size(t.*)) AS bytes FROM ${table} t WHERE ${column} = $1`,
      [id],
    );
    footprint.push({ table, rows: Number(rows[0]!.rows), bytes: Number(rows[0]!.bytes ?? 0) });
  }
  return footprint;
}

const GATEFLOW_TABLES = { gateflow_sessions: 'id', gateflow_journal: 'session_id', gateflow_events: 'session_id', gateflow_inputs: 'session_id' };

async function intake(runtime: Runtime, turns: readonly Turn[], samples?: number[], at?: number): Promise<string> {
  const { sessionId } = await runtime.start(flow.id);
  for (const [i, turn] of turns.entries()) {
    const t0 = performance.now();
    await runtime.turn(sessionId, turn);
    if (at === undefined || at === i) samples?.push(performance.now() - t0);
  }
  return sessionId;
}

function gateflow(name: string, store: Store, queries: () => Sent | null, cleanup: () => Promise<void>): Subject & { runtime: Runtime; store: Store } {
  const runtime = createFlowRuntime({ flows: [flow], store });
  const sql = store.sql;
  return {
    name,
    runtime,
    store,
    conversation: (samples) => intake(runtime, INTAKE, samples),
    queries,
    footprint: async (id) => {
      if (!sql) return null;
      return sumRows((t, p) => sql.query(t, p), GATEFLOW_TABLES, id);
    },
    close: async () => {
      runtime.close();
      await store.close();
      await cleanup();
    },
  };
}

async function gateflowMemory() {
  return gateflow('gateflow memory', createMemoryStore(), () => null, async () => {});
}

async function gateflowPglite() {
  const dir = mkdtempSync(join(tmpdir(), 'gateflow-bench-'));
  const { client, queries } = counting(createPgliteClient({ dataDir: dir }));
  await upgradeSchema(client);
  return gateflow('gateflow pglite', createSqlStore('pglite', client), queries, async () => rmSync(dir, { recursive: true, force: true }));
}

async function freshSchema(url: string, schema: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema}`);
  return {
    admin,
    url: withSchema.toString(),
    drop: async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

async function gateflowPostgres(url: string) {
  const db = await freshSchema(url, `gf_bench_${process.pid}`);
  const { client, queries } = counting(createPostgresClient({ connectionString: db.url, max: 20 }));
  await upgradeSchema(client);
  return gateflow('gateflow postgres', createSqlStore('postgres', client), queries, db.drop);
}

let threads = 0;
function langgraph(name: string, anchor: Anchor & { sent?: Sent }, footprint: Subject['footprint'], cleanup: () => Promise<void>): Subject {
  return {
    name,
    conversation: async (samples) => {
      const id = `thread-${process.pid}-${++threads}`;
      await anchor.start(id);
      for (const turn of INTAKE) {
        const t0 = performance.now();
        await anchor.turn(id, turn);
        samples?.push(performance.now() - t0);
      }
      return id;
    },
    queries: () => (anchor.sent ? { ...anchor.sent } : null),
    footprint,
    close: async () => {
      await anchor.close();
      await cleanup();
    },
  };
}

async function langgraphMemory(): Promise<Subject> {
  return langgraph('LangGraph.js MemorySaver', memoryAnchor(QUESTIONS), async () => null, async () => {});
}

async function langgraphPostgres(url: string): Promise<Subject> {
  const schema = `lg_bench_${process.pid}`;
  const db = await freshSchema(url, schema);
  const anchor = await postgresAnchor(QUESTIONS, url, schema);
  const footprint = (id: string) =>
    sumRows(<Row,>(t: string, p?: unknown[]) => db.admin.query(t, p) as unknown as Promise<{ rows: Row[] }>, Object.fromEntries(LANGGRAPH_TABLES.map((t) => [`${schema}.${t}`, 'thread_id'])), id).then((rows) =>
      rows.map((r) => ({ ...r, table: r.table.slice(schema.length + 1) })),
    );
  return langgraph('LangGraph.js PostgresSaver', anchor, footprint, db.drop);
}

/**
 * The floor of a durable turn on this server: one INSERT committed on its own
 * (a WAL flush, as every commit with synchronous_commit on), as many per
 * "conversation" as an intake has steps. A turn that writes once can be no
 * faster than this; each further commit adds about as much again.
 */
async function durableCommit(url: string): Promise<Subject> {
  const db = await freshSchema(url, `commit_bench_${process.pid}`);
  const { client, queries } = counting(createPostgresClient({ connectionString: db.url, max: 20 }));
  await client.query('CREATE TABLE bench_commits (id bigserial PRIMARY KEY, body text NOT NULL)');
  const body = 'x'.repeat(400);
  return {
    name: 'one durable commit (INSERT)',
    conversation: async (samples) => {
      await client.query('INSERT INTO bench_commits (body) VALUES ($1)', [body]);
      for (let i = 0; i < INTAKE.length; i++) {
        const t0 = performance.now();
        await client.query('INSERT INTO bench_commits (body) VALUES ($1)', [body]);
        samples?.push(performance.now() - t0);
      }
      return '';
    },
    queries,
    footprint: async () => null,
    close: async () => {
      await client.close();
      await db.drop();
    },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface Measured {
  name: string;
  p50: number;
  p95: number;
  /** This process's CPU (user + system) per conversation, ms. */
  cpu: number;
  queriesPerTurn: number | null;
  commitsPerTurn: number | null;
  footprint: Footprint | null;
}

/** Runs the subjects in alternating rounds (warm-up first), SESSIONS conversations each. */
async function compare(subjects: Subject[]): Promise<Measured[]> {
  for (const s of subjects) for (let i = 0; i < 30; i++) await s.conversation(); // warm-up: JIT, caches, connections
  const samples = subjects.map(() => [] as number[]);
  const cpu = subjects.map(() => 0);
  const queries = subjects.map(() => 0);
  const commits = subjects.map(() => 0);
  const last = subjects.map(() => '');
  const perRound = Math.ceil(SESSIONS / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, s] of subjects.entries()) {
      // The other side's garbage is collected before this batch, not charged to it (with --expose-gc).
      (globalThis as { gc?: () => void }).gc?.();
      const q0 = s.queries();
      const c0 = cpuMs();
      for (let n = 0; n < perRound; n++) last[i] = await s.conversation(samples[i]);
      cpu[i]! += cpuMs() - c0;
      // Minus the start of each conversation (what LangGraph.js sends to start one is counted on its side too).
      if (q0 !== null) {
        const q1 = s.queries()!;
        queries[i]! += q1.roundTrips - q0.roundTrips;
        commits[i]! += q1.commits - q0.commits;
      }
    }
  }
  const conversations = perRound * ROUNDS;
  return Promise.all(
    subjects.map(async (s, i) => {
      const sorted = samples[i]!.sort((a, b) => a - b);
      return {
        name: s.name,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        cpu: cpu[i]! / conversations,
        // Per step: the start or a turn (an intake has INTAKE.length + 1).
        queriesPerTurn: s.queries() === null ? null : queries[i]! / conversations / (INTAKE.length + 1),
        commitsPerTurn: s.queries() === null ? null : commits[i]! / conversations / (INTAKE.length + 1),
        footprint: await s.footprint(last[i]!),
      };
    }),
  );
}

async function throughput(runtime: Runtime): Promise<number> {
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENT_SESSIONS }, () => intake(runtime, INTAKE)));
  return (CONCURRENT_SESSIONS * INTAKE.length) / ((performance.now() - t0) / 1000);
}

/** The JSON a completed conversation's session and journal hold (the figure earlier notes quote). */
async function jsonBytes(store: Store, sessionId: string) {
  const loaded = await store.load(sessionId);
  const history = await store.history(sessionId);
  const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
  return {
    snapshot: size(loaded!.session.snapshot),
    replies: history.reduce((n, e) => n + size(e.reply), 0),
    traces: history.reduce((n, e) => n + (e.trace.length ? size(e.trace) : 0), 0),
  };
}

/** A correction at the summary beside a free-text gate turn, in one store: p50 of each. */
async function corrections(subject: Awaited<ReturnType<typeof gateflowMemory>>) {
  const gate: number[] = [];
  const correction: number[] = [];
  for (let i = 0; i < 30; i++) await intake(subject.runtime, CORRECTED);
  const check = await intake(subject.runtime, CORRECTED);
  const answers = (await subject.store.history(check)).at(-2)!.reply as { answers?: Record<string, { value: unknown }> };
  if (answers.answers?.['5_preferred_contact']?.value !== 'Phone') throw new Error('bench: the correction at the summary was not applied');
  for (let round = 0; round < ROUNDS; round++) {
    for (let n = 0; n < Math.ceil(SESSIONS / ROUNDS); n++) {
      const turns: number[] = [];
      await intake(subject.runtime, CORRECTED, turns);
      for (const t of TEXT_TURNS) gate.push(turns[t]!);
      correction.push(turns[CORRECTION_AT]!);
    }
  }
  const g = percentile(gate.sort((a, b) => a - b), 50);
  const c = percentile(correction.sort((a, b) => a - b), 50);
  return { 'gate text turn p50 ms': g.toFixed(3), 'correction at summary p50 ms': c.toFixed(3), 'correction / gate turn': `${(c / g).toFixed(2)}x` };
}

const ms = (n: number) => n.toFixed(3);
const ratio = (anchor: number, ours: number) => `${(anchor / ours).toFixed(1)}x`;

console.log(
  `gateflow bench: flow ${flow.id}@${flow.version}, ${INTAKE.length} turns per intake (5 gates + confirm), ` +
    `${Math.ceil(SESSIONS / ROUNDS) * ROUNDS} sequential intakes per side in ${ROUNDS} alternating rounds, ` +
    `${CONCURRENT_SESSIONS} concurrent for throughput; offline matcher, no model`,
);

const results: Measured[] = [];
const turnsPerSecond = new Map<string, number>();
const json = new Map<string, Awaited<ReturnType<typeof jsonBytes>>>();
let correctionRow: Record<string, string> | null = null;

async function pair(
  open: () => Promise<Subject & { runtime?: Runtime; store?: Store }>,
  openAnchor: (() => Promise<Subject>) | null,
  openFloor: (() => Promise<Subject>) | null = null,
) {
  const ours = await open();
  const anchor = openAnchor ? await openAnchor() : null;
  const floor = openFloor ? await openFloor() : null;
  try {
    const measured = await compare([ours, ...(anchor ? [anchor] : []), ...(floor ? [floor] : [])]);
    results.push(...measured);
    if (ours.runtime && ours.store) {
      turnsPerSecond.set(ours.name, await throughput(ours.runtime));
      json.set(ours.name, await jsonBytes(ours.store, await ours.conversation()));
    }
  } finally {
    await ours.close();
    await anchor?.close();
    await floor?.close();
  }
}

await pair(gateflowMemory, langgraphMemory);
{
  const subject = await gateflowMemory();
  try {
    correctionRow = await corrections(subject);
  } finally {
    await subject.close();
  }
}
await pair(gateflowPglite, null);
if (url) await pair(() => gateflowPostgres(url), () => langgraphPostgres(url), () => durableCommit(url));

console.log('\nturns (same run; CPU is this process only: a database server\'s own CPU is not counted)');
console.table(
  results.map((r) => ({
    side: r.name,
    'turn p50 ms': ms(r.p50),
    'turn p95 ms': ms(r.p95),
    'CPU ms/conversation': ms(r.cpu),
    'round trips/step': r.queriesPerTurn === null ? '-' : r.queriesPerTurn.toFixed(2),
    'commits/step': r.commitsPerTurn === null ? '-' : r.commitsPerTurn.toFixed(2),
    'turns/s (50 sessions)': turnsPerSecond.has(r.name) ? Math.round(turnsPerSecond.get(r.name)!) : '-',
  })),
);

const find = (name: string) => results.find((r) => r.name === name);
const ratios: Record<string, string>[] = [];
for (const [ours, theirs, goal] of [
  ['gateflow memory', 'LangGraph.js MemorySaver', '15x'],
  ['gateflow postgres', 'LangGraph.js PostgresSaver', '8x'],
] as const) {
  const a = find(ours);
  const b = find(theirs);
  if (a && b) ratios.push({ 'gateflow vs': theirs, 'turn p50: faster by': ratio(b.p50, a.p50), 'CPU/conversation: less by': ratio(b.cpu, a.cpu), goal });
}
console.log('\nratios (LangGraph.js figure / gateflow figure, same run)');
console.table(ratios);
{
  // A durable turn waits for at least one WAL flush: what a turn costs beside one commit on its own, and the best
  // ratio a turn that commits once can reach against the anchor (its p50 over one commit's), same run.
  const commit = find('one durable commit (INSERT)');
  const ours = find('gateflow postgres');
  const theirs = find('LangGraph.js PostgresSaver');
  if (commit && ours && theirs) {
    console.log('\nPostgreSQL beside one durable commit (synchronous_commit as the server sets it, the same for every side)');
    console.table([
      {
        'one commit p50 ms': ms(commit.p50),
        'gateflow turn / one commit': `${(ours.p50 / commit.p50).toFixed(2)}x`,
        'PostgresSaver turn / one commit': `${(theirs.p50 / commit.p50).toFixed(2)}x`,
        'best ratio at one commit per turn': ratio(theirs.p50, commit.p50),
      },
    ]);
  }
}

console.log('\nstored per completed conversation (one intake: start + 6 turns), by table');
const storage: Record<string, string | number>[] = [];
for (const r of results) {
  if (!r.footprint) continue;
  for (const t of r.footprint) storage.push({ side: r.name, table: t.table, rows: t.rows, bytes: t.bytes });
  storage.push({ side: r.name, table: '(total)', rows: r.footprint.reduce((n, t) => n + t.rows, 0), bytes: r.footprint.reduce((n, t) => n + t.bytes, 0) });
}
console.table(storage);
console.log('goal for gateflow: at most 4096 bytes and 9 rows per completed conversation');
console.log('\nJSON a completed gateflow conversation holds (bytes of JSON text)');
console.table([...json].map(([side, j]) => ({ side, snapshot: j.snapshot, replies: j.replies, traces: j.traces })));

console.log('\ncorrection at the summary (gateflow memory; free-text gate turns of the same conversations)');
console.table([correctionRow]);
if (!url) console.log('postgres: skipped (set GATEFLOW_BENCH_DATABASE_URL or GATEFLOW_TEST_DATABASE_URL)');
console.log(`garbage collected between batches: ${typeof (globalThis as { gc?: unknown }).gc === 'function' ? 'yes' : 'no (run with --expose-gc)'}`);
console.log(`node ${process.version}, ${cpus().length} cores, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
