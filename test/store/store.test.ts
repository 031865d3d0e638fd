/**
 * The store suite: the same cases on the in-memory store, PGlite (in a temp
 * directory) and a real PostgreSQL server (in a schema of its own), then what
 * only the SQL stores promise: recorded migrations, data kept across a
 * re-open, concurrent starts, and StoreUnavailableError when the database is gone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Snapshot } from 'xstate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowVersion } from '../../src/flow/schema.js';
import type { Reply } from '../../src/flow/reply.js';
import type { Turn } from '../../src/workflow/turn.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { createPgliteStore } from '../../src/store/pglite.js';
import { templateDataDir } from '../helpers/pglite-template.js';
import { createPostgresStore } from '../../src/store/postgres.js';
import { SCHEMA_CHANGES } from '../../src/store/sql/schema-changes.js';
import { upgradeSchema, type SqlClient } from '../../src/store/sql/sql-store.js';
import {
  ConflictError,
  StoreUnavailableError,
  type CommittedTurn,
  type NewSession,
  type Store,
} from '../../src/store/types.js';
import { createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';

// ---------------------------------------------------------------------------
// Fixtures

let counter = 0;
const newId = (prefix = 's') => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++counter}`;

/** A reply whose key order is deliberately not alphabetical, with text a database could mangle. */
function replyFor(sessionId: string, n: number, flowVersion: FlowVersion = 1): Reply {
  return {
    sessionId,
    flowId: 'store-flow',
    flowVersion,
    state: { [`gate_${n}`]: 'asking' },
    status: 'active',
    message: `Turn ${n}: "quoted", back\\slash, tab\t, newline\n, é, 日本語, emoji 🩺, \u2028, nul \u0000 end`,
    buttons: [
      { label: 'Zulu', value: 'z' },
      { label: 'Alpha', value: 'a' },
    ],
    buttonContext: 'gate_question',
    answers: {
      zeta_gate: { value: 'Yes', confidence: 0.5, source: 'match', raw: 'yes please' },
      alpha_gate: { value: 'No', confidence: 1, source: 'button', raw: 'No' },
    },
    artifacts: [],
    completion: { isComplete: false, reason: 'awaiting_answer', readyForHandoff: false },
  };
}

/** Something shaped like a persisted machine snapshot, keys in a non-sorted order. */
function snapshotFor(n: number): Snapshot<unknown> {
  return {
    status: 'active',
    value: { [`gate_${n}`]: 'asking' },
    historyValue: {},
    context: { zz: n, answers: { b: { value: 'x' }, a: { value: 'y' } }, pendingText: null, notice: null },
    children: {},
  } as unknown as Snapshot<unknown>;
}

function newSession(overrides: Partial<NewSession> = {}): NewSession {
  const sessionId = overrides.sessionId ?? newId();
  return {
    sessionId,
    flowId: 'store-flow',
    flowVersion: 1,
    snapshot: snapshotFor(0),
    owner: null,
    reply: replyFor(sessionId, 0),
    ...overrides,
  };
}

function committed(sessionId: string, n: number, overrides: Partial<CommittedTurn> = {}): CommittedTurn {
  const turn: Turn = n % 2 === 0 ? { text: `text ${n} ✓`, turnId: `t-${n}` } : { button: `B${n}`, turnId: `t-${n}` };
  return { snapshot: snapshotFor(n), flowVersion: 1, turn, turnId: `t-${n}`, reply: replyFor(sessionId, n), ...overrides };
}

const json = (value: unknown) => JSON.stringify(value);

