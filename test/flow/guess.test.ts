/**
 * A hedged answer the reader does not take ("probably three times a week") is asked again with what it most
 * likely meant ("Did you mean ...?"): offered, never committed; its button answers. Found by hand in the demo
 * page (issue 26): the reply said only "I'm having trouble understanding your response".
 */
import { describe, expect, it } from 'vitest';
import { startConversation } from '../../src/flow/conversation.js';
import { NOT_UNDERSTOOD_MESSAGE } from '../../src/flow/messages.js';
import type { FlowDocumentInput } from '../../src/flow/schema.js';
import { flow } from './helpers.js';

const SWIM: FlowDocumentInput = {
  id: 'swim-guess',
  version: 1,
  nodes: [
    { kind: 'question', id: 'visits', prompt: 'How often will you swim with us?', answer: { type: 'category', categories: ['Once a week or less', '2-3 times a week', '4 or more times a week'] } },
    { kind: 'question', id: 'smoking', prompt: 'Do you smoke?', answer: { type: 'category', categories: ['Never', 'Occasionally', 'Daily'] }, limitingValues: ['Daily'] },
    { kind: 'question', id: 'locker', prompt: 'Would you like a locker?', answer: { type: 'category', categories: ['Yes', 'No'] } },
    { kind: 'terminal', id: 'done', outcome: 'completed' },
    { kind: 'terminal', id: 'no', outcome: 'stopped' },
  ],
  edges: [
    { from: 'visits', to: 'smoking' },
    { from: 'smoking', to: 'locker' },
    { from: 'smoking', to: 'no', on: 'limiting' },
    { from: 'locker', to: 'done' },
  ],
};
const didYouMean = (value: string) => `Did you mean **${value}**? If so, please press it below; or answer in other words.`;

describe('a hedged answer is offered back, not committed', () => {
  it('names what it most likely meant; nothing is kept until its button is pressed', async () => {
    const c = startConversation(flow(SWIM));
    const again = await c.send({ text: "probably like three times a week, if I'm honest" });
    expect(again.message).toBe(`${didYouMean('2-3 times a week')}\n\nHow often will you swim with us?`);
    expect(again.answers).toEqual({});
    expect(again.buttons?.map((b) => b.label)).toEqual(['Once a week or less', '2-3 times a week', '4 or more times a week']);
    const next = await c.send({ button: '2-3 times a week' });
    expect(next.answers.visits).toMatchObject({ value: '2-3 times a week', source: 'button' });
    expect(next.message).toBe('Do you smoke?');
  });

  it('a limiting value is only offered: the flow goes on asking', async () => {
    const c = startConversation(flow(SWIM));
    await c.send({ button: 'Once a week or less' });
    const again = await c.send({ text: 'probably daily' });
    expect(again.message.startsWith(didYouMean('Daily'))).toBe(true);
    expect(again.completion.reason).toBe('awaiting_answer');
    expect(again.answers.smoking).toBeUndefined();
  });

  it('offers nothing where the reader has another reason to abstain, and forgets an old guess', async () => {
    const c = startConversation(flow(SWIM));
    // Someone else's habit; sarcasm: taking the hedge out leaves the reason.
    for (const text of ['my sister probably swims three times a week', 'oh sure, maybe four times a week, in my dreams lol']) {
      const again = await c.send({ text });
      expect(again.message, text).toBe(`${NOT_UNDERSTOOD_MESSAGE}\n\nHow often will you swim with us?`);
    }
    const c2 = startConversation(flow(SWIM));
    await c2.send({ text: 'I guess twice a week' });
    const plain = await c2.send({ text: 'what are the opening hours?' });
    expect(plain.message).toBe(`${NOT_UNDERSTOOD_MESSAGE}\n\nHow often will you swim with us?`);
  });

  it('a hedged yes at a later question is offered too', async () => {
    const c = startConversation(flow(SWIM));
    await c.send({ button: 'Once a week or less' });
    await c.send({ button: 'Never' });
    const again = await c.send({ text: 'probably yes' });
    expect(again.message).toBe(`${didYouMean('Yes')}\n\nWould you like a locker?`);
    expect(again.answers.locker).toBeUndefined();
  });
});

const GIFT: FlowDocumentInput = {
  id: 'gift-guess',
  version: 1,
  nodes: [
    { kind: 'question', id: 'budget', prompt: 'How much would you like to spend, in euros?', answer: { type: 'number', min: 10, max: 500, unit: 'EUR' } },
    { kind: 'terminal', id: 'done', outcome: 'completed' },
  ],
  edges: [{ from: 'budget', to: 'done' }],
};

describe('a hedged typed value is offered back as a button', () => {
  it('refused as unsure, offered, and taken only when pressed', async () => {
    const c = startConversation(flow(GIFT));
    const again = await c.send({ text: 'around 60 I guess' });
    expect(again.message).toBe(`${didYouMean('60 EUR')}\n\nHow much would you like to spend, in euros?`);
    expect(again.buttons).toEqual([{ label: '60 EUR', value: '60' }]);
    expect(again.answers).toEqual({});
    const done = await c.send({ button: '60' });
    expect(done.answers.budget).toMatchObject({ value: 60, source: 'button' });
  });

  it('offers nothing the question does not allow, and nothing for a plain refusal', async () => {
    const c = startConversation(flow(GIFT));
    const tooMuch = await c.send({ text: 'probably 900' });
    expect(tooMuch.message).not.toContain('Did you mean');
    expect(tooMuch.buttons).toBeNull();
    const words = await c.send({ text: 'not sure, something nice' });
    expect(words.message).not.toContain('Did you mean');
  });
});

describe('an amount in cents is offered in the question unit, never taken as whole euros', () => {
  const TIP: FlowDocumentInput = {
    id: 'tip-cents',
    version: 1,
    nodes: [
      { kind: 'question', id: 'tip', prompt: 'How much would you like to tip, in euros?', answer: { type: 'number', min: 0.1, max: 50, unit: 'EUR' } },
      { kind: 'terminal', id: 'done', outcome: 'completed' },
    ],
    edges: [{ from: 'tip', to: 'done' }],
  };

  it('"50 cents" is refused, with 0.50 EUR to press', async () => {
    const c = startConversation(flow(TIP));
    const again = await c.send({ text: '50 cents' });
    expect(again.message).toContain('That reads as cents (0.50 EUR)');
    expect(again.buttons).toEqual([{ label: '0.50 EUR', value: '0.5' }]);
    expect(again.answers).toEqual({});
    const done = await c.send({ button: '0.5' });
    expect(done.answers.tip).toMatchObject({ value: 0.5, source: 'button' });
  });

  it('offers nothing the question would refuse', async () => {
    const c = startConversation(flow(TIP));
    const again = await c.send({ text: '5 cents' });
    expect(again.message).toContain('That reads as cents (0.05 EUR)');
    expect(again.buttons).toBeNull();
  });
});

describe('a guess is forgotten once the question is answered', () => {
  it('is gone from the context once the answer is given, so a later return to the question offers nothing stale', async () => {
    const c = startConversation(flow(GIFT));
    await c.send({ text: 'around 60 I guess' });
    await c.send({ button: '60' });
    const snapshot = c.persist().snapshot as unknown as { context: { guess?: unknown } };
    expect(snapshot.context.guess ?? null).toBeNull();
  });
});
