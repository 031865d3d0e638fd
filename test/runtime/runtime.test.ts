/**
 * The runtime over a store: sessions started, turns applied and journaled,
 * replays, errors, owners, several versions of a flow, conflicts with another
 * writer, and turns sent at once. The memory store mostly; one full intake on PGlite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FlowDocument } from '../../src/flow/schema.js';
import {
  ConversationFinishedError,
  FlowNotFoundError,
  IncompatibleSnapshotError,
  InvalidPageError,
  InvalidTurnError,
  SessionNotFoundError,
  TurnIdReusedError,
  TurnLimitError,
} from '../../src/runtime/errors.js';
import type { Reply } from '../../src/flow/reply.js';
import { ReplySchema } from '../../src/flow/reply.js';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import type { Turn } from '../../src/workflow/turn.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { createPgliteStore } from '../../src/store/pglite.js';
import { templateDataDir } from '../helpers/pglite-template.js';
import { ConflictError, StoreUnavailableError, type Store } from '../../src/store/types.js';
import {
  AWAITING_ANSWER,
  AWAITING_CONFIRMATION,
  GATE_1,
  GATE_2,
  HANDED_OFF,
  STOPPED,
  TROUBLE,
  patientIntakeFlow,
  SEED_GATE_CONFIG,
  seedFlow,
  seedFlow as seedFlowOf,
} from '../helpers/intake.js';

const SESSION_ID = /^[A-Za-z0-9_-]{24}$/;

function memoryRuntime(flows: FlowDocument[] = [seedFlow()]): { runtime: Runtime<Reply>; store: Store } {
  const store = createMemoryStore();
  return { runtime: createFlowRuntime({ flows, store }), store };
}

/** What the store holds for a session, for "nothing changed" checks. */
async function stored(store: Store, sessionId: string) {
  const loaded = await store.load(sessionId);
  const history = await store.history(sessionId);
  return {
    version: loaded?.session.version,
    flowVersion: loaded?.session.flowVersion,
    snapshot: JSON.stringify(loaded?.session.snapshot),
    journal: history.map((e) => JSON.stringify({ seq: e.seq, turnId: e.turnId, turn: e.turn, reply: e.reply })),
  };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('start', () => {
  it('answers with the opening reply and a 24-character base64url session id (144 bits)', async () => {
    const { runtime, store } = memoryRuntime();
    const { sessionId, reply } = await runtime.start('seed-gates');
    expect(sessionId).toMatch(SESSION_ID);
    expect(Buffer.from(sessionId, 'base64url')).toHaveLength(18);
    expect(ReplySchema.parse(reply)).toEqual(reply);
    expect(reply).toMatchObject({
      sessionId,
      flowId: 'seed-gates',
      flowVersion: 1,
      state: { [GATE_1]: 'asking' },
      buttonContext: 'gate_question',
      answers: {},
      completion: AWAITING_ANSWER,
    });

    const loaded = await store.load(sessionId);
    expect(loaded!.session).toMatchObject({ sessionId, flowId: 'seed-gates', flowVersion: 1, version: 1, owner: null });
    const history = await store.history(sessionId);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ seq: 1, turnId: null, turn: null, reply });
  });

  it('gives unguessable ids: 1000 distinct, every character position random', async () => {
    const { runtime } = memoryRuntime();
    const ids: string[] = [];
    for (let i = 0; i < 1000; i++) ids.push((await runtime.start('seed-gates')).sessionId);
    for (const id of ids) expect(id).toMatch(SESSION_ID);
    expect(new Set(ids).size).toBe(1000);
    // 1000 uniform draws over 64 symbols miss one with probability ~1e-7 per
    // position: a counter, a clock or a short random part would show here.
    for (let position = 0; position < 24; position++) {
      const symbols = new Set(ids.map((id) => id[position]));
      expect(symbols.size, `distinct characters at position ${position}`).toBeGreaterThanOrEqual(56);
    }
  });

  it('refuses an unknown flow with FlowNotFoundError', async () => {
    const { runtime } = memoryRuntime();
    const error = await rejection(runtime.start('no-such-flow'));
    expect(error).toBeInstanceOf(FlowNotFoundError);
    expect(error.message).toContain('no-such-flow');
  });

  it('lists the current version of each flow', () => {
    const { runtime } = memoryRuntime([seedFlow(), patientIntakeFlow()]);
    expect(runtime.workflows()).toEqual([
      { id: 'seed-gates', version: 1, title: 'Seed intake' },
      { id: 'patient-intake', version: '1.0.0', title: 'Patient intake' },
    ]);
  });
});

