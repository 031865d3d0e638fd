/**
 * Input gates through the runtime: opened when a state that declares inputs
 * is entered, answered by id in any order (coerced and checked first),
 * answered by a text turn when addressed to the person, listed across
 * sessions, closed by cancel, timed out by deadline — on the memory store,
 * PGlite and PostgreSQL, across restarts and between two runtimes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { waitsFor } from '../../src/inputs/declared.js';
import { lastInputAnswered } from '../../src/inputs/events.js';
import { defineWorkflow } from '../../src/workflow/define.js';
import { InputClosedError, InputForbiddenError, InputNotFoundError, InvalidInputValueError } from '../../src/inputs/errors.js';
import { ConversationFinishedError, SessionNotFoundError } from '../../src/runtime/errors.js';
import { createRuntime, type Runtime, type RuntimeEvent } from '../../src/runtime/runtime.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { createPgliteStore } from '../../src/store/pglite.js';
import { templateDataDir, templateStore } from '../helpers/pglite-template.js';
import { emptySqlStore } from '../helpers/empty-store.js';
import { createPostgresStore } from '../../src/store/postgres.js';
import type { Store } from '../../src/store/types.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import { approvalWorkflow, calls } from '../helpers/approval-workflow.js';
import { createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const T0 = new Date('2026-11-24T10:00:00.000Z');
const HOUR = 3_600_000;

/** A runtime on `store` whose clock the test moves. */
function runtimeOn(store: Store, clock = { now: T0 }) {
  const runtime = createRuntime({ workflows: [approvalWorkflow], store, clock: () => clock.now });
  return { runtime, clock };
}

const gateOf = (reply: ReplyEnvelope, name: string) => {
  const gate = reply.inputs?.find((g) => g.name === name);
  if (!gate) throw new Error(`no open gate ${name} in ${JSON.stringify(reply.inputs)}`);
  return gate;
};

/** Starts a session and answers the person's email gate: the session then waits for the manager. */
async function atApproval(runtime: Runtime) {
  const { sessionId, reply } = await runtime.start('approval');
  const waiting = await runtime.answer(gateOf(reply, 'email').gateId, 'ana@example.com');
  return { sessionId, reply: waiting };
}

