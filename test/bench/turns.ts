/**
 * `npm run bench`: gateflow beside LangGraph.js in one run. Per store
 * (memory, PGlite, PostgreSQL) the latency of one turn of a five-question
 * intake through the runtime with the offline matcher (p50, p95), the CPU one
 * conversation costs its process, database round trips and commits per step
 * (the start or a turn; LangGraph.js's counted on its pool too), turns per
 * second with 50 sessions driven at once, and the rows and bytes a completed
 * conversation leaves in each table; the same intake as a LangGraph.js
 * StateGraph with MemorySaver and PostgresSaver (test/bench/langgraph-anchor.ts),
 * and the ratios; on PostgreSQL also one durable commit on its own (the floor
 * of a turn that writes once). Then what a correction at the summary costs beside a gate turn.
 *
 * The machine may be loaded: the sides run in alternating rounds, so that the
 * ratios compare like with like; absolute figures move with the load. Each
 * side runs in a process of its own (this file, started with BENCH_SIDE), so
 * that its CPU (process.cpuUsage: its garbage collection and compilation
 * threads too) is its own: in one process, each side's collections would mark
 * the other's heap, and a forced collection between batches shrinks V8's young
 * generation and charges the batch after it. Before measuring, each side runs
 * BENCH_WARMUP conversations (default 3000) unmeasured: V8 compiles hot code
 * in a program's first few thousand calls, which a server pays once, not per
 * conversation. How many a side needs is measured by test/bench/warmup-curve.ts:
 * the LangGraph.js anchor's CPU per conversation is flat after ~750; gateflow's,
 * whose functions run once or twice per conversation (a session's start, the
 * reader), falls until ~2,500 as V8 optimizes them, and is flat after.
 *
 * PostgreSQL is measured when GATEFLOW_BENCH_DATABASE_URL (or
 * GATEFLOW_TEST_DATABASE_URL) names a server; each side's tables go in a fresh schema.
 * BENCH_SESSIONS sets the conversations per side (default 300), BENCH_ROUNDS the rounds (default 5),
 * BENCH_STORES which stores run (default `memory,pglite,postgres`; e.g. `memory` for a quick look).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
const WARMUP = Math.max(0, Number(process.env.BENCH_WARMUP ?? 3000));
const STORES = new Set((process.env.BENCH_STORES ?? 'memory,pglite,postgres').split(',').map((s) => s.trim()));
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

/** What a side reports of one batch of conversations: each turn's ms, its process's CPU, what it sent, the last conversation's id. */
interface Batch {
  samples: number[];
  cpu: number;
  sent: Sent | null;
  last: string;
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
async function corrections(runtime: Runtime, store: Store) {
  const gate: number[] = [];
  const correction: number[] = [];
  for (let i = 0; i < 30; i++) await intake(runtime, CORRECTED);
  const check = await intake(runtime, CORRECTED);
  const answers = (await store.history(check)).at(-2)!.reply as { answers?: Record<string, { value: unknown }> };
  if (answers.answers?.['5_preferred_contact']?.value !== 'Phone') throw new Error('bench: the correction at the summary was not applied');
  for (let round = 0; round < ROUNDS; round++) {
    for (let n = 0; n < Math.ceil(SESSIONS / ROUNDS); n++) {
      const turns: number[] = [];
      await intake(runtime, CORRECTED, turns);
      for (const t of TEXT_TURNS) gate.push(turns[t]!);
      correction.push(turns[CORRECTION_AT]!);
    }
  }
  const g = percentile(gate.sort((a, b) => a - b), 50);
  const c = percentile(correction.sort((a, b) => a - b), 50);
  return { 'gate text turn p50 ms': g.toFixed(3), 'correction at summary p50 ms': c.toFixed(3), 'correction / gate turn': `${(c / g).toFixed(2)}x` };
}

const SIDES: Record<string, () => Promise<Subject & { runtime?: Runtime; store?: Store }>> = {
  'gateflow memory': gateflowMemory,
  'LangGraph.js MemorySaver': langgraphMemory,
  'gateflow pglite': gateflowPglite,
  'gateflow postgres': () => gateflowPostgres(url!),
  'LangGraph.js PostgresSaver': () => langgraphPostgres(url!),
  'one durable commit (INSERT)': () => durableCommit(url!),
};

/** What the parent asks of a side's process. */
type Request = { id: number; op: 'warmup' | 'batch' | 'footprint' | 'throughput' | 'json' | 'corrections' | 'close'; n?: number; sessionId?: string };

/** A side's process: opens the side, then answers the parent's requests one at a time. */
async function side(name: string) {
  const subject = await SIDES[name]!();
  const send = (message: unknown) => new Promise<void>((resolve, reject) => process.send!(message, (error: Error | null) => (error ? reject(error) : resolve())));
  const ops: Record<Request['op'], (r: Request) => Promise<unknown>> = {
    warmup: async (r) => {
      for (let i = 0; i < r.n!; i++) await subject.conversation();
      return null;
    },
    batch: async (r): Promise<Batch> => {
      const samples: number[] = [];
      const q0 = subject.queries();
      const c0 = cpuMs();
      let last = '';
      for (let i = 0; i < r.n!; i++) last = await subject.conversation(samples);
      const cpu = cpuMs() - c0;
      const q1 = subject.queries();
      return { samples, cpu, sent: q0 && q1 ? { roundTrips: q1.roundTrips - q0.roundTrips, commits: q1.commits - q0.commits } : null, last };
    },
    footprint: (r) => subject.footprint(r.sessionId!),
    throughput: async () => (subject.runtime ? throughput(subject.runtime) : null),
    json: async () => (subject.runtime && subject.store ? jsonBytes(subject.store, await subject.conversation()) : null),
    corrections: async () => (subject.runtime && subject.store ? corrections(subject.runtime, subject.store) : null),
    close: async () => {
      closed = true;
      await subject.close();
      return null;
    },
  };
  // The parent gone (it failed, or was stopped): so is this side, with its pools and files.
  let closed = false;
  process.on('disconnect', () => (closed ? undefined : void subject.close().finally(() => process.exit(0))));
  let queue = Promise.resolve();
  process.on('message', (r: Request) => {
    queue = queue.then(async () => {
      try {
        await send({ id: r.id, value: await ops[r.op](r) });
      } catch (error) {
        await send({ id: r.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      }
      if (r.op === 'close') process.disconnect();
    });
  });
  await send({ id: 0, value: 'ready' });
}

/** A side in its own process (this file with BENCH_SIDE), asked over IPC. */
class Side {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private next = 1;
  readonly ready: Promise<unknown>;
  constructor(readonly name: string) {
    // The same node and loader (tsx) as this process.
    this.child = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, BENCH_SIDE: name } });
    this.ready = new Promise((resolve, reject) => this.pending.set(0, { resolve, reject }));
    this.child.on('message', (m: { id: number; value?: unknown; error?: string }) => {
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error !== undefined) waiting?.reject(new Error(`${name}: ${m.error}`));
      else waiting?.resolve(m.value);
    });
    this.child.on('exit', (code) => {
      for (const w of this.pending.values()) w.reject(new Error(`${name}: its process ended (exit code ${code})`));
      this.pending.clear();
    });
  }
  call<T>(op: Request['op'], args: Omit<Request, 'id' | 'op'> = {}): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, op, ...args });
    });
  }
}

