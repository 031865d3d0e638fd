/**
 * The confirmation node kind (src/flow/nodes/confirmation.ts): the summary
 * with a confirm and an edit button; a confirmation (its button, its label in
 * any case, or a text that says so) leaves on `confirmed`; the edit button or
 * any other text leaves on `edit`, keeping aside the answers to ask again.
 * (The seed's confirmation cases stay in ../seed-cases.test.ts, laid out as
 * the seed lays them out.)
 */
import { describe, expect, it } from 'vitest';
import type { FlowDocumentInput } from '../../../src/flow/schema.js';
import { startConversation } from '../../../src/flow/conversation.js';
import { drive, flow } from '../helpers.js';

const REVIEWED: FlowDocumentInput = {
  id: 'reviewed',
  version: 1,
  nodes: [
    { kind: 'question', id: 'name', prompt: 'Your name?', answer: { type: 'string' } },
    { kind: 'question', id: 'city', prompt: 'Your city?', answer: { type: 'string' } },
    { kind: 'confirmation', id: 'review', confirmLabel: 'All good', editLabel: 'Change' },
    { kind: 'terminal', id: 'done', outcome: 'completed' },
  ],
  edges: [
    { from: 'name', to: 'city' },
    { from: 'city', to: 'review' },
    { from: 'review', to: 'done', on: 'confirmed' },
    { from: 'review', to: 'city', on: 'edit' },
  ],
};

describe('confirmation nodes', () => {
  it('offer their two buttons and the summary, with the answers as a problem statement', async () => {
    const c = startConversation(flow(REVIEWED));
    await c.send({ text: 'Ann' });
    const reply = await c.send({ text: 'Oslo' });
    expect(reply).toMatchObject({
      state: 'review',
      buttons: [
        { label: 'All good', value: 'confirm' },
        { label: 'Change', value: 'edit' },
      ],
      buttonContext: 'gate_confirmation',
      completion: { isComplete: false, reason: 'awaiting_user_confirmation' },
    });
    expect(reply.artifacts).toEqual([{ type: 'PROBLEM_STATEMENT', problemStatement: expect.any(String), answers: { name: 'Ann', city: 'Oslo' } }]);
  });

  it('a button by its label, in any case, confirms', async () => {
    const f = await drive(REVIEWED);
    await f.text('Ann');
    await f.text('Oslo');
    await f.button('ALL GOOD');
    expect(f.output).toMatchObject({ outcome: 'completed', terminal: 'done' });
  });

  it('any text that is not a confirmation edits: the answers from the edit target on are kept aside as previous ones', async () => {
    const f = await drive(REVIEWED);
    await f.text('Ann');
    await f.text('Oslo');
    await f.text('the city is wrong');
    expect(f.value).toEqual({ city: 'asking' });
    expect(f.answers).toEqual({ name: 'Ann' });
    expect(f.context.previousAnswers.city).toMatchObject({ value: 'Oslo' });
  });

  it('a button that is neither is not understood, and the review stays', async () => {
    const f = await drive(REVIEWED);
    await f.text('Ann');
    await f.text('Oslo');
    await f.button('maybe');
    expect(f.value).toBe('review');
    expect(f.context.notice).toBe('not_understood');
  });
});
