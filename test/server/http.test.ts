/**
 * The HTTP API (issue 3, section 3) over a real socket on loopback: every route,
 * every error status and code, auth, session ids, the OpenAPI document, the
 * store being unreachable (nothing half written), and `startServer` on PGlite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sign } from 'hono/jwt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createExtractActor } from '../../src/extract/actor.js';
import { parseFlowValue } from '../../src/flow/parse.js';
import type { FlowDocument } from '../../src/flow/schema.js';
import type { Reply } from '../../src/flow/reply.js';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import type { Turn } from '../../src/workflow/turn.js';
import { createApp } from '../../src/server/app.js';
import { startServer } from '../../src/server/node.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { createPgliteStore } from '../../src/store/pglite.js';
import { templateDataDir } from '../helpers/pglite-template.js';
import type { Store } from '../../src/store/types.js';
import {
  call,
  chunkedBody,
  exampleFlows,
  flakyStore,
  paddedJson,
  serveOnLoopback,
  type ApiResponse,
  type LoopbackServer,
} from '../helpers/http.js';

const FLOWS = exampleFlows();
const INTAKE = 'patient-intake';
const SESSION_ID = /^[A-Za-z0-9_-]{24}$/;

const AWAITING_ANSWER = { isComplete: false, reason: 'awaiting_answer', readyForHandoff: false };
const AWAITING_CONFIRMATION = { isComplete: false, reason: 'awaiting_user_confirmation', readyForHandoff: false };
const HANDED_OFF = { isComplete: true, reason: 'handed_off', readyForHandoff: true };
const STOPPED = { isComplete: true, reason: 'stopped_limiting_value', readyForHandoff: false };

/** A whole intake of the example flow: buttons and free text, then the confirmation. */
const INTAKE_TURNS: Turn[] = [
  { button: 'Yes' },
  { text: 'no gaps' },
  { button: 'New patient' },
  { button: 'Adult' },
  { text: 'by phone' },
  { button: 'confirm' },
];
const INTAKE_ANSWERS = {
  '1_patient_info_availability': 'Yes',
  '2_insurance_history': 'No',
  '3_visit_type': 'New patient',
  '4_patient_age_group': 'Adult',
  '5_preferred_contact': 'Phone',
};

const tmpDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gateflow-http-'));
  tmpDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

/** The exact error body the API promises. */
function expectError(response: ApiResponse, status: number, code: string, message?: RegExp | string) {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: { error: { code, message: expect.any(String) } },
  });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.body.error.message.length).toBeGreaterThan(0);
  if (message !== undefined) expect(response.body.error.message).toMatch(message);
}

async function startSession(url: string, flowId = INTAKE, token?: string): Promise<{ sessionId: string; reply: Reply }> {
  const response = await call(url, `/api/flows/${flowId}/sessions`, { method: 'POST', ...(token && { token }) });
  expect(response.status).toBe(201);
  return response.body;
}

async function turn(url: string, sessionId: string, t: unknown, token?: string): Promise<ApiResponse> {
  return call(url, `/api/sessions/${sessionId}/turns`, { json: t, ...(token && { token }) });
}

async function takeTurn(url: string, sessionId: string, t: Turn, token?: string): Promise<Reply> {
  const response = await turn(url, sessionId, t, token);
  expect(response.status, `turn ${JSON.stringify(t)}: ${response.text}`).toBe(200);
  return response.body as Reply;
}

/** Starts an intake and takes every turn; returns the opening reply and the replies to each turn. */
async function fullIntake(url: string, token?: string): Promise<{ sessionId: string; replies: Reply[] }> {
  const started = await startSession(url, INTAKE, token);
  const replies = [started.reply];
  for (const t of INTAKE_TURNS) replies.push(await takeTurn(url, started.sessionId, t, token));
  return { sessionId: started.sessionId, replies };
}

function expectCompletedIntake(sessionId: string, replies: Reply[]) {
  expect(replies).toHaveLength(INTAKE_TURNS.length + 1);
  for (const reply of replies) expect(reply).toMatchObject({ sessionId, flowId: INTAKE, flowVersion: '1.0.0' });
  expect(replies.map((r) => r.completion)).toEqual([
    AWAITING_ANSWER,
    AWAITING_ANSWER,
    AWAITING_ANSWER,
    AWAITING_ANSWER,
    AWAITING_ANSWER,
    AWAITING_CONFIRMATION,
    HANDED_OFF,
  ]);
  const last = replies[replies.length - 1]!;
  expect(last.buttons).toBeNull();
  expect(Object.fromEntries(Object.entries(last.answers).map(([k, a]) => [k, a.value]))).toEqual(INTAKE_ANSWERS);
  const handoffs = last.artifacts.filter((a) => a.type === 'HANDOFF');
  expect(handoffs).toHaveLength(1);
  expect(handoffs[0]).toMatchObject({ type: 'HANDOFF', flowId: INTAKE, flowVersion: '1.0.0' });
  if (handoffs[0]?.type !== 'HANDOFF') throw new Error('unreachable');
  expect(Object.fromEntries(Object.entries(handoffs[0].answers).map(([k, a]) => [k, a.value]))).toEqual(INTAKE_ANSWERS);
}

/** A runtime on the memory store with the example flows, served on loopback. */
async function memoryServer(options: { jwtSecret?: string; store?: Store; flows?: FlowDocument[]; onError?: (e: unknown) => void } = {}) {
  const store = options.store ?? createMemoryStore();
  const runtime = createFlowRuntime({ flows: options.flows ?? FLOWS, store });
  const app = createApp({ runtime, jwtSecret: options.jwtSecret, ...(options.onError && { onError: options.onError }) });
  const server = await serveOnLoopback(app);
  return { ...server, store, runtime };
}