/** `reusable`: emptied between tests (a SQL store) rather than opened anew. */
const backends: { name: string; skip: boolean; reusable: boolean; open: () => Promise<{ store: Store; close: () => Promise<void> }> }[] = [
  { name: 'memory', skip: false, reusable: false, open: async () => ({ store: createMemoryStore(), close: async () => {} }) },
  {
    name: 'PGlite',
    skip: false,
    reusable: true,
    open: async () => {
      const store = await templateStore();
      return { store, close: () => store.close() };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !hasPostgres,
    reusable: true,
    open: async () => {
      const schema = await createTestSchema('gfin');
      const store = await createPostgresStore({ connectionString: schema.url });
      return {
        store,
        close: async () => {
          await store.close();
          await schema.drop();
        },
      };
    },
  },
];

for (const backend of backends) {
  describe.skipIf(backend.skip)(`input gates on ${backend.name}`, () => {
    let opened: { store: Store; close: () => Promise<void> } | undefined;
    const store = () => opened!.store;
    // Each test starts on an empty store: a new one, or the SQL store of the test before emptied.
    beforeEach(async () => {
      if (opened && backend.reusable) return emptySqlStore(opened.store);
      await opened?.close();
      opened = await backend.open();
    });
    afterAll(async () => {
      await opened?.close();
    });

    it('opens a gate when a waiting state is entered: status waiting, the gate in the reply and in the listing', async () => {
      const { runtime } = runtimeOn(store());
      const { sessionId, reply } = await runtime.start('approval');
      expect(reply.status).toBe('waiting');
      expect(reply.inputs).toEqual([
        {
          gateId: expect.stringMatching(/^in_[a-z2-7]{16}$/),
          sessionId,
          workflowId: 'approval',
          name: 'email',
          type: 'email',
          description: 'Your email address',
          options: null,
          to: null,
          deadline: null,
          openedAt: T0.toISOString(),
          spec: { name: 'email', type: 'email', description: 'Your email address' },
        },
      ]);
      expect(await runtime.inputs()).toEqual(reply.inputs);
    });

    it('answers the gates of one state in any order, each on its own; the last one moves the machine on', async () => {
      const { runtime } = runtimeOn(store());
      const { sessionId, reply } = await atApproval(runtime);
      expect(reply.message).toBe('Thanks, ana@example.com. A manager will look at it.');
      expect(reply.inputs!.map((g) => [g.name, g.to, g.deadline])).toEqual([
        ['approved', 'manager', null],
        ['amount', 'manager', new Date(T0.getTime() + HOUR).toISOString()],
      ]);
      // The amount first: still waiting, for the approval only.
      const partial = await runtime.answer(gateOf(reply, 'amount').gateId, '1200');
      expect(partial.status).toBe('waiting');
      expect(partial.state).toBe('approval');
      expect(partial.inputs!.map((g) => g.name)).toEqual(['approved']);
      const done = await runtime.answer(gateOf(reply, 'approved').gateId, 'yes');
      expect(done).toMatchObject({ status: 'done', state: 'decided', message: 'Approved: 1200.', inputs: [] });
      expect(await runtime.inputs()).toEqual([]);
      // The journal says who answered what.
      const { history } = await runtime.session(sessionId);
      expect(history.map((h) => h.turn)).toEqual([
        null,
        { input: expect.any(String), name: 'email', value: 'ana@example.com', by: null },
        { input: gateOf(reply, 'amount').gateId, name: 'amount', value: 1200, by: null },
        { input: gateOf(reply, 'approved').gateId, name: 'approved', value: true, by: null },
      ]);
    });

    it('refuses an invalid value with what was expected, keeps the gate open, and saves nothing', async () => {
      const { runtime } = runtimeOn(store());
      const { sessionId, reply } = await atApproval(runtime);
      const amount = gateOf(reply, 'amount').gateId;
      const before = await runtime.session(sessionId);
      for (const [value, expected] of [
        ['lots', /Expected a number from 0 to 5000/],
        [9000, /at most 5000/],
        [{ amount: 3 }, /is not accepted: it is an object/],
        [null, /no value was given/],
      ] as const) {
        const error = await runtime.answer(amount, value).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(InvalidInputValueError);
        expect((error as Error).message).toMatch(expected);
        expect((error as InvalidInputValueError).expected).toBe('a number from 0 to 5000');
      }
      const approved = await runtime.answer(gateOf(reply, 'approved').gateId, 'maybe').catch((e: unknown) => e);
      expect((approved as Error).message).toMatch(/Expected yes or no \(true or false\)/);
      const after = await runtime.session(sessionId);
      expect(after.history).toHaveLength(before.history.length);
      expect((await runtime.inputs({}, { sessionId })).map((g) => g.gateId)).toContain(amount);
    });

    it('a text turn answers the one gate addressed to the person; an unreadable one is refused and asked again', async () => {
      const { runtime } = runtimeOn(store());
      const { sessionId } = await runtime.start('approval');
      await expect(runtime.turn(sessionId, { text: 'not an email' })).rejects.toThrow(/Expected an email address/);
      const reply = await runtime.turn(sessionId, { text: 'ana@example.com' });
      expect(reply.state).toBe('approval');
      // The manager's gates are not the person's: text changes nothing.
      const again = await runtime.turn(sessionId, { text: 'yes' });
      expect(again.state).toBe('approval');
      expect(again.inputs!.map((g) => g.name)).toEqual(['approved', 'amount']);
    });

    it('an unknown gate is 404 and an answered one is 409 input_closed', async () => {
      const { runtime } = runtimeOn(store());
      const { reply } = await atApproval(runtime);
      await expect(runtime.answer('in_aaaaaaaaaaaaaaaa', true)).rejects.toBeInstanceOf(InputNotFoundError);
      await expect(runtime.answer('not a gate id', true)).rejects.toBeInstanceOf(InputNotFoundError);
      const approved = gateOf(reply, 'approved').gateId;
      await runtime.answer(approved, false);
      const error = await runtime.answer(approved, true).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputClosedError);
      expect(error).toMatchObject({ status: 409, code: 'input_closed' });
      expect((error as Error).message).toMatch(/is closed \(answered\)/);
    });

    it('cancel ends the session as cancelled: its gates close, leave every listing, and take no answer', async () => {
      const { runtime } = runtimeOn(store());
      const { sessionId, reply } = await atApproval(runtime);
      const events: RuntimeEvent[] = [];
      const stop = runtime.subscribe((e) => events.push(e));
      try {
        const cancelled = await runtime.cancel(sessionId);
        expect(cancelled).toMatchObject({ status: 'cancelled', inputs: [], buttons: null, completion: { isComplete: true, reason: 'cancelled' } });
        expect(await runtime.inputs()).toEqual([]);
        await expect(runtime.answer(gateOf(reply, 'approved').gateId, true)).rejects.toMatchObject({ code: 'input_closed', message: expect.stringMatching(/cancelled/) });
        await expect(runtime.turn(sessionId, { text: 'hello' })).rejects.toBeInstanceOf(ConversationFinishedError);
        await expect(runtime.cancel(sessionId)).rejects.toBeInstanceOf(ConversationFinishedError);
        expect((await runtime.session(sessionId)).reply.status).toBe('cancelled');
        await expect(runtime.cancel('unknownsession')).rejects.toBeInstanceOf(SessionNotFoundError);
        await waitUntil(() => events.some((e) => e.type === 'session.cancelled'));
        expect(events.filter((e) => e.type === 'input.closed').map((e) => e.data)).toEqual([
          { name: 'approved', status: 'cancelled' },
          { name: 'amount', status: 'cancelled' },
        ]);
      } finally {
        stop();
        runtime.close();
      }
    });

    it('a passed deadline takes the timeout edge once', async () => {
      const { runtime, clock } = runtimeOn(store());
      const { sessionId } = await atApproval(runtime);
      clock.now = new Date(T0.getTime() + HOUR - 1);
      expect(await runtime.fireDeadlines()).toBe(0);
      clock.now = new Date(T0.getTime() + HOUR);
      expect(await runtime.fireDeadlines()).toBe(1);
      const { reply, history } = await runtime.session(sessionId);
      expect(reply).toMatchObject({ state: 'escalated', status: 'done', inputs: [] });
      expect(history.at(-1)!.turn).toEqual({ timeout: [expect.stringMatching(/^in_/)] });
      // Once: a second sweep finds nothing.
      expect(await runtime.fireDeadlines()).toBe(0);
      expect((await runtime.session(sessionId)).history).toHaveLength(history.length);
      runtime.close();
    });

    it('a gate past its deadline takes no answer even before a sweep: the deadline fires then, and the answer is 409', async () => {
      const { runtime, clock } = runtimeOn(store());
      const { sessionId, reply } = await atApproval(runtime);
      const late = reply.inputs!.find((g) => g.deadline !== null)!;
      clock.now = new Date(T0.getTime() + HOUR);
      const error = await runtime.answer(late.gateId, late.type === 'boolean' ? 'yes' : '100').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputClosedError);
      expect((error as InputClosedError).gateStatus).toBe('timed_out');
      const after = await runtime.session(sessionId);
      expect(after.reply).toMatchObject({ state: 'escalated', status: 'done', inputs: [] });
      expect(after.history.filter((e) => e.turn && 'timeout' in e.turn)).toHaveLength(1);
      expect(await runtime.fireDeadlines()).toBe(0);
      runtime.close();
    });

    it('lists gates by session and workflow, and by who may answer them', async () => {
      const { runtime } = runtimeOn(store());
      const alice = { owner: 'alice' };
      const manager = { owner: 'mona', roles: ['manager'] };
      const a = await runtime.start('approval', alice);
      await runtime.answer(gateOf(a.reply, 'email').gateId, 'alice@example.com', alice);
      const b = await runtime.start('approval', { owner: 'bob' });
      // Alice sees her own gates (none left: the rest are the manager's), Bob his email gate, the manager the approvals.
      expect(await runtime.inputs(alice)).toEqual([]);
      expect((await runtime.inputs({ owner: 'bob' })).map((g) => g.name)).toEqual(['email']);
      expect((await runtime.inputs(manager)).map((g) => [g.sessionId, g.name])).toEqual([
        [a.sessionId, 'approved'],
        [a.sessionId, 'amount'],
      ]);
      expect(await runtime.inputs(manager, { sessionId: b.sessionId })).toEqual([]);
      expect(await runtime.inputs(manager, { workflowId: 'other' })).toEqual([]);
      // Alice may not answer the manager's gate; a stranger does not see it at all.
      const approved = (await runtime.inputs(manager))[0]!.gateId;
      await expect(runtime.answer(approved, true, alice)).rejects.toBeInstanceOf(InputForbiddenError);
      await expect(runtime.answer(approved, true, { owner: 'eve' })).rejects.toBeInstanceOf(InputNotFoundError);
      const reply = await runtime.answer(approved, true, manager);
      expect(reply.inputs!.map((g) => g.name)).toEqual(['amount']);
      const { history } = await runtime.session(a.sessionId, alice);
      expect(history.at(-1)!.turn).toMatchObject({ name: 'approved', by: 'mona' });
    });

    it('announces gates opened and answered and the session finished on the events stream', async () => {
      const { runtime } = runtimeOn(store());
      const events: RuntimeEvent[] = [];
      const stop = runtime.subscribe((e) => events.push(e));
      try {
        // The stream starts from now: a first session's last event arriving shows the feed has its place, however slow its first read.
        const marker = await atApproval(runtime);
        await waitUntil(() => events.some((e) => e.sessionId === marker.sessionId && e.type === 'session.stepped' && e.data.status === 'waiting'));
        events.length = 0;
        const { sessionId, reply } = await atApproval(runtime);
        await runtime.answer(gateOf(reply, 'approved').gateId, true);
        await runtime.answer(gateOf(reply, 'amount').gateId, 10);
        // Each saved step after the start ends with session.stepped: the journal entry it saved and the status.
        await waitUntil(() => events.some((e) => e.type === 'session.stepped' && e.data.status === 'done'));
        expect(events.map((e) => (e.type === 'session.stepped' ? [e.type, e.data.seq, e.data.status] : [e.type, e.data.name ?? e.data.status]))).toEqual([
          ['input.opened', 'email'],
          ['input.answered', 'email'],
          ['input.opened', 'approved'],
          ['input.opened', 'amount'],
          ['session.stepped', 2, 'waiting'],
          ['input.answered', 'approved'],
          ['session.stepped', 3, 'waiting'],
          ['input.answered', 'amount'],
          ['session.finished', 'done'],
          ['session.stepped', 4, 'done'],
        ]);
        expect(new Set(events.map((e) => e.sessionId))).toEqual(new Set([sessionId]));
        expect(events.map((e) => e.id)).toEqual([...events.map((e) => e.id)].sort((x, y) => x - y));
      } finally {
        stop();
        runtime.close();
      }
    });
  });
}

