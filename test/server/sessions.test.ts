/**
 * Every session (issue 29 §1) over HTTP on loopback: `GET /api/sessions`
 * (newest first, filters, pages, owners) and `POST /api/sessions/{id}/fork`
 * (the steps up to `seq` replayed from the journal, then another way).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../../src/flow/reply.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { createRuntime, type Runtime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/types.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import type { Workflow } from '../../src/workflow/types.js';
import { call, exampleFlows, serveOnLoopback, type LoopbackServer } from '../helpers/http.js';

const REFUND = 'refund-approval';
const CONTACT = 'contact-request';
const WORKFLOWS = exampleFlows()
  .filter((f) => f.id === REFUND || f.id === CONTACT)
  .map((f) => flowWorkflow(f)) as Workflow<ReplyEnvelope>[];
/** The customer's turns of the refund flow up to the manager's approval. */
const TO_APPROVAL = [{ text: 'CD5678' }, { text: '250' }, { button: 'wrong_item' }, { button: 'confirm' }];

let server: LoopbackServer;
let runtime: Runtime;
let store: Store;
beforeAll(async () => {
  store = createMemoryStore();
  runtime = createRuntime({ workflows: WORKFLOWS, store });
  server = await serveOnLoopback(createApp({ runtime }));
});
afterAll(async () => {
  await server.close();
  runtime.close();
});

async function start(workflowId: string): Promise<string> {
  const r = await call(server.url, `/api/flows/${workflowId}/sessions`, { method: 'POST' });
  expect(r.status, r.text).toBe(201);
  return r.body.sessionId;
}
async function turn(sessionId: string, body: unknown): Promise<Reply> {
  const r = await call(server.url, `/api/sessions/${sessionId}/turns`, { json: body });
  expect(r.status, r.text).toBe(200);
  return r.body;
}
async function history(sessionId: string): Promise<{ seq: number; turn: unknown; reply: Reply }[]> {
  const r = await call(server.url, `/api/sessions/${sessionId}`);
  expect(r.status, r.text).toBe(200);
  return r.body.history;
}

