/**
 * The act API idempotent by its key alone across servers (issue 27 §4): two
 * sends of the same `turn_id` (or Idempotency-Key) with no `chat_id`, at the
 * same moment, to two servers on one database, apply once and answer the
 * same. The key is claimed in the database before any work (schema change
 * 11, src/documents/act-claims.ts); a claim left by a process that died
 * expires with its lease.
 *
 * Two servers are two `createApp`s, each with its own runtime, on one store:
 * a PostgreSQL schema, and a PGlite store in one process. The race is made,
 * not hoped for: the first server's commit is held until the second has
 * either reached its own commit (two applies) or found the key claimed.
 * The messages are explicit commands (no model).
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actClaims, type ActKey } from '../../src/documents/act-claims.js';
import { documentAgentHost } from '../../src/document-agent/host.js';
import { documentRepository } from '../../src/documents/repository.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import { startServer } from '../../src/server/node.js';
import { createPgliteStore } from '../../src/store/pglite.js';
import { createPostgresStore } from '../../src/store/postgres.js';
import { SCHEMA_CHANGES } from '../../src/store/sql/schema-changes.js';
import { upgradeSchema } from '../../src/store/sql/sql-store.js';
import type { SqlDatabase, Store } from '../../src/store/types.js';
import { latch } from '../helpers/document-agent.js';
import { call, jsonRequests } from '../helpers/http.js';
import { templateDataDir, templateStore } from '../helpers/pglite-template.js';
import { createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';

const NOTES = '# Notes\n\nOpen daily.\n';
type Latch = ReturnType<typeof latch<void>>;

/**
 * One server on `store`: its own runtime and app (its own in-process state,
 * as another process has). `hold` makes its commits wait; `seen` is told of
 * its commits and of a claim on a key that it did not get.
 */
function server(store: Store, o: { maxActMs?: number; hold?: { on: boolean; reached: Latch; release: Latch }; seen?: { commit: Latch; refused: Latch } } = {}) {
  const inner = store.commitTurn.bind(store);
  const commitTurn: Store['commitTurn'] = async (...args) => {
    o.seen?.commit.release();
    if (o.hold?.on) {
      o.hold.reached.release();
      await o.hold.release.promise;
    }
    return inner(...args);
  };
  const sql = store.sql!;
  // The route's database: a claim that came back empty is another's (the key is taken).
  const database: Pick<SqlDatabase, 'query'> = {
    query: async <Row>(text: string, params?: unknown[]) => {
      const result = await sql.query<Row>(text, params);
      if (/INSERT INTO gateflow_act_claims/.test(text) && result.rows.length === 0) o.seen?.refused.release();
      return result;
    },
  };
  const actLimits = o.maxActMs === undefined ? {} : { actLimits: { maxActMs: o.maxActMs } };
  const host = documentAgentHost({ database: sql, ...actLimits });
  const runtime = createRuntime({ workflows: [host.workflow], store: { ...store, kind: store.kind, commitTurn }, actors: host.actors });
  const app = createApp({ runtime, documentAgent: { database, ...actLimits } });
  return { request: jsonRequests(app), app, runtime };
}

/**
 * Server A takes the message and is held at its commit; the same message,
 * same key, no chat id, goes to server B; A is let go once B has reached
 * its own commit or found the key taken. Both answers, and what was kept.
 */