/** A machine whose one gate has a default and a short deadline: at the deadline the default is its answer. */
const review = defineWorkflow({
  id: 'review',
  version: 1,
  machine: setup({ guards: { lastInputAnswered } }).createMachine({
    id: 'review',
    initial: 'waiting',
    context: { priority: null as unknown },
    states: {
      waiting: {
        meta: waitsFor([{ name: 'priority', type: 'enum', options: ['low', 'high'], default: 'low', deadline: 'PT0.3S' }], { to: 'triage' }),
        on: {
          'input.answered': {
            guard: 'lastInputAnswered',
            target: 'done',
            actions: assign({ priority: ({ event }) => (event as unknown as { value: unknown }).value }),
          },
        },
      },
      done: { type: 'final' },
    },
  }),
  reply: (s) => ({ message: s.value === 'done' ? `Priority: ${String(s.context.priority)}.` : 'Waiting for triage.' }),
});

describe('deadlines fire by themselves', () => {
  it('a gate with a default takes it at the deadline (answered by "deadline"), without anyone sweeping', async () => {
    const store = createMemoryStore();
    const runtime = createRuntime({ workflows: [review], store });
    try {
      const { sessionId, reply } = await runtime.start('review');
      expect(reply.status).toBe('waiting');
      await waitUntil(async () => (await runtime.session(sessionId)).reply.status === 'done');
      const { reply: done, history } = await runtime.session(sessionId);
      expect(done.message).toBe('Priority: low.');
      expect(history.at(-1)!.turn).toEqual({ timeout: [reply.inputs![0]!.gateId] });
      expect((await store.findInput(reply.inputs![0]!.gateId))).toMatchObject({ status: 'answered', value: 'low', answeredBy: 'deadline' });
    } finally {
      runtime.close();
    }
  });

  it('a runtime that watches fires deadlines another runtime set and did not live to fire', async () => {
    const store = createMemoryStore();
    const first = createRuntime({ workflows: [review], store });
    const { sessionId } = await first.start('review');
    first.close();
    const second = createRuntime({ workflows: [review], store, deadlines: { watchMs: 50 } });
    try {
      await waitUntil(async () => (await second.session(sessionId)).reply.status === 'done');
      expect((await second.session(sessionId)).history.filter((h) => h.turn && 'timeout' in h.turn)).toHaveLength(1);
    } finally {
      second.close();
    }
  });
});

