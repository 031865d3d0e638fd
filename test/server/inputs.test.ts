/**
 * Input gates over HTTP (issue 12, section 3) on a real socket on loopback:
 * `GET /api/inputs`, `POST /api/inputs/{gateId}`, `POST /api/sessions/{id}/cancel`
 * and the `GET /api/events` stream — every status and code, ownership and
 * roles with JWTs, deadlines passed with the runtime's clock, a restart on
 * PGlite, and the OpenAPI document of these routes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sign } from 'hono/jwt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReplySchema, type Reply } from '../../src/flow/reply.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { createRuntime, CANCELLED_MESSAGE, type Runtime, type RuntimeEvent } from '../../src/runtime/runtime.js';
import { createApp, MAX_BODY_BYTES } from '../../src/server/app.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { createPgliteStore } from '../../src/store/pglite.js';
import { templateDataDir } from '../helpers/pglite-template.js';
import type { Store } from '../../src/store/types.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import type { Workflow } from '../../src/workflow/types.js';
import { approvalWorkflow } from '../helpers/approval-workflow.js';
import { call, exampleFlows, flakyStore, paddedJson, serveOnLoopback, type ApiResponse, type LoopbackServer } from '../helpers/http.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const REFUND = 'refund-approval';
const T0 = new Date('2026-11-24T10:00:00.000Z');
const HOUR = 3_600_000;
const GATE_ID = /^in_[a-z2-7]{16}$/;
const SECRET = 'a-secret-of-at-least-32-bytes-for-inputs';

const refundDoc = exampleFlows().find((f) => f.id === REFUND)!;
/** The example refund flow and the hand-written approval machine (whose first gate is addressed to the person). */
const WORKFLOWS = [flowWorkflow(refundDoc), approvalWorkflow] as Workflow<ReplyEnvelope>[];

/** The customer's turns of the refund flow up to the manager's approval: 250 EUR for order CD5678. */
const TO_APPROVAL = [{ text: 'CD5678' }, { text: '250' }, { button: 'wrong_item' }, { button: 'confirm' }];
const WAITING_MESSAGE =
  "Your refund of 250 EUR for order CD5678 needs a manager's approval. You can close this page: the answer will be here when you come back, usually within a day.\n\nWaiting for a manager: Approve the refund?, Approved amount (EUR).";

const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

/** The exact error body the API promises. */
function expectError(response: ApiResponse, status: number, code: string, message?: RegExp | string) {
  expect({ status: response.status, body: response.body }, response.text).toEqual({ status, body: { error: { code, message: expect.any(String) } } });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  if (message !== undefined) expect(response.body.error.message).toMatch(message);
}

interface TestServer extends LoopbackServer {
  runtime: Runtime;
  store: Store;
  /** The runtime's clock: move `now` to pass deadlines. */
  clock: { now: Date };
}

/** A runtime (on the memory store unless given one) with a clock the test moves, served on loopback. */
async function serveInputs(options: { store?: Store; jwtSecret?: string; eventPollMs?: number; replySchema?: z.ZodType } = {}): Promise<TestServer> {
  const store = options.store ?? createMemoryStore();
  const clock = { now: T0 };
  const runtime = createRuntime({ workflows: WORKFLOWS, store, clock: () => clock.now, ...(options.eventPollMs !== undefined && { eventPollMs: options.eventPollMs }) });
  const app = createApp({ runtime, ...(options.jwtSecret && { jwtSecret: options.jwtSecret }), ...(options.replySchema && { replySchema: options.replySchema }) });
  const server = await serveOnLoopback(app);
  return {
    ...server,
    runtime,
    store,
    clock,
    close: async () => {
      await server.close();
      runtime.close();
    },
  };
}

const auth = (token: string | undefined) => (token === undefined ? {} : { token });