interface Measured {
  name: string;
  p50: number;
  p95: number;
  /** The side's process's CPU (user + system, all its threads) per conversation, ms. */
  cpu: number;
  queriesPerTurn: number | null;
  commitsPerTurn: number | null;
  footprint: Footprint | null;
}

/** Runs the sides in alternating rounds (after WARMUP unmeasured conversations each), SESSIONS conversations each. */
async function compare(sides: Side[]): Promise<Measured[]> {
  // Unmeasured, so the sides warm up at once (each is a process of its own).
  await Promise.all(sides.map((s) => s.call('warmup', { n: WARMUP })));
  const samples = sides.map(() => [] as number[]);
  const cpu = sides.map(() => 0);
  const sent = sides.map((): Sent | null => ({ roundTrips: 0, commits: 0 }));
  const last = sides.map(() => '');
  const perRound = Math.ceil(SESSIONS / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, s] of sides.entries()) {
      const batch = await s.call<Batch>('batch', { n: perRound });
      samples[i]!.push(...batch.samples);
      cpu[i]! += batch.cpu;
      last[i] = batch.last;
      const total = sent[i];
      sent[i] = total && batch.sent ? { roundTrips: total.roundTrips + batch.sent.roundTrips, commits: total.commits + batch.sent.commits } : null;
    }
  }
  const conversations = perRound * ROUNDS;
  // Per step: the start or a turn (an intake has INTAKE.length + 1); what LangGraph.js sends to start one is counted on its side too.
  const perStep = (n: number) => n / conversations / (INTAKE.length + 1);
  return Promise.all(
    sides.map(async (s, i) => {
      const sorted = samples[i]!.sort((a, b) => a - b);
      return {
        name: s.name,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        cpu: cpu[i]! / conversations,
        queriesPerTurn: sent[i] ? perStep(sent[i]!.roundTrips) : null,
        commitsPerTurn: sent[i] ? perStep(sent[i]!.commits) : null,
        footprint: await s.call<Footprint | null>('footprint', { sessionId: last[i]! }),
      };
    }),
  );
}