describe('input gates across restarts and processes', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a runtime closed while gates are open resumes them after restart, and nothing before the wait runs again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gf-inputs-'));
    dirs.push(dir);
    calls.prepare = 0;
    let store = await createPgliteStore({ dataDir: templateDataDir('plain', dir) });
    const first = runtimeOn(store).runtime;
    const { sessionId, reply } = await atApproval(first);
    await first.answer(gateOf(reply, 'approved').gateId, true);
    expect(calls.prepare).toBe(1);
    first.close();
    await store.close();

    store = await createPgliteStore({ dataDir: dir });
    const second = runtimeOn(store).runtime;
    try {
      const open = await second.inputs();
      expect(open.map((g) => [g.sessionId, g.name])).toEqual([[sessionId, 'amount']]);
      const done = await second.answer(open[0]!.gateId, '75.5');
      expect(done).toMatchObject({ state: 'decided', message: 'Approved: 75.5.' });
      // The promise actor that ran before the wait was not started again by the restore.
      expect(calls.prepare).toBe(1);
    } finally {
      second.close();
      await store.close();
    }
  });

  describe.skipIf(!hasPostgres)('two runtimes with their own PostgreSQL pools', () => {
    const schemas: TestSchema[] = [];
    const stores: Store[] = [];
    /** Two stores on a database of their own. */
    const pair = async () => {
      const schema = await createTestSchema('gfin2');
      schemas.push(schema);
      const a = await createPostgresStore({ connectionString: schema.url });
      const b = await createPostgresStore({ connectionString: schema.url });
      stores.push(a, b);
      return [a, b] as const;
    };
    afterAll(async () => {
      for (const s of stores) await s.close();
      for (const s of schemas) await s.drop();
    });

    it('answering one gate from both at once: exactly one wins, the other gets input_closed', async () => {
      const [a, b] = await pair();
      const ra = runtimeOn(a).runtime;
      const rb = runtimeOn(b).runtime;
      for (let round = 0; round < 10; round++) {
        const { sessionId, reply } = await atApproval(ra);
        const gate = gateOf(reply, 'approved').gateId;
        const results = await Promise.allSettled([ra.answer(gate, true), rb.answer(gate, false)]);
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        expect(lost[0]!.reason).toBeInstanceOf(InputClosedError);
        const { history } = await ra.session(sessionId);
        expect(history.filter((h) => h.turn && 'input' in h.turn && h.turn.input === gate)).toHaveLength(1);
      }
    });

    it('a deadline swept by both at once fires once', async () => {
      const [a, b] = await pair();
      const clock = { now: T0 };
      const ra = runtimeOn(a, clock).runtime;
      const rb = runtimeOn(b, clock).runtime;
      const sessions = [];
      for (let i = 0; i < 5; i++) sessions.push((await atApproval(ra)).sessionId);
      clock.now = new Date(T0.getTime() + 2 * HOUR);
      const [fa, fb] = await Promise.all([ra.fireDeadlines(), rb.fireDeadlines()]);
      expect(fa + fb).toBe(5);
      for (const sessionId of sessions) {
        const { reply, history } = await ra.session(sessionId);
        expect(reply.state).toBe('escalated');
        expect(history.filter((h) => h.turn && 'timeout' in h.turn)).toHaveLength(1);
      }
      expect(await Promise.all([ra.fireDeadlines(), rb.fireDeadlines()])).toEqual([0, 0]);
    });
  });
});