describe('HTTP API on the memory store', () => {
  let server: LoopbackServer & { store: Store };
  let url: string;
  /** Never made to fail here: it counts the store calls. */
  const counted = flakyStore(createMemoryStore());
  beforeAll(async () => {
    server = await memoryServer({ store: counted.store });
    url = server.url;
  });
  afterAll(() => server.close());

  it('listens on 127.0.0.1', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('GET /api/health is 200', async () => {
    const response = await call(url, '/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('GET /api/flows lists every registered flow with id, version and title', async () => {
    const response = await call(url, '/api/flows');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      flows: [
        { id: 'clinic-callback', version: 1, title: 'Clinic callback request' },
        { id: 'contact-request', version: 1, title: 'Contact request' },
        { id: 'event-booking', version: 1, title: 'Event booking' },
        { id: 'led-sales', version: '1.0.0', title: 'LED lighting sales' },
        { id: 'lighting-consult', version: 1, title: 'Lighting consultation' },
        { id: 'patient-intake', version: '1.0.0', title: 'Patient intake' },
        { id: 'refund-approval', version: 1, title: 'Refund request' },
      ],
    });
  });

  it('POST /api/flows/{flowId}/sessions is 201 with the session id and the opening reply', async () => {
    const response = await call(url, `/api/flows/${INTAKE}/sessions`, { method: 'POST' });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['reply', 'sessionId']);
    const { sessionId, reply } = response.body as { sessionId: string; reply: Reply };
    expect(sessionId).toMatch(SESSION_ID);
    expect(reply).toMatchObject({
      sessionId,
      flowId: INTAKE,
      flowVersion: '1.0.0',
      state: { '1_patient_info_availability': 'asking' },
      buttons: [
        { label: 'Yes', value: 'Yes' },
        { label: 'No', value: 'No' },
      ],
      buttonContext: 'gate_question',
      answers: {},
      artifacts: [],
      completion: AWAITING_ANSWER,
    });
    expect(reply.message).toMatch(/patient's information available/);
  });

  it('starts a session of the other example flow too, and accepts an empty JSON object as the start body', async () => {
    const response = await call(url, '/api/flows/clinic-callback/sessions', { json: {} });
    expect(response.status).toBe(201);
    expect(response.body.reply).toMatchObject({ sessionId: response.body.sessionId, flowId: 'clinic-callback', flowVersion: 1 });
  });

  it('completes a whole intake with button and text turns, ending in a HANDOFF', async () => {
    const { sessionId, replies } = await fullIntake(url);
    expectCompletedIntake(sessionId, replies);
    // The free-text turns were read by the matcher, not taken as buttons.
    expect(replies[2]!.answers['2_insurance_history']).toMatchObject({ value: 'No', source: 'match', raw: 'no gaps' });
    expect(replies[5]!.answers['5_preferred_contact']).toMatchObject({ value: 'Phone', source: 'match', raw: 'by phone' });
    expect(replies[5]!.buttons).toEqual([
      { label: 'Looks Good', value: 'confirm' },
      { label: 'Edit Answers', value: 'edit' },
    ]);
  });

  it('GET /api/sessions/{id} gives the current reply and the history: the opening reply (turn null), then every turn', async () => {
    const { sessionId, replies } = await fullIntake(url);
    const response = await call(url, `/api/sessions/${sessionId}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      reply: replies[replies.length - 1],
      history: [{ seq: 1, turn: null, reply: replies[0] }, ...INTAKE_TURNS.map((t, i) => ({ seq: i + 2, turn: t, reply: replies[i + 1] }))],
      nextAfter: null,
    });
  });

  it('GET /api/sessions/{id} of a session just started has one history entry', async () => {
    const { sessionId, reply } = await startSession(url);
    const response = await call(url, `/api/sessions/${sessionId}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ reply, history: [{ seq: 1, turn: null, reply }], nextAfter: null });
  });

  describe('turnId', () => {
    it('the same turn posted twice returns the identical reply and the history grows once', async () => {
      const { sessionId } = await startSession(url);
      const t = { button: 'Yes', turnId: 'turn-1' };
      const first = await turn(url, sessionId, t);
      const second = await turn(url, sessionId, t);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.text).toBe(first.text);
      const session = await call(url, `/api/sessions/${sessionId}`);
      expect(session.body.history).toHaveLength(2);
      expect(session.body.history[1]).toEqual({ seq: 2, turn: t, reply: first.body });
      // The conversation is still at gate 2: the replay was not applied as a second "Yes".
      expect(session.body.reply.state).toEqual({ '2_insurance_history': 'asking' });
    });

    it('a replayed turnId with a different turn is 409 turn_id_reused, not the old reply, and changes nothing', async () => {
      const { sessionId } = await startSession(url);
      const first = await takeTurn(url, sessionId, { button: 'Yes', turnId: 'a' });
      const reused = await turn(url, sessionId, { button: 'No', turnId: 'a' });
      expectError(reused, 409, 'turn_id_reused', /turnId "a" was already used for a different turn/);
      expectError(await turn(url, sessionId, { text: 'Yes', turnId: 'a' }), 409, 'turn_id_reused');
      expect(await takeTurn(url, sessionId, { button: 'Yes', turnId: 'a' })).toEqual(first);
      const session = await call(url, `/api/sessions/${sessionId}`);
      expect(session.body.history).toHaveLength(2);
    });

    it('the same turnId posted concurrently is applied once', async () => {
      const { sessionId } = await startSession(url);
      const t = { button: 'Yes', turnId: 'racing' };
      const responses = await Promise.all(Array.from({ length: 8 }, () => turn(url, sessionId, t)));
      expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
      expect(new Set(responses.map((r) => r.text)).size).toBe(1);
      const session = await call(url, `/api/sessions/${sessionId}`);
      expect(session.body.history.map((e: { turn: unknown }) => e.turn)).toEqual([null, t]);
    });

    it('distinct turns posted concurrently each appear once in the history', async () => {
      // Unmatched text keeps the conversation at gate 1 (with a budget of failed attempts that allows it): every turn is accepted.
      const patient = await memoryServer({ flows: FLOWS.map((f) => (f.id === INTAKE ? { ...f, maxAttempts: 100 } : f)) });
      try {
        const { sessionId } = await startSession(patient.url);
        const turns = Array.from({ length: 10 }, (_, i) => ({ text: `hmm ${i}`, turnId: `t${i}` }));
        const responses = await Promise.all(turns.map((t) => turn(patient.url, sessionId, t)));
        expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
        const session = await call(patient.url, `/api/sessions/${sessionId}`);
        const seen = session.body.history.slice(1).map((e: { turn: { turnId: string } }) => e.turn.turnId);
        expect([...seen].sort()).toEqual(turns.map((t) => t.turnId).sort());
      } finally {
        await patient.close();
      }
    });

    it('a turnId replayed after the session finished still returns its reply (200, not 409)', async () => {
      const { sessionId } = await startSession(url);
      for (const t of INTAKE_TURNS.slice(0, -1)) await takeTurn(url, sessionId, t);
      const last = await takeTurn(url, sessionId, { button: 'confirm', turnId: 'final' });
      expect(last.completion).toEqual(HANDED_OFF);
      const replay = await turn(url, sessionId, { button: 'confirm', turnId: 'final' });
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(last);
    });
  });

  describe('400: malformed bodies', () => {
    let sessionId: string;
    let historyBefore: unknown;
    beforeAll(async () => {
      ({ sessionId } = await startSession(url));
      historyBefore = (await call(url, `/api/sessions/${sessionId}`)).body;
    });
    afterEach(async () => {
      // A refused turn changes nothing.
      expect((await call(url, `/api/sessions/${sessionId}`)).body).toEqual(historyBefore);
    });

    it.each([
      ['truncated object', '{"text": "Yes"'],
      ['a bare word', 'Yes'],
      ['single quotes', "{'text': 'Yes'}"],
      ['trailing comma', '{"text": "Yes",}'],
    ])('malformed JSON (%s) is 400 invalid_json', async (_, body) => {
      expectError(await call(url, `/api/sessions/${sessionId}/turns`, { body }), 400, 'invalid_json', /not JSON/);
    });

    it('an empty body is 400 (invalid_json) saying it is empty', async () => {
      expectError(await call(url, `/api/sessions/${sessionId}/turns`, { body: '' }), 400, 'invalid_json', /empty/);
      expectError(await call(url, `/api/sessions/${sessionId}/turns`, { method: 'POST' }), 400, 'invalid_json', /empty/);
      expectError(await call(url, `/api/sessions/${sessionId}/turns`, { body: '  \n ' }), 400, 'invalid_json', /empty/);
    });

    it.each([
      ['an unknown key instead of text', { txt: 'x' }],
      ['text that is not a string', { text: 5 }],
      ['an empty button', { button: '' }],
      ['an array', [{ text: 'Yes' }]],
      ['null', null],
      ['a string', 'Yes'],
      ['both text and button', { text: 'Yes', button: 'Yes' }],
      ['an extra key', { text: 'Yes', extra: 1 }],
      ['text over 4000 characters', { text: 'x'.repeat(4001) }],
      ['an empty turnId', { text: 'Yes', turnId: '' }],
      ['a numeric turnId', { text: 'Yes', turnId: 1 }],
    ])('valid JSON but not a turn (%s) is 400 invalid_turn', async (_, value) => {
      const response = await turn(url, sessionId, value);
      expectError(response, 400, 'invalid_turn', /^invalid turn: expected \{"text": string\} or \{"button": string\}/);
    });

    it('a button that the current reply does not offer is 400 invalid_button, names the offered ones, and is not journaled', async () => {
      const before = (await call(url, `/api/sessions/${sessionId}`)).body;
      expectError(await turn(url, sessionId, { button: 'Maybe' }), 400, 'invalid_button', /^button "Maybe" is not one of the offered buttons: "Yes", "No"$/);
      const after = (await call(url, `/api/sessions/${sessionId}`)).body;
      expect(after).toEqual(before);
    });

    it('the message says what is wrong with an empty button', async () => {
      expectError(await turn(url, sessionId, { button: '' }), 400, 'invalid_turn', /button must not be empty/);
    });

    it('the message says what is wrong with text over 4000 characters', async () => {
      expectError(await turn(url, sessionId, { text: 'x'.repeat(4001) }), 400, 'invalid_turn', /text must be at most 4000 characters/);
    });

    // The next three go beyond the generic "expected ..." prefix: the issue asks
    // that a 400 say what is wrong with *this* body.
    it('the message names the unknown key of {"txt": "x"}', async () => {
      const response = await turn(url, sessionId, { txt: 'x' });
      expect(response.status).toBe(400);
      expect(detail(response.body.error.message)).toMatch(/txt/);
    });

    it('the message says that text must be a string in {"text": 5}', async () => {
      const response = await turn(url, sessionId, { text: 5 });
      expect(response.status).toBe(400);
      expect(detail(response.body.error.message)).toMatch(/text.*(string|number)/i);
    });

    it('the message says that an array is not a turn object', async () => {
      const response = await turn(url, sessionId, [{ text: 'Yes' }]);
      expect(response.status).toBe(400);
      expect(detail(response.body.error.message)).toMatch(/array|object/i);
    });

    it('malformed JSON on the start route is 400 invalid_json and creates no session', async () => {
      const creates = counted.calls.create;
      expectError(await call(url, `/api/flows/${INTAKE}/sessions`, { body: '{"oops' }), 400, 'invalid_json');
      expect(counted.calls.create).toBe(creates);
    });

    it('a refused turn never reaches the store', async () => {
      const { load, commitTurn } = counted.calls;
      await turn(url, sessionId, { txt: 'x' });
      await call(url, `/api/sessions/${sessionId}/turns`, { body: '{' });
      await call(url, `/api/sessions/${sessionId}/turns`, { body: paddedJson({ text: 'Yes' }, 17 * 1024) });
      expect([counted.calls.load, counted.calls.commitTurn]).toEqual([load, commitTurn]);
    });

    it('a malformed body to an unknown session is still 400 (the body is checked first)', async () => {
      expectError(await turn(url, 'no-such-session', { txt: 'x' }), 400, 'invalid_turn');
    });
  });

  describe('404', () => {
    it('an unknown flow is 404 flow_not_found', async () => {
      expectError(await call(url, '/api/flows/no-such-flow/sessions', { method: 'POST' }), 404, 'flow_not_found', /no-such-flow/);
    });

    it('an unknown session is 404 session_not_found for GET and for a turn', async () => {
      const id = 'AAAAAAAAAAAAAAAAAAAAAAAA';
      expectError(await call(url, `/api/sessions/${id}`), 404, 'session_not_found', new RegExp(id));
      expectError(await turn(url, id, { text: 'Yes' }), 404, 'session_not_found', new RegExp(id));
    });

    it.each([
      ['GET', '/api/nope'],
      ['GET', '/'],
      ['GET', '/api'],
      ['POST', '/api/nope'],
      ['DELETE', '/api/sessions/AAAAAAAAAAAAAAAAAAAAAAAA/turns/1'],
    ])('%s %s is 404 not_found', async (method, path) => {
      expectError(await call(url, path, { method }), 404, 'not_found', `no route ${method} ${path}`);
    });

    it.each([
      ['POST', '/api/health', 'GET, HEAD'],
      ['DELETE', '/api/sessions/AAAAAAAAAAAAAAAAAAAAAAAA', 'GET, HEAD'],
      ['GET', '/api/sessions/AAAAAAAAAAAAAAAAAAAAAAAA/turns', 'POST'],
      ['GET', '/api/flows/patient-intake/sessions', 'POST'],
      ['PUT', '/api/flows', 'GET, HEAD'],
    ])('%s %s, a route with other methods, is 405 method_not_allowed with Allow: %s', async (method, path, allow) => {
      const response = await call(url, path, { method });
      expectError(response, 405, 'method_not_allowed', new RegExp(`use ${allow}`));
      expect(response.headers.get('allow')).toBe(allow);
    });
  });

  describe('409: a turn on a finished session', () => {
    it('after the handoff', async () => {
      const { sessionId } = await fullIntake(url);
      const before = (await call(url, `/api/sessions/${sessionId}`)).body;
      expectError(await turn(url, sessionId, { button: 'confirm' }), 409, 'session_finished', new RegExp(sessionId));
      expectError(await turn(url, sessionId, { text: 'hello?' }), 409, 'session_finished');
      expect((await call(url, `/api/sessions/${sessionId}`)).body).toEqual(before);
    });

    it('after a limiting answer stopped the intake', async () => {
      const { sessionId } = await startSession(url);
      expect((await takeTurn(url, sessionId, { button: 'No' })).completion).toEqual(STOPPED);
      expectError(await turn(url, sessionId, { button: 'Yes' }), 409, 'session_finished');
      expect((await call(url, `/api/sessions/${sessionId}`)).body.history).toHaveLength(2);
    });
  });

  describe('413: bodies over 16 KB', () => {
    let sessionId: string;
    beforeAll(async () => {
      ({ sessionId } = await startSession(url));
    });
    const historyLength = async () => (await call(url, `/api/sessions/${sessionId}`)).body.history.length as number;

    it('a 17 KB JSON turn is 413 payload_too_large and changes nothing', async () => {
      const before = await historyLength();
      const body = paddedJson({ text: 'Yes' }, 17 * 1024);
      expectError(await call(url, `/api/sessions/${sessionId}/turns`, { body }), 413, 'payload_too_large', /16384/);
      expect(await historyLength()).toBe(before);
    });

    it('a 15 KB JSON turn is accepted (200)', async () => {
      const before = await historyLength();
      const response = await call(url, `/api/sessions/${sessionId}/turns`, { body: paddedJson({ text: 'hmm' }, 15 * 1024) });
      expect(response.status).toBe(200);
      expect(await historyLength()).toBe(before + 1);
    });

    it('exactly 16384 bytes is accepted, 16385 is not', async () => {
      expect((await call(url, `/api/sessions/${sessionId}/turns`, { body: paddedJson({ text: 'hmm' }, 16 * 1024) })).status).toBe(200);
      expectError(
        await call(url, `/api/sessions/${sessionId}/turns`, { body: paddedJson({ text: 'hmm' }, 16 * 1024 + 1) }),
        413,
        'payload_too_large',
      );
    });

    it('the limit counts bytes, not characters', async () => {
      // 3000 characters of "é" are 6000 bytes; 3 KB of them padded to 17 KB in bytes.
      const body = paddedJson({ text: 'é'.repeat(3000) }, 17 * 1024);
      expect(body.length).toBeLessThan(17 * 1024);
      expectError(await call(url, `/api/sessions/${sessionId}/turns`, { body }), 413, 'payload_too_large');
    });

    it('a chunked 17 KB body (no Content-Length) is 413 too; a chunked 15 KB body is not', async () => {
      const before = await historyLength();
      expectError(
        await call(url, `/api/sessions/${sessionId}/turns`, { body: chunkedBody(paddedJson({ text: 'hmm' }, 17 * 1024)) }),
        413,
        'payload_too_large',
      );
      expect(await historyLength()).toBe(before);
      const ok = await call(url, `/api/sessions/${sessionId}/turns`, { body: chunkedBody(paddedJson({ text: 'hmm' }, 15 * 1024)) });
      expect(ok.status).toBe(200);
      expect(await historyLength()).toBe(before + 1);
    });

    it('the start route refuses a 17 KB body with 413', async () => {
      expectError(
        await call(url, `/api/flows/${INTAKE}/sessions`, { body: paddedJson({}, 17 * 1024) }),
        413,
        'payload_too_large',
      );
    });
  });
});