describe('GET /api/sessions', () => {
  it('lists sessions newest first, filtered by workflow and status, a page at a time', async () => {
    const a = await start(REFUND);
    const b = await start(CONTACT);
    const c = await start(REFUND);
    for (const t of TO_APPROVAL) await turn(c, t);

    const all = await call(server.url, '/api/sessions');
    expect(all.status, all.text).toBe(200);
    expect(all.body.sessions.map((s: { sessionId: string }) => s.sessionId).slice(0, 3)).toEqual([c, b, a]);
    expect(all.body.sessions[0]).toEqual({
      sessionId: c,
      workflowId: REFUND,
      flowVersion: 1,
      state: expect.anything(),
      status: 'waiting',
      steps: 5,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(all.body.nextAfter).toBeNull();

    const refunds = await call(server.url, `/api/sessions?workflowId=${REFUND}`);
    expect(refunds.body.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual([c, a]);
    const waiting = await call(server.url, '/api/sessions?status=waiting');
    expect(waiting.body.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual([c]);

    const first = await call(server.url, '/api/sessions?limit=2');
    expect(first.body.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual([c, b]);
    expect(first.body.nextAfter).toEqual(expect.any(Number));
    const second = await call(server.url, `/api/sessions?limit=2&after=${first.body.nextAfter}`);
    expect(second.body.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual([a]);
    expect(second.body.nextAfter).toBeNull();
  });

  it.each([
    ['?limit=0', 'invalid_page', /limit must be an integer from 1 to 200, not 0/],
    ['?limit=201', 'invalid_page', /not 201/],
    ['?limit=ten', 'invalid_query', /limit "ten" must be a whole number/],
    ['?status=finished', 'invalid_query', /status "finished"/],
    ['?workflow=x', 'invalid_query', /unknown query parameter "workflow" \(did you mean workflowId\?\)/],
    ['?after=1&after=2', 'invalid_query', /give after once/],
  ])('refuses %s with 400 %s', async (query, code, message) => {
    const r = await call(server.url, `/api/sessions${query}`);
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.code).toBe(code);
    expect(r.body.error.message).toMatch(message);
  });

  it('lists only what the caller may see: their own sessions and those without owner', async () => {
    const mine = await runtime.start(CONTACT, { owner: 'ann' });
    const theirs = await runtime.start(CONTACT, { owner: 'bob' });
    const ids = async (owner: string) => (await runtime.sessions({ owner }, { workflowId: CONTACT })).sessions.map((s) => s.sessionId);
    expect(await ids('ann')).toContain(mine.sessionId);
    expect(await ids('ann')).not.toContain(theirs.sessionId);
    expect(await ids('bob')).toEqual(expect.arrayContaining([theirs.sessionId]));
    expect(await ids('bob')).not.toContain(mine.sessionId);
  });

  it('is in the OpenAPI document with its filters', async () => {
    const doc = (await call(server.url, '/api/openapi.json')).body;
    expect(doc.paths['/api/sessions'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['workflowId', 'status', 'after', 'limit']);
    expect(doc.components.schemas.SessionList.properties.nextAfter).toBeDefined();
    expect(doc.paths['/api/sessions/{sessionId}/fork'].post.responses[201]).toBeDefined();
  });
});

describe('POST /api/sessions/{id}/fork', () => {
  it('starts a new session from an earlier step, with the steps up to it, which then goes another way', async () => {
    const original = await start(REFUND);
    for (const t of TO_APPROVAL) await turn(original, t);
    const recorded = await history(original);

    // Step 3 is the reply to "250": the reason is asked next.
    const forked = await call(server.url, `/api/sessions/${original}/fork`, { json: { seq: 3 } });
    expect(forked.status, forked.text).toBe(201);
    const fork = forked.body.sessionId as string;
    expect(fork).not.toBe(original);
    expect(forked.body.reply.state).toEqual(recorded[2]!.reply.state);
    expect(forked.body.reply.answers).toEqual(recorded[2]!.reply.answers);
    const steps = await history(fork);
    expect(steps.map((s) => s.turn)).toEqual(recorded.slice(0, 3).map((s) => s.turn));
    expect(steps.map((s) => s.reply.state)).toEqual(recorded.slice(0, 3).map((s) => s.reply.state));

    // Another reason this time: the fork's answers differ from the original's, which is unchanged.
    const reasons = forked.body.reply.buttons.map((b: { value: string }) => b.value);
    const other = reasons.find((v: string) => v !== 'wrong_item');
    const after = await turn(fork, { button: other });
    expect(JSON.stringify(after.answers)).not.toBe(JSON.stringify(recorded[3]!.reply.answers));
    expect((await history(original)).length).toBe(5);
    // The fork is listed, newest first.
    expect((await call(server.url, '/api/sessions?limit=1')).body.sessions[0].sessionId).toBe(fork);
  });

  it("replays a manager's answer to a gate by its name", async () => {
    const original = await start(REFUND);
    let reply: Reply | undefined;
    for (const t of TO_APPROVAL) reply = await turn(original, t);
    const approved = reply!.inputs!.find((g) => g.name === 'approved')!.gateId;
    const amount = reply!.inputs!.find((g) => g.name === 'approved_amount')!.gateId;
    expect((await call(server.url, `/api/inputs/${amount}`, { json: { value: 200 } })).status).toBe(200);
    expect((await call(server.url, `/api/inputs/${approved}`, { json: { value: 'yes' } })).status).toBe(200);
    const recorded = await history(original);

    const forked = await call(server.url, `/api/sessions/${original}/fork`, { json: { seq: recorded.length } });
    expect(forked.status, forked.text).toBe(201);
    expect(forked.body.reply.status).toBe(recorded.at(-1)!.reply.status);
    expect(forked.body.reply.state).toEqual(recorded.at(-1)!.reply.state);
  });

  it.each([
    [{ seq: 0 }, 400, 'invalid_body', /seq/],
    [{ seq: 'two' }, 400, 'invalid_body', /seq/],
    [{ step: 2 }, 400, 'invalid_body', /unknown field "step"/],
    [{ seq: 99 }, 409, 'fork_failed', /has 1 steps; there is no step 99/],
  ])('refuses %j with %i %s', async (body, status, code, message) => {
    const sessionId = await start(CONTACT);
    const r = await call(server.url, `/api/sessions/${sessionId}/fork`, { json: body });
    expect(r.status, r.text).toBe(status);
    expect(r.body.error.code).toBe(code);
    expect(r.body.error.message).toMatch(message);
  });

  it('answers 404 for a session the caller cannot see', async () => {
    const theirs = await runtime.start(CONTACT, { owner: 'bob' });
    await expect(runtime.fork(theirs.sessionId, 1, { owner: 'ann' })).rejects.toMatchObject({ code: 'session_not_found' });
    expect((await call(server.url, '/api/sessions/no-such-session/fork', { json: { seq: 1 } })).status).toBe(404);
  });

  it('refuses a fork whose replay reaches another state, and leaves no half-made session open', async () => {
    const sessionId = await start(REFUND);
    const loaded = (await store.load(sessionId))!;
    const opening = (await store.history(sessionId))[0]!.reply;
    // A journal that says "CD5678" led somewhere the flow does not go (as a model that read it otherwise would).
    await store.commitTurn(sessionId, 1, {
      snapshot: loaded.session.snapshot,
      flowVersion: 1,
      turn: { text: 'CD5678' },
      turnId: null,
      reply: { ...opening, state: 'elsewhere' },
    });
    const before = (await runtime.sessions({}, { workflowId: REFUND, limit: 200 })).sessions.length;
    const r = await call(server.url, `/api/sessions/${sessionId}/fork`, { json: { seq: 2 } });
    expect(r.status, r.text).toBe(409);
    expect(r.body.error.message).toMatch(/step 2 replays differently: it reached .* where the session reached elsewhere \(active\)/);
    const after = (await runtime.sessions({}, { workflowId: REFUND, limit: 200 })).sessions;
    expect(after.length).toBe(before + 1);
    expect(after[0]!.status).toBe('cancelled');
  });
});
