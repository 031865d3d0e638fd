/**
 * What the widget and the inbox make of input gates, without a browser: the
 * transcript a waiting session shows (live and restored alike), deadlines in
 * words, refusals in the person's terms. The browser suites
 * (test/browser/inputs.test.ts, the InputGates stories) show the rest.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { chatSessionMachine, transcriptOf, type ChatReply } from '../../machines/chat-session.js';
import type { InputValue } from '../../src/inputs/coerce.js';
import type { OpenInput } from '../../src/inputs/gate.js';
import { relativeTime } from '../../src/react/deadline.js';
import { refusalInWords } from '../../src/react/InputForm.js';
import { loadTypedReader } from '../../src/react/typed-reader.js';
import type { Transport } from '../../src/react/transport.js';
import { createStage, deliveryCheck, refundApproval, refundAtTheWait, type Stage } from '../../stories/input-gates-script.js';

const stages: Stage[] = [];
const stage = (...args: Parameters<typeof createStage>) => {
  const s = createStage(...args);
  stages.push(s);
  return s;
};
afterEach(() => {
  for (const s of stages.splice(0)) s.runtime.close();
});

const texts = (entries: { role: string; text: string }[]) => entries.map((e) => `${e.role}: ${e.text.split('\n')[0]}`);

describe('the transcript of a session that waits for inputs', () => {
  it('shows the wait once while a manager answers one gate after the other, then the outcome; the answers are not the customer\'s', async () => {
    const { runtime } = stage([refundApproval]);
    const sessionId = await refundAtTheWait(runtime);
    const [approved, amount] = await runtime.inputs({}, { sessionId });
    await runtime.answer(amount!.gateId, 200);
    // Half answered: the session waits where it waited, and the transcript says nothing new.
    const half = transcriptOf((await runtime.session(sessionId)).history);
    expect(half.filter((e) => /needs a manager's approval/.test(e.text))).toHaveLength(1);
    expect(half.at(-1)!.text).toMatch(/needs a manager's approval/);
    await runtime.answer(approved!.gateId, true);
    const done = transcriptOf((await runtime.session(sessionId)).history);
    expect(texts(done).slice(-3)).toEqual([
      'user: Request the refund',
      "assistant: Your refund of 250 EUR for order AB1234 needs a manager's approval. You can close this page: the answer will be here when you come back, usually within a day.",
      'assistant: Good news: a manager approved a refund of 200 EUR for order AB1234. It goes back to your original payment method within 5 business days.',
    ]);
    expect(done.filter((e) => e.role === 'user').map((e) => e.text)).toEqual(['AB1234', '250', 'it arrived broken', 'Request the refund']);
  });

  it("shows the person's own answer from a form, without the reply repeating the wait, live as when read again", async () => {
    const flow = deliveryCheck();
    const s = stage([flow]);
    const transport = s.transport();
    const actor = createActor(
      chatSessionMachine.provide({
        actors: {
          startSession: fromPromise(({ input }: { input: { flowId: string } }) => transport.start(input.flowId)),
          resumeSession: fromPromise(({ input }: { input: { sessionId: string } }) => transport.session(input.sessionId)),
          sendTurn: fromPromise(({ input }: { input: { sessionId: string; turn: Parameters<Transport['turn']>[1] } }) => transport.turn(input.sessionId, input.turn)),
          answerInput: fromPromise(({ input }: { input: { gateId: string; value: InputValue } }) => transport.answer(input.gateId, input.value)),
        },
      }),
      { input: { flowId: flow.id } },
    ).start();
    await waitFor(actor, (snap) => snap.matches('ready'));
    const parcels = actor.getSnapshot().context.reply!.inputs!.find((g) => g.name === 'parcels')!;
    actor.send({ type: 'answer', gateId: parcels.gateId, value: '3', label: '3' });
    await waitFor(actor, (snap) => snap.matches('ready') && snap.context.answering === null);
    const live = actor.getSnapshot().context.transcript;
    expect(texts(live)).toEqual(['assistant: Please tell us about the delivery.', 'user: 3']);
    expect((actor.getSnapshot().context.reply as ChatReply).inputs!.map((g) => g.name)).toEqual(['received', 'condition', 'delivered_on']);
    // Read again (a reload): the same entries.
    const restored = transcriptOf((await transport.session(actor.getSnapshot().context.sessionId!)).history);
    expect(restored.map((e) => [e.role, e.text])).toEqual(live.map((e) => [e.role, e.text]));
    actor.stop();
  });
});

describe('deadlines in words', () => {
  const now = new Date('2026-01-10T12:00:00Z');
  it('says "in 2 hours" for a deadline two hours away read a few seconds later, minutes below that', () => {
    expect(relativeTime(new Date(now.getTime() + 2 * 3_600_000 - 5_000), now)).toBe('in 2 hours');
    expect(relativeTime(new Date(now.getTime() + 90 * 60_000), now)).toBe('in 90 minutes');
    expect(relativeTime(new Date(now.getTime() + 36 * 3_600_000), now)).toBe('in 36 hours');
    expect(relativeTime(new Date(now.getTime() - 3 * 86_400_000), now)).toBe('3 days ago');
  });
});

describe('a refused value in the person\'s terms', () => {
  const gate = {
    gateId: 'in_abc',
    name: 'approved_amount',
    spec: { name: 'approved_amount', type: 'number', min: 0, unit: 'EUR' },
  } as unknown as OpenInput;
  const server = 'input "approved_amount" (gate in_abc) still waits: "-5" is not accepted: The number must be at least 0 EUR. Expected a number of at least 0.';

  it('says what was wrong with the value, without the gate id the server names for logs', async () => {
    const reader = await loadTypedReader();
    expect(refusalInWords(gate, '-5', server, reader)).toBe('"-5" is not accepted: That is a negative number (-5). The number must be at least 0 EUR. Expected a number of at least 0.');
  });

  it("keeps the server's words where the reading here accepts the value", async () => {
    const reader = await loadTypedReader();
    expect(refusalInWords(gate, '5', 'refused for a reason only the server knows', reader)).toBe('refused for a reason only the server knows');
  });

  it("keeps the server's words until the typed reader (a chunk of its own) has loaded", () => {
    expect(refusalInWords(gate, '-5', server, undefined)).toBe(server);
  });
});