describe('turns', () => {
  it('applies a turn and grows the journal; session() gives the current reply and the history', async () => {
    const { runtime, store } = memoryRuntime();
    const { sessionId, reply: opening } = await runtime.start('seed-gates');

    const first = await runtime.turn(sessionId, { button: 'Yes' });
    expect(first).toMatchObject({
      sessionId,
      state: { [GATE_2]: 'asking' },
      answers: { [GATE_1]: { value: 'Yes', source: 'button', raw: 'Yes' } },
      completion: AWAITING_ANSWER,
    });
    expect((await store.history(sessionId)).map((e) => [e.seq, e.turnId, e.turn])).toEqual([
      [1, null, null],
      [2, null, { button: 'Yes' }],
    ]);

    const second = await runtime.turn(sessionId, { text: 'no', turnId: 'second' });
    expect(second).toMatchObject({ state: { confirmation: 'reviewing' }, buttonContext: 'gate_confirmation', completion: AWAITING_CONFIRMATION });
    expect((await store.load(sessionId))!.session.version).toBe(3);

    const view = await runtime.session(sessionId);
    expect(view).toEqual({
      reply: second,
      history: [
        { seq: 1, turn: null, reply: opening },
        { seq: 2, turn: { button: 'Yes' }, reply: first },
        { seq: 3, turn: { text: 'no', turnId: 'second' }, reply: second },
      ],
      nextAfter: null,
    });
  });

  it('returns the stored reply for a replayed turnId and adds nothing, even after a restart; another turn under that id is refused', async () => {
    const { runtime, store } = memoryRuntime();
    const { sessionId } = await runtime.start('seed-gates');
    const first = await runtime.turn(sessionId, { button: 'Yes', turnId: 't1' });
    const before = await stored(store, sessionId);

    expect(await runtime.turn(sessionId, { button: 'Yes', turnId: 't1' })).toEqual(first);
    // A different turn under a used id is neither applied nor answered with the old reply: it would be lost silently.
    const reused = await rejection(runtime.turn(sessionId, { button: 'No', turnId: 't1' }));
    expect(reused).toBeInstanceOf(TurnIdReusedError);
    expect(reused.message).toMatch(/turnId "t1" was already used for a different turn/);
    await expect(runtime.turn(sessionId, { text: 'Yes', turnId: 't1' })).rejects.toBeInstanceOf(TurnIdReusedError);
    expect(await stored(store, sessionId)).toEqual(before);

    // Later turns do not change what a replay answers.
    const second = await runtime.turn(sessionId, { button: 'Partial', turnId: 't2' });
    expect(second.state).toEqual({ confirmation: 'reviewing' });
    expect(await runtime.turn(sessionId, { button: 'Yes', turnId: 't1' })).toEqual(first);

    // Another runtime on the same store (a restarted process) answers the same.
    const restarted = createFlowRuntime({ flows: [seedFlow()], store });
    const afterTurns = await stored(store, sessionId);
    expect(await restarted.turn(sessionId, { button: 'Yes', turnId: 't1' })).toEqual(first);
    expect(await restarted.turn(sessionId, { button: 'Partial', turnId: 't2' })).toEqual(second);
    await expect(restarted.turn(sessionId, { text: 'whatever', turnId: 't2' })).rejects.toBeInstanceOf(TurnIdReusedError);
    expect(await stored(store, sessionId)).toEqual(afterTurns);
    expect(afterTurns.journal).toHaveLength(3);
    expect((await runtime.session(sessionId)).reply).toEqual(second);
  });

  it('refuses an unknown session with SessionNotFoundError', async () => {
    const { runtime } = memoryRuntime();
    const unknown = 'AAAAAAAAAAAAAAAAAAAAAAAA';
    const turnError = await rejection(runtime.turn(unknown, { button: 'Yes' }));
    expect(turnError).toBeInstanceOf(SessionNotFoundError);
    expect(turnError.message).toBe(`no session "${unknown}"`);
    await expect(runtime.turn(unknown, { button: 'Yes', turnId: 'x' })).rejects.toBeInstanceOf(SessionNotFoundError);
    await expect(runtime.session(unknown)).rejects.toBeInstanceOf(SessionNotFoundError);
    for (const malformed of ['', '../etc/passwd', 'x'.repeat(500), 'ä'.repeat(24)]) {
      await expect(runtime.turn(malformed, { button: 'Yes' })).rejects.toBeInstanceOf(SessionNotFoundError);
      await expect(runtime.session(malformed)).rejects.toBeInstanceOf(SessionNotFoundError);
    }
  });

  it.each([
    // The part after the fixed prefix must say which field is wrong and how (bug: zod's
    // union error collapses to "turn: Invalid input" here).
    ['a text that is not a string', { text: 5 }, /\btext: [^;]*string/],
    ['a text over 4000 characters', { text: 'x'.repeat(4001) }, /text must be at most 4000 characters/],
    ['an empty button', { button: '' }, /button must not be empty/],
    ['an unknown key', { text: 'yes', mood: 'happy' }, /"mood"/],
    ['an empty turnId', { button: 'Yes', turnId: '' }, /turnId/],
    ['neither text nor button', { turnId: 'only' }, /text|button/],
    ['not an object', 'Yes', /expected \{"text": string\} or \{"button": string\}/],
    ['null', null, /invalid turn/],
  ])('refuses %s with InvalidTurnError naming what is wrong, and changes nothing', async (_what, input, message) => {
    const { runtime, store } = memoryRuntime();
    const { sessionId } = await runtime.start('seed-gates');
    const before = await stored(store, sessionId);
    // A caller without types (JavaScript, JSON from elsewhere): the runtime checks the turn itself.
    const error = await rejection(runtime.turn(sessionId, input as Turn));
    expect(error).toBeInstanceOf(InvalidTurnError);
    expect(error.message).toMatch(/^invalid turn/);
    expect(error.message).toMatch(message);
    expect(await stored(store, sessionId)).toEqual(before);
    // The session still takes a good turn.
    expect((await runtime.turn(sessionId, { button: 'Yes' })).state).toEqual({ [GATE_2]: 'asking' });
  });

  it('refuses a turn on a finished session with ConversationFinishedError, writing nothing; replays still answer', async () => {
    const { runtime, store } = memoryRuntime();
    const { sessionId } = await runtime.start('seed-gates');
    const stop = await runtime.turn(sessionId, { button: 'No', turnId: 'stop' });
    expect(stop.completion).toEqual(STOPPED);
    const before = await stored(store, sessionId);

    const error = await rejection(runtime.turn(sessionId, { button: 'Yes' }));
    expect(error).toBeInstanceOf(ConversationFinishedError);
    expect(error.message).toContain(sessionId);
    await expect(runtime.turn(sessionId, { text: 'start over', turnId: 'new' })).rejects.toBeInstanceOf(ConversationFinishedError);
    expect(await stored(store, sessionId)).toEqual(before);
    expect(await runtime.turn(sessionId, { button: 'No', turnId: 'stop' })).toEqual(stop);
    await expect(runtime.turn(sessionId, { button: 'Yes', turnId: 'stop' })).rejects.toBeInstanceOf(TurnIdReusedError);

    // The same after a handoff.
    const handed = (await runtime.start('seed-gates')).sessionId;
    for (const button of ['Yes', 'No', 'confirm']) await runtime.turn(handed, { button });
    expect((await runtime.session(handed)).reply.completion).toEqual(HANDED_OFF);
    await expect(runtime.turn(handed, { button: 'edit' })).rejects.toBeInstanceOf(ConversationFinishedError);
    expect(await store.history(handed)).toHaveLength(4);
  });
});

