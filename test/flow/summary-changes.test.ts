/**
 * Every change a correction at the summary makes is said in the reply, however
 * it was asked for ("Changed: Guests: 60 → 80."): by naming the answer, by its
 * new value alone, by choosing it with a button; an answer the flow no longer
 * passes is said to be gone. A value that fits more than one answer changes
 * none: which one is asked.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startConversation } from '../../src/flow/conversation.js';
import { parseFlowText } from '../../src/flow/parse.js';
import { example, TODAY } from './helpers.js';

const fixture = (name: string) =>
  parseFlowText(readFileSync(fileURLToPath(new URL(`../fixtures/flows/${name}.json`, import.meta.url)), 'utf8'), `${name}.json`);

/** Event booking at its summary: 60 guests (so catering is asked), a date, catering, an email. */
async function atBookingSummary() {
  const c = startConversation(example('event-booking'), { today: () => TODAY });
  for (const text of ['60', '2027-03-04', 'yes please', 'a@b.com']) await c.send({ text });
  return c;
}

describe('a correction at the summary says what it changed', () => {
  it('named: "make it 80 guests"', async () => {
    const c = await atBookingSummary();
    const reply = await c.send({ text: 'make it 80 guests' });
    expect(reply.answers['guests']?.value).toBe(80);
    expect(reply.message).toContain('Changed: Guests: 60 → 80.');
  });

  it('by value alone: "70" (read as the one answer it fits)', async () => {
    const c = await atBookingSummary();
    const reply = await c.send({ text: '70' });
    expect(reply.answers['guests']?.value).toBe(70);
    expect(reply.buttonContext).toBe('gate_confirmation');
    expect(reply.message).toContain('Changed: Guests: 60 → 70.');
  });

  it('chosen with a button and answered again', async () => {
    const c = await atBookingSummary();
    await c.send({ button: 'edit' });
    await c.send({ button: 'event_date' });
    const reply = await c.send({ text: '2027-03-05' });
    expect(reply.answers['event_date']?.value).toBe('2027-03-05');
    expect(reply.message).toContain('Changed: Date: 2027-03-04 → 2027-03-05.');
  });

  it('an answer the flow no longer passes is said to be gone; the next turn no longer says it', async () => {
    const c = await atBookingSummary();
    const reply = await c.send({ text: 'make it 30 guests' });
    expect(reply.answers['catering']).toBeUndefined();
    expect(reply.message).toContain('Changed: Guests: 60 → 30; Catering: Yes please → (no longer asked).');
    const next = await c.send({ text: 'the weather is nice' });
    expect(next.message).not.toContain('Changed:');
  });

  it('nothing changed (the same value again): no line', async () => {
    const c = await atBookingSummary();
    await c.send({ button: 'edit' });
    await c.send({ button: 'guests' });
    const reply = await c.send({ text: '60' });
    expect(reply.buttonContext).toBe('gate_confirmation');
    expect(reply.message).not.toContain('Changed:');
  });
});

describe('a value that fits more than one answer changes none silently', () => {
  // Childcare: 3 days a week and 2 adults collecting; "actually 2" fits both (the adults have it already).
  async function atChildcareSummary() {
    const c = startConversation(fixture('childcare-enrolment'), { today: () => TODAY });
    for (const text of ['2 to 3 years', 'Within a month', '3', 'No', 'No', '2', 'No', 'Full-time', '800']) await c.send({ text });
    return c;
  }

  it('"actually 2" asks which answer, and changes nothing', async () => {
    const c = await atChildcareSummary();
    const reply = await c.send({ text: 'actually 2' });
    expect(reply.answers['days_per_week']?.value).toBe(3);
    expect(reply.answers['collectors']?.value).toBe(2);
    expect(reply.buttons?.map((b) => b.value)).toContain('days_per_week');
    expect(reply.message).not.toContain('Changed:');
  });

  it('named, the same value changes the answer it names: "2 days a week"', async () => {
    const c = await atChildcareSummary();
    const reply = await c.send({ text: 'make it 2 days a week' });
    expect(reply.answers['days_per_week']?.value).toBe(2);
    expect(reply.message).toContain('Changed: Days per week: 3 days → 2 days.');
  });
});
