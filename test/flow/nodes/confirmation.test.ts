/**
 * The confirmation node kind (src/flow/nodes/confirmation.ts): the summary
 * with a confirm and an edit button; a confirmation (its button, its label in
 * any case, or a text that says so) leaves on `confirmed`; a correction
 * changes one answer (through the `edit` edge, keeping the others); "edit"
 * asks which answer; anything else is asked about again.
 * (The seed's confirmation cases stay in ../seed-cases.test.ts, laid out as
 * the seed lays them out.)
 */
import { describe, expect, it } from 'vitest';
import type { FlowDocumentInput } from '../../../src/flow/schema.js';
import { startConversation } from '../../../src/flow/conversation.js';
import { drive, example, flow } from '../helpers.js';

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
      state: { review: 'reviewing' },
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

  it('a text naming a free-text answer asks it again (its words are not read as the new value); the answers from the edit target on are kept aside as previous ones', async () => {
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
    expect(f.value).toEqual({ review: 'reviewing' });
    expect(f.context.notice).toBe('not_understood');
  });
});

/** A summary over category, yes/no, number answers, one of them with a limiting value. */
const BOOKING: FlowDocumentInput = {
  id: 'booking',
  version: 1,
  title: 'Booking',
  nodes: [
    { kind: 'question', id: 'has_info', label: 'Information on file', prompt: 'Do you have the information?', answer: { type: 'category', categories: ['Yes', 'No'] } },
    { kind: 'question', id: 'insurance', label: 'Insurance', prompt: 'Any gaps in insurance?', answer: { type: 'category', categories: ['Yes', 'No', 'Partial'], synonyms: { Partial: ['one gap'] } } },
    { kind: 'question', id: 'visit', label: 'Visit type', prompt: 'What kind of visit?', answer: { type: 'category', categories: ['New patient', 'Follow-up', 'Emergency'] }, limitingValues: ['Emergency'] },
    { kind: 'question', id: 'guests', label: 'Guests', prompt: 'How many guests?', answer: { type: 'number', min: 1, max: 200, integer: true } },
    { kind: 'confirmation', id: 'review' },
    { kind: 'terminal', id: 'done', outcome: 'handoff', message: 'Your booking request is in.' },
    { kind: 'terminal', id: 'stop', outcome: 'stopped', message: 'Please call 911.' },
  ],
  edges: [
    { from: 'has_info', to: 'insurance' },
    { from: 'insurance', to: 'visit' },
    { from: 'visit', to: 'guests' },
    { from: 'visit', on: 'limiting', to: 'stop' },
    { from: 'guests', to: 'review' },
    { from: 'review', on: 'confirmed', to: 'done' },
    { from: 'review', on: 'edit', to: 'has_info' },
  ],
};

const values = (reply: { answers: Record<string, { value: unknown }> }) => Object.fromEntries(Object.entries(reply.answers).map(([k, a]) => [k, a.value]));
const AS_GIVEN = { has_info: 'Yes', insurance: 'Yes', visit: 'Follow-up', guests: 12 };

async function atSummary() {
  const c = startConversation(flow(BOOKING));
  for (const turn of [{ button: 'Yes' }, { button: 'Yes' }, { button: 'Follow-up' }, { text: '12' }]) await c.send(turn);
  expect(c.reply().state).toEqual({ review: 'reviewing' });
  return c;
}

