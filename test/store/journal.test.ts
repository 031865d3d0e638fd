/**
 * The SQL journal, compact (schema change 7): what a completed intake leaves
 * stored, replies and traces read back exactly as written (through the
 * runtime and GET /api/sessions/{id}, as from rows written before the change),
 * pages read from their keyframe, and each step announced from its journal row
 * with no event row of its own.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/index.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { createPostgresStore } from '../../src/store/postgres.js';
import { KEYFRAME_EVERY } from '../../src/store/sql/journal-codec.js';
import { createSqlStore, upgradeSchema, type SqlClient } from '../../src/store/sql/sql-store.js';
import type { Store } from '../../src/store/types.js';
import type { Turn } from '../../src/workflow/turn.js';
import { serveOnLoopback } from '../helpers/http.js';
// Patient intake that asks again (not gives up) after many unclear answers: long histories.
import { patientFlow as flow } from '../helpers/patient-intake.js';
import { createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';
import { templateTarball } from '../helpers/pglite-template.js';

const INTAKE: Turn[] = [
  { button: 'Yes' },
  { text: 'no, always covered' },
  { button: 'Follow-up' },
  { text: 'an adult' },
  { button: 'Email' },
  { button: 'confirm' },
];
const TABLES = { gateflow_sessions: 'id', gateflow_journal: 'session_id', gateflow_events: 'session_id', gateflow_inputs: 'session_id' };

async function intake(runtime: Runtime, turns: readonly Turn[] = INTAKE): Promise<string> {
  const { sessionId } = await runtime.start(flow.id);
  for (const turn of turns) await runtime.turn(sessionId, turn);
  return sessionId;
}

/** Rows and bytes (pg_column_size of each row, as stored) a session holds, by table. */
async function footprint(query: SqlClient['query'], sessionId: string) {
  const out: Record<string, { rows: number; bytes: number }> = {};
  for (const [table, column] of Object.entries(TABLES)) {
    const { rows } = await query<{ rows: number; bytes: number | null }>(
      `SELECT count(*)::int AS rows, sum(pg_column_size(t.*))::int AS bytes FROM ${table} t WHERE ${column} = $1`,
      [sessionId],
    );
    out[table] = { rows: rows[0]!.rows, bytes: rows[0]!.bytes ?? 0 };
  }
  return out;
}

/** A session's history as the runtime gives it, with its session id written as S (ids differ between stores). */
async function historyOf(runtime: Runtime, sessionId: string, page: { after?: number; limit?: number } = {}) {
  const view = await runtime.session(sessionId, undefined, { ...page, trace: true, limit: page.limit ?? 200 });
  return JSON.parse(JSON.stringify(view).replaceAll(sessionId, 'S')) as typeof view;
}

describe('the journal on PGlite (in memory)', () => {
  let db: PGlite;
  let store: Store;
  let runtime: Runtime;
  beforeAll(async () => {
    // The migrated template: upgradeSchema below finds nothing to apply.
    db = new PGlite({ loadDataDir: templateTarball('plain') });
    const client: SqlClient = {
      query: (text, params) => db.query(text, params),
      transaction: (fn) => db.transaction((tx) => fn({ query: (text, params) => tx.query(text, params) })),
      close: () => db.close(),
    };
    await upgradeSchema(client);
    store = createSqlStore('pglite', client);
    runtime = createFlowRuntime({ flows: [flow], store });
  });
  afterAll(async () => {
    runtime?.close();
    await store?.close();
  });

  it('a completed five-question intake stores at most 4 KB in at most 9 rows', async () => {
    const sessionId = await intake(runtime);
    const stored = await footprint((text, params) => db.query(text, params), sessionId);
    const rows = Object.values(stored).reduce((n, t) => n + t.rows, 0);
    const bytes = Object.values(stored).reduce((n, t) => n + t.bytes, 0);
    // One session row, the opening entry and six turns, and the session.finished announcement.
    expect(stored).toMatchObject({ gateflow_sessions: { rows: 1 }, gateflow_journal: { rows: 7 }, gateflow_events: { rows: 1 }, gateflow_inputs: { rows: 0 } });
    expect(rows).toBeLessThanOrEqual(9);
    expect(bytes).toBeLessThanOrEqual(4096);
  });

  it('reads the history back as the memory store gives it: replies, turns and traces, key for key', async () => {
    const memory = createFlowRuntime({ flows: [flow], store: createMemoryStore() });
    const turns: Turn[] = [...INTAKE.slice(0, 5), { text: 'change the preferred contact to phone' }, { button: 'confirm' }];
    const ours = await historyOf(runtime, await intake(runtime, turns));
    const theirs = await historyOf(memory, await intake(memory, turns));
    expect(ours.history).toHaveLength(8);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
    memory.close();
  });
});