/** The part of an invalid_turn message after the generic "expected ..." prefix. */
function detail(message: string): string {
  return message.replace(/^invalid turn: expected \{"text": string\} or \{"button": string\}, with an optional "turnId": /, '');
}

describe('409: incompatible snapshot', () => {
  const v1 = FLOWS.find((f) => f.id === INTAKE)!;
  const old = parseFlowValue({ ...structuredClone(v1), version: '0.9.0' }, 'patient-intake@0.9.0');

  /** A memory store holding one session saved with patient-intake@0.9.0, one turn in. */
  async function storeWithOldSession() {
    const store = createMemoryStore();
    const oldRuntime = createFlowRuntime({ flows: [old], store });
    const { sessionId } = await oldRuntime.start(INTAKE);
    await oldRuntime.turn(sessionId, { button: 'Yes' });
    return { store, sessionId };
  }

  it('a session saved with a flow version no longer registered, and no migration, is 409 incompatible_snapshot', async () => {
    const { store, sessionId } = await storeWithOldSession();
    const server = await memoryServer({ store, flows: [v1] });
    try {
      const before = await store.history(sessionId);
      const response = await turn(server.url, sessionId, { button: 'No' });
      expectError(response, 409, 'incompatible_snapshot', /0\.9\.0/);
      expect(await store.history(sessionId)).toEqual(before);
      expect((await store.load(sessionId))!.session).toMatchObject({ flowVersion: '0.9.0', version: 2 });
      // The session can still be read.
      const read = await call(server.url, `/api/sessions/${sessionId}`);
      expect(read.status).toBe(200);
      expect(read.body.history).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('the same session continues on the old version when it is still registered', async () => {
    const { store, sessionId } = await storeWithOldSession();
    const server = await memoryServer({ store, flows: [old, v1] });
    try {
      const reply = await takeTurn(server.url, sessionId, { button: 'No' });
      expect(reply).toMatchObject({ flowVersion: '0.9.0', state: { '3_visit_type': 'asking' } });
      // New sessions start on the current version.
      expect((await startSession(server.url)).reply.flowVersion).toBe('1.0.0');
    } finally {
      await server.close();
    }
  });

  it('and is migrated when the current version declares a migration from it', async () => {
    const { store, sessionId } = await storeWithOldSession();
    const migrating = parseFlowValue({ ...structuredClone(v1), migrations: [{ from: '0.9.0', nodes: {} }] }, 'patient-intake@1.0.0');
    const server = await memoryServer({ store, flows: [migrating] });
    try {
      const reply = await takeTurn(server.url, sessionId, { button: 'No' });
      expect(reply).toMatchObject({ flowVersion: '1.0.0', state: { '3_visit_type': 'asking' } });
      expect((await store.load(sessionId))!.session.flowVersion).toBe('1.0.0');
    } finally {
      await server.close();
    }
  });
});

describe('503: the store is unreachable', () => {
  let server: LoopbackServer;
  let flaky: ReturnType<typeof flakyStore>;
  const onError = vi.fn();
  beforeAll(async () => {
    flaky = flakyStore(createMemoryStore());
    server = await memoryServer({ store: flaky.store, onError });
  });
  afterAll(() => server.close());
  afterEach(() => {
    flaky.heal();
    onError.mockClear();
  });

  const STORE_UNAVAILABLE = /store is unavailable/;

  it('starting a session is 503 store_unavailable when create fails, and no session exists afterwards', async () => {
    flaky.down.add('create');
    const response = await call(server.url, `/api/flows/${INTAKE}/sessions`, { method: 'POST' });
    expectError(response, 503, 'store_unavailable', STORE_UNAVAILABLE);
    // The internal message of the store error is not shown to the caller.
    expect(response.body.error.message).not.toMatch(/test store/);
    expect(onError).not.toHaveBeenCalled();
  });

  it('a turn is 503 when load fails; GET is 503 when load or history fails', async () => {
    // Started by another process on the same store: this one keeps nothing of it, so its turn must load it.
    const other = await memoryServer({ store: flaky.store, onError });
    const { sessionId } = await startSession(other.url).finally(() => other.close());
    flaky.down.add('load');
    expectError(await turn(server.url, sessionId, { button: 'Yes' }), 503, 'store_unavailable');
    expectError(await call(server.url, `/api/sessions/${sessionId}`), 503, 'store_unavailable');
    flaky.heal();
    flaky.down.add('history');
    expectError(await call(server.url, `/api/sessions/${sessionId}`), 503, 'store_unavailable');
    flaky.heal();
    expect((await call(server.url, `/api/sessions/${sessionId}`)).body.history).toHaveLength(1);
  });

  it('a turn whose commit fails is 503, the journal is unchanged, and the same turn succeeds once healed', async () => {
    const { sessionId } = await startSession(server.url);
    await takeTurn(server.url, sessionId, { button: 'Yes' });
    const before = await flaky.inner.history(sessionId);
    const recordBefore = (await flaky.inner.load(sessionId))!.session;

    flaky.down.add('commitTurn');
    const t = { text: 'no gaps', turnId: 'retry-me' };
    expectError(await turn(server.url, sessionId, t), 503, 'store_unavailable');
    expectError(await turn(server.url, sessionId, t), 503, 'store_unavailable');
    expect(await flaky.inner.history(sessionId)).toEqual(before);
    expect((await flaky.inner.load(sessionId))!.session).toEqual(recordBefore);

    flaky.heal();
    const reply = await takeTurn(server.url, sessionId, t);
    expect(reply.answers['2_insurance_history']).toMatchObject({ value: 'No' });
    const after = await flaky.inner.history(sessionId);
    expect(after).toHaveLength(before.length + 1);
    expect(after[after.length - 1]).toMatchObject({ turnId: 'retry-me', turn: t, reply });
    // And the retried turnId is now a replay.
    expect(await takeTurn(server.url, sessionId, t)).toEqual(reply);
    expect(await flaky.inner.history(sessionId)).toHaveLength(before.length + 1);
  });

  it('a failure that is not the store being unreachable is 500 internal, without its details, and is reported', async () => {
    const { sessionId } = await startSession(server.url);
    flaky.broken.add('load');
    const response = await call(server.url, `/api/sessions/${sessionId}`);
    expectError(response, 500, 'internal', /^internal error$/);
    expect(response.text).not.toMatch(/secret detail/);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('the routes that do not touch the store keep working', async () => {
    flaky.down.add('create').add('load').add('commitTurn').add('history');
    expect((await call(server.url, '/api/health')).status).toBe(200);
    expect((await call(server.url, '/api/flows')).status).toBe(200);
    expect((await call(server.url, '/api/openapi.json')).status).toBe(200);
  });
});

describe('503: a PGlite store closed under the server', () => {
  it('answers 503 store_unavailable on every store route; reopened on the same directory, the journal is unchanged and the session continues', async () => {
    const dir = tempDir();
    const flaky = flakyStore(await createPgliteStore({ dataDir: templateDataDir('plain', dir) }));
    const server = await memoryServer({ store: flaky.store });
    try {
      const { sessionId } = await startSession(server.url);
      await takeTurn(server.url, sessionId, { button: 'Yes' });
      await takeTurn(server.url, sessionId, { text: 'no gaps' });
      const before = (await call(server.url, `/api/sessions/${sessionId}`)).body;
      const journalBefore = await flaky.inner.history(sessionId);
      expect(journalBefore).toHaveLength(3);

      await flaky.inner.close();
      expectError(await turn(server.url, sessionId, { button: 'New patient', turnId: 'x1' }), 503, 'store_unavailable');
      expectError(await call(server.url, `/api/sessions/${sessionId}`), 503, 'store_unavailable');
      expectError(await call(server.url, `/api/flows/${INTAKE}/sessions`, { method: 'POST' }), 503, 'store_unavailable');

      // Reopened on the same directory: nothing half written.
      const reopened = await createPgliteStore({ dataDir: dir });
      expect(await reopened.history(sessionId)).toEqual(journalBefore);
      expect((await reopened.load(sessionId))!.session.version).toBe(3);
      expect((await reopened.load(sessionId, 'x1'))!.replayed).toBeNull();

      // Healed: the server reads the same session and the turn goes through once.
      flaky.inner = reopened;
      expect((await call(server.url, `/api/sessions/${sessionId}`)).body).toEqual(before);
      const reply = await takeTurn(server.url, sessionId, { button: 'New patient', turnId: 'x1' });
      expect(reply.state).toEqual({ '4_patient_age_group': 'asking' });
      expect(await reopened.history(sessionId)).toHaveLength(4);
    } finally {
      await server.close();
      await flaky.inner.close().catch(() => undefined);
    }
  });
});

describe('auth (jwtSecret)', () => {
  const SECRET = 'a-test-secret-of-reasonable-length';
  let server: LoopbackServer;
  let url: string;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    server = await memoryServer({ jwtSecret: SECRET });
    url = server.url;
    alice = await sign({ sub: 'alice' }, SECRET);
    bob = await sign({ sub: 'bob' }, SECRET);
  });
  afterAll(() => server.close());

  it('/api/health and /api/openapi.json need no token', async () => {
    expect((await call(url, '/api/health')).status).toBe(200);
    const openapi = await call(url, '/api/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } });
  });

  it('requests without a bearer token are 401 on every other route', async () => {
    const { sessionId } = await startSession(url, INTAKE, alice);
    expectError(await call(url, '/api/flows'), 401, 'unauthorized');
    expectError(await call(url, `/api/flows/${INTAKE}/sessions`, { method: 'POST' }), 401, 'unauthorized');
    expectError(await call(url, `/api/sessions/${sessionId}`), 401, 'unauthorized');
    expectError(await turn(url, sessionId, { button: 'Yes' }), 401, 'unauthorized');
    expectError(await call(url, '/api/flows', { headers: { authorization: `Basic ${btoa('alice:pw')}` } }), 401, 'unauthorized');
    expectError(await call(url, '/api/flows', { headers: { authorization: 'Bearer' } }), 401, 'unauthorized');
    // Nothing was applied.
    expect((await call(url, `/api/sessions/${sessionId}`, { token: alice })).body.history).toHaveLength(1);
  });

  it('a token with a bad signature is 401', async () => {
    const forged = await sign({ sub: 'alice' }, 'another-secret');
    expectError(await call(url, '/api/flows', { token: forged }), 401, 'unauthorized', /signature does not match/);
    // A valid token with its signature altered.
    const [h, p, s] = alice.split('.');
    const flipped = `${h}.${p}.${s!.startsWith('A') ? 'B' : 'A'}${s!.slice(1)}`;
    expectError(await call(url, '/api/flows', { token: flipped }), 401, 'unauthorized');
    expectError(await call(url, '/api/flows', { token: 'not.a.jwt' }), 401, 'unauthorized');
  });

  it('a token without sub (or with an empty or non-string sub) is 401', async () => {
    for (const payload of [{ name: 'alice' }, { sub: '' }, { sub: 42 }]) {
      const token = await sign(payload as Record<string, unknown>, SECRET);
      expectError(await call(url, '/api/flows', { token }), 401, 'unauthorized');
    }
    expectError(await call(url, '/api/flows', { token: await sign({ name: 'alice' }, SECRET) }), 401, 'unauthorized', /sub/);
  });

  it('an expired token, or one signed with another algorithm, is 401', async () => {
    const expired = await sign({ sub: 'alice', exp: Math.floor(Date.now() / 1000) - 60 }, SECRET);
    expectError(await call(url, '/api/flows', { token: expired }), 401, 'unauthorized');
    const hs512 = await sign({ sub: 'alice' }, SECRET, 'HS512');
    expectError(await call(url, '/api/flows', { token: hs512 }), 401, 'unauthorized');
  });

  it("a session created by alice is 404 for bob (GET and turns), exactly like an unknown session, and works for alice", async () => {
    const { sessionId, reply } = await startSession(url, INTAKE, alice);

    const bobGet = await call(url, `/api/sessions/${sessionId}`, { token: bob });
    expectError(bobGet, 404, 'session_not_found');
    const bobTurn = await turn(url, sessionId, { button: 'No' }, bob);
    expectError(bobTurn, 404, 'session_not_found');
    // Indistinguishable from a session that does not exist.
    const unknownId = 'ZZZZZZZZZZZZZZZZZZZZZZZZ';
    const unknown = await call(url, `/api/sessions/${unknownId}`, { token: bob });
    expect(bobGet.body).toEqual(JSON.parse(unknown.text.replaceAll(unknownId, sessionId)));
    // A replay of a turnId by bob does not reveal alice's reply either.
    await takeTurn(url, sessionId, { button: 'Yes', turnId: 'alice-1' }, alice);
    expectError(await turn(url, sessionId, { button: 'Yes', turnId: 'alice-1' }, bob), 404, 'session_not_found');

    const aliceGet = await call(url, `/api/sessions/${sessionId}`, { token: alice });
    expect(aliceGet.status).toBe(200);
    expect(aliceGet.body.history).toHaveLength(2);
    expect(aliceGet.body.history[0]).toEqual({ seq: 1, turn: null, reply });
    const next = await takeTurn(url, sessionId, { text: 'no gaps' }, alice);
    expect(next.state).toEqual({ '3_visit_type': 'asking' });
  });

  it('a whole intake works with a token', async () => {
    const { sessionId, replies } = await fullIntake(url, alice);
    expectCompletedIntake(sessionId, replies);
  });

  it('another token of the same subject sees the session', async () => {
    const { sessionId } = await startSession(url, INTAKE, alice);
    const alice2 = await sign({ sub: 'alice', iat: Math.floor(Date.now() / 1000) - 5 }, SECRET);
    expect((await call(url, `/api/sessions/${sessionId}`, { token: alice2 })).status).toBe(200);
  });
});

describe('session ids', () => {
  it('1000 started sessions have distinct, 24-character base64url ids (144 random bits)', async () => {
    const server = await memoryServer();
    try {
      const ids: string[] = [];
      for (let batch = 0; batch < 20; batch++) {
        const started = await Promise.all(Array.from({ length: 50 }, () => startSession(server.url)));
        for (const s of started) {
          expect(s.reply.sessionId).toBe(s.sessionId);
          ids.push(s.sessionId);
        }
      }
      expect(ids).toHaveLength(1000);
      for (const id of ids) expect(id).toMatch(SESSION_ID);
      // None starts with "-", which a command line would read as an option (`gateflow inputs --session -x...`).
      expect(ids.filter((id) => id.startsWith('-'))).toEqual([]);
      expect(new Set(ids).size).toBe(1000);
      // Random, not sequential: every base64url character shows up in every position's mix.
      const alphabet = new Set(ids.join(''));
      expect(alphabet.size).toBeGreaterThan(60);
    } finally {
      await server.close();
    }
  });
});

describe('GET /api/openapi.json', () => {
  let doc: any;
  let authDoc: any;
  beforeAll(async () => {
    const plain = await memoryServer();
    const withAuth = await memoryServer({ jwtSecret: 'a-secret-of-at-least-32-bytes-000' });
    try {
      const response = await call(plain.url, '/api/openapi.json');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      doc = response.body;
      authDoc = (await call(withAuth.url, '/api/openapi.json')).body;
    } finally {
      await plain.close();
      await withAuth.close();
    }
  });

  const ROUTES: Record<string, Record<string, number[]>> = {
    '/api/health': { get: [200] },
    '/api/ready': { get: [200, 503] },
    '/api/flows': { get: [200] },
    '/api/flows/{flowId}/sessions': { post: [201, 400, 403, 404, 405, 413, 415, 503] },
    '/api/sessions/{sessionId}/turns': { post: [200, 400, 403, 404, 405, 409, 413, 415, 503] },
    '/api/sessions/{sessionId}': { get: [200, 400, 403, 404, 503] },
    '/api/sessions/{sessionId}/cancel': { post: [200, 400, 403, 404, 405, 409, 413, 415, 503] },
    '/api/sessions': { get: [200, 400, 403, 503] },
    '/api/sessions/{sessionId}/fork': { post: [201, 400, 403, 404, 405, 409, 413, 415, 503] },
    '/api/inputs': { get: [200, 400, 403, 503] },
    '/api/inputs/{gateId}': { post: [200, 400, 403, 404, 405, 409, 413, 415, 503] },
    '/api/events': { get: [200, 400, 403, 503] },
    '/api/graph': { get: [200, 400, 403, 503] },
    '/api/agent/act': { post: [200, 400, 403, 404, 405, 409, 413, 415, 502, 503] },
    '/api/projects': { post: [201, 400, 403, 405, 413, 415, 503], get: [200, 403, 503] },
    '/api/projects/{id}/documents': { get: [200, 400, 403, 404, 503] },
    '/api/documents/{id}': { get: [200, 400, 403, 404, 503] },
    '/api/chats/{id}/messages': { get: [200, 400, 403, 404, 503] },
    '/api/drawings': { get: [200, 403, 503] },
    '/api/drawings/{id}': { get: [200, 403, 404, 503] },
    '/api/drawings/{id}/coverage': { get: [200, 403, 404, 503] },
    '/api/drawings/{id}/layout': { get: [200, 400, 403, 404, 503] },
    '/api/openapi.json': { get: [200] },
  };
  const listed = (d: any, path: string, method: string) => Object.keys(d.paths[path][method].responses).map(Number).sort();

  it("is OpenAPI 3.1.0 with every route and exactly its methods", () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'gateflow', version: expect.any(String) });
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(ROUTES).sort());
    for (const [path, methods] of Object.entries(ROUTES)) expect(Object.keys(doc.paths[path]).sort(), path).toEqual(Object.keys(methods).sort());
  });

  it.each(
    Object.entries(ROUTES).flatMap(([path, methods]) => Object.entries(methods).map(([method, statuses]) => [method, path, statuses] as const)),
  )('%s %s lists the statuses the route answers with', (method, path, statuses) => {
    for (const status of statuses) expect(listed(doc, path, method), `${method} ${path}`).toContain(status);
  });

  it('with auth, every route but health and the document lists 401 and the bearer scheme', () => {
    for (const [path, methods] of Object.entries(ROUTES))
      for (const method of Object.keys(methods)) {
        const open = path === '/api/health' || path === '/api/ready' || path === '/api/openapi.json';
        expect(listed(authDoc, path, method).includes(401), `${method} ${path}`).toBe(!open);
        if (!open) expect(authDoc.paths[path][method].security, `${method} ${path}`).toEqual([{ bearer: [] }]);
      }
    for (const methods of Object.values(doc.paths) as Record<string, { responses: object }>[])
      for (const op of Object.values(methods)) expect(Object.keys(op.responses)).not.toContain('401');
  });

  it('components.schemas.Reply requires the Reply contract fields', () => {
    const reply = doc.components.schemas.Reply;
    expect(reply.type).toBe('object');
    expect(reply.required).toEqual(expect.arrayContaining(['sessionId', 'flowId', 'state', 'message', 'buttons', 'completion']));
    expect(reply.properties.completion.required).toEqual(expect.arrayContaining(['isComplete', 'reason', 'readyForHandoff']));
  });

  it('the turn body and the error body are described', () => {
    const turnBody = doc.paths['/api/sessions/{sessionId}/turns'].post.requestBody;
    expect(turnBody.required).toBe(true);
    expect(turnBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Turn' });
    const error = doc.components.schemas.Error;
    expect(error.required).toEqual(['error']);
    expect(error.properties.error.required).toEqual(expect.arrayContaining(['code', 'message']));
    expect(doc.paths['/api/sessions/{sessionId}/turns'].post.responses['409'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
  });

  it('every $ref points at a component that exists', () => {
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(doc.components.schemas).toHaveProperty(ref.slice('"#/components/schemas/'.length, -1));
  });
});

describe('startServer with PGlite in a temp directory', () => {
  it('serves a full intake; after a restart on the same directory the session is still there with its history', async () => {
    // A copy of the migrated template with AGE, as a server leaves a directory: what is tested is serving and restarting, not initdb.
    const dataDir = templateDataDir('graph', join(tempDir(), 'db'));
    const extract = createExtractActor();
    const first = await startServer({ workflows: FLOWS.map((f) => flowWorkflow(f)), actors: { extract }, port: 0, dataDir });
    let sessionId: string;
    let before: { reply: Reply; history: { turn: Turn | null; reply: Reply }[] };
    try {
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(first.store.kind).toBe('pglite');
      expect(first.storeDescription).toBe(`PGlite in ${dataDir}`);
      const intake = await fullIntake(first.url);
      sessionId = intake.sessionId;
      expectCompletedIntake(sessionId, intake.replies);
      const read = await call(first.url, `/api/sessions/${sessionId}`);
      expect(read.status).toBe(200);
      before = read.body;
      expect(before.history).toHaveLength(INTAKE_TURNS.length + 1);
    } finally {
      await first.close();
    }
    // Closed: the port no longer answers.
    await expect(fetch(`${first.url}/api/health`)).rejects.toThrow();

    const second = await startServer({ workflows: FLOWS.map((f) => flowWorkflow(f)), actors: { extract }, port: 0, dataDir });
    try {
      const read = await call(second.url, `/api/sessions/${sessionId}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(before);
      expect(read.body.history.map((e: { turn: unknown }) => e.turn)).toEqual([null, ...INTAKE_TURNS]);
      expect(read.body.reply.completion).toEqual(HANDED_OFF);
      expectError(await turn(second.url, sessionId, { button: 'confirm' }), 409, 'session_finished');
      expect((await call(second.url, '/api/flows')).body.flows.map((f: { id: string }) => f.id)).toEqual(FLOWS.map((f) => f.id));
    } finally {
      await second.close();
    }
  });
});

describe('client mistakes on the SQL store are not store outages', () => {
  // A NUL character is valid in a URL (%00) and in JSON ("\u0000") but not in a
  // PostgreSQL text value: the store must not answer 503 "try again" for it.
  let server: LoopbackServer;
  let store: Store;
  beforeAll(async () => {
    store = await createPgliteStore({ dataDir: templateDataDir('plain', tempDir()) });
    server = await memoryServer({ store });
  });
  afterAll(async () => {
    await server.close();
    await store.close();
  });

  it('GET /api/sessions/%00 is 404 session_not_found, not 503', async () => {
    expectError(await call(server.url, '/api/sessions/%00abc'), 404, 'session_not_found');
  });

  it('a turn on session id %00 is 404 session_not_found, not 503', async () => {
    expectError(await turn(server.url, '%00abc', { text: 'Yes' }), 404, 'session_not_found');
  });

  it('a turnId holding a NUL character is answered (200) or refused (400), not 503', async () => {
    const { sessionId } = await startSession(server.url);
    const response = await turn(server.url, sessionId, { button: 'Yes', turnId: 'a\u0000b' });
    expect([200, 400], response.text).toContain(response.status);
  });

  it('text holding a NUL character is answered (200)', async () => {
    const { sessionId } = await startSession(server.url);
    const response = await turn(server.url, sessionId, { text: 'Y\u0000es' });
    expect(response.status, response.text).toBe(200);
  });
});
