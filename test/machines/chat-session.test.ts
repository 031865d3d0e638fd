import { createActor, fromPromise, waitFor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { chatSessionMachine, transcriptOf, type ChatReply, type SessionResumed, type SessionStarted } from '../../machines/chat-session.js';
import type { Reply } from '../../src/flow/reply.js';
import type { Turn } from '../../src/workflow/turn.js';

const reply = (message: string, complete = false): Reply => ({
  sessionId: 's1',
  flowId: 'f',
  flowVersion: 1,
  state: 'q',
  status: complete ? 'done' : 'active',
  message,
  buttons: complete ? null : [{ label: 'Yes', value: 'yes' }],
  buttonContext: complete ? null : 'gate_question',
  answers: {},
  artifacts: [],
  completion: complete
    ? { isComplete: true, reason: 'handed_off', readyForHandoff: true }
    : { isComplete: false, reason: 'awaiting_answer', readyForHandoff: false },
});

function run(options: { sessionId?: string; sendFails?: number; resumeError?: { code: string } } = {}) {
  const calls = { start: 0, resume: 0, send: [] as Turn[] };
  let failures = options.sendFails ?? 0;
  const machine = chatSessionMachine.provide({
    actors: {
      startSession: fromPromise<SessionStarted, { flowId: string }>(async () => {
        calls.start++;
        return { sessionId: 's1', reply: reply('First?') };
      }),
      resumeSession: fromPromise<SessionResumed, { sessionId: string }>(async () => {
        calls.resume++;
        if (options.resumeError) throw Object.assign(new Error('gone'), options.resumeError);
        return { reply: reply('Second?'), history: [{ turn: null, reply: reply('First?') }, { turn: { button: 'yes' }, reply: reply('Second?') }] };
      }),
      sendTurn: fromPromise<ChatReply, { sessionId: string; turn: Turn }>(async ({ input }) => {
        calls.send.push(input.turn);
        if (failures-- > 0) throw Object.assign(new Error('server down'), { code: 'network' });
        return reply('Thanks', 'button' in input.turn && input.turn.button === 'done');
      }),
    },
  });
  const actor = createActor(machine, { input: { flowId: 'f', sessionId: options.sessionId ?? null } }).start();
  return { actor, calls };
}

describe('the chat session machine', () => {
  it('starts a session, sends a turn, and shows both in the transcript', async () => {
    const { actor, calls } = run();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'send', turn: { button: 'yes', turnId: 't1' }, label: 'Yes' });
    expect(actor.getSnapshot().value).toBe('sending');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(calls.start).toBe(1);
    expect(calls.send).toEqual([{ button: 'yes', turnId: 't1' }]);
    expect(actor.getSnapshot().context.transcript.map((e) => [e.role, e.text])).toEqual([
      ['assistant', 'First?'],
      ['user', 'Yes'],
      ['assistant', 'Thanks'],
    ]);
  });

  it('fails with the error and retries the very same turn (same turnId)', async () => {
    const { actor, calls } = run({ sendFails: 1 });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'send', turn: { text: 'hello', turnId: 't1' }, label: 'hello' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toEqual({ code: 'network', message: 'server down' });
    actor.send({ type: 'retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(calls.send).toEqual([
      { text: 'hello', turnId: 't1' },
      { text: 'hello', turnId: 't1' },
    ]);
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(actor.getSnapshot().context.transcript.filter((e) => e.role === 'user')).toHaveLength(1);
  });

  it('ignores turns while sending, and finishes when the reply is complete', async () => {
    const { actor, calls } = run();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'send', turn: { button: 'done', turnId: 't1' }, label: 'Done' });
    actor.send({ type: 'send', turn: { button: 'yes', turnId: 't2' }, label: 'Yes' });
    await waitFor(actor, (s) => s.matches('finished'));
    expect(calls.send.map((t) => t.turnId)).toEqual(['t1']);
  });

  it('resumes a stored session with its transcript, and starts a new one when it is gone', async () => {
    const resumed = run({ sessionId: 's1' });
    await waitFor(resumed.actor, (s) => s.matches('ready'));
    expect(resumed.calls).toMatchObject({ start: 0, resume: 1 });
    expect(resumed.actor.getSnapshot().context.transcript.map((e) => e.text)).toEqual(['First?', 'Yes', 'Second?']);

    const gone = run({ sessionId: 'old', resumeError: { code: 'session_not_found' } });
    await waitFor(gone.actor, (s) => s.matches('ready'));
    expect(gone.calls).toMatchObject({ start: 1, resume: 1 });
    expect(gone.actor.getSnapshot().context.sessionId).toBe('s1');
  });

  it('restarts with a new session and an empty transcript', async () => {
    const { actor, calls } = run();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'restart' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(calls.start).toBe(2);
    expect(actor.getSnapshot().context.transcript).toHaveLength(1);
  });

  it('labels pressed buttons in a restored transcript as they were offered', () => {
    expect(transcriptOf([{ turn: null, reply: reply('First?') }, { turn: { button: 'yes' }, reply: reply('Next') }]).map((e) => e.text)).toEqual([
      'First?',
      'Yes',
      'Next',
    ]);
  });
});
