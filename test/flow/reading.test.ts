/**
 * Reading free text in compiled example flows (issue 11, "never commit what
 * the person did not say"): a stray "no" is not an answer, a message that
 * answers a later question answers that one, stated ages and approximate
 * numbers are read, and an ambiguous relative date is asked back with its two
 * dates as buttons.
 */
import { describe, expect, it } from 'vitest';
import type { Answer } from '../../src/flow/context.js';
import { startConversation } from '../../src/flow/conversation.js';
import type { FlowDocumentInput } from '../../src/flow/schema.js';
import { example, flow } from './helpers.js';

/** A Tuesday: the coming Friday is in this week. */
const TUESDAY = new Date('2026-11-24T09:00:00Z');
const INSURANCE = 'Does the patient have a known history of inconsistencies in their insurance coverage?';
const AGE = 'Is the patient an adult (18 or older) or a minor?';

const plain = (answers: Record<string, Answer>) => Object.fromEntries(Object.entries(answers).map(([k, a]) => [k, a.value]));

describe('patient-intake: a stray "no" and a later question', () => {
  it('does not commit insurance = No from a "no" that corrects the visit type, keeps the visit type, and asks insurance again', async () => {
    const c = startConversation(example('patient-intake'));
    await c.send({ button: 'Yes' });
    const r = await c.send({ text: 'its a followup, well actually no shes a new patient' });
    expect(plain(r.answers)).toEqual({ '1_patient_info_availability': 'Yes', '3_visit_type': 'New patient' });
    expect(r.message).toContain(INSURANCE);
    // Insurance answered: the visit type was answered already, so the age group is next.
    const next = await c.send({ text: 'no' });
    expect(plain(next.answers)).toMatchObject({ '2_insurance_history': 'No', '3_visit_type': 'New patient' });
    expect(next.message).toContain(AGE);
  });

  it('reads a "no" in the same clause as another answer as part of that answer, and a plain "no" as the answer', async () => {
    const c = startConversation(example('patient-intake'));
    await c.send({ button: 'Yes' });
    const r = await c.send({ text: 'no she is a new patient' });
    expect(plain(r.answers)).toEqual({ '1_patient_info_availability': 'Yes', '3_visit_type': 'New patient' });
    expect(r.message).toContain(INSURANCE);
    // Answered, the current question's words in passing ("phone") answer no later question.
    const next = await c.send({ text: 'no, we will phone about it' });
    expect(plain(next.answers)).toEqual({ '1_patient_info_availability': 'Yes', '3_visit_type': 'New patient', '2_insurance_history': 'No' });
    expect(next.message).toContain(AGE);
  });

  it('a "no" in its own clause beside a sure answer to another question is a take-back: insurance is asked again, the visit type kept', async () => {
    const c = startConversation(example('patient-intake'));
    await c.send({ button: 'Yes' });
    const r = await c.send({ text: "well no, she's a new patient" });
    expect(plain(r.answers)).toEqual({ '1_patient_info_availability': 'Yes', '3_visit_type': 'New patient' });
    expect(r.message).toContain(INSURANCE);
  });

  it('a word of the visit type inside a statement about something else ("text me the results") is not the visit type', async () => {
    const c = startConversation(example('patient-intake'));
    for (const turn of [{ button: 'Yes' }, { button: 'No' }]) await c.send(turn);
    const r = await c.send({ text: 'text me the results' });
    expect(r.answers['3_visit_type']).toBeUndefined();
    expect(r.state).toEqual({ '3_visit_type': 'asking' });
    // Said on its own, it is the visit type.
    expect(plain((await c.send({ text: 'here for results' })).answers)['3_visit_type']).toBe('Follow-up');
  });

  it('reads a stated age for the age group, by the ranges its synonyms name', async () => {
    const c = startConversation(example('patient-intake'));
    for (const turn of [{ button: 'Yes' }, { button: 'No' }, { button: 'Follow-up' }]) await c.send(turn);
    const r = await c.send({ text: "he's 17, turns 18 next month" });
    expect(plain(r.answers)).toMatchObject({ '4_patient_age_group': 'Minor' });
  });
});

describe('event-booking: numbers and dates', () => {
  it('reads an approximate number of guests, where the question does not need the exact one', async () => {
    const c = startConversation(example('event-booking'), { today: () => TUESDAY });
    const r = await c.send({ text: 'about 60 or so' });
    expect(plain(r.answers)).toEqual({ guests: 60 });
  });

  it('asks back "next friday" with the two dates as buttons, and a press commits that date', async () => {
    const c = startConversation(example('event-booking'), { today: () => TUESDAY });
    await c.send({ text: '60' });
    const asked = await c.send({ text: 'next friday' });
    expect(asked.answers.event_date).toBeUndefined();
    expect(asked.message).toMatch(/^Did you mean Friday 27 November or Friday 4 December\?/);
    expect(asked.buttons).toEqual([
      { label: 'Friday 27 November', value: '2026-11-27' },
      { label: 'Friday 4 December', value: '2026-12-04' },
    ]);
    const r = await c.send({ button: '2026-12-04' });
    expect(plain(r.answers)).toMatchObject({ guests: 60, event_date: '2026-12-04' });
    // The buttons were for that turn only.
    expect(r.buttons?.map((b) => b.value)).not.toContain('2026-12-04');
  });

  it('offers only the dates the question allows', async () => {
    const doc = example('event-booking');
    const nodes = doc.nodes.map((n) => (n.id === 'event_date' && n.kind === 'question' ? { ...n, answer: { type: 'date' as const, max: '2026-11-30' } } : n));
    const c = startConversation({ ...doc, nodes }, { today: () => TUESDAY });
    await c.send({ text: '60' });
    const asked = await c.send({ text: 'next friday' });
    expect(asked.buttons).toEqual([{ label: 'Friday 27 November', value: '2026-11-27' }]);
  });
});

const AREA: FlowDocumentInput = {
  id: 'area',
  version: 1,
  nodes: [
    { kind: 'question', id: 'area', prompt: 'How large is the court, in square metres?', answer: { type: 'number', min: 50, max: 20000, unit: 'm²' } },
    { kind: 'question', id: 'count', prompt: 'How many fixtures exactly?', answer: { type: 'number', integer: true, exact: true } },
    { kind: 'terminal', id: 'done', outcome: 'completed' },
  ],
  edges: [
    { from: 'area', to: 'count' },
    { from: 'count', to: 'done' },
  ],
};

describe('a number with a unit, and one that must be exact', () => {
  it('reads "about 650 m2" for a question in m², and refuses "about 12" where the exact number is needed', async () => {
    const c = startConversation(flow(AREA));
    expect(plain((await c.send({ text: 'about 650 m2' })).answers)).toEqual({ area: 650 });
    const refused = await c.send({ text: 'about 12' });
    expect(refused.answers.count).toBeUndefined();
    expect(refused.message).toMatch(/exact number/);
    expect(plain((await c.send({ text: '12' })).answers)).toEqual({ area: 650, count: 12 });
  });
});