describe('owners', () => {
  it("hides alice's session from bob as if it did not exist, and serves it to alice", async () => {
    const { runtime, store } = memoryRuntime();
    const { sessionId, reply: opening } = await runtime.start('seed-gates', { owner: 'alice' });
    expect((await store.load(sessionId))!.session.owner).toBe('alice');
    const first = await runtime.turn(sessionId, { button: 'Yes', turnId: 'alice-1' }, { owner: 'alice' });
    const before = await stored(store, sessionId);

    const bobTurn = await rejection(runtime.turn(sessionId, { button: 'No' }, { owner: 'bob' }));
    expect(bobTurn).toBeInstanceOf(SessionNotFoundError);
    expect(bobTurn.message).toBe(`no session "${sessionId}"`);
    // A replay of alice's turnId does not leak her reply either.
    await expect(runtime.turn(sessionId, { button: 'Yes', turnId: 'alice-1' }, { owner: 'bob' })).rejects.toBeInstanceOf(
      SessionNotFoundError,
    );
    await expect(runtime.session(sessionId, { owner: 'bob' })).rejects.toBeInstanceOf(SessionNotFoundError);
    expect(await stored(store, sessionId)).toEqual(before);

    expect(await runtime.session(sessionId, { owner: 'alice' })).toEqual({
      reply: first,
      history: [
        { seq: 1, turn: null, reply: opening },
        { seq: 2, turn: { button: 'Yes', turnId: 'alice-1' }, reply: first },
      ],
      nextAfter: null,
    });
    expect((await runtime.turn(sessionId, { button: 'No' }, { owner: 'alice' })).state).toEqual({ confirmation: 'reviewing' });
  });
});

// ---------------------------------------------------------------------------
// Several versions of one flow

const OLD = 'old_gate';
const NEW = 'new_gate';
const SECOND = 'second_gate';
const THIRD = 'third_gate';

function versioned(version: number | string, first: string, extra: Record<string, unknown> = {}): FlowDocument {
  return seedFlow({
    id: 'versioned',
    version,
    title: `Versioned ${version}`,
    gate_order: [first, SECOND],
    gates: {
      [first]: { question: `First question of ${version}?`, expected_categories: ['Yes', 'No'] },
      [SECOND]: { question: `Second question of ${version}?`, expected_categories: ['Yes', 'No', 'Partial'] },
    },
    ...extra,
  });
}
const v1 = () => versioned(1, OLD);
const v2 = () => versioned(2, NEW);
const v2Migrating = () => versioned(2, NEW, { migrations: [{ from: 1, nodes: { [OLD]: NEW } }] });
const v3 = () => versioned('3.0.0', THIRD);

/** Sessions started on v1: one at the first gate, one past it, one at the confirmation. */
async function sessionsOnV1() {
  const store = createMemoryStore();
  const runtime = createFlowRuntime({ flows: [v1()], store });
  const atFirst = (await runtime.start('versioned')).sessionId;
  const atSecond = (await runtime.start('versioned')).sessionId;
  await runtime.turn(atSecond, { button: 'Yes' });
  const atConfirmation = (await runtime.start('versioned')).sessionId;
  await runtime.turn(atConfirmation, { button: 'No' });
  const confirming = await runtime.turn(atConfirmation, { button: 'Partial' });
  expect(confirming.state).toEqual({ confirmation: 'reviewing' });
  return { store, atFirst, atSecond, atConfirmation };
}