/** A SqlClient over a `pg` client, to run `upgradeSchema()` a second time from outside the store. */
function pgSqlClient(client: pg.Client): SqlClient {
  return {
    query: async <Row>(text: string, params?: unknown[]) => (await client.query(text, params)) as unknown as { rows: Row[] },
    transaction: async (fn) => {
      await client.query('BEGIN');
      try {
        const result = await fn({
          query: async <Row>(text: string, params?: unknown[]) => (await client.query(text, params)) as unknown as { rows: Row[] },
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    close: () => client.end(),
  };
}

function pgliteSqlClient(db: PGlite): SqlClient {
  return {
    query: (text, params) => db.query(text, params),
    transaction: (fn) => db.transaction((tx) => fn({ query: (text, params) => tx.query(text, params) })),
    close: () => db.close(),
  };
}

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gateflow-store-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------
// The same cases on every store

interface Opened {
  store: Store;
  cleanup(): Promise<void>;
}
interface Factory {
  name: string;
  enabled: boolean;
  open(): Promise<Opened>;
}

const factories: Factory[] = [
  {
    name: 'memory',
    enabled: true,
    open: async () => {
      const store = createMemoryStore();
      return { store, cleanup: () => store.close() };
    },
  },
  {
    name: 'pglite',
    enabled: true,
    open: async () => {
      const store = await createPgliteStore({ dataDir: templateDataDir('plain', join(tempDir(), 'db')) });
      return { store, cleanup: () => store.close() };
    },
  },
  {
    name: 'postgres',
    enabled: hasPostgres,
    open: async () => {
      const schema = await createTestSchema('gf_store');
      try {
        const store = await createPostgresStore({ connectionString: schema.url });
        return {
          store,
          cleanup: async () => {
            await store.close();
            await schema.drop();
          },
        };
      } catch (error) {
        await schema.drop();
        throw error;
      }
    },
  },
];

describe.each(factories)('$name store', (factory) => {
  describe.skipIf(!factory.enabled)('cases', () => {
    let opened: Opened | undefined;
    const store = (): Store => {
      if (!opened) throw new Error(`${factory.name} store did not open`);
      return opened.store;
    };
    beforeAll(async () => {
      opened = await factory.open();
    });
    afterAll(async () => {
      await opened?.cleanup();
    });

    it('names its kind', () => {
      expect(store().kind).toBe(factory.name);
    });

    it('create then load round-trips the session at version 1, with the opening reply as journal entry 1', async () => {
      const s = newSession({ owner: 'alice', flowVersion: 7 });
      const before = Date.now();
      await store().create(s);
      const loaded = await store().load(s.sessionId);
      expect(loaded).not.toBeNull();
      const { session, replayed } = loaded!;
      expect(replayed).toBeNull();
      expect(session).toMatchObject({ sessionId: s.sessionId, flowId: 'store-flow', flowVersion: 7, owner: 'alice', version: 1 });
      expect(typeof session.flowVersion).toBe('number');
      expect(json(session.snapshot)).toBe(json(s.snapshot));
      expect(session.createdAt).toBeInstanceOf(Date);
      expect(session.updatedAt).toBeInstanceOf(Date);
      // Timestamps are real (clock skew between this process and a server allowed for).
      expect(Math.abs(session.createdAt.getTime() - before)).toBeLessThan(60_000);
      expect(Object.keys(session).sort()).toEqual(
        ['createdAt', 'flowId', 'flowVersion', 'owner', 'sessionId', 'snapshot', 'status', 'updatedAt', 'version'].sort(),
      );

      const history = await store().history(s.sessionId);
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ seq: 1, turnId: null, turn: null });
      expect(json(history[0]!.reply)).toBe(json(s.reply));
      expect(history[0]!.createdAt).toBeInstanceOf(Date);
    });

    it.each([
      ['a string that looks like a number', '2'],
      ['a semver string', '1.0.0'],
      ['a string with a trailing zero', '1.0'],
      ['the number 0', 0],
      ['a whole number', 12],
    ] as const)('keeps a flowVersion that is %s exactly as given', async (_what, flowVersion) => {
      const s = newSession({ flowVersion, reply: replyFor('x', 0, flowVersion) });
      await store().create(s);
      const loaded = await store().load(s.sessionId);
      expect(loaded!.session.flowVersion).toStrictEqual(flowVersion);
      expect(typeof loaded!.session.flowVersion).toBe(typeof flowVersion);
      // And when a commit changes it (a migrated snapshot).
      const other: FlowVersion = typeof flowVersion === 'number' ? String(flowVersion) : 3;
      await store().commitTurn(s.sessionId, 1, committed(s.sessionId, 1, { flowVersion: other }));
      expect((await store().load(s.sessionId))!.session.flowVersion).toStrictEqual(other);
    });

    it('keeps a null owner as null', async () => {
      const s = newSession({ owner: null });
      await store().create(s);
      expect((await store().load(s.sessionId))!.session.owner).toBeNull();
    });

    it('loads an unknown session as null, with or without a turnId', async () => {
      expect(await store().load('no-such-session')).toBeNull();
      expect(await store().load('no-such-session', 't-1')).toBeNull();
    });

    it('refuses to create a session id twice with ConflictError, keeping the first', async () => {
      const s = newSession({ owner: 'first' });
      await store().create(s);
      await expect(store().create({ ...s, owner: 'second', snapshot: snapshotFor(9) })).rejects.toBeInstanceOf(ConflictError);
      const loaded = await store().load(s.sessionId);
      expect(loaded!.session.owner).toBe('first');
      expect(json(loaded!.session.snapshot)).toBe(json(s.snapshot));
      expect(await store().history(s.sessionId)).toHaveLength(1);
    });

    it('commitTurn increments the version and appends to the journal in order', async () => {
      const s = newSession();
      await store().create(s);
      const turns = [1, 2, 3, 4].map((n) => committed(s.sessionId, n));
      let expected = 1;
      for (const t of turns) {
        const version = await store().commitTurn(s.sessionId, expected, t);
        expect(version).toBe(expected + 1);
        expected = version;
      }
      const loaded = await store().load(s.sessionId);
      expect(loaded!.session.version).toBe(5);
      expect(json(loaded!.session.snapshot)).toBe(json(snapshotFor(4)));
      expect(loaded!.session.updatedAt.getTime()).toBeGreaterThanOrEqual(loaded!.session.createdAt.getTime());

      const history = await store().history(s.sessionId);
      expect(history.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(history.map((e) => e.turnId)).toEqual([null, 't-1', 't-2', 't-3', 't-4']);
      expect(history.map((e) => e.turn)).toEqual([null, ...turns.map((t) => t.turn)]);
      expect(history.map((e) => json(e.reply))).toEqual([s.reply, ...turns.map((t) => t.reply)].map(json));
    });

    it('accepts several turns without a turnId', async () => {
      const s = newSession();
      await store().create(s);
      expect(await store().commitTurn(s.sessionId, 1, committed(s.sessionId, 1, { turnId: null, turn: { text: 'a' } }))).toBe(2);
      expect(await store().commitTurn(s.sessionId, 2, committed(s.sessionId, 2, { turnId: null, turn: { text: 'b' } }))).toBe(3);
      const history = await store().history(s.sessionId);
      expect(history.map((e) => [e.seq, e.turnId, e.turn])).toEqual([
        [1, null, null],
        [2, null, { text: 'a' }],
        [3, null, { text: 'b' }],
      ]);
    });

    it('a stale version is a ConflictError and writes nothing', async () => {
      const s = newSession();
      await store().create(s);
      await store().commitTurn(s.sessionId, 1, committed(s.sessionId, 1));
      const before = await store().load(s.sessionId);
      const historyBefore = await store().history(s.sessionId);

      for (const stale of [1, 0, 3, 99]) {
        await expect(
          store().commitTurn(s.sessionId, stale, committed(s.sessionId, 50 + stale, { flowVersion: 'changed' })),
        ).rejects.toBeInstanceOf(ConflictError);
      }

      const after = await store().load(s.sessionId);
      expect(after!.session.version).toBe(2);
      expect(after!.session.flowVersion).toBe(1);
      expect(json(after!.session.snapshot)).toBe(json(before!.session.snapshot));
      expect(json(after!.session.snapshot)).toBe(json(snapshotFor(1)));
      const historyAfter = await store().history(s.sessionId);
      expect(historyAfter).toHaveLength(2);
      expect(historyAfter.map((e) => json({ ...e, createdAt: 0 }))).toEqual(historyBefore.map((e) => json({ ...e, createdAt: 0 })));
      // None of the refused turn ids was recorded.
      for (const stale of [1, 0, 3, 99]) expect((await store().load(s.sessionId, `t-${50 + stale}`))!.replayed).toBeNull();
    });

    it('a turnId already taken is a ConflictError and writes nothing', async () => {
      const s = newSession();
      await store().create(s);
      await store().commitTurn(s.sessionId, 1, committed(s.sessionId, 1, { turnId: 'taken' }));
      await store().commitTurn(s.sessionId, 2, committed(s.sessionId, 2, { turnId: 'other' }));

      // At the current version, so only the turn id can refuse it.
      await expect(
        store().commitTurn(s.sessionId, 3, committed(s.sessionId, 3, { turnId: 'taken', flowVersion: 'changed' })),
      ).rejects.toBeInstanceOf(ConflictError);

      const after = await store().load(s.sessionId, 'taken');
      expect(after!.session.version).toBe(3);
      expect(after!.session.flowVersion).toBe(1);
      expect(json(after!.session.snapshot)).toBe(json(snapshotFor(2)));
      expect(after!.replayed!.seq).toBe(2);
      expect(json(after!.replayed!.reply)).toBe(json(replyFor(s.sessionId, 1)));
      const history = await store().history(s.sessionId);
      expect(history.map((e) => e.turnId)).toEqual([null, 'taken', 'other']);

      // The version was not used up: the next turn still commits at 3.
      expect(await store().commitTurn(s.sessionId, 3, committed(s.sessionId, 3, { turnId: 'fresh' }))).toBe(4);
    });

    it('a turnId is unique per session only', async () => {
      const a = newSession();
      const b = newSession();
      await store().create(a);
      await store().create(b);
      await store().commitTurn(a.sessionId, 1, committed(a.sessionId, 1, { turnId: 'shared' }));
      expect(await store().commitTurn(b.sessionId, 1, committed(b.sessionId, 1, { turnId: 'shared' }))).toBe(2);
      expect((await store().load(a.sessionId, 'shared'))!.replayed!.reply.sessionId).toBe(a.sessionId);
      expect((await store().load(b.sessionId, 'shared'))!.replayed!.reply.sessionId).toBe(b.sessionId);
    });

    it('commitTurn on an unknown session is a ConflictError and creates nothing', async () => {
      const id = newId('ghost');
      await expect(store().commitTurn(id, 1, committed(id, 1))).rejects.toBeInstanceOf(ConflictError);
      expect(await store().load(id)).toBeNull();
      expect(await store().history(id)).toEqual([]);
    });

    it('load(sessionId, turnId) returns the journal entry of that turn', async () => {
      const s = newSession();
      await store().create(s);
      const t1 = committed(s.sessionId, 1);
      const t2 = committed(s.sessionId, 2);
      await store().commitTurn(s.sessionId, 1, t1);
      await store().commitTurn(s.sessionId, 2, t2);

      const loaded = await store().load(s.sessionId, 't-1');
      expect(loaded!.session.version).toBe(3);
      expect(loaded!.replayed).not.toBeNull();
      expect(loaded!.replayed).toMatchObject({ seq: 2, turnId: 't-1', turn: t1.turn });
      expect(json(loaded!.replayed!.reply)).toBe(json(t1.reply));
      expect(loaded!.replayed!.createdAt).toBeInstanceOf(Date);

      expect((await store().load(s.sessionId, 't-2'))!.replayed).toMatchObject({ seq: 3, turnId: 't-2', turn: t2.turn });
      const unknown = await store().load(s.sessionId, 'never-sent');
      expect(unknown!.replayed).toBeNull();
      expect(unknown!.session.version).toBe(3);
    });

    it('round-trips replies, turns and snapshots byte-identical, key order kept', async () => {
      const s = newSession();
      await store().create(s);
      const reply = {
        ...replyFor(s.sessionId, 1),
        // Keys in an order no sorting would give, nested.
        answers: {
          'z-last': { value: 'Partial', confidence: 0.25, source: 'llm' as const, raw: '¿quizás? 🤔' },
          'a-first': { value: 'Yes', confidence: 0.999, source: 'button' as const, raw: 'Yes' },
          m: { value: '"}{', confidence: 0, source: 'match' as const, raw: '\\u0041 is not A' },
        },
        artifacts: [
          {
            type: 'HANDOFF' as const,
            flowId: 'store-flow',
            flowVersion: '1.0.0',
            problemStatement: 'Line one\r\nLine two\u00a0(nbsp)',
            answers: { y: { value: 'No', confidence: 1, source: 'button' as const, raw: 'No' } },
          },
        ],
      };
      // A lone surrogate (half an emoji, as a cut string gives) survives too.
      const turn: Turn = { turnId: 'rt', text: 'ordered: turnId first, "quotes", 🩺, half \ud83e' };
      const snapshot = {
        value: 'done',
        status: 'done',
        output: { z: 1, a: [3, 2, 1], m: { y: null, b: true } },
        context: { numbers: [1.5, -2, 1e21, 0.1] },
      } as unknown as Snapshot<unknown>;
      await store().commitTurn(s.sessionId, 1, { snapshot, flowVersion: 1, turn, turnId: 'rt', reply });

      const loaded = await store().load(s.sessionId, 'rt');
      expect(json(loaded!.replayed!.reply)).toBe(json(reply));
      expect(json(loaded!.replayed!.turn)).toBe(json(turn));
      expect(json(loaded!.session.snapshot)).toBe(json(snapshot));
      const history = await store().history(s.sessionId);
      expect(json(history[0]!.reply)).toBe(json(s.reply));
      expect(json(history[1]!.reply)).toBe(json(reply));
      expect(json(history[1]!.turn)).toBe(json(turn));
    });

    it('returns copies: changing what was given or returned changes nothing stored', async () => {
      const s = newSession();
      await store().create(s);
      (s.snapshot as unknown as { status: string }).status = 'mutated';
      s.reply.message = 'mutated';
      const loaded = await store().load(s.sessionId);
      expect((loaded!.session.snapshot as unknown as { status: string }).status).toBe('active');
      (loaded!.session.snapshot as unknown as { status: string }).status = 'mutated again';
      const history = await store().history(s.sessionId);
      expect(history[0]!.reply.message).toBe(replyFor(s.sessionId, 0).message);
      history[0]!.reply.message = 'mutated';
      expect((await store().history(s.sessionId))[0]!.reply.message).toBe(replyFor(s.sessionId, 0).message);
      expect(((await store().load(s.sessionId))!.session.snapshot as unknown as { status: string }).status).toBe('active');
    });

    it('of several commits at the same version exactly one wins; the journal has no gaps', async () => {
      const s = newSession();
      await store().create(s);
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => store().commitTurn(s.sessionId, 1, committed(s.sessionId, i + 1))),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toEqual([{ status: 'fulfilled', value: 2 }]);
      expect(lost).toHaveLength(7);
      for (const r of lost) expect(r.reason).toBeInstanceOf(ConflictError);
      const history = await store().history(s.sessionId);
      expect(history.map((e) => e.seq)).toEqual([1, 2]);
      // The snapshot is the winner's.
      const winner = history[1]!.turnId!;
      const n = Number(winner.slice(2));
      expect(json((await store().load(s.sessionId))!.session.snapshot)).toBe(json(snapshotFor(n)));
    });

    it('history of an unknown session is []', async () => {
      expect(await store().history('no-such-session')).toEqual([]);
    });

    it('lists sessions newest first, by workflow, status and owner, a page at a time', async () => {
      const flowId = newId('list-flow');
      const made: NewSession[] = [];
      for (const [i, owner] of ['ann', null, 'bob', 'ann', null].entries()) {
        const s = newSession({ flowId, owner, snapshot: snapshotFor(i) });
        await store().create(s);
        made.push(s);
      }
      // The second session takes a turn and finishes: status and version change, the order (by creation) does not.
      await store().commitTurn(made[1]!.sessionId, 1, committed(made[1]!.sessionId, 7, { reply: { ...replyFor(made[1]!.sessionId, 7), status: 'done' } }));
      const ids = (list: { sessionId: string }[]) => list.map((x) => made.findIndex((m) => m.sessionId === x.sessionId));

      const all = await store().listSessions({ workflowId: flowId, limit: 10 });
      expect(ids(all)).toEqual([4, 3, 2, 1, 0]);
      expect(all[3]).toMatchObject({ flowId, flowVersion: 1, status: 'done', version: 2, owner: null, state: { gate_7: 'asking' } });
      expect(all[0]!.state).toEqual({ gate_4: 'asking' });
      expect(all[0]!.createdAt).toBeInstanceOf(Date);

      // Pages follow the cursor of the last one seen.
      const first = await store().listSessions({ workflowId: flowId, limit: 2 });
      const second = await store().listSessions({ workflowId: flowId, limit: 2, after: first.at(-1)!.cursor });
      const third = await store().listSessions({ workflowId: flowId, limit: 2, after: second.at(-1)!.cursor });
      expect([first, second, third].map(ids)).toEqual([[4, 3], [2, 1], [0]]);

      // Ann sees hers and the ownerless ones; an anonymous caller only the ownerless ones.
      expect(ids(await store().listSessions({ workflowId: flowId, limit: 10, visibleTo: { owner: 'ann' } }))).toEqual([4, 3, 1, 0]);
      expect(ids(await store().listSessions({ workflowId: flowId, limit: 10, visibleTo: { owner: null } }))).toEqual([4, 1]);
      expect(ids(await store().listSessions({ workflowId: flowId, limit: 10, status: 'done' }))).toEqual([1]);
      expect(await store().listSessions({ workflowId: newId('no-flow'), limit: 10 })).toEqual([]);
      // Without a workflow filter, other sessions of the store come too; these five are the newest.
      expect(ids((await store().listSessions({ limit: 5 })))).toEqual([4, 3, 2, 1, 0]);
    });
  });
});

// ---------------------------------------------------------------------------
// PGlite only

describe('PGlite store on a directory', () => {
  const dir = (() => {
    let d: string | undefined;
    return () => (d ??= join(tempDir(), 'db'));
  })();
  const s = newSession({ owner: 'kept', flowVersion: '1.0' });

  it('creates the directory, records its migrations, and running upgradeSchema() again applies nothing', async () => {
    const store = await createPgliteStore({ dataDir: dir() });
    await store.create(s);
    await store.commitTurn(s.sessionId, 1, committed(s.sessionId, 1, { flowVersion: '1.0' }));
    await store.close();

    const db = new PGlite(dir());
    try {
      const { rows } = await db.query<{ version: number; name: string; applied_at: Date }>(
        'SELECT version, name, applied_at FROM gateflow_migrations ORDER BY version',
      );
      expect(rows.map((r) => ({ version: r.version, name: r.name }))).toEqual(SCHEMA_CHANGES.map((m) => ({ version: m.version, name: m.name })));
      for (const r of rows) expect(r.applied_at).toBeInstanceOf(Date);
      expect(await upgradeSchema(pgliteSqlClient(db))).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('keeps the data when opened again on the same directory', async () => {
    const store = await createPgliteStore({ dataDir: dir() });
    try {
      const loaded = await store.load(s.sessionId, 't-1');
      expect(loaded!.session).toMatchObject({ sessionId: s.sessionId, flowVersion: '1.0', owner: 'kept', version: 2 });
      expect(json(loaded!.session.snapshot)).toBe(json(snapshotFor(1)));
      expect(json(loaded!.replayed!.reply)).toBe(json(replyFor(s.sessionId, 1)));
      const history = await store.history(s.sessionId);
      expect(history.map((e) => e.seq)).toEqual([1, 2]);
      expect(await store.commitTurn(s.sessionId, 2, committed(s.sessionId, 2))).toBe(3);
    } finally {
      await store.close();
    }
  });

  it('a closed store answers StoreUnavailableError on every call and writes nothing', async () => {
    const store = await createPgliteStore({ dataDir: dir() });
    await store.close();
    await expect(store.load(s.sessionId)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.load(s.sessionId)).rejects.toThrow(/pglite store: load session failed/);
    await expect(store.commitTurn(s.sessionId, 3, committed(s.sessionId, 3))).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.create(newSession())).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.history(s.sessionId)).rejects.toBeInstanceOf(StoreUnavailableError);

    const reopened = await createPgliteStore({ dataDir: dir() });
    try {
      expect((await reopened.load(s.sessionId))!.session.version).toBe(3);
      expect(await reopened.history(s.sessionId)).toHaveLength(3);
    } finally {
      await reopened.close();
    }
  });
});

// ---------------------------------------------------------------------------
// PostgreSQL only

describe.skipIf(!hasPostgres)('PostgreSQL store', () => {
  const schemas: TestSchema[] = [];
  const schema = async () => {
    const created = await createTestSchema('gf_store_pg');
    schemas.push(created);
    return created;
  };
  afterAll(async () => {
    for (const s of schemas) await s.drop();
  });

  it('records its migrations, and running upgradeSchema() again applies nothing', async () => {
    const { url } = await schema();
    const store = await createPostgresStore({ connectionString: url });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: number; name: string }>('SELECT version, name FROM gateflow_migrations ORDER BY version');
      expect(rows).toEqual(SCHEMA_CHANGES.map((m) => ({ version: m.version, name: m.name })));
      expect(await upgradeSchema(pgSqlClient(client))).toEqual([]);
      // The tables are in the test schema, not in public.
      const { rows: tables } = await client.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
      );
      expect(tables.map((t) => t.table_name)).toEqual([
        'gateflow_act_claims',
        'gateflow_chats',
        'gateflow_documents',
        'gateflow_events',
        'gateflow_inputs',
        'gateflow_journal',
        'gateflow_layouts',
        'gateflow_messages',
        'gateflow_migrations',
        'gateflow_projects',
        'gateflow_sessions',
      ]);
    } finally {
      await client.end();
      await store.close();
    }
  });

  it('two stores starting at once on a fresh schema both migrate without error (advisory lock)', async () => {
    // The race is between two first starts, so try it on several fresh schemas.
    for (let round = 0; round < 5; round++) {
      const { url } = await schema();
      const results = await Promise.allSettled([
        createPostgresStore({ connectionString: url }),
        createPostgresStore({ connectionString: url }),
      ]);
      const stores = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      try {
        const errors = results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error).message)] : []));
        expect(errors, `round ${round}`).toEqual([]);
        const [a, b] = stores as [Store, Store];
        const s = newSession();
        await a.create(s);
        expect((await b.load(s.sessionId))!.session.version).toBe(1);
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM gateflow_migrations');
        await client.end();
        expect(Number(rows[0]!.n)).toBe(SCHEMA_CHANGES.length);
      } finally {
        for (const st of stores) await st.close();
      }
    }
  });

  it('two stores on one schema see each other and the version check decides between them', async () => {
    const { url } = await schema();
    const a = await createPostgresStore({ connectionString: url });
    const b = await createPostgresStore({ connectionString: url });
    try {
      const s = newSession();
      await a.create(s);
      const [ra, rb] = await Promise.allSettled([
        a.commitTurn(s.sessionId, 1, committed(s.sessionId, 1)),
        b.commitTurn(s.sessionId, 1, committed(s.sessionId, 2)),
      ]);
      const outcomes = [ra, rb].map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).name)).sort();
      expect(outcomes).toEqual([2, 'ConflictError'].sort());
      expect(await a.history(s.sessionId)).toHaveLength(2);
      expect((await b.load(s.sessionId))!.session.version).toBe(2);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('survives the server terminating its connections: no crash, and the next call works', async () => {
    const { url } = await schema();
    const appName = `gf_store_kill_${process.pid}_${Date.now()}`;
    const named = new URL(url);
    named.searchParams.set('application_name', appName);
    const store = await createPostgresStore({ connectionString: named.toString() });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const s = newSession();
      await store.create(s);
      // Several connections in the pool, all idle.
      await Promise.all(Array.from({ length: 4 }, () => store.load(s.sessionId)));
      const { rows } = await admin.query<{ killed: boolean }>(
        'SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = $1',
        [appName],
      );
      expect(rows.length).toBeGreaterThan(0);
      // A call racing the termination may fail, but only as StoreUnavailableError, with nothing written.
      const first = await store
        .commitTurn(s.sessionId, 1, committed(s.sessionId, 1))
        .then((v) => v)
        .catch((error: unknown) => error);
      if (typeof first !== 'number') expect(first).toBeInstanceOf(StoreUnavailableError);
      await new Promise((r) => setTimeout(r, 100));
      const loaded = await store.load(s.sessionId);
      expect(loaded!.session.version).toBe(typeof first === 'number' ? 2 : 1);
      expect(await store.history(s.sessionId)).toHaveLength(loaded!.session.version);
    } finally {
      await admin.end();
      await store.close();
    }
  });

  it('refuses to start when the server is unreachable, saying where it tried', async () => {
    await expect(createPostgresStore({ connectionString: 'postgres://gateflow:gateflow@127.0.0.1:1/gateflow_test' })).rejects.toThrow(
      /ECONNREFUSED 127\.0\.0\.1:1/,
    );
  });

  it('a store whose pool has ended answers StoreUnavailableError and writes nothing', async () => {
    const { url } = await schema();
    const store = await createPostgresStore({ connectionString: url });
    const s = newSession();
    await store.create(s);
    await store.close();
    await expect(store.load(s.sessionId)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.load(s.sessionId, 't-1')).rejects.toThrow(/postgres store: load session failed/);
    await expect(store.commitTurn(s.sessionId, 1, committed(s.sessionId, 1))).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.create(newSession())).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.history(s.sessionId)).rejects.toBeInstanceOf(StoreUnavailableError);

    const again = await createPostgresStore({ connectionString: url });
    try {
      expect((await again.load(s.sessionId))!.session.version).toBe(1);
      expect(await again.history(s.sessionId)).toHaveLength(1);
    } finally {
      await again.close();
    }
  });
});
