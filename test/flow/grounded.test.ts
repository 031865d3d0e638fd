/**
 * Only what the person said (issue 26), through compiled example flows: a
 * bare number typed at one question is committed nowhere else, a typed
 * answer is read with its sign and inside longer text, and an answer to a
 * question not asked yet is said back.
 */
import { describe, expect, it } from 'vitest';
import type { Answer } from '../../src/flow/context.js';
import { startConversation } from '../../src/flow/conversation.js';
import { example } from './helpers.js';

const plain = (answers: Record<string, Answer>) => Object.fromEntries(Object.entries(answers).map(([k, a]) => [k, a.value]));
const INSURANCE = 'Does the patient have a known history of inconsistencies in their insurance coverage?';

describe('patient-intake: a bare number or word at the wrong question', () => {
  it('"2" at the insurance question commits nothing, not age group Minor, and the question is asked again', async () => {
    const c = startConversation(example('patient-intake'));
    await c.send({ button: 'Yes' });
    const r = await c.send({ text: '2' });
    expect(plain(r.answers)).toEqual({ '1_patient_info_availability': 'Yes' });
    expect(r.message).toContain(INSURANCE);
  });

  it('a clear assertion about a later question is kept and said back', async () => {
    const c = startConversation(example('patient-intake'));
    await c.send({ button: 'Yes' });
    const r = await c.send({ text: "she's a new patient" });
    expect(plain(r.answers)).toEqual({ '1_patient_info_availability': 'Yes', '3_visit_type': 'New patient' });
    expect(r.message).toBe(`Noted: Visit type: New patient.\n\n${INSURANCE}`);
    // The next turn says nothing more about it.
    const next = await c.send({ text: 'no' });
    expect(next.message).not.toContain('Noted');
  });
});

describe('refund-approval: typed answers', () => {
  it('"minus 50" at the amount is refused as negative, never read as 50', async () => {
    const c = startConversation(example('refund-approval'));
    await c.send({ text: 'AB1234' });
    const r = await c.send({ text: 'minus 50' });
    expect(r.answers.amount).toBeUndefined();
    expect(r.message).toMatch(/negative number \(-50\)\. The number must be at least 0\.01 EUR\./);
    const cents = await c.send({ text: '50 cents' });
    expect(cents.answers.amount).toBeUndefined();
    expect(cents.message).toMatch(/0\.50 EUR/);
    const words = await c.send({ text: 'two hundred and fifty' });
    expect(words.answers.amount?.value).toBe(250);
  });

  it('reads the value after a correction or a contrast when the whole text holds two', async () => {
    const c = startConversation(example('refund-approval'));
    const order = await c.send({ text: 'my last order was QT5530 but this one is QT5561' });
    expect(order.answers.order_number?.value).toBe('QT5561');
    const amount = await c.send({ text: '20, sorry, 25' });
    expect(amount.answers.amount?.value).toBe(25);
  });

  it('finds the order number inside a longer text, and not one said of someone else', async () => {
    const c = startConversation(example('refund-approval'));
    const other = await c.send({ text: "my friend's order was ZZ1111" });
    expect(other.answers.order_number).toBeUndefined();
    const r = await c.send({ text: 'my order is XY9876, thanks' });
    expect(r.answers.order_number?.value).toBe('XY9876');
  });
});