describe('flow versions', () => {
  it('continues a session on the version it started on while new sessions use the current one', async () => {
    const { store, atSecond } = await sessionsOnV1();
    const runtime = createFlowRuntime({ flows: [v1(), v2()], store });
    expect(runtime.workflows()).toEqual([{ id: 'versioned', version: 2, title: 'Versioned 2' }]);

    const reply = await runtime.turn(atSecond, { button: 'No' });
    expect(reply).toMatchObject({
      flowVersion: 1,
      state: { confirmation: 'reviewing' },
      answers: { [OLD]: { value: 'Yes' }, [SECOND]: { value: 'No' } },
    });
    expect((await store.load(atSecond))!.session.flowVersion).toBe(1);

    const fresh = await runtime.start('versioned');
    expect(fresh.reply).toMatchObject({ flowVersion: 2, state: { [NEW]: 'asking' }, message: 'First question of 2?' });
    expect((await store.load(fresh.sessionId))!.session.flowVersion).toBe(2);
  });

  it('migrates an old session onto the only registered version, renaming its answers', async () => {
    const { store, atFirst, atSecond, atConfirmation } = await sessionsOnV1();
    const runtime = createFlowRuntime({ flows: [v2Migrating()], store });

    // Past the renamed gate: the answer is carried under its new name.
    const second = await runtime.turn(atSecond, { button: 'No' });
    expect(second.flowVersion).toBe(2);
    expect(second.state).toEqual({ confirmation: 'reviewing' });
    expect(second.answers).toEqual({
      [NEW]: { value: 'Yes', confidence: 1, source: 'button', raw: 'Yes' },
      [SECOND]: { value: 'No', confidence: 1, source: 'button', raw: 'No' },
    });
    expect(second.answers).not.toHaveProperty(OLD);
    expect((await store.load(atSecond))!.session).toMatchObject({ flowVersion: 2, version: 3 });

    // At the renamed gate itself: the question is asked under its new name.
    const first = await runtime.turn(atFirst, { button: 'Yes' });
    expect(first).toMatchObject({ flowVersion: 2, state: { [SECOND]: 'asking' }, answers: { [NEW]: { value: 'Yes' } } });
    expect(first.answers).not.toHaveProperty(OLD);

    // At the confirmation: confirming hands off with the renamed answers.
    const done = await runtime.turn(atConfirmation, { button: 'confirm' });
    expect(done.completion).toEqual(HANDED_OFF);
    expect(done.artifacts).toContainEqual(
      expect.objectContaining({
        type: 'HANDOFF',
        flowId: 'versioned',
        flowVersion: 2,
        answers: { [NEW]: expect.objectContaining({ value: 'No' }), [SECOND]: expect.objectContaining({ value: 'Partial' }) },
      }),
    );

    // A migrated session then continues as any v2 session (here: a second turn, no migration needed).
    expect((await runtime.turn(atSecond, { button: 'edit' })).state).toEqual({ confirmation: 'choosing' });
    expect((await runtime.turn(atSecond, { button: NEW })).state).toEqual({ [NEW]: 'asking' });
  });

  it('refuses an old session with IncompatibleSnapshotError when no migration is declared, leaving it intact', async () => {
    const { store, atFirst, atSecond } = await sessionsOnV1();
    const runtime = createFlowRuntime({ flows: [v3()], store });
    for (const sessionId of [atFirst, atSecond]) {
      const before = await stored(store, sessionId);
      const error = await rejection(runtime.turn(sessionId, { button: 'Yes', turnId: `t-${sessionId}` }));
      expect(error).toBeInstanceOf(IncompatibleSnapshotError);
      expect(error.message).toMatch(/incompatible snapshot/);
      expect(error.message).toContain('versioned@1');
      expect(error.message).toContain('versioned@3.0.0');
      // Nothing was written: no snapshot in a state v3 lacks, no journal entry.
      expect(await stored(store, sessionId)).toEqual(before);
    }
    // Still the v1 session it was: a runtime that has v1 again continues it.
    const back = createFlowRuntime({ flows: [v1()], store });
    expect(await back.turn(atSecond, { button: 'Yes' })).toMatchObject({ flowVersion: 1, state: { confirmation: 'reviewing' } });
    expect(await back.turn(atFirst, { button: 'Yes' })).toMatchObject({ flowVersion: 1, state: { [SECOND]: 'asking' } });
  });

  it('refuses a session whose flow changed under the same version when its state is gone, leaving it intact', async () => {
    const { store, atFirst } = await sessionsOnV1();
    // old_gate renamed without a version bump: the stored state no longer exists in "v1".
    const runtime = createFlowRuntime({ flows: [versioned(1, NEW)], store });
    const before = await stored(store, atFirst);
    const error = await rejection(runtime.turn(atFirst, { button: 'Yes' }));
    expect(error).toBeInstanceOf(IncompatibleSnapshotError);
    expect(error.message).toContain(OLD);
    expect(await stored(store, atFirst)).toEqual(before);
    // Reading the session still works: it is the journal.
    expect((await runtime.session(atFirst)).reply.state).toEqual({ [OLD]: 'asking' });
  });

  it('refuses a session in a state the declared migration does not map, leaving it intact', async () => {
    const { store, atFirst, atSecond } = await sessionsOnV1();
    // v3 declares a migration from 1 but says nothing about old_gate.
    const runtime = createFlowRuntime({ flows: [versioned('3.0.0', THIRD, { migrations: [{ from: 1, nodes: {} }] })], store });
    const before = await stored(store, atFirst);
    const error = await rejection(runtime.turn(atFirst, { button: 'Yes' }));
    expect(error).toBeInstanceOf(IncompatibleSnapshotError);
    expect(error.message).toMatch(/incompatible snapshot/);
    expect(error.message).toContain(`"${OLD}"`);
    expect(await stored(store, atFirst)).toEqual(before);

    // A session past that gate is carried over; the answer to the dropped gate is dropped.
    const reply = await runtime.turn(atSecond, { button: 'No' });
    expect(reply.flowVersion).toBe('3.0.0');
    expect(reply.state).toEqual({ confirmation: 'reviewing' });
    expect(Object.keys(reply.answers)).toEqual([SECOND]);
  });
});

// ---------------------------------------------------------------------------
// Conflicts with another writer

/**
 * A store that, on the first commit, lets another runtime's turn in first (on
 * the inner store), then tries the commit it was given: which the inner store
 * then refuses with a real ConflictError.
 */