describe.skipIf(!hasPostgres)('the journal on PostgreSQL', () => {
  let schema: TestSchema;
  let pool: pg.Pool;
  let store: Store;
  let runtime: Runtime;
  beforeAll(async () => {
    schema = await createTestSchema('gf_journal');
    store = await createPostgresStore({ connectionString: schema.url });
    runtime = createFlowRuntime({ flows: [flow], store });
    pool = new pg.Pool({ connectionString: schema.url, max: 2 });
  });
  afterAll(async () => {
    runtime?.close();
    await store?.close();
    await pool?.end();
    await schema?.drop();
  });

  it('a completed five-question intake stores at most 4 KB in at most 9 rows', async () => {
    const sessionId = await intake(runtime);
    const stored = await footprint(<Row,>(text: string, params?: unknown[]) => pool.query(text, params) as unknown as Promise<{ rows: Row[] }>, sessionId);
    expect(Object.values(stored).reduce((n, t) => n + t.rows, 0)).toBeLessThanOrEqual(9);
    expect(Object.values(stored).reduce((n, t) => n + t.bytes, 0)).toBeLessThanOrEqual(4096);
  });

  it('announces each step from its journal row, after the step\'s own events, with no event row', async () => {
    const before = await store.lastEventId();
    const sessionId = await intake(runtime);
    const { rows } = await pool.query<{ type: string }>('SELECT type FROM gateflow_events WHERE session_id = $1 ORDER BY id', [sessionId]);
    expect(rows.map((r) => r.type)).toEqual(['session.finished']);
    const events = (await store.readEvents(before, 100)).filter((e) => e.sessionId === sessionId);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ...[2, 3, 4, 5, 6].map((seq) => ['session.stepped', { seq, status: 'active' }]),
      ['session.finished', { status: 'done' }],
      ['session.stepped', { seq: 7, status: 'done' }],
    ]);
    expect(events.every((e) => e.workflowId === flow.id && e.owner === null && e.to === null && e.gateId === null)).toBe(true);
    const ids = events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(await store.lastEventId()).toBe(ids.at(-1));
    // Paging the stream: from any id on, the same events.
    expect((await store.readEvents(ids[3]!, 100)).filter((e) => e.sessionId === sessionId)).toEqual(events.slice(4));
  });

  it('reads any page of a long history from its keyframe, also after another process wrote part of it', async () => {
    const { sessionId } = await runtime.start(flow.id);
    const turns = 3 * KEYFRAME_EVERY + 5;
    for (let i = 0; i < turns; i++) {
      // Another store (another process) takes some turns: it does not know the entry before, so writes a keyframe.
      const other = i === 20 ? await createPostgresStore({ connectionString: schema.url }) : null;
      if (other) {
        const elsewhere = createFlowRuntime({ flows: [flow], store: other });
        await elsewhere.turn(sessionId, { text: `something unclear ${i}` });
        elsewhere.close();
        await other.close();
      } else await runtime.turn(sessionId, { text: `something unclear ${i}` });
    }
    const whole = await store.history(sessionId);
    expect(whole.map((e) => e.seq)).toEqual(Array.from({ length: turns + 1 }, (_, i) => i + 1));
    expect(whole[5]!.turn).toEqual({ text: 'something unclear 4' });
    for (const after of [0, 1, 15, 16, 17, 20, 21, 22, 33, 40, turns]) {
      for (const limit of [1, 7, 50]) expect(await store.history(sessionId, { after, limit })).toEqual(whole.slice(after, after + limit));
    }
  });

  it('reads rows written before the change (reply and trace as JSON) as before, and continues them', async () => {
    const sessionId = await intake(runtime, INTAKE.slice(0, 3));
    const expected = await historyOf(runtime, sessionId);
    // The same entries as the version-6 store wrote them: reply and trace as JSON, no body.
    const old = 'old-' + sessionId.slice(4);
    await pool.query(
      `INSERT INTO gateflow_sessions (id, flow_id, flow_version, snapshot, version, owner, status)
       SELECT $2, flow_id, flow_version, snapshot, version, owner, status FROM gateflow_sessions WHERE id = $1`,
      [sessionId, old],
    );
    for (const e of await store.history(sessionId)) {
      const reply = JSON.parse(JSON.stringify(e.reply).replaceAll(sessionId, old));
      await pool.query('INSERT INTO gateflow_journal (session_id, seq, turn_id, turn, reply, trace) VALUES ($1, $2, $3, $4::json, $5::json, $6::json)', [
        old,
        e.seq,
        e.turnId,
        JSON.stringify(e.turn),
        JSON.stringify(reply),
        e.trace.length ? JSON.stringify(e.trace) : null,
      ]);
    }
    // Another process serves it (its store remembers no entry of this session).
    const other = await createPostgresStore({ connectionString: schema.url });
    const elsewhere = createFlowRuntime({ flows: [flow], store: other });
    try {
      expect(await historyOf(elsewhere, old)).toEqual(expected);
      for (const turn of INTAKE.slice(3)) await elsewhere.turn(old, turn);
      for (const turn of INTAKE.slice(3)) await runtime.turn(sessionId, turn);
      expect(await historyOf(elsewhere, old)).toEqual(await historyOf(runtime, sessionId));
    } finally {
      elsewhere.close();
      await other.close();
    }
  });

  it('GET /api/sessions/{id} answers as for the memory store, page by page', async () => {
    const memory = createFlowRuntime({ flows: [flow], store: createMemoryStore() });
    const servers = [await serveOnLoopback(createApp({ runtime })), await serveOnLoopback(createApp({ runtime: memory }))];
    try {
      const ids = [await intake(runtime), await intake(memory)];
      for (const query of ['', '?after=2&limit=3', '?after=6', '?trace=true', '?after=3&limit=2&trace=true']) {
        const [ours, theirs] = await Promise.all(
          servers.map(async (s, i) => (await (await fetch(`${s.url}/api/sessions/${ids[i]}${query}`)).text()).replaceAll(ids[i]!, 'S')),
        );
        expect(ours, query).toBe(theirs);
        expect(JSON.parse(ours!).history.length, query).toBeGreaterThan(0);
      }
    } finally {
      for (const s of servers) await s.close();
      memory.close();
    }
  });
});