async function race(store: Store, name: string) {
  const repo = documentRepository(store.sql!);
  const project = await repo.createProject(null, { name, description: null });
  const notes = await repo.createDocument(null, project.id, { name: 'Notes', content: NOTES, standingInstruction: '' });
  const hold = { on: true, reached: latch(), release: latch() };
  const seen = { commit: latch(), refused: latch() };
  const a = server(store, { hold });
  const b = server(store, { seen });
  try {
    const body = { message: 'Add this to Notes: Closed on Sunday', project_id: project.id, turn_id: `race-${name}` };
    const first = a.request('/api/agent/act', body);
    await hold.reached.promise;
    const second = b.request('/api/agent/act', body);
    await Promise.race([seen.commit.promise, seen.refused.promise]);
    hold.on = false;
    hold.release.release();
    const [one, two] = await Promise.all([first, second]);
    const document = await repo.getDocument(null, notes.id);
    const { rows } = await store.sql!.query<{ n: number }>('SELECT count(*)::int AS n FROM gateflow_chats WHERE project_id = $1', [project.id]);
    return { one, two, document, chats: rows[0]!.n };
  } finally {
    hold.release.release();
    a.runtime.close();
    b.runtime.close();
  }
}

function expectOnce(r: Awaited<ReturnType<typeof race>>) {
  expect(r.one.status, r.one.text).toBe(200);
  expect(r.two.status, r.two.text).toBe(200);
  expect(r.document.content.match(/Closed on Sunday/g)).toHaveLength(1);
  expect(r.document.version).toBe(2);
  expect(r.two.body.chat_id).toBe(r.one.body.chat_id);
  expect(r.two.body.chat_message).toEqual(r.one.body.chat_message);
  expect(r.two.body.document).toEqual(r.one.body.document);
  expect(r.chats).toBe(1);
}

describe.skipIf(!hasPostgres)('two servers on one PostgreSQL database', () => {
  let schema: TestSchema;
  let store: Store;
  beforeAll(async () => {
    schema = await createTestSchema('claim');
    store = await createPostgresStore({ connectionString: schema.url });
  });
  afterAll(async () => {
    await store?.close();
    await schema?.drop();
  });

  it('the same key with no chat_id sent to both at once applies once, and both answer the same', async () => {
    expectOnce(await race(store, 'Two servers'));
  });
});

describe('two servers on one PGlite store, in one process', () => {
  let store: Store;
  beforeAll(async () => {
    store = await templateStore();
  });
  afterAll(async () => {
    await store?.close();
  });

  it('the same key with no chat_id sent to both at once applies once, and both answer the same', async () => {
    expectOnce(await race(store, 'Two apps'));
  });
});

/** A project with its Notes document. */
async function notesIn(store: Store, name: string) {
  const repo = documentRepository(store.sql!);
  const project = await repo.createProject(null, { name, description: null });
  const notes = await repo.createDocument(null, project.id, { name: 'Notes', content: NOTES, standingInstruction: '' });
  return { repo, project, notes };
}

const claimsLeft = async (store: Store) => (await store.sql!.query<{ n: number }>('SELECT count(*)::int AS n FROM gateflow_act_claims')).rows[0]!.n;

/** A claim on the key as a server that was then killed left it: taken, and its lease run out (`expired`) or not. */
async function deadClaim(store: Store, key: ActKey, expired: boolean): Promise<void> {
  expect(await actClaims(store.sql!).take(key, 600_000)).not.toBeNull();
  if (expired) await store.sql!.query("UPDATE gateflow_act_claims SET lease_until = now() - interval '1 second'");
}

