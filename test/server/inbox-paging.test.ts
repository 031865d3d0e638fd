/**
 * The inbox pages (issue 25, section 1): `GET /api/inputs?after=&limit=`
 * answers one page of the open gates in the order they opened, with the
 * `nextAfter` of the next page, as the session history does; 600 open gates
 * are read completely, each once, on PGlite and on PostgreSQL. (It used to
 * answer the first 500, with no sign that more existed.)
 */
import { sign } from 'hono/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateRecord } from '../../src/inputs/gate.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { createPostgresStore } from '../../src/store/postgres.js';
import type { Store } from '../../src/store/types.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import { approvalWorkflow } from '../helpers/approval-workflow.js';
import { call, serveOnLoopback, type ApiResponse, type LoopbackServer } from '../helpers/http.js';
import { templateStore } from '../helpers/pglite-template.js';
import { createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';

const SECRET = 'a-secret-of-at-least-32-bytes-for-inbox-paging';
const SESSIONS = 24;
const GATES_PER_SESSION = 50;
const T0 = new Date('2026-11-27T10:00:00.000Z');

/** Whose each session is: every other one has no owner (600 gates an anonymous caller sees); the rest alternate alice and bob (300 each). */
const ownerOf = (i: number) => (i % 2 === 0 ? null : i % 4 === 1 ? 'alice' : 'bob');

/** 24 sessions of 50 open gates each, written as a runtime would (one create per session with its gates). */
async function fill(store: Store): Promise<Map<string | null, string[]>> {
  const expected = new Map<string | null, string[]>();
  for (let i = 0; i < SESSIONS; i++) {
    const owner = ownerOf(i);
    const sessionId = `inbox_${String(i).padStart(4, '0')}`;
    const gates: GateRecord[] = Array.from({ length: GATES_PER_SESSION }, (_, g) => ({
      gateId: `in_${String(i).padStart(4, '0')}${String(g).padStart(12, '0')}`,
      sessionId,
      workflowId: approvalWorkflow.id,
      owner,
      state: 'waiting',
      name: `field_${g}`,
      spec: { name: `field_${g}`, type: 'string' },
      to: null,
      status: 'open',
      deadline: null,
      openedAt: new Date(T0.getTime() + i * 1000),
      closedAt: null,
      value: null,
      answeredBy: null,
    }));
    const reply = { sessionId, flowId: approvalWorkflow.id, flowVersion: 1, state: 'waiting', status: 'waiting', message: '', buttons: null, artifacts: [], completion: { isComplete: false, reason: 'awaiting_answer', readyForHandoff: false } };
    await store.create({ sessionId, flowId: approvalWorkflow.id, flowVersion: 1, snapshot: { status: 'active' } as never, owner, reply: reply as unknown as ReplyEnvelope, gates });
    expected.set(owner, [...(expected.get(owner) ?? []), ...gates.map((g) => g.gateId)]);
  }
  return expected;
}

/** Reads every page with `limit` (none: the default), following nextAfter; returns the gate ids in order and the page sizes. */
async function readAll(url: string, limit: number | undefined, token?: string) {
  const ids: string[] = [];
  const sizes: number[] = [];
  let after: number | null = 0;
  while (after !== null) {
    const query: URLSearchParams = new URLSearchParams({ ...(after > 0 && { after: String(after) }), ...(limit !== undefined && { limit: String(limit) }) });
    const page: ApiResponse<{ inputs: { gateId: string }[]; nextAfter: number | null }> = await call(url, `/api/inputs?${query}`, token === undefined ? {} : { token });
    expect(page.status, page.text).toBe(200);
    ids.push(...page.body.inputs.map((g) => g.gateId));
    sizes.push(page.body.inputs.length);
    expect(page.body.nextAfter === null || page.body.nextAfter > (after ?? 0)).toBe(true);
    after = page.body.nextAfter;
    if (sizes.length > 100) throw new Error('the pages never end');
  }
  return { ids, sizes };
}

function pagingSuite(name: string, open: () => Promise<{ store: Store; cleanup?: () => Promise<void> }>) {
  describe(`GET /api/inputs pages 600 open gates (${name})`, () => {
    let store: Store;
    let cleanup: (() => Promise<void>) | undefined;
    let expected: Map<string | null, string[]>;
    const servers: (LoopbackServer & { stop(): void })[] = [];
    let anonymous: string;
    let withAuth: string;

    beforeAll(async () => {
      ({ store, cleanup } = await open());
      expected = await fill(store);
      for (const jwtSecret of [undefined, SECRET]) {
        const runtime = createRuntime({ workflows: [approvalWorkflow], store });
        const server = await serveOnLoopback(createApp({ runtime, ...(jwtSecret && { jwtSecret }) }));
        servers.push({ ...server, stop: () => runtime.close() });
      }
      [anonymous, withAuth] = servers.map((s) => s.url) as [string, string];
    });
    afterAll(async () => {
      for (const s of servers) {
        await s.close();
        s.stop();
      }
      await store?.close();
      await cleanup?.();
    });

    it('pages of 100 (the default) read all 600, each once, in the order they opened; the last page says there is no next', async () => {
      const { ids, sizes } = await readAll(anonymous, undefined);
      expect(sizes).toEqual([100, 100, 100, 100, 100, 100]);
      expect(ids).toEqual(expected.get(null));
    });

    it('any page size reads the same gates: 250 (250, 250, 100), 7, and 500', async () => {
      const by250 = await readAll(anonymous, 250);
      expect(by250.sizes).toEqual([250, 250, 100]);
      expect(by250.ids).toEqual(expected.get(null));
      const by7 = await readAll(anonymous, 7);
      expect(by7.sizes).toHaveLength(Math.ceil(600 / 7));
      expect(by7.ids).toEqual(expected.get(null));
      expect((await readAll(anonymous, 500)).sizes).toEqual([500, 100]);
    });

    it("a caller's pages hold only the gates they may answer (alice's 300 of the 1,200), with no page empty", async () => {
      const alice = await sign({ sub: 'alice' }, SECRET, 'HS256');
      const { ids, sizes } = await readAll(withAuth, 70, alice);
      expect(ids).toEqual(expected.get('alice'));
      expect(sizes).toEqual([70, 70, 70, 70, 20]);
    });

    it('filters page too: one session, and one page exactly full has no next', async () => {
      const session = 'inbox_0002';
      const page = await call(anonymous, `/api/inputs?sessionId=${session}&limit=50`);
      expect(page.body.inputs).toHaveLength(50);
      expect(page.body.nextAfter).toBeNull();
      const halves = await readAll(anonymous, 25);
      expect(halves.ids).toHaveLength(600);
    });

    it.each([
      ['?limit=0', /limit "0" must be from 1 to 500/],
      ['?limit=501', /limit "501" must be from 1 to 500/],
      ['?limit=-1', /limit "-1" must be a whole number/],
      ['?after=x', /after "x" must be a whole number/],
      ['?after=1.5', /after "1.5" must be a whole number/],
      ['?after=1&after=2', /give after once/],
    ])('%s is 400 invalid_query', async (query, message) => {
      const response = await call(anonymous, `/api/inputs${query}`);
      expect({ status: response.status, code: response.body.error.code }).toEqual({ status: 400, code: 'invalid_query' });
      expect(response.body.error.message).toMatch(message);
    });
  });
}

pagingSuite('memory', async () => ({ store: createMemoryStore() }));
pagingSuite('PGlite', async () => ({ store: await templateStore('plain') }));
if (hasPostgres) {
  let schema: TestSchema;
  pagingSuite('PostgreSQL', async () => {
    schema = await createTestSchema('gf_inbox');
    return { store: await createPostgresStore({ connectionString: schema.url }), cleanup: () => schema.drop() };
  });
}

describe('the OpenAPI document pages the inbox', () => {
  it('GET /api/inputs takes after and limit (integers with bounds) and answers nextAfter', async () => {
    const runtime = createRuntime({ workflows: [approvalWorkflow], store: createMemoryStore() });
    const server = await serveOnLoopback(createApp({ runtime }));
    try {
      const doc = (await call(server.url, '/api/openapi.json')).body;
      const params = doc.paths['/api/inputs'].get.parameters;
      expect(params.find((p: { name: string }) => p.name === 'after').schema).toEqual({ type: 'integer', minimum: 0, default: 0 });
      expect(params.find((p: { name: string }) => p.name === 'limit').schema).toEqual({ type: 'integer', minimum: 1, maximum: 500, default: 100 });
      const list = doc.components.schemas.InputList;
      expect(list.required).toEqual(['inputs', 'nextAfter']);
      expect(list.properties.nextAfter.description).toMatch(/next page/);
    } finally {
      await server.close();
      runtime.close();
    }
  });
});