function racingStore(inner: Store, rival: () => Promise<unknown>) {
  const counts = { loads: 0, commits: 0, conflicts: 0 };
  let raced = false;
  const store: Store = {
    ...inner,
    kind: `racing-${inner.kind}`,
    create: (s) => inner.create(s),
    load: (id, turnId) => {
      counts.loads++;
      return inner.load(id, turnId);
    },
    commitTurn: async (id, expected, turn) => {
      counts.commits++;
      if (!raced) {
        raced = true;
        await rival();
      }
      try {
        return await inner.commitTurn(id, expected, turn);
      } catch (error) {
        if (error instanceof ConflictError) counts.conflicts++;
        throw error;
      }
    },
    history: (id, page) => inner.history(id, page),
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
  return { store, counts };
}

describe('conflicts', () => {
  it('reloads and applies the turn again on top of the turn that got in first; it appears once', async () => {
    const inner = createMemoryStore();
    const other = createFlowRuntime({ flows: [seedFlow()], store: inner });
    const { sessionId } = await other.start('seed-gates');
    const { store, counts } = racingStore(inner, () => other.turn(sessionId, { button: 'Yes', turnId: 'rival' }));
    const runtime = createFlowRuntime({ flows: [seedFlow()], store });

    // Applied on the stale snapshot, "No" would stop the flow at gate 1; applied
    // again after the rival's "Yes", it answers gate 2.
    const reply = await runtime.turn(sessionId, { button: 'No', turnId: 'mine' });
    expect(counts).toEqual({ loads: 2, commits: 2, conflicts: 1 });
    expect(reply).toMatchObject({
      state: { confirmation: 'reviewing' },
      answers: { [GATE_1]: { value: 'Yes' }, [GATE_2]: { value: 'No' } },
      completion: AWAITING_CONFIRMATION,
    });
    const history = await inner.history(sessionId);
    expect(history.map((e) => [e.seq, e.turnId])).toEqual([
      [1, null],
      [2, 'rival'],
      [3, 'mine'],
    ]);
    expect(history[2]!.reply).toEqual(reply);
    expect((await inner.load(sessionId))!.session.version).toBe(3);
  });

  it('a runtime that started the session (and keeps its actor) also applies the turn again after a conflict', async () => {
    const inner = createMemoryStore();
    const other = createFlowRuntime({ flows: [seedFlow()], store: inner });
    let sessionId = '';
    const { store, counts } = racingStore(inner, () => other.turn(sessionId, { button: 'Yes', turnId: 'rival' }));
    const runtime = createFlowRuntime({ flows: [seedFlow()], store });
    sessionId = (await runtime.start('seed-gates')).sessionId;
    const reply = await runtime.turn(sessionId, { button: 'No', turnId: 'mine' });
    expect(counts.conflicts).toBe(1);
    expect(reply).toMatchObject({ state: { confirmation: 'reviewing' }, answers: { [GATE_1]: { value: 'Yes' }, [GATE_2]: { value: 'No' } } });
    // And the next turn starts from what was stored, not from an actor that saw only "No".
    expect((await runtime.turn(sessionId, { button: 'confirm' })).completion).toEqual(HANDED_OFF);
    expect((await inner.history(sessionId)).map((e) => e.turnId)).toEqual([null, 'rival', 'mine', null]);
  });

  it('turns alternating between two runtimes each continue from the latest stored turn', async () => {
    const store = createMemoryStore();
    const a = createFlowRuntime({ flows: [seedFlow()], store });
    const b = createFlowRuntime({ flows: [seedFlow()], store });
    const { sessionId } = await a.start('seed-gates');
    expect((await a.turn(sessionId, { button: 'Yes' })).state).toEqual({ [GATE_2]: 'asking' });
    expect((await b.turn(sessionId, { button: 'No' })).state).toEqual({ confirmation: 'reviewing' });
    // a last saw gate 2 asked; it must not answer gate 2 again with "Partial".
    const edited = await a.turn(sessionId, { button: 'edit' });
    expect(edited.state).toEqual({ confirmation: 'choosing' });
    expect((await b.turn(sessionId, { button: GATE_2 })).state).toEqual({ [GATE_2]: 'asking' });
    const summary = await a.turn(sessionId, { button: 'Partial' });
    expect(summary).toMatchObject({ state: { confirmation: 'reviewing' }, answers: { [GATE_1]: { value: 'Yes' }, [GATE_2]: { value: 'Partial' } } });
    expect((await b.turn(sessionId, { button: 'confirm' })).completion).toEqual(HANDED_OFF);
    expect(await store.history(sessionId)).toHaveLength(7);
  });

  it('a turn whose commit failed leaves nothing behind: sent again, it is applied to the stored state', async () => {
    const inner = createMemoryStore();
    let failNext = false;
    const store: Store = {
      ...inner,
      commitTurn: async (id, expected, turn) => {
        if (failNext) {
          failNext = false;
          throw new StoreUnavailableError('connection lost');
        }
        return inner.commitTurn(id, expected, turn);
      },
    };
    const runtime = createFlowRuntime({ flows: [seedFlow()], store });
    const { sessionId } = await runtime.start('seed-gates');
    failNext = true;
    await expect(runtime.turn(sessionId, { button: 'Yes', turnId: 'y' })).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await inner.history(sessionId)).toHaveLength(1);
    // Applied to gate 1 again (an actor kept from the failed attempt would be at gate 2).
    const reply = await runtime.turn(sessionId, { button: 'Yes', turnId: 'y' });
    expect(reply).toMatchObject({ state: { [GATE_2]: 'asking' }, answers: { [GATE_1]: { value: 'Yes' } } });
    expect((await inner.history(sessionId)).map((e) => e.turnId)).toEqual([null, 'y']);
  });

  it('a conflict on the same turnId (the other process applied this very turn) returns its reply', async () => {
    const inner = createMemoryStore();
    const other = createFlowRuntime({ flows: [seedFlow()], store: inner });
    const { sessionId } = await other.start('seed-gates');
    let rivalReply: Reply | undefined;
    const { store, counts } = racingStore(inner, async () => {
      rivalReply = await other.turn(sessionId, { button: 'Yes', turnId: 'same' });
    });
    const runtime = createFlowRuntime({ flows: [seedFlow()], store });
    const reply = await runtime.turn(sessionId, { button: 'Yes', turnId: 'same' });
    expect(counts.conflicts).toBe(1);
    expect(reply).toEqual(rivalReply);
    expect((await inner.history(sessionId)).map((e) => e.turnId)).toEqual([null, 'same']);
  });

  it('gives up after maxConflictRetries with the ConflictError, having written nothing', async () => {
    const inner = createMemoryStore();
    const runtime0 = createFlowRuntime({ flows: [seedFlow()], store: inner });
    const { sessionId } = await runtime0.start('seed-gates');
    let commits = 0;
    const store: Store = {
      ...inner,
      commitTurn: async () => {
        commits++;
        throw new ConflictError('always behind');
      },
    };
    const runtime = createFlowRuntime({ flows: [seedFlow()], store, maxConflictRetries: 2 });
    await expect(runtime.turn(sessionId, { button: 'Yes' })).rejects.toBeInstanceOf(ConflictError);
    expect(commits).toBe(3);
    expect(await inner.history(sessionId)).toHaveLength(1);
  });

  it('does not retry when the store is unavailable: the StoreUnavailableError is passed on', async () => {
    const inner = createMemoryStore();
    const runtime0 = createFlowRuntime({ flows: [seedFlow()], store: inner });
    const { sessionId } = await runtime0.start('seed-gates');
    let commits = 0;
    const store: Store = {
      ...inner,
      commitTurn: async () => {
        commits++;
        throw new StoreUnavailableError('database gone');
      },
    };
    const runtime = createFlowRuntime({ flows: [seedFlow()], store });
    await expect(runtime.turn(sessionId, { button: 'Yes' })).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(commits).toBe(1);
    expect(await inner.history(sessionId)).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------
// Live actors kept between turns

describe('actors kept between turns', () => {
  it('give the same replies and store the same snapshots as restoring every turn, whatever the capacity', async () => {
    const script: Turn[][] = [
      [{ button: 'Yes' }, { text: 'hmm' }, { text: 'partial' }, { button: 'edit' }, { button: GATE_2 }, { button: 'No' }, { button: 'confirm' }],
      [{ text: 'yes we have it' }, { button: 'No' }, { text: 'looks good' }],
      [{ button: 'No' }],
    ];
    const run = async (liveSessions: number | undefined) => {
      const store = createMemoryStore();
      const runtime = createFlowRuntime({ flows: [seedFlow()], store, ...(liveSessions !== undefined && { liveSessions }) });
      const ids: string[] = [];
      for (let i = 0; i < script.length; i++) ids.push((await runtime.start('seed-gates')).sessionId);
      const replies: Reply[][] = ids.map(() => []);
      // Interleaved: one turn of each session in turn, so a small capacity evicts.
      for (let step = 0; step < Math.max(...script.map((t) => t.length)); step++)
        for (let i = 0; i < script.length; i++) {
          const turn = script[i]![step];
          if (turn) replies[i]!.push(await runtime.turn(ids[i]!, turn));
        }
      const snapshots = await Promise.all(ids.map(async (id) => JSON.stringify((await store.load(id))!.session.snapshot)));
      const strip = (r: Reply) => ({ ...r, sessionId: 'x' });
      return { replies: replies.map((rs) => rs.map(strip)), snapshots: snapshots.map((t, i) => t.replaceAll(ids[i]!, 'x')) };
    };
    const restoring = await run(0);
    expect(restoring.replies[0]!.at(-1)!.completion).toEqual(HANDED_OFF);
    expect(restoring.replies[2]!.at(-1)!.completion).toEqual(STOPPED);
    for (const capacity of [1, 2, undefined]) expect(await run(capacity), `liveSessions ${capacity}`).toEqual(restoring);
  });
});

// ---------------------------------------------------------------------------
// Turns at once

describe('turns sent at once', () => {
  const unreadable = (i: number) => ['hmm', 'hmmm', 'uh', 'well...', 'erm'][i % 5]!;
  // Fifty unreadable turns: a budget that keeps the first gate asking.
  const seedFlow = () => seedFlowOf({ ...SEED_GATE_CONFIG, max_attempts: 100 });

  it('50 turns at once on one session: all resolve, each is journaled once, in order, and the last reply is the session', async () => {
    const store = createMemoryStore();
    let commits = 0;
    let conflicts = 0;
    const counting: Store = {
      ...store,
      commitTurn: async (id, expected, turn) => {
        commits++;
        try {
          return await store.commitTurn(id, expected, turn);
        } catch (error) {
          if (error instanceof ConflictError) conflicts++;
          throw error;
        }
      },
    };
    const runtime = createFlowRuntime({ flows: [seedFlow()], store: counting });
    const { sessionId } = await runtime.start('seed-gates');
    const turns: Turn[] = Array.from({ length: 50 }, (_, i) => ({ text: unreadable(i), turnId: `t-${i}` }));
    const replies = await Promise.all(turns.map((t) => runtime.turn(sessionId, t)));

    expect(replies).toHaveLength(50);
    // Serialized in this process: no turn raced another one and had to be applied again.
    expect({ commits, conflicts }).toEqual({ commits: 50, conflicts: 0 });
    for (const reply of replies) {
      expect(reply).toMatchObject({ sessionId, state: { [GATE_1]: 'asking' }, message: expect.stringContaining(TROUBLE), answers: {} });
    }
    const history = await store.history(sessionId);
    expect(history).toHaveLength(51);
    expect(history.map((e) => e.seq)).toEqual(Array.from({ length: 51 }, (_, i) => i + 1));
    const ids = history.slice(1).map((e) => e.turnId);
    expect(new Set(ids).size).toBe(50);
    // Serialized in this process in the order they were sent.
    expect(ids).toEqual(turns.map((t) => t.turnId));
    expect(history.slice(1).map((e) => e.turn)).toEqual(turns);
    expect((await store.load(sessionId))!.session.version).toBe(51);

    // The first page holds 50 entries by default; the next page the last one.
    const view = await runtime.session(sessionId);
    expect(view.reply).toEqual(history[50]!.reply);
    expect(view.history).toHaveLength(50);
    expect(view.nextAfter).toBe(50);
    const rest = await runtime.session(sessionId, {}, { after: view.nextAfter! });
    expect(rest.history.map((e) => e.seq)).toEqual([51]);
    expect(rest.nextAfter).toBeNull();
    // The session still moves on afterwards.
    expect((await runtime.turn(sessionId, { button: 'Yes' })).state).toEqual({ [GATE_2]: 'asking' });
  });

  it('each turnId sent twice at once is applied once and both calls get the same reply', async () => {
    const { runtime, store } = memoryRuntime([seedFlow()]);
    const { sessionId } = await runtime.start('seed-gates');
    const turns: Turn[] = Array.from({ length: 25 }, (_, i) => ({ text: unreadable(i), turnId: `dup-${i}` }));
    const replies = await Promise.all([...turns, ...turns].map((t) => runtime.turn(sessionId, t)));
    for (let i = 0; i < 25; i++) expect(replies[i + 25]).toEqual(replies[i]);
    const history = await store.history(sessionId);
    expect(history.map((e) => e.seq)).toEqual(Array.from({ length: 26 }, (_, i) => i + 1));
    expect(history.slice(1).map((e) => e.turnId)).toEqual(turns.map((t) => t.turnId));
  });

  it('two runtimes on one store (as two processes) sending 50 turns at once: the version check keeps each turn once', async () => {
    const store = createMemoryStore();
    const a = createFlowRuntime({ flows: [seedFlow()], store });
    const b = createFlowRuntime({ flows: [seedFlow()], store });
    const { sessionId } = await a.start('seed-gates');
    const turns: Turn[] = Array.from({ length: 50 }, (_, i) => ({ text: unreadable(i), turnId: `ab-${i}` }));
    const replies = await Promise.all(turns.map((t, i) => (i % 2 === 0 ? a : b).turn(sessionId, t)));
    expect(replies).toHaveLength(50);
    const history = await store.history(sessionId);
    expect(history.map((e) => e.seq)).toEqual(Array.from({ length: 51 }, (_, i) => i + 1));
    expect(
      history
        .slice(1)
        .map((e) => e.turnId)
        .sort(),
    ).toEqual(turns.map((t) => t.turnId).sort());
    expect((await a.session(sessionId)).reply).toEqual(history[50]!.reply);
  });
});

// ---------------------------------------------------------------------------
// A full intake on PGlite

describe('a full intake on PGlite', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('completes the example flow, journals every turn, survives a re-open and gives the replies the memory store gives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateflow-runtime-'));
    dirs.push(dir);
    const turns: Turn[] = [
      { button: 'Yes', turnId: 'g1' },
      { text: 'no, always covered', turnId: 'g2' },
      { text: 'hmm', turnId: 'confused' },
      { text: 'follow up', turnId: 'g3' },
      { button: 'Adult', turnId: 'g4' },
      { button: 'Email', turnId: 'g5' },
      { button: 'confirm', turnId: 'ok' },
    ];

    const store = await createPgliteStore({ dataDir: templateDataDir('plain', join(dir, 'db')) });
    let sessionId: string;
    let replies: Reply[];
    try {
      const runtime = createFlowRuntime({ flows: [patientIntakeFlow()], store });
      const started = await runtime.start('patient-intake', { owner: 'carol' });
      sessionId = started.sessionId;
      replies = [started.reply];
      for (const turn of turns) replies.push(await runtime.turn(sessionId, turn, { owner: 'carol' }));

      const last = replies[replies.length - 1]!;
      expect(last.completion).toEqual(HANDED_OFF);
      expect(last.flowVersion).toBe('1.0.0');
      const handoff = last.artifacts.find((a) => a.type === 'HANDOFF');
      expect(handoff).toMatchObject({ flowId: 'patient-intake', flowVersion: '1.0.0' });
      expect(Object.fromEntries(Object.entries(last.answers).map(([k, a]) => [k, a.value]))).toEqual({
        '1_patient_info_availability': 'Yes',
        '2_insurance_history': 'No',
        '3_visit_type': 'Follow-up',
        '4_patient_age_group': 'Adult',
        '5_preferred_contact': 'Email',
      });
      expect(replies[3]!.message).toContain(TROUBLE);
      for (const reply of replies) expect(ReplySchema.safeParse(reply).success).toBe(true);

      const view = await runtime.session(sessionId, { owner: 'carol' });
      expect(view.reply).toEqual(last);
      expect(view.history).toEqual(replies.map((reply, i) => ({ seq: i + 1, turn: i === 0 ? null : turns[i - 1], reply })));
      await expect(runtime.turn(sessionId, { button: 'edit' }, { owner: 'carol' })).rejects.toBeInstanceOf(ConversationFinishedError);
    } finally {
      await store.close();
    }

    // Re-opened, as after a restart: the same session, replays answer from the journal.
    const reopened = await createPgliteStore({ dataDir: join(dir, 'db') });
    try {
      const runtime = createFlowRuntime({ flows: [patientIntakeFlow()], store: reopened });
      const view = await runtime.session(sessionId, { owner: 'carol' });
      expect(JSON.stringify(view.history.map((h) => h.reply))).toBe(JSON.stringify(replies));
      expect(await runtime.turn(sessionId, { text: 'follow up', turnId: 'g3' }, { owner: 'carol' })).toEqual(replies[4]);
      await expect(runtime.turn(sessionId, { button: 'No', turnId: 'g3' }, { owner: 'carol' })).rejects.toBeInstanceOf(TurnIdReusedError);
      expect((await reopened.load(sessionId))!.session).toMatchObject({ version: 8, owner: 'carol', flowVersion: '1.0.0' });
      await expect(runtime.session(sessionId, { owner: 'dave' })).rejects.toBeInstanceOf(SessionNotFoundError);
    } finally {
      await reopened.close();
    }

    // The same turns on the memory store give the same replies, but for the session id.
    const memory = memoryRuntime([patientIntakeFlow()]);
    const started = await memory.runtime.start('patient-intake');
    const memoryReplies = [started.reply];
    for (const turn of turns) memoryReplies.push(await memory.runtime.turn(started.sessionId, turn));
    expect(memoryReplies.map((r) => ({ ...r, sessionId: 'x' }))).toEqual(replies.map((r) => ({ ...r, sessionId: 'x' })));
  });
});