describe('a claim left behind (PGlite)', () => {
  let store: Store;
  beforeAll(async () => {
    store = await templateStore();
  });
  afterAll(async () => {
    await store?.close();
  });

  it('whose lease ran out does not block the key: the message applies once, and the claim is gone after', async () => {
    const { repo, project, notes } = await notesIn(store, 'Stale');
    await deadClaim(store, { owner: null, projectId: project.id, turnId: 'stale-1' }, true);
    const s = server(store);
    try {
      const body = { message: 'Add this to Notes: Closed on Sunday', project_id: project.id };
      const answer = await s.app.request('/api/agent/act', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'stale-1' }, body: JSON.stringify(body) });
      expect(answer.status, await answer.clone().text()).toBe(200);
      const again = await s.request('/api/agent/act', { ...body, turn_id: 'stale-1' });
      expect(again.status, again.text).toBe(200);
      expect(again.body.chat_message).toEqual(((await answer.json()) as { chat_message: unknown }).chat_message);
      expect((await repo.getDocument(null, notes.id)).content.match(/Closed on Sunday/g)).toHaveLength(1);
      expect(await claimsLeft(store)).toBe(0);
    } finally {
      s.runtime.close();
    }
  });

  it("of a server killed after its commit: once its lease ran out, the message sent again answers what it kept and applies nothing", async () => {
    const { repo, project, notes } = await notesIn(store, 'Killed after commit');
    const s = server(store);
    try {
      const body = { message: 'Add this to Notes: Closed on Sunday', project_id: project.id, turn_id: 'kept-1' };
      const first = await s.request('/api/agent/act', body);
      expect(first.status, first.text).toBe(200);
      await deadClaim(store, { owner: null, projectId: project.id, turnId: 'kept-1' }, true);
      const again = await s.request('/api/agent/act', body);
      expect(again.status, again.text).toBe(200);
      expect(again.body.chat_message).toEqual(first.body.chat_message);
      expect(await repo.getDocument(null, notes.id)).toMatchObject({ version: 2 });
      expect(await claimsLeft(store)).toBe(0);
    } finally {
      s.runtime.close();
    }
  });

  it("still live: the send waits the act's time limit, then answers 409 turn_in_progress with Retry-After and does nothing; once it expires the message applies once", async () => {
    const { repo, project, notes } = await notesIn(store, 'Live');
    const key = { owner: null, projectId: project.id, turnId: 'live-1' };
    await deadClaim(store, key, false);
    const s = server(store, { maxActMs: 1_000 });
    try {
      const body = JSON.stringify({ message: 'Add this to Notes: Closed on Sunday', project_id: project.id, turn_id: 'live-1' });
      const busy = await s.app.request('/api/agent/act', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(busy.status).toBe(409);
      expect(((await busy.json()) as { error: unknown }).error).toEqual({
        code: 'turn_in_progress',
        message: 'the message with turn_id "live-1" is still being handled (it was sent before, to this server or another): nothing was done again; send it again in 10 s to get its answer',
      });
      expect(busy.headers.get('retry-after')).toBe('10');
      expect(await repo.getDocument(null, notes.id)).toMatchObject({ version: 1 });
      const { rows } = await store.sql!.query<{ n: number }>('SELECT count(*)::int AS n FROM gateflow_chats WHERE project_id = $1', [project.id]);
      expect(rows[0]!.n).toBe(0);

      await store.sql!.query("UPDATE gateflow_act_claims SET lease_until = now() - interval '1 second'");
      const applied = await s.request('/api/agent/act', JSON.parse(body));
      expect(applied.status, applied.text).toBe(200);
      expect((await repo.getDocument(null, notes.id)).content.match(/Closed on Sunday/g)).toHaveLength(1);
      expect(await claimsLeft(store)).toBe(0);
    } finally {
      s.runtime.close();
    }
  });

  it("held by a send still under way on the same server: the second waits at most the act's limit, then 409 turn_in_progress; the first answers, and a later send replays it", async () => {
    const { repo, project, notes } = await notesIn(store, 'Same server');
    const hold = { on: true, reached: latch(), release: latch() };
    const s = server(store, { maxActMs: 1_000, hold });
    try {
      const body = { message: 'Add this to Notes: Closed on Sunday', project_id: project.id, turn_id: 'same-1' };
      const first = s.request('/api/agent/act', body);
      await hold.reached.promise;
      // The first is held at its commit for as long as the test wants: the second must not wait for it past 1 s.
      const second = await s.request('/api/agent/act', body);
      expect(second.status, second.text).toBe(409);
      expect(second.body.error.code).toBe('turn_in_progress');
      hold.on = false;
      hold.release.release();
      const answered = await first;
      expect(answered.status, answered.text).toBe(200);
      const third = await s.request('/api/agent/act', body);
      expect(third.body.chat_message).toEqual(answered.body.chat_message);
      expect((await repo.getDocument(null, notes.id)).content.match(/Closed on Sunday/g)).toHaveLength(1);
      expect(await claimsLeft(store)).toBe(0);
    } finally {
      hold.release.release();
      s.runtime.close();
    }
  });

  it('is not left by a send that failed: the key is free for the next', async () => {
    const s = server(store);
    try {
      const missing = await s.request('/api/agent/act', { message: 'Add this to Notes: x', project_id: 999_999, turn_id: 'failed-1' });
      expect(missing.status, missing.text).toBe(404);
      expect(await claimsLeft(store)).toBe(0);
    } finally {
      s.runtime.close();
    }
  });
});