describe('corrections at the summary', () => {
  it.each([
    ['names the answer and gives a category by its synonym', 'the insurance answer is wrong, there was one gap', { insurance: 'Partial' }, 'Insurance: Yes → Partial'],
    ['names the answer and gives a number', 'make it 14 guests', { guests: 14 }, 'Guests: 12 → 14'],
    ['names the answer and gives a category', 'actually the visit type is new patient', { visit: 'New patient' }, 'Visit type: Follow-up → New patient'],
    ['gives a value only one answer can take, naming none', 'new patient', { visit: 'New patient' }, 'Visit type: Follow-up → New patient'],
  ])('a message that %s changes that answer and shows the summary again (saying what changed), the others kept', async (_, text, changed, said) => {
    const c = await atSummary();
    const reply = await c.send({ text });
    expect(reply.state).toEqual({ review: 'reviewing' });
    expect(values(reply)).toEqual({ ...AS_GIVEN, ...changed });
    const key = Object.keys(changed)[0]!;
    expect(reply.answers[key]!.raw).toBe(text);
    expect(reply.message).toMatch(new RegExp(`^Changed: ${said}\\.\n\n## Summary of Collected Information`));
  });

  it('a corrected value is checked like an answer: a limiting value stops the flow', async () => {
    const c = await atSummary();
    // Read out of free text, it is checked first (issue 26 §2).
    const check = await c.send({ text: 'the visit is an emergency' });
    expect(check.completion.reason).toBe('awaiting_user_confirmation');
    const reply = await c.send({ button: 'confirm' });
    expect(reply).toMatchObject({ state: 'stop', message: 'Please call 911.' });
    expect(values(reply).visit).toBe('Emergency');
  });

  it('a category asked again offers its own buttons, not "Keep" beside the button of the same value; "keep it" still keeps', async () => {
    const c = await atSummary();
    const asked = await c.send({ text: 'the visit type is wrong' });
    expect(asked.state).toEqual({ visit: 'asking' });
    expect(asked.buttons?.some((b) => b.value === 'keep' || b.label.startsWith('Keep'))).toBe(false);
    expect(asked.buttons?.filter((b) => b.value === 'Follow-up')).toHaveLength(1);
    expect(asked.message).toContain('(Your previous answer: Follow-up)');
    const kept = await c.send({ text: 'keep it' });
    expect(kept.state).toEqual({ review: 'reviewing' });
    expect(values(kept)).toEqual(AS_GIVEN);
  });

  it('a named answer whose new value is not allowed is asked again, its previous value offered as Keep', async () => {
    const c = await atSummary();
    const reply = await c.send({ text: 'guests should be 500' });
    expect(reply.state).toEqual({ guests: 'asking' });
    expect(reply.buttons).toEqual([{ label: 'Keep: 12', value: 'keep' }]);
    expect(reply.message).toContain('(Your previous answer: 12)');
    expect(values(reply)).toEqual({ has_info: 'Yes', insurance: 'Yes', visit: 'Follow-up' });
    const kept = await c.send({ button: 'keep' });
    expect(kept.state).toEqual({ review: 'reviewing' });
    expect(values(kept)).toEqual(AS_GIVEN);
  });

  it('"edit" asks which answer to change, one button per answer; choosing one asks it again and returns to the summary', async () => {
    const c = await atSummary();
    const which = await c.send({ button: 'edit' });
    expect(which).toMatchObject({ state: { review: 'choosing' }, message: 'Which answer do you want to change?' });
    expect(which.buttons).toEqual([
      { label: 'Information on file: Yes', value: 'has_info' },
      { label: 'Insurance: Yes', value: 'insurance' },
      { label: 'Visit type: Follow-up', value: 'visit' },
      { label: 'Guests: 12', value: 'guests' },
      { label: 'Back to the summary', value: 'back' },
    ]);
    const asked = await c.send({ button: 'insurance' });
    expect(asked.state).toEqual({ insurance: 'asking' });
    // Its own buttons, no "Keep: Yes" beside "Yes" (two buttons for one thing); the message names the previous answer.
    expect(asked.buttons?.map((b) => b.label)).toEqual(['Yes', 'No', 'Partial']);
    expect(asked.message).toContain('(Your previous answer: Yes)');
    const back = await c.send({ button: 'No' });
    expect(back.state).toEqual({ review: 'reviewing' });
    expect(values(back)).toEqual({ ...AS_GIVEN, insurance: 'No' });
  });

  it('"back" from the answer choice shows the summary unchanged', async () => {
    const c = await atSummary();
    await c.send({ text: 'I want to change something' });
    const back = await c.send({ button: 'back' });
    expect(back.state).toEqual({ review: 'reviewing' });
    expect(values(back)).toEqual(AS_GIVEN);
  });

  it.each([
    ['a bare "no"', 'no'],
    ['"that\'s wrong"', "that's wrong"],
    ['a value two answers could take', 'yes'.replace('yes', 'no, not that')],
  ])('%s changes nothing and asks which answer', async (_, text) => {
    const c = await atSummary();
    const reply = await c.send({ text });
    expect(reply.state).toEqual({ review: 'choosing' });
    expect(values(reply)).toEqual(AS_GIVEN);
  });

  it('text that is neither a confirmation nor a correction is asked about again, never taken as an edit', async () => {
    const c = await atSummary();
    const reply = await c.send({ text: 'the weather is nice today' });
    expect(reply.state).toEqual({ review: 'reviewing' });
    expect(reply.message).toMatch(/^I'm not sure what to change\./);
    expect(reply.message).toContain('## Summary of Collected Information');
    expect(values(reply)).toEqual(AS_GIVEN);
  });
});

describe('what a summary lets a person change', () => {
  it('"edit" offers only the answers its edit edge leads back through', async () => {
    const c = startConversation(flow(REVIEWED));
    await c.send({ text: 'Ann' });
    await c.send({ text: 'Oslo' });
    // The edit edge goes to "city": the name cannot be changed here.
    const which = await c.send({ button: 'edit' });
    expect(which.buttons).toEqual([
      { label: 'Your city: Oslo', value: 'city' },
      { label: 'Back to the summary', value: 'back' },
    ]);
  });

  it('correcting another answer passes again over a question its exclusive group answered later (contact-request)', async () => {
    const c = startConversation(example('contact-request'));
    await c.send({ text: "hi, I'm jane doe" });
    // A phone number at the email question answers the phone question; email stays unanswered.
    expect((await c.send({ text: '(555) 010-2233' })).state).toEqual({ review: 'reviewing' });
    expect((await c.send({ text: 'the name is wrong' })).state).toEqual({ name: 'asking' });
    // The email question is not asked again, the phone is kept: the summary is back.
    const back = await c.send({ text: 'Jane Smith' });
    expect(back.state).toEqual({ review: 'reviewing' });
    expect(Object.fromEntries(Object.entries(back.answers).map(([k, a]) => [k, a.value]))).toEqual({ name: 'Jane Smith', phone: '+15550102233' });
  });
});