/** Waits until `check` holds (events arrive from the store's poll; deadlines from timers). */
async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = PATIENCE_MS): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('a gate that passes other text on', () => {
  // Proceed / Cancel, or new words: the machine hears them as a turn and drops what it waited for.
  const askingWorkflow = (id: string, passOtherText: boolean) =>
    defineWorkflow({
      id,
      version: 1,
      machine: setup({ types: { context: {} as { said: string[] }, events: {} as { type: 'user.text'; text: string } | { type: 'input.answered'; value: unknown } } }).createMachine({
        context: { said: [] },
        initial: 'asking',
        states: {
          asking: {
            meta: waitsFor([{ name: 'go', type: 'enum', options: [{ label: 'Proceed', value: 'proceed' }, { label: 'Cancel', value: 'cancel' }], passOtherText }]),
            on: {
              'input.answered': { target: 'answered', actions: assign({ said: ({ context, event }) => [...context.said, `gate:${String(event.value)}`] }) },
              'user.text': { target: 'answered', actions: assign({ said: ({ context, event }) => [...context.said, `text:${event.text}`] }) },
            },
          },
          answered: {},
        },
      }),
      reply: (s) => ({ message: (s.context as { said: string[] }).said.join(',') || 'asking' }),
    });

  it('a value of the gate answers it; other words reach the machine as a turn and close the gate', async () => {
    const runtime = createRuntime({ workflows: [askingWorkflow('pass-on', true)], store: createMemoryStore() });
    const first = await runtime.start('pass-on');
    expect((await runtime.turn(first.sessionId, { text: 'Proceed' })).message).toBe('gate:proceed');
    const second = await runtime.start('pass-on');
    const reply = await runtime.turn(second.sessionId, { text: 'actually, do something else' });
    expect(reply.message).toBe('text:actually, do something else');
    expect(reply.inputs ?? []).toEqual([]);
    expect(await runtime.inputs(undefined, { sessionId: second.sessionId })).toEqual([]);
    runtime.close();
  });

  it('without it, the same words are refused and the gate stays open', async () => {
    const runtime = createRuntime({ workflows: [askingWorkflow('strict', false)], store: createMemoryStore() });
    const { sessionId } = await runtime.start('strict');
    await expect(runtime.turn(sessionId, { text: 'actually, do something else' })).rejects.toBeInstanceOf(InvalidInputValueError);
    expect(await runtime.inputs(undefined, { sessionId })).toHaveLength(1);
    runtime.close();
  });
});