describe('a model given to the runtime', () => {
  it('reads the text the offline matcher cannot, through the AI SDK, on gates 2+', async () => {
    const { MockLanguageModelV4 } = await import('ai/test');
    let calls = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        calls++;
        return {
          content: [{ type: 'text', text: JSON.stringify({ answers: { [GATE_2]: { value: 'Partial', evidence: 'complicated', confidence: 0.9 } } }) }],
          finishReason: { unified: 'stop', raw: undefined },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 1, text: 1, reasoning: undefined },
          },
          warnings: [],
        };
      },
    });
    const runtime = createFlowRuntime({ flows: [seedFlow()], store: createMemoryStore(), model });
    const { sessionId } = await runtime.start(seedFlow().id);
    expect((await runtime.turn(sessionId, { text: 'hmm, hard to say' })).message).toContain(TROUBLE); // gate 1: no model
    await runtime.turn(sessionId, { button: 'Yes' });
    const reply = await runtime.turn(sessionId, { text: 'her coverage story is complicated' });
    expect(calls).toBe(1);
    expect(reply.answers[GATE_2]).toEqual({ value: 'Partial', confidence: 0.9, source: 'llm', raw: 'her coverage story is complicated' });
    expect(reply.completion).toEqual(AWAITING_CONFIRMATION);
  });
});