describe.skipIf(!hasPostgres)('a database of schema change 10 (before the claims)', () => {
  let schema: TestSchema;
  afterAll(async () => {
    await schema?.drop();
  });

  it('upgrades to change 11 when a server opens it, keeping its data, and the key is claimed there', async () => {
    schema = await createTestSchema('claimup');
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    const query = async <Row>(text: string, params?: unknown[]) => (await client.query(text, params)) as unknown as { rows: Row[] };
    try {
      const old = SCHEMA_CHANGES.filter((c) => c.version <= 10);
      await upgradeSchema({ query, transaction: (fn) => fn({ query }), close: async () => undefined }, old);
      const repo = documentRepository({ query });
      const project = await repo.createProject(null, { name: 'Old', description: null });
      const notes = await repo.createDocument(null, project.id, { name: 'Notes', content: NOTES, standingInstruction: '' });
      expect((await query<{ t: string | null }>("SELECT to_regclass('gateflow_act_claims')::text AS t")).rows[0]!.t).toBeNull();

      const store = await createPostgresStore({ connectionString: schema.url });
      try {
        expect((await query<{ version: number }>('SELECT version FROM gateflow_migrations ORDER BY version')).rows.map((r) => r.version)).toEqual(SCHEMA_CHANGES.map((c) => c.version));
        expect(await repo.getDocument(null, notes.id)).toMatchObject({ content: NOTES, version: 1 });
        const s = server(store);
        try {
          const body = { message: 'Add this to Notes: Closed on Sunday', project_id: project.id, turn_id: 'upgraded-1' };
          const first = await s.request('/api/agent/act', body);
          expect(first.status, first.text).toBe(200);
          expect((await s.request('/api/agent/act', body)).body.chat_message).toEqual(first.body.chat_message);
          expect(await repo.getDocument(null, notes.id)).toMatchObject({ version: 2 });
          expect(await claimsLeft(store)).toBe(0);
        } finally {
          s.runtime.close();
        }
      } finally {
        await store.close();
      }
    } finally {
      await client.end();
    }
  });
});

describe('a PGlite directory opened again by the server', () => {
  it('frees the claims of the process that had it (killed mid-message): the message sent again applies at once, once', async () => {
    const dir = templateDataDir('plain');
    try {
      // What the killed process left: its data and a claim whose lease has most of its time left.
      const before = await createPgliteStore({ dataDir: dir });
      const { project, notes } = await notesIn(before, 'Restarted');
      await deadClaim(before, { owner: null, projectId: project.id, turnId: 'restart-1' }, false);
      await before.close();

      const server = await startServer({ workflows: [], port: 0, dataDir: dir, documentAgent: { actLimits: { maxActMs: 1_000 } } });
      try {
        const answer = await call(server.url, '/api/agent/act', { json: { message: 'Add this to Notes: Closed on Sunday', project_id: project.id, turn_id: 'restart-1' } });
        expect(answer.status, answer.text).toBe(200);
        const document = await call(server.url, `/api/documents/${notes.id}`);
        expect((document.body.content as string).match(/Closed on Sunday/g)).toHaveLength(1);
        expect(await claimsLeft(server.store)).toBe(0);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  });
});