const ms = (n: number) => n.toFixed(3);
const ratio = (anchor: number, ours: number) => `${(anchor / ours).toFixed(1)}x`;

if (process.env.BENCH_SIDE) await side(process.env.BENCH_SIDE);
else await main();

async function main() {
  console.log(
    `gateflow bench: flow ${flow.id}@${flow.version}, ${INTAKE.length} turns per intake (5 gates + confirm), ` +
      `${Math.ceil(SESSIONS / ROUNDS) * ROUNDS} sequential intakes per side in ${ROUNDS} alternating rounds ` +
      `after ${WARMUP} unmeasured, each side in a process of its own, ` +
      `${CONCURRENT_SESSIONS} concurrent for throughput; offline matcher, no model`,
  );

  const results: Measured[] = [];
  const turnsPerSecond = new Map<string, number>();
  const json = new Map<string, Awaited<ReturnType<typeof jsonBytes>>>();
  let correctionRow: Record<string, string> | null = null;

  /** Measures gateflow on one store beside the others named (the anchor, the floor), each in its own process. */
  async function pair(names: string[], withCorrections = false) {
    const sides = names.map((n) => new Side(n));
    try {
      // Opened one after another: a side's start (PGlite's, a schema) is not charged to another.
      for (const s of sides) await s.ready;
      results.push(...(await compare(sides)));
      const ours = sides[0]!;
      turnsPerSecond.set(ours.name, (await ours.call<number | null>('throughput')) ?? NaN);
      const j = await ours.call<Awaited<ReturnType<typeof jsonBytes>> | null>('json');
      if (j) json.set(ours.name, j);
      if (withCorrections) correctionRow = await ours.call('corrections');
    } finally {
      for (const s of sides) await s.call('close').catch(() => undefined);
    }
  }

  if (STORES.has('memory')) await pair(['gateflow memory', 'LangGraph.js MemorySaver'], true);
  if (STORES.has('pglite')) await pair(['gateflow pglite']);
  if (url && STORES.has('postgres')) await pair(['gateflow postgres', 'LangGraph.js PostgresSaver', 'one durable commit (INSERT)']);

  console.log("\nturns (same run; CPU is the side's own process, all its threads: a database server's own CPU is not counted)");
  console.table(
    results.map((r) => ({
      side: r.name,
      'turn p50 ms': ms(r.p50),
      'turn p95 ms': ms(r.p95),
      'CPU ms/conversation': ms(r.cpu),
      'round trips/step': r.queriesPerTurn === null ? '-' : r.queriesPerTurn.toFixed(2),
      'commits/step': r.commitsPerTurn === null ? '-' : r.commitsPerTurn.toFixed(2),
      'turns/s (50 sessions)': Number.isFinite(turnsPerSecond.get(r.name)) ? Math.round(turnsPerSecond.get(r.name)!) : '-',
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

  const storage: Record<string, string | number>[] = [];
  for (const r of results) {
    if (!r.footprint) continue;
    for (const t of r.footprint) storage.push({ side: r.name, table: t.table, rows: t.rows, bytes: t.bytes });
    storage.push({ side: r.name, table: '(total)', rows: r.footprint.reduce((n, t) => n + t.rows, 0), bytes: r.footprint.reduce((n, t) => n + t.bytes, 0) });
  }
  if (storage.length > 0) {
    console.log('\nstored per completed conversation (one intake: start + 6 turns), by table');
    console.table(storage);
    console.log('goal for gateflow: at most 4096 bytes and 9 rows per completed conversation');
  }
  console.log('\nJSON a completed gateflow conversation holds (bytes of JSON text)');
  console.table([...json].map(([side, j]) => ({ side, snapshot: j.snapshot, replies: j.replies, traces: j.traces })));

  if (correctionRow) {
    console.log('\ncorrection at the summary (gateflow memory; free-text gate turns of the same conversations)');
    console.table([correctionRow]);
  }
  if (!url) console.log('postgres: skipped (set GATEFLOW_BENCH_DATABASE_URL or GATEFLOW_TEST_DATABASE_URL)');
  console.log(`node ${process.version}, ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
}