async function start(url: string, workflowId: string, token?: string): Promise<{ sessionId: string; reply: Reply }> {
  const response = await call(url, `/api/flows/${workflowId}/sessions`, { method: 'POST', ...auth(token) });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** A refund session waiting for the manager's two gates. */
async function atApproval(url: string, token?: string): Promise<{ sessionId: string; reply: Reply; approved: string; amount: string }> {
  const { sessionId } = await start(url, REFUND, token);
  return toApproval(url, sessionId, token);
}

/** The customer's turns of a refund session started already, up to the manager's gates. */
async function toApproval(url: string, sessionId: string, token?: string): Promise<{ sessionId: string; reply: Reply; approved: string; amount: string }> {
  let reply: Reply | undefined;
  for (const turn of TO_APPROVAL) {
    const response = await call(url, `/api/sessions/${sessionId}/turns`, { json: turn, ...auth(token) });
    expect(response.status, response.text).toBe(200);
    reply = response.body;
  }
  expect(reply!.status).toBe('waiting');
  return { sessionId, reply: reply!, approved: gateOf(reply!, 'approved'), amount: gateOf(reply!, 'approved_amount') };
}

function gateOf(reply: ReplyEnvelope, name: string): string {
  const gate = reply.inputs?.find((g) => g.name === name);
  if (!gate) throw new Error(`no open gate ${name} in ${JSON.stringify(reply.inputs)}`);
  return gate.gateId;
}

const answer = (url: string, gateId: string, body: unknown, token?: string) => call(url, `/api/inputs/${gateId}`, { json: body, ...auth(token) });
const list = (url: string, query = '', token?: string) => call(url, `/api/inputs${query}`, auth(token));
const cancel = (url: string, sessionId: string, options: { json?: unknown; body?: string; token?: string } = {}) =>
  call(url, `/api/sessions/${sessionId}/cancel`, { method: 'POST', ...options });

async function listed(url: string, query = '', token?: string): Promise<{ gateId: string; sessionId: string; name: string }[]> {
  const response = await list(url, query, token);
  expect(response.status, response.text).toBe(200);
  // One page: these tests open fewer gates than a page holds.
  expect(Object.keys(response.body)).toEqual(['inputs', 'nextAfter']);
  expect(response.body.nextAfter).toBeNull();
  return response.body.inputs;
}

async function sessionOf(url: string, sessionId: string, token?: string): Promise<{ reply: Reply; history: { seq: number; turn: unknown; reply: Reply }[] }> {
  const response = await call(url, `/api/sessions/${sessionId}`, auth(token));
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** One event as the stream frames it: the SSE `id` and `event` lines, and the data line parsed. */
interface StreamedEvent {
  id: string | undefined;
  event: string | undefined;
  data: RuntimeEvent;
}

interface EventStream {
  response: Response;
  messages: StreamedEvent[];
  comments: string[];
  /** The events' data in arrival order. */
  events(): RuntimeEvent[];
  /** Waits until `test` holds for what has arrived (or fails after `ms`). */
  until(test: (events: RuntimeEvent[]) => boolean, what: string, ms?: number): Promise<void>;
  /** Whether the server ended the stream. */
  ended(): boolean;
  close(): Promise<void>;
}

/** Opens `GET /api/events` with fetch and reads its body as server-sent events; resolves once the stream says it is connected. */
async function openEvents(url: string, query = '', token?: string): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events${query}`, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const messages: StreamedEvent[] = [];
  const comments: string[] = [];
  let ended = false;
  let wake = () => {};
  const reading = (async () => {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const fields: Record<string, string[]> = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else {
              const colon = line.indexOf(':');
              const name = line.slice(0, colon);
              (fields[name] ??= []).push(line.slice(colon + 1).replace(/^ /, ''));
            }
          }
          if (fields.data) messages.push({ id: fields.id?.[0], event: fields.event?.[0], data: JSON.parse(fields.data.join('\n')) as RuntimeEvent });
        }
        wake();
      }
    } catch {
      // Aborted by close().
    } finally {
      ended = true;
      wake();
    }
  })();
  const events = () => messages.map((m) => m.data);
  const until = async (test: (events: RuntimeEvent[]) => boolean, what: string, ms = PATIENCE_MS) => {
    const deadline = Date.now() + ms;
    while (!test(events())) {
      const left = deadline - Date.now();
      if (ended || left <= 0)
        throw new Error(`${ended ? 'the stream ended' : 'timed out'} waiting for ${what}; got ${JSON.stringify(events().map((e) => [e.type, e.data]))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  };
  await until(() => comments.includes('connected'), 'the connected comment');
  return {
    response,
    messages,
    comments,
    events,
    until,
    ended: () => ended,
    close: async () => {
      controller.abort();
      await reading;
    },
  };
}

const typesOf = (events: RuntimeEvent[]) => events.map((e) => [e.type, e.gateId, e.data]);
/** What typesOf gives for the session.stepped that ends each saved step: the journal entry it saved and the status after it. */
const stepped = (seq: number, status: string) => ['session.stepped', null, { seq, status }];
/** Whether the stream has the session.stepped of a step that left a session with this status. */
const steppedTo = (status: string) => (events: RuntimeEvent[]) => events.some((e) => e.type === 'session.stepped' && e.data.status === status);

describe('input routes on the memory store', () => {
  let server: TestServer;
  let url: string;
  beforeEach(async () => {
    server = await serveInputs();
    url = server.url;
  });
  afterEach(() => server.close());

  describe('GET /api/inputs', () => {
    it('lists the open gates with every field, the same as the reply carries them', async () => {
      const { sessionId, reply, approved, amount } = await atApproval(url);
      expect(reply.message).toBe(WAITING_MESSAGE);
      const deadline = new Date(T0.getTime() + 24 * HOUR).toISOString();
      const inputs = await listed(url);
      expect(inputs).toEqual([
        {
          gateId: approved,
          sessionId,
          workflowId: REFUND,
          name: 'approved',
          type: 'boolean',
          description: 'Approve the refund?',
          options: [
            { label: 'Approve', value: true },
            { label: 'Decline', value: false },
          ],
          to: 'manager',
          deadline,
          openedAt: T0.toISOString(),
          spec: expect.objectContaining({ name: 'approved', type: 'boolean', trueLabel: 'Approve', falseLabel: 'Decline' }),
        },
        {
          gateId: amount,
          sessionId,
          workflowId: REFUND,
          name: 'approved_amount',
          type: 'number',
          description: 'Approved amount (EUR)',
          options: null,
          to: 'manager',
          deadline,
          openedAt: T0.toISOString(),
          spec: expect.objectContaining({ name: 'approved_amount', type: 'number', min: 0, unit: 'EUR' }),
        },
      ]);
      expect(approved).toMatch(GATE_ID);
      expect(amount).toMatch(GATE_ID);
      expect(inputs).toEqual(reply.inputs);
      expect((await list(url)).headers.get('cache-control')).toBe('no-store');
    });

    it('filters by session and by workflow, across sessions, oldest first', async () => {
      const first = await atApproval(url);
      server.clock.now = new Date(T0.getTime() + 1000);
      const second = await atApproval(url);
      const other = await start(url, 'approval');
      const email = gateOf(other.reply, 'email');
      const all = await listed(url);
      expect(all.map((g) => [g.sessionId, g.name])).toEqual([
        [first.sessionId, 'approved'],
        [first.sessionId, 'approved_amount'],
        [second.sessionId, 'approved'],
        [second.sessionId, 'approved_amount'],
        [other.sessionId, 'email'],
      ]);
      expect((await listed(url, `?sessionId=${second.sessionId}`)).map((g) => g.gateId)).toEqual([second.approved, second.amount]);
      expect((await listed(url, '?workflowId=approval')).map((g) => g.gateId)).toEqual([email]);
      expect((await listed(url, `?workflowId=${REFUND}`)).map((g) => g.sessionId)).toEqual([first.sessionId, first.sessionId, second.sessionId, second.sessionId]);
      expect((await listed(url, `?workflowId=${REFUND}&sessionId=${first.sessionId}`)).map((g) => g.gateId)).toEqual([first.approved, first.amount]);
      // Filters that match nothing are an empty list, not an error.
      expect(await listed(url, `?workflowId=approval&sessionId=${first.sessionId}`)).toEqual([]);
      expect(await listed(url, '?workflowId=no-such-workflow')).toEqual([]);
      expect(await listed(url, '?sessionId=AAAAAAAAAAAAAAAAAAAAAAAA')).toEqual([]);
    });

    it.each([
      ['?session=abc', /unknown query parameter "session" \(did you mean sessionId\?\); this route takes sessionId, workflowId, after, limit/],
      ['?flowId=x', /unknown query parameter "flowId"/],
      ['?sessionId=a&sessionId=b', /give sessionId once, not 2 times/],
      ['?workflowId=x&workflowId=x', /give workflowId once/],
      ['?sessionId=', /sessionId "" must be a session id/],
      ['?sessionId=a%20b', /sessionId "a b" must be a session id/],
      ['?sessionId=' + 'a'.repeat(129), /must be a session id/],
      ['?workflowId=', /workflowId "" must not be empty/],
      ['?workflowId=%00', /workflowId .* must be printable text/],
      ['?workflowId=' + 'w'.repeat(201), /must be at most 200 characters/],
    ])('GET /api/inputs%s is 400 invalid_query saying what is wrong', async (query, message) => {
      expectError(await list(url, query), 400, 'invalid_query', message);
    });
  });

  describe('POST /api/inputs/{gateId}', () => {
    it('answers the gates in any order: after the first the session still waits for the other; the last one gives the terminal reply', async () => {
      const { sessionId, approved, amount } = await atApproval(url);
      const first = await answer(url, amount, { value: '200' });
      expect(first.status, first.text).toBe(200);
      expect(first.body).toMatchObject({ sessionId, flowId: REFUND, status: 'waiting', state: { manager_approval: 'waiting' } });
      expect(first.body.inputs.map((g: { gateId: string }) => g.gateId)).toEqual([approved]);
      expect((await listed(url)).map((g) => g.gateId)).toEqual([approved]);
      // The answer's reply is the session's new reply.
      expect((await sessionOf(url, sessionId)).reply).toEqual(first.body);

      const last = await answer(url, approved, { value: true });
      expect(last.status, last.text).toBe(200);
      expect(last.body).toMatchObject({
        sessionId,
        status: 'done',
        state: 'approved',
        inputs: [],
        buttons: null,
        completion: { isComplete: true, reason: 'completed', readyForHandoff: false },
      });
      expect(last.body.message).toBe(
        'Good news: a manager approved a refund of 200 EUR for order CD5678. It goes back to your original payment method within 5 business days.',
      );
      expect(await listed(url)).toEqual([]);
      const { reply, history } = await sessionOf(url, sessionId);
      expect(reply).toEqual(last.body);
      // Text ("200") and typed values (true) are both read; the journal keeps the typed value and who answered (nobody: no auth).
      expect(history.slice(-2).map((h) => h.turn)).toEqual([
        { input: amount, name: 'approved_amount', value: 200, by: null },
        { input: approved, name: 'approved', value: true, by: null },
      ]);
    });

    it('the other order, declining in words: "decline" then a typed amount end at the declined terminal', async () => {
      const { sessionId, approved, amount } = await atApproval(url);
      const first = await answer(url, approved, { value: 'Decline' });
      expect(first.status, first.text).toBe(200);
      expect(first.body.status).toBe('waiting');
      expect(first.body.inputs.map((g: { name: string }) => g.name)).toEqual(['approved_amount']);
      expect((await listed(url)).map((g) => g.gateId)).toEqual([amount]);
      const last = await answer(url, amount, { value: 0 });
      expect(last.status, last.text).toBe(200);
      expect(last.body).toMatchObject({ sessionId, status: 'done', state: 'declined', inputs: [] });
      expect(last.body.message).toMatch(/^Sorry, a manager looked at your request for order CD5678 and could not approve a refund\./);
    });

    it.each([
      ['approved', 'maybe', /^input "approved" \(gate in_[a-z2-7]{16}\) still waits: "maybe" is not accepted: .*Expected approve or decline \(true or false\)\.$/],
      ['approved', 3, /3 is not accepted: .*Expected approve or decline \(true or false\)\./],
      ['approved_amount', -5, /-5 is not accepted: .*Expected a number of at least 0\./],
      ['approved_amount', 'lots', /"lots" is not accepted: .*Expected a number of at least 0\./],
      ['approved_amount', { amount: 5 }, /is not accepted: it is an object\. Expected a number of at least 0\./],
      ['approved_amount', null, /no value was given\. Expected a number of at least 0\./],
    ])('an invalid value for %s (%j) is 400 invalid_input_value saying what was expected; the gate stays open and answerable', async (name, value, message) => {
      const { sessionId, reply, approved, amount } = await atApproval(url);
      const gateId = name === 'approved' ? approved : amount;
      const before = await sessionOf(url, sessionId);
      expectError(await answer(url, gateId, { value }), 400, 'invalid_input_value', message);
      // Nothing saved: the journal and the listing are unchanged.
      expect(await sessionOf(url, sessionId)).toEqual(before);
      expect(await listed(url)).toEqual(reply.inputs);
      const fixed = await answer(url, gateId, { value: name === 'approved' ? 'yes' : '120' });
      expect(fixed.status, fixed.text).toBe(200);
      expect(fixed.body.inputs.map((g: { gateId: string }) => g.gateId)).toEqual([approved, amount].filter((g) => g !== gateId));
    });

    it.each([
      ['an empty body', '', 'invalid_json', /the request body is empty: send \{"value": \.\.\.\}/],
      ['text that is not JSON', 'yes', 'invalid_json', /the request body is not JSON/],
      ['{} (no value)', '{}', 'invalid_body', /"value" is missing/],
      ['an unknown field', '{"value": true, "by": "me"}', 'invalid_body', /unknown field "by"/],
      ['an array', '[true]', 'invalid_body', /the body must be a JSON object/],
      ['a bare value', 'true', 'invalid_body', /the body must be \{"value": \.\.\.\}/],
    ])('%s (body %j) is 400 %s and the gate stays open', async (_what, body, code, message) => {
      const { approved, reply } = await atApproval(url);
      expectError(await call(url, `/api/inputs/${approved}`, { method: 'POST', body }), 400, code, message);
      expect(await listed(url)).toEqual(reply.inputs);
    });

    it('a body not sent as JSON is 415, one over 16 KB is 413, another method is 405', async () => {
      const { approved, reply } = await atApproval(url);
      const plain = await call(url, `/api/inputs/${approved}`, { method: 'POST', body: '{"value": true}', headers: { 'content-type': 'text/plain' } });
      expectError(plain, 415, 'unsupported_media_type');
      expectError(await call(url, `/api/inputs/${approved}`, { method: 'POST', body: paddedJson({ value: true }, MAX_BODY_BYTES + 1) }), 413, 'payload_too_large');
      const get = await call(url, `/api/inputs/${approved}`);
      expectError(get, 405, 'method_not_allowed');
      expect(get.headers.get('allow')).toBe('POST');
      expect(await listed(url)).toEqual(reply.inputs);
      // Exactly at the limit is still read.
      const atLimit = await call(url, `/api/inputs/${approved}`, { method: 'POST', body: paddedJson({ value: true }, MAX_BODY_BYTES) });
      expect(atLimit.status, atLimit.text).toBe(200);
    });

    it.each([
      ['a well-formed id no gate has', 'in_aaaaaaaaaaaaaaaa'],
      ['a garbled id', 'not-a-gate'],
      ['an id of the wrong alphabet', 'in_AAAAAAAAAAAAAAAA'],
      ['an id holding a NUL', 'in_%00aaaaaaaaaaaaaaa'],
      ['a session id', 'AAAAAAAAAAAAAAAAAAAAAAAA'],
    ])('%s is 404 input_not_found', async (_what, gateId) => {
      expectError(await answer(url, gateId, { value: true }), 404, 'input_not_found', /^no input gate /);
    });

    it('a gate already answered is 409 input_closed, also once the session is done; the first answer stands', async () => {
      const { sessionId, approved, amount } = await atApproval(url);
      expect((await answer(url, approved, { value: false })).status).toBe(200);
      expectError(await answer(url, approved, { value: true }), 409, 'input_closed', /is closed \(answered\): it takes no answer/);
      expect((await answer(url, amount, { value: 50 })).status).toBe(200);
      expectError(await answer(url, approved, { value: true }), 409, 'input_closed', /\(answered\)/);
      expectError(await answer(url, amount, { value: 50 }), 409, 'input_closed', /\(answered\)/);
      const { reply, history } = await sessionOf(url, sessionId);
      expect(reply.state).toBe('declined');
      expect(history.filter((h) => (h.turn as { input?: string } | null)?.input !== undefined)).toHaveLength(2);
    });

    it('two answers to one gate at once: exactly one is applied, the other is 409 input_closed', async () => {
      const { sessionId, approved } = await atApproval(url);
      const responses = await Promise.all([answer(url, approved, { value: true }), answer(url, approved, { value: false })]);
      expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
      const won = responses.find((r) => r.status === 200)!;
      expectError(responses.find((r) => r.status === 409)!, 409, 'input_closed');
      const { history } = await sessionOf(url, sessionId);
      const answers = history.filter((h) => (h.turn as { input?: string } | null)?.input === approved);
      expect(answers).toHaveLength(1);
      expect(answers[0]!.reply).toEqual(won.body);
    });

    it('the person in the conversation answers a gate addressed to them by id, as a text turn would', async () => {
      const { sessionId, reply } = await start(url, 'approval');
      const email = gateOf(reply, 'email');
      expectError(await answer(url, email, { value: 'not an email' }), 400, 'invalid_input_value', /Expected an email address\./);
      const next = await answer(url, email, { value: 'ana@example.com' });
      expect(next.status, next.text).toBe(200);
      expect(next.body).toMatchObject({ sessionId, status: 'waiting', state: 'approval', message: 'Thanks, ana@example.com. A manager will look at it.' });
      expect(next.body.inputs.map((g: { name: string; to: string }) => [g.name, g.to])).toEqual([
        ['approved', 'manager'],
        ['amount', 'manager'],
      ]);
    });
  });

  describe('POST /api/sessions/{id}/cancel', () => {
    it('ends the session as cancelled: its gates close, leave every listing, and answering one is 409 input_closed', async () => {
      const { sessionId, approved, amount } = await atApproval(url);
      const other = await atApproval(url);
      const response = await cancel(url, sessionId);
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({
        sessionId,
        status: 'cancelled',
        message: CANCELLED_MESSAGE,
        buttons: null,
        inputs: [],
        completion: { isComplete: true, reason: 'cancelled', readyForHandoff: false },
      });
      expect(await listed(url, `?sessionId=${sessionId}`)).toEqual([]);
      expect((await listed(url)).map((g) => g.gateId)).toEqual([other.approved, other.amount]);
      expect((await sessionOf(url, sessionId)).reply).toEqual(response.body);
      expectError(await answer(url, approved, { value: true }), 409, 'input_closed', /\(cancelled\)/);
      expectError(await answer(url, amount, { value: 10 }), 409, 'input_closed', /\(cancelled\)/);
      // The session takes nothing more.
      expectError(await call(url, `/api/sessions/${sessionId}/turns`, { json: { text: 'hello?' } }), 409, 'session_finished');
      expectError(await cancel(url, sessionId), 409, 'session_finished', /is finished/);
      // The other session is untouched.
      expect((await answer(url, other.approved, { value: true })).status).toBe(200);
    });

    it('takes an empty body or {}', async () => {
      const a = await atApproval(url);
      const b = await atApproval(url);
      expect((await cancel(url, a.sessionId, { body: '' })).body.status).toBe('cancelled');
      expect((await cancel(url, b.sessionId, { json: {} })).body.status).toBe('cancelled');
      expect(await listed(url)).toEqual([]);
    });

    it('a session that finished cannot be cancelled (409 session_finished)', async () => {
      const { sessionId, approved, amount } = await atApproval(url);
      await answer(url, approved, { value: true });
      await answer(url, amount, { value: 100 });
      expectError(await cancel(url, sessionId), 409, 'session_finished');
      expect((await sessionOf(url, sessionId)).reply.status).toBe('done');
    });

    it.each([
      ['{"reason": "x"}', 'invalid_body', /the cancel body must be empty or \{\}: .*reason/],
      ['[]', 'invalid_body', /the cancel body must be empty or \{\}/],
      ['null', 'invalid_body', /the cancel body must be empty or \{\}/],
      ['nope', 'invalid_json', /not JSON/],
    ])('a body %s is 400 %s and cancels nothing', async (body, code, message) => {
      const { sessionId, reply } = await atApproval(url);
      expectError(await cancel(url, sessionId, { body }), 400, code, message);
      expect((await sessionOf(url, sessionId)).reply).toEqual(reply);
      expect(await listed(url)).toEqual(reply.inputs);
    });

    it('an unknown or malformed session is 404 session_not_found', async () => {
      expectError(await cancel(url, 'AAAAAAAAAAAAAAAAAAAAAAAA'), 404, 'session_not_found');
      expectError(await cancel(url, '%00abc'), 404, 'session_not_found');
      expectError(await cancel(url, 'a'.repeat(129)), 404, 'session_not_found');
    });
  });

  describe('deadlines (the runtime clock moved past them)', () => {
    it('both gates time out: the reply is the person_takes_over terminal, answering is 409 input_closed (timed out)', async () => {
      const { sessionId, approved, amount } = await atApproval(url);
      // A minute before the deadline nothing is due.
      server.clock.now = new Date(T0.getTime() + 24 * HOUR - 60_000);
      expect(await server.runtime.fireDeadlines()).toBe(0);
      expect((await listed(url)).map((g) => g.gateId)).toEqual([approved, amount]);
      server.clock.now = new Date(T0.getTime() + 25 * HOUR);
      expect(await server.runtime.fireDeadlines()).toBe(1);
      expect(await listed(url)).toEqual([]);
      const { reply, history } = await sessionOf(url, sessionId);
      expect(reply).toMatchObject({ status: 'done', state: 'person_takes_over', inputs: [], completion: { isComplete: true, reason: 'handed_off', readyForHandoff: true } });
      expect(reply.message).toMatch(/^This is taking longer than it should, so a person from our support team is taking over your refund request for order CD5678\./);
      expect(history.at(-1)!.turn).toEqual({ timeout: [approved, amount] });
      expectError(await answer(url, approved, { value: true }), 409, 'input_closed', /\(timed out\)/);
      // Fired once.
      expect(await server.runtime.fireDeadlines()).toBe(0);
    });

    it('one gate answered before the deadline, the other times out: still the timeout edge', async () => {
      const { sessionId, approved, amount } = await atApproval(url);
      server.clock.now = new Date(T0.getTime() + HOUR);
      expect((await answer(url, approved, { value: true })).status).toBe(200);
      server.clock.now = new Date(T0.getTime() + 24 * HOUR);
      expect(await server.runtime.fireDeadlines()).toBe(1);
      const { reply, history } = await sessionOf(url, sessionId);
      expect(reply.state).toBe('person_takes_over');
      expect(history.at(-1)!.turn).toEqual({ timeout: [amount] });
      expectError(await answer(url, amount, { value: 10 }), 409, 'input_closed', /\(timed out\)/);
    });
  });
});

describe('input routes with auth: ownership and roles', () => {
  let server: TestServer;
  let url: string;
  const tokens: Record<'cora' | 'mona' | 'eve' | 'sam' | 'cora2', string> = { cora: '', mona: '', eve: '', sam: '', cora2: '' };
  beforeAll(async () => {
    tokens.cora = await sign({ sub: 'cora' }, SECRET);
    tokens.cora2 = await sign({ sub: 'cora', roles: [] }, SECRET);
    tokens.mona = await sign({ sub: 'mona', roles: ['manager'] }, SECRET);
    tokens.eve = await sign({ sub: 'eve' }, SECRET);
    tokens.sam = await sign({ sub: 'sam', roles: ['support', 'Manager'] }, SECRET);
  });
  beforeEach(async () => {
    server = await serveInputs({ jwtSecret: SECRET });
    url = server.url;
  });
  afterEach(() => server.close());

  it('the customer does not list the manager\'s gates and answering one is 403 input_forbidden; the manager lists and answers them', async () => {
    const { sessionId, approved, amount, reply } = await atApproval(url, tokens.cora);
    expect(reply.inputs!.map((g) => g.to)).toEqual(['manager', 'manager']);
    // Listings: the gates the caller may answer.
    expect(await listed(url, '', tokens.cora)).toEqual([]);
    expect(await listed(url, `?sessionId=${sessionId}`, tokens.cora)).toEqual([]);
    expect(await listed(url, '', tokens.eve)).toEqual([]);
    // Roles are compared exactly: "Manager" is another role.
    expect(await listed(url, '', tokens.sam)).toEqual([]);
    expect(await listed(url, '', tokens.mona)).toEqual(reply.inputs);

    expectError(await answer(url, approved, { value: true }, tokens.cora), 403, 'input_forbidden', /is answered by the role "manager", which the caller does not hold/);
    // A caller who cannot see the session at all is told nothing about it: 404, as for an unknown gate.
    expectError(await answer(url, approved, { value: true }, tokens.eve), 404, 'input_not_found');
    expectError(await answer(url, approved, { value: true }, tokens.sam), 404, 'input_not_found');
    expect(await listed(url, '', tokens.mona)).toEqual(reply.inputs);

    // The manager gets what the gate needs (its receipt), never the customer's reply with its answers.
    const first = await answer(url, amount, { value: 180 }, tokens.mona);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ gateId: amount, name: 'approved_amount', status: 'answered', value: 180 });
    expect((await listed(url, '', tokens.mona)).map((g) => g.gateId)).toEqual([approved]);
    const last = await answer(url, approved, { value: 'approve' }, tokens.mona);
    expect(last.status, last.text).toBe(200);
    expect(last.body).toEqual({ gateId: approved, name: 'approved', status: 'answered', value: true });
    expect(last.text).not.toMatch(/CD5678|answers|message|sessionId/);
    // The session stays the customer's: the manager answered its gates but cannot read or cancel it.
    expectError(await call(url, `/api/sessions/${sessionId}`, { token: tokens.mona }), 404, 'session_not_found');
    const { reply: seen, history } = await sessionOf(url, sessionId, tokens.cora);
    expect(seen.message).toMatch(/^Good news: a manager approved a refund of 180 EUR for order CD5678\./);
    expect(history.slice(-2).map((h) => h.turn)).toEqual([
      { input: amount, name: 'approved_amount', value: 180, by: 'mona' },
      { input: approved, name: 'approved', value: true, by: 'mona' },
    ]);
  });

  it("the person's own gate is theirs: listed and answered by the owner (any token of that subject), 404 for everyone else", async () => {
    const { sessionId, reply } = await start(url, 'approval', tokens.cora);
    const email = gateOf(reply, 'email');
    expect((await listed(url, '', tokens.cora)).map((g) => g.gateId)).toEqual([email]);
    expect((await listed(url, '', tokens.cora2)).map((g) => g.gateId)).toEqual([email]);
    expect(await listed(url, '', tokens.mona)).toEqual([]);
    expect(await listed(url, '', tokens.eve)).toEqual([]);
    expectError(await answer(url, email, { value: 'eve@example.com' }, tokens.eve), 404, 'input_not_found');
    expectError(await answer(url, email, { value: 'mona@example.com' }, tokens.mona), 404, 'input_not_found');
    const next = await answer(url, email, { value: 'cora@example.com' }, tokens.cora2);
    expect(next.status, next.text).toBe(200);
    expect(next.body).toMatchObject({ sessionId, state: 'approval', message: 'Thanks, cora@example.com. A manager will look at it.' });
    expect((await listed(url, '', tokens.mona)).map((g) => g.name)).toEqual(['approved', 'amount']);
  });

  it('only the owner cancels: 404 for the manager and for a stranger; then the gates leave the manager\'s listing and answering is 409', async () => {
    const { sessionId, approved } = await atApproval(url, tokens.cora);
    expectError(await cancel(url, sessionId, { token: tokens.mona }), 404, 'session_not_found');
    expectError(await cancel(url, sessionId, { token: tokens.eve }), 404, 'session_not_found');
    expect(await listed(url, '', tokens.mona)).toHaveLength(2);
    const response = await cancel(url, sessionId, { token: tokens.cora });
    expect(response.status, response.text).toBe(200);
    expect(response.body.status).toBe('cancelled');
    expect(await listed(url, '', tokens.mona)).toEqual([]);
    expectError(await answer(url, approved, { value: true }, tokens.mona), 409, 'input_closed', /\(cancelled\)/);
  });

  it('without a token every input route is 401', async () => {
    const { sessionId, approved } = await atApproval(url, tokens.cora);
    for (const response of [await list(url), await answer(url, approved, { value: true }), await cancel(url, sessionId), await call(url, '/api/events')]) {
      expectError(response, 401, 'unauthorized', /send Authorization: Bearer <JWT>/);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect(await listed(url, '', tokens.mona)).toHaveLength(2);
  });

  it.each([
    ['a string', 'manager'],
    ['a list holding a number', [1]],
    ['a list holding an empty name', ['']],
    ['a list holding a control character', ['man\u0000ager']],
    ['an object', { manager: true }],
    ['null', null],
    ['a name over 64 characters', ['m'.repeat(65)]],
    ['more than 50 roles', Array.from({ length: 51 }, (_, i) => `r${i}`)],
  ])('a roles claim that is %s is 401 on every input route, not read as no roles', async (_what, roles) => {
    const { sessionId, approved } = await atApproval(url, tokens.cora);
    const bad = await sign({ sub: 'mona', roles }, SECRET);
    for (const response of [
      await list(url, '', bad),
      await answer(url, approved, { value: true }, bad),
      await cancel(url, sessionId, { token: bad }),
      await call(url, '/api/events', { token: bad }),
    ])
      expectError(response, 401, 'unauthorized', /the token's roles must be a list of at most 50 role names/);
    expect(await listed(url, '', tokens.mona)).toHaveLength(2);
  });
});

describe('GET /api/events', () => {
  let server: TestServer;
  let url: string;
  const streams: EventStream[] = [];
  const listen = async (query = '', token?: string) => {
    const stream = await openEvents(url, query, token);
    streams.push(stream);
    return stream;
  };
  beforeEach(async () => {
    server = await serveInputs({ eventPollMs: 25 });
    url = server.url;
  });
  afterEach(async () => {
    for (const s of streams.splice(0)) await s.close();
    await server.close();
  });

  it('is a text/event-stream that says it is connected; each event has its id and type as the SSE id and event', async () => {
    const stream = await listen();
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.response.headers.get('cache-control')).toBe('no-store');
    const { sessionId, approved, amount } = await atApproval(url);
    await stream.until((e) => e.filter((x) => x.type === 'input.opened').length === 2, 'the two gates opened');
    expect((await answer(url, amount, { value: 300 })).status).toBe(200);
    await stream.until((e) => e.some((x) => x.type === 'input.answered'), 'the first answer');
    expect((await answer(url, approved, { value: 'yes' })).status).toBe(200);
    await stream.until(steppedTo('done'), 'the last step');
    const events = stream.events();
    // Each step after the start (the customer's three turns, then each answer) ends with its session.stepped.
    expect(typesOf(events)).toEqual([
      stepped(2, 'active'),
      stepped(3, 'active'),
      stepped(4, 'active'),
      ['input.opened', approved, { name: 'approved' }],
      ['input.opened', amount, { name: 'approved_amount' }],
      stepped(5, 'waiting'),
      ['input.answered', amount, { name: 'approved_amount', status: 'answered' }],
      stepped(6, 'waiting'),
      ['input.answered', approved, { name: 'approved', status: 'answered' }],
      ['session.finished', null, { status: 'done' }],
      stepped(7, 'done'),
    ]);
    for (const e of events) {
      expect(e).toEqual({
        id: expect.any(Number),
        type: e.type,
        sessionId,
        workflowId: REFUND,
        gateId: e.gateId,
        to: e.type === 'session.finished' || e.type === 'session.stepped' ? null : 'manager',
        data: e.data,
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
    }
    expect(stream.messages.map((m) => [m.id, m.event])).toEqual(events.map((e) => [String(e.id), e.type]));
    const ids = events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('starts from now: what happened before the stream opened is not sent', async () => {
    // Events before the stream: a whole session, and the gates of another.
    const done = await atApproval(url);
    await answer(url, done.approved, { value: true });
    await answer(url, done.amount, { value: 10 });
    const waiting = await atApproval(url);
    const stream = await listen();
    await answer(url, waiting.approved, { value: false });
    await stream.until(steppedTo('waiting'), 'the answer');
    // Give a late resend of the earlier events time to show up.
    await new Promise((r) => setTimeout(r, 150));
    expect(typesOf(stream.events())).toEqual([['input.answered', waiting.approved, { name: 'approved', status: 'answered' }], stepped(6, 'waiting')]);
  });

  it('?sessionId= gives only that session\'s events', async () => {
    const a = await atApproval(url);
    const b = await atApproval(url);
    const onlyB = await listen(`?sessionId=${b.sessionId}`);
    const all = await listen();
    await answer(url, a.approved, { value: true });
    await answer(url, b.approved, { value: true });
    await answer(url, a.amount, { value: 1 });
    await answer(url, b.amount, { value: 2 });
    await all.until((e) => e.filter((x) => x.type === 'session.stepped' && x.data.status === 'done').length === 2, 'both sessions finished');
    await onlyB.until(steppedTo('done'), "b's last step");
    expect(new Set(all.events().map((e) => e.sessionId))).toEqual(new Set([a.sessionId, b.sessionId]));
    expect(typesOf(onlyB.events())).toEqual([
      ['input.answered', b.approved, { name: 'approved', status: 'answered' }],
      stepped(6, 'waiting'),
      ['input.answered', b.amount, { name: 'approved_amount', status: 'answered' }],
      ['session.finished', null, { status: 'done' }],
      stepped(7, 'done'),
    ]);
    expect(onlyB.events()).toEqual(all.events().filter((e) => e.sessionId === b.sessionId));
  });

  it.each([
    ['?session=x', /unknown query parameter "session" \(did you mean sessionId\?\)/],
    ['?workflowId=refund-approval', /unknown query parameter "workflowId"; this route takes sessionId/],
    ['?sessionId=a&sessionId=b', /give sessionId once/],
    ['?sessionId=%20', /must be a session id/],
  ])('GET /api/events%s is 400 invalid_query, as JSON, not a stream', async (query, message) => {
    expectError(await call(url, `/api/events${query}`), 400, 'invalid_query', message);
  });

  it('a cancel announces each gate closed and the session cancelled', async () => {
    const { sessionId, approved, amount } = await atApproval(url);
    const stream = await listen(`?sessionId=${sessionId}`);
    expect((await cancel(url, sessionId)).status).toBe(200);
    await stream.until(steppedTo('cancelled'), 'the cancel step');
    expect(typesOf(stream.events())).toEqual([
      ['input.closed', approved, { name: 'approved', status: 'cancelled' }],
      ['input.closed', amount, { name: 'approved_amount', status: 'cancelled' }],
      ['session.cancelled', null, { status: 'cancelled' }],
      stepped(6, 'cancelled'),
    ]);
  });

  it('a deadline passed announces the gates timed out and the session finished', async () => {
    const { sessionId, approved, amount } = await atApproval(url);
    const stream = await listen();
    server.clock.now = new Date(T0.getTime() + 24 * HOUR);
    expect(await server.runtime.fireDeadlines()).toBe(1);
    await stream.until(steppedTo('done'), 'the deadline step');
    expect(typesOf(stream.events())).toEqual([
      ['input.timed_out', approved, { name: 'approved', status: 'timed_out' }],
      ['input.timed_out', amount, { name: 'approved_amount', status: 'timed_out' }],
      ['session.finished', null, { status: 'done' }],
      stepped(6, 'done'),
    ]);
    expect(new Set(stream.events().map((e) => e.sessionId))).toEqual(new Set([sessionId]));
    expect((await sessionOf(url, sessionId)).reply.state).toBe('person_takes_over');
  });

  it('a stream opened after another closed gets only what happened after it opened, even when a read was under way at the close', async () => {
    await server.close();
    // Slow reads: the feed is reading when the first client goes away.
    const inner = createMemoryStore();
    const slow: Store = { ...inner, readEvents: async (after, limit) => (await new Promise((r) => setTimeout(r, 100)), inner.readEvents(after, limit)) };
    server = await serveInputs({ store: slow, eventPollMs: 10 });
    url = server.url;
    const first = await openEvents(url);
    const a = await atApproval(url);
    await first.until(steppedTo('waiting'), 'the gates opened (the step to the approval)');
    await new Promise((r) => setTimeout(r, 50));
    await first.close();
    // While nobody listens, once the read under way at the close has ended.
    await new Promise((r) => setTimeout(r, 200));
    await answer(url, a.approved, { value: true });
    await new Promise((r) => setTimeout(r, 50));
    const second = await listen();
    await answer(url, a.amount, { value: 20 });
    await second.until(steppedTo('done'), 'the last step');
    await new Promise((r) => setTimeout(r, 150));
    expect(typesOf(second.events())).toEqual([
      ['input.answered', a.amount, { name: 'approved_amount', status: 'answered' }],
      ['session.finished', null, { status: 'done' }],
      stepped(7, 'done'),
    ]);
  });

  it('a client that goes away stops the reading: a closed page costs nothing', async () => {
    await server.close();
    const counted = flakyStore(createMemoryStore());
    server = await serveInputs({ store: counted.store, eventPollMs: 10 });
    url = server.url;
    const before = counted.calls.load;
    const stream = await openEvents(url);
    // While someone listens the store is read every 10 ms.
    await eventually(() => counted.calls.load - before > 3, 'the feed reading while a client listens');
    await stream.close();
    // Once the client is gone the reads stop: the count comes to rest (while a client listened it grew every 10 ms)...
    let after = counted.calls.load;
    await eventually(async () => {
      const last = after;
      await new Promise((r) => setTimeout(r, 200));
      after = counted.calls.load;
      return after === last;
    }, 'the reads to stop after the client left');
    // ... and stays there.
    await new Promise((r) => setTimeout(r, 150));
    expect(counted.calls.load).toBe(after);
  });

  describe('with auth', () => {
    beforeEach(async () => {
      await server.close();
      server = await serveInputs({ jwtSecret: SECRET, eventPollMs: 25 });
      url = server.url;
    });

    it("the owner sees their session's events; a manager the events of gates addressed to them; others nothing", async () => {
      const cora = await sign({ sub: 'cora' }, SECRET);
      const mona = await sign({ sub: 'mona', roles: ['manager'] }, SECRET);
      const eve = await sign({ sub: 'eve' }, SECRET);
      const sam = await sign({ sub: 'sam', roles: ['support'] }, SECRET);
      // The session starts with no gate open (the customer's questions come first): streams open before anything is announced.
      const started = await start(url, REFUND, cora);
      const [owner, manager, stranger, support] = [await listen('', cora), await listen('', mona), await listen('', eve), await listen('', sam)];
      // Filtering on a session one cannot see gives nothing either.
      const peeking = await listen(`?sessionId=${started.sessionId}`, eve);

      const { sessionId, approved, amount } = await toApproval(url, started.sessionId, cora);
      await answer(url, approved, { value: true }, mona);
      await answer(url, amount, { value: 120 }, mona);
      await owner.until(steppedTo('done'), "the owner's last step");
      await manager.until((e) => e.filter((x) => x.type === 'input.answered').length === 2, "the manager's two answers");
      // Events reach every stream in id order: one event each of the others then sees marks that nothing of the session was held back.
      const marker = await start(url, 'approval', eve);
      const samMarker = await start(url, 'approval', await sign({ sub: 'sam' }, SECRET));
      await stranger.until((e) => e.some((x) => x.sessionId === marker.sessionId), "eve's own event");
      await support.until((e) => e.some((x) => x.sessionId === samMarker.sessionId), "sam's own event");
      // The filtered stream has no marker of its own: a moment for anything held back to arrive.
      await new Promise((r) => setTimeout(r, 100));

      const gates = [
        ['input.opened', approved, { name: 'approved' }],
        ['input.opened', amount, { name: 'approved_amount' }],
        ['input.answered', approved, { name: 'approved', status: 'answered' }],
        ['input.answered', amount, { name: 'approved_amount', status: 'answered' }],
      ];
      expect(typesOf(owner.events())).toEqual([
        stepped(2, 'active'),
        stepped(3, 'active'),
        stepped(4, 'active'),
        gates[0],
        gates[1],
        stepped(5, 'waiting'),
        gates[2],
        stepped(6, 'waiting'),
        gates[3],
        ['session.finished', null, { status: 'done' }],
        stepped(7, 'done'),
      ]);
      // The manager sees the gates addressed to the role; the session itself (its steps and its finish) is the owner's.
      expect(typesOf(manager.events().filter((e) => e.sessionId === sessionId))).toEqual(gates);
      for (const s of [stranger, peeking, support]) expect(s.events().filter((e) => e.sessionId === sessionId)).toEqual([]);
      // And nobody sees eve's or sam's person-addressed gate but them.
      expect(owner.events().filter((e) => e.sessionId === marker.sessionId || e.sessionId === samMarker.sessionId)).toEqual([]);
    });

    it("a cancel takes the gates off the manager's page live: input.closed for each, the session's end for the owner only", async () => {
      const cora = await sign({ sub: 'cora' }, SECRET);
      const mona = await sign({ sub: 'mona', roles: ['manager'] }, SECRET);
      const { sessionId, approved, amount } = await atApproval(url, cora);
      const [owner, manager] = [await listen(`?sessionId=${sessionId}`, cora), await listen('', mona)];
      expect((await cancel(url, sessionId, { token: cora })).status).toBe(200);
      await owner.until(steppedTo('cancelled'), 'the cancel step');
      await manager.until((e) => e.length >= 2, 'the gates closed');
      const closed = [
        ['input.closed', approved, { name: 'approved', status: 'cancelled' }],
        ['input.closed', amount, { name: 'approved_amount', status: 'cancelled' }],
      ];
      expect(typesOf(owner.events())).toEqual([...closed, ['session.cancelled', null, { status: 'cancelled' }], stepped(6, 'cancelled')]);
      await manager.until((e) => typesOf(e).length >= closed.length, 'the manager seeing both gates closed');
      expect(typesOf(manager.events())).toEqual(closed);
      expect(await listed(url, '', mona)).toEqual([]);
    });
  });
});

describe('503: the store is unreachable (nothing half written)', () => {
  let server: TestServer;
  let flaky: ReturnType<typeof flakyStore>;
  beforeEach(async () => {
    flaky = flakyStore(createMemoryStore());
    server = await serveInputs({ store: flaky.store });
  });
  afterEach(() => server.close());

  it('listing, answering and opening the events stream are 503 store_unavailable while reads fail; a cancel needs no read', async () => {
    const { sessionId, approved, reply } = await atApproval(server.url);
    flaky.down.add('load');
    for (const response of [await list(server.url), await answer(server.url, approved, { value: true })]) expectError(response, 503, 'store_unavailable');
    // Not a 200 stream that never says anything: its reads would fail in the background, where no client hears of it.
    const events = await fetch(`${server.url}/api/events`, { signal: AbortSignal.timeout(PATIENCE_MS) });
    expect(events.status).toBe(503);
    expect(await events.json()).toEqual({ error: { code: 'store_unavailable', message: expect.any(String) } });
    flaky.heal();
    expect(await listed(server.url)).toEqual(reply.inputs);
    expect((await sessionOf(server.url, sessionId)).reply).toEqual(reply);
    // This server saved the session last: a cancel is applied on what it saved, and only its commit must reach the store.
    flaky.down.add('load');
    expect((await cancel(server.url, sessionId)).status).toBe(200);
    flaky.heal();
    expect(await listed(server.url)).toEqual([]);
    expect((await sessionOf(server.url, sessionId)).reply.status).toBe('cancelled');
  });

  it('an answer whose commit fails is 503, the gate stays open, and the same answer succeeds once healed', async () => {
    const { sessionId, approved, amount, reply } = await atApproval(server.url);
    const before = await sessionOf(server.url, sessionId);
    flaky.down.add('commitTurn');
    expectError(await answer(server.url, approved, { value: true }), 503, 'store_unavailable');
    expectError(await cancel(server.url, sessionId), 503, 'store_unavailable');
    flaky.heal();
    expect(await sessionOf(server.url, sessionId)).toEqual(before);
    expect(await listed(server.url)).toEqual(reply.inputs);
    const retried = await answer(server.url, approved, { value: true });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.inputs.map((g: { gateId: string }) => g.gateId)).toEqual([amount]);
  });
});

describe('input gates over HTTP on PGlite, across a restart', () => {
  it('gates opened before the restart are listed with the same ids and answered after it; a deadline passed while down fires', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gateflow-inputs-'));
    tmpDirs.push(dataDir);
    const first = await serveInputs({ store: await createPgliteStore({ dataDir: templateDataDir('plain', dataDir) }) });
    let waiting: Awaited<ReturnType<typeof atApproval>>;
    let late: Awaited<ReturnType<typeof atApproval>>;
    let before: unknown[];
    try {
      waiting = await atApproval(first.url);
      first.clock.now = new Date(T0.getTime() - 23 * HOUR);
      late = await atApproval(first.url);
      before = await listed(first.url);
      expect(before).toHaveLength(4);
    } finally {
      await first.close();
      await first.store.close();
    }

    const second = await serveInputs({ store: await createPgliteStore({ dataDir }) });
    try {
      // T0 + 1 h: the late session's deadline (T0 + 1 h) has come, the other's (T0 + 24 h) has not.
      second.clock.now = new Date(T0.getTime() + HOUR);
      expect(await listed(second.url)).toEqual(before);
      const stream = await openEvents(second.url);
      try {
        expect(await second.runtime.fireDeadlines()).toBe(1);
        expect((await sessionOf(second.url, late.sessionId)).reply.state).toBe('person_takes_over');
        expect((await listed(second.url)).map((g) => g.gateId)).toEqual([waiting.approved, waiting.amount]);

        const partial = await answer(second.url, waiting.amount, { value: '150' });
        expect(partial.status, partial.text).toBe(200);
        expect(partial.body.inputs.map((g: { gateId: string }) => g.gateId)).toEqual([waiting.approved]);
        const done = await answer(second.url, waiting.approved, { value: 'yes' });
        expect(done.status, done.text).toBe(200);
        expect(done.body.message).toMatch(/^Good news: a manager approved a refund of 150 EUR for order CD5678\./);
        expectError(await answer(second.url, waiting.approved, { value: 'no' }), 409, 'input_closed');
        await stream.until((e) => e.filter((x) => x.type === 'session.stepped' && x.data.status === 'done').length === 2, 'both sessions finished');
        expect(typesOf(stream.events())).toEqual([
          ['input.timed_out', late.approved, { name: 'approved', status: 'timed_out' }],
          ['input.timed_out', late.amount, { name: 'approved_amount', status: 'timed_out' }],
          ['session.finished', null, { status: 'done' }],
          stepped(6, 'done'),
          ['input.answered', waiting.amount, { name: 'approved_amount', status: 'answered' }],
          stepped(6, 'waiting'),
          ['input.answered', waiting.approved, { name: 'approved', status: 'answered' }],
          ['session.finished', null, { status: 'done' }],
          stepped(7, 'done'),
        ]);
        // Which session each step was: the late one's deadline, then the waiting one's two answers.
        expect(stream.events().filter((e) => e.type === 'session.stepped').map((e) => e.sessionId)).toEqual([late.sessionId, waiting.sessionId, waiting.sessionId]);
      } finally {
        await stream.close();
      }
    } finally {
      await second.close();
      await second.store.close();
    }
  });
});

describe('the OpenAPI document lists the input routes', () => {
  let doc: any;
  let live: { listing: unknown; reply: unknown };
  beforeAll(async () => {
    // As `gateflow serve` does: the flows' reply schema.
    const server = await serveInputs({ replySchema: ReplySchema });
    try {
      doc = (await call(server.url, '/api/openapi.json')).body;
      const { reply } = await atApproval(server.url);
      live = { listing: (await list(server.url)).body, reply };
    } finally {
      await server.close();
    }
  });
  const jsonSchema = (name: string) => z.fromJSONSchema(doc.components.schemas[name]);

  it('GET /api/inputs: the sessionId and workflowId filters, the page parameters and the InputList answer', () => {
    const op = doc.paths['/api/inputs'].get;
    expect(op.parameters.map((p: { name: string; in: string; required: boolean }) => [p.name, p.in, p.required])).toEqual([
      ['sessionId', 'query', false],
      ['workflowId', 'query', false],
      ['after', 'query', false],
      ['limit', 'query', false],
    ]);
    expect(op.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/InputList' });
    expect(op.responses['400'].description).toMatch(/invalid_query/);
    const item = doc.components.schemas.InputList.properties.inputs.items;
    expect(item.required).toEqual(expect.arrayContaining(['gateId', 'sessionId', 'workflowId', 'name', 'type', 'description', 'options', 'deadline', 'openedAt']));
    expect(doc.components.schemas.OpenInput.required).toEqual(item.required);
  });

  it('POST /api/inputs/{gateId}: the AnswerBody request, the Reply answer and every error', () => {
    const op = doc.paths['/api/inputs/{gateId}'].post;
    expect(op.parameters).toEqual([{ name: 'gateId', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(op.requestBody).toEqual({ required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/AnswerBody' } } } });
    expect(op.responses['200'].content['application/json'].schema).toEqual({
      oneOf: [{ $ref: '#/components/schemas/Reply' }, { $ref: '#/components/schemas/AnswerReceipt' }],
    });
    expect(doc.components.schemas.AnswerReceipt.required).toEqual(['gateId', 'name', 'status', 'value']);
    expect(op.responses['400'].description).toMatch(/invalid_input_value/);
    expect(op.responses['403'].description).toMatch(/input_forbidden/);
    expect(op.responses['404'].description).toMatch(/input_not_found/);
    expect(op.responses['409'].description).toMatch(/input_closed/);
    const body = doc.components.schemas.AnswerBody;
    expect(body).toMatchObject({ type: 'object', required: ['value'], additionalProperties: false });
  });

  it('POST /api/sessions/{sessionId}/cancel: an optional empty object, the Reply, 404 and 409', () => {
    const op = doc.paths['/api/sessions/{sessionId}/cancel'].post;
    expect(op.requestBody.required).toBe(false);
    expect(op.requestBody.content['application/json'].schema).toEqual({ type: 'object', additionalProperties: false });
    expect(op.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Reply' });
    expect(op.responses['409'].description).toMatch(/session_finished/);
    expect(op.responses['404'].description).toMatch(/Unknown session/);
  });

  it('GET /api/events: the sessionId filter and a text/event-stream of RuntimeEvents with every event type', () => {
    const op = doc.paths['/api/events'].get;
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(['sessionId']);
    expect(op.responses['200'].content).toEqual({ 'text/event-stream': { schema: { $ref: '#/components/schemas/RuntimeEvent' } } });
    const event = doc.components.schemas.RuntimeEvent;
    expect(event.required).toEqual(expect.arrayContaining(['id', 'type', 'sessionId', 'workflowId', 'gateId', 'to', 'data', 'at']));
    expect([...event.properties.type.enum].sort()).toEqual(
      ['agent.action_completed', 'input.answered', 'input.closed', 'input.opened', 'input.timed_out', 'session.cancelled', 'session.finished', 'session.stepped'].sort(),
    );
  });

  it('what the routes answer fits the schemas the document gives', () => {
    expect(jsonSchema('InputList').safeParse(live.listing).success).toBe(true);
    expect(jsonSchema('Reply').safeParse(live.reply).success).toBe(true);
    // And the document is not vacuous: a listing missing a field does not fit.
    const broken = { inputs: (live.listing as { inputs: Record<string, unknown>[] }).inputs.map(({ openedAt: _, ...rest }) => rest) };
    expect(jsonSchema('InputList').safeParse(broken).success).toBe(false);
    expect(jsonSchema('AnswerBody').safeParse({ value: true }).success).toBe(true);
    expect(jsonSchema('AnswerBody').safeParse({ value: true, extra: 1 }).success).toBe(false);
  });
});

/** Waits until `check` holds, for as long as a hang takes to tell apart from a busy machine. */
async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + PATIENCE_MS;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