describe('bounds and untrusted strings', () => {
  // Yes, No, then "edit" and "back" at the summary, again and again: a session that never ends by itself.
  const loopAt = (i: number) => (i < 2 ? ['Yes', 'No'][i]! : i % 2 === 0 ? 'edit' : 'back');

  it('refuses the turn after maxTurnsPerSession with TurnLimitError, writing nothing; replays still answer', async () => {
    const store = createMemoryStore();
    const runtime = createFlowRuntime({ flows: [seedFlow()], store, maxTurnsPerSession: 5 });
    const { sessionId } = await runtime.start('seed-gates');
    const replies: Reply[] = [];
    for (let i = 0; i < 5; i++) replies.push(await runtime.turn(sessionId, { button: loopAt(i), turnId: `t${i}` }));
    const before = await stored(store, sessionId);
    const error = await rejection(runtime.turn(sessionId, { button: loopAt(5) }));
    expect(error).toBeInstanceOf(TurnLimitError);
    expect(error.message).toMatch(/has taken 5 turns, the most a session may take/);
    expect(await stored(store, sessionId)).toEqual(before);
    expect(await runtime.turn(sessionId, { button: loopAt(3), turnId: 't3' })).toEqual(replies[3]);
  });

  it('the default cap is 500 turns', async () => {
    const store = createMemoryStore();
    const runtime = createFlowRuntime({ flows: [seedFlow()], store });
    const { sessionId } = await runtime.start('seed-gates');
    for (let i = 0; i < 500; i++) await runtime.turn(sessionId, { button: loopAt(i) });
    await expect(runtime.turn(sessionId, { button: loopAt(500) })).rejects.toBeInstanceOf(TurnLimitError);
    expect(await store.history(sessionId)).toHaveLength(501);
  });

  it('reads the history page by page: after and limit, nextAfter until the end, the current reply on every page', async () => {
    const { runtime } = memoryRuntime();
    const { sessionId } = await runtime.start('seed-gates');
    for (let i = 0; i < 9; i++) await runtime.turn(sessionId, { button: loopAt(i) });
    const current = (await runtime.session(sessionId, {}, { after: 9, limit: 1 })).history[0]!.reply;
    const seqs: number[][] = [];
    let after = 0;
    for (;;) {
      const page = await runtime.session(sessionId, {}, { after, limit: 4 });
      expect(page.reply).toEqual(current);
      seqs.push(page.history.map((e) => e.seq));
      if (page.nextAfter === null) break;
      after = page.nextAfter;
    }
    expect(seqs).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]]);
    expect((await runtime.session(sessionId, {}, { after: 10 })).history).toEqual([]);
    for (const page of [{ limit: 0 }, { limit: 201 }, { after: -1 }, { limit: 1.5 }])
      await expect(runtime.session(sessionId, {}, page)).rejects.toBeInstanceOf(InvalidPageError);
    expect((await runtime.session(sessionId, {}, { limit: 200 })).history).toHaveLength(10);
  });

  it('a session with an owner is never visible to a caller without one (a server without auth on the same store)', async () => {
    const { runtime } = memoryRuntime();
    const { sessionId } = await runtime.start('seed-gates', { owner: 'alice' });
    await expect(runtime.session(sessionId)).rejects.toBeInstanceOf(SessionNotFoundError);
    await expect(runtime.session(sessionId, { owner: null })).rejects.toBeInstanceOf(SessionNotFoundError);
    await expect(runtime.turn(sessionId, { button: 'Yes' })).rejects.toBeInstanceOf(SessionNotFoundError);
    // A session made without auth has no owner and stays readable.
    const open = (await runtime.start('seed-gates')).sessionId;
    expect((await runtime.session(open, { owner: 'bob' })).history).toHaveLength(1);
  });

  it('refuses turns whose turnId, text or button holds a lone surrogate: "t\\ud800" and "t\\udbff" are not one id', async () => {
    const { runtime, store } = memoryRuntime();
    const { sessionId } = await runtime.start('seed-gates');
    for (const turn of [{ button: 'Yes', turnId: 't\ud800' }, { button: 'Yes', turnId: 't\udbff' }, { text: 'yes\udc00' }, { button: 'Y\ud800' }]) {
      const error = await rejection(runtime.turn(sessionId, turn));
      expect(error).toBeInstanceOf(InvalidTurnError);
      expect(error.message).toMatch(/well-formed Unicode/);
    }
    expect(await store.history(sessionId)).toHaveLength(1);
    // A surrogate pair is well-formed.
    expect((await runtime.turn(sessionId, { button: 'Yes', turnId: 't\ud83d\ude00' })).answers).toHaveProperty([GATE_1]);
  });

  it('error messages quote only a short prefix of an id', async () => {
    const { runtime } = memoryRuntime();
    const long = 'A'.repeat(128);
    const error = await rejection(runtime.session(long));
    expect(error.message).toBe(`no session "${'A'.repeat(24)}"…`);
    expect((await rejection(runtime.start(`flow-${'x'.repeat(500)}`))).message.length).toBeLessThan(80);
  });
});
