/**
 * An optional question the person skipped can be answered at the summary: it
 * is listed as not answered, offered at "which answer?" like the others, and
 * naming it (or giving it a value only it takes) asks it or answers it; the
 * reply says it was added. A correction of another answer passes it over
 * again. A question the flow's path does not reach is never offered, and one
 * an exclusive group's other answer rules out neither.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startConversation } from '../../src/flow/conversation.js';
import { parseFlowText } from '../../src/flow/parse.js';
import { example, flow, TODAY } from './helpers.js';

const fixture = (name: string) =>
  parseFlowText(readFileSync(fileURLToPath(new URL(`../fixtures/flows/${name}.json`, import.meta.url)), 'utf8'), `${name}.json`);

/** Car rental at its summary, the flight number (optional) skipped. */
async function atCarSummary() {
  const c = startConversation(fixture('car-rental'), { today: () => TODAY });
  for (const text of ['Tomorrow', 'Yes', '30', 'Small', 'No', 'Basic', '50', 'skip']) await c.send({ text });
  expect(c.reply().buttonContext).toBe('gate_confirmation');
  expect(c.reply().answers['flight_number']).toBeUndefined();
  return c;
}

describe('a skipped optional question at the summary', () => {
  it('is listed as not answered', async () => {
    const c = await atCarSummary();
    expect(c.reply().message).toContain('what is your flight number? We will hold the car if the flight is late.**\n→ (not answered)');
  });

  it('naming it asks it; the answer is added and said', async () => {
    const c = await atCarSummary();
    const asked = await c.send({ text: 'add my flight number' });
    expect(asked.state).toEqual({ flight_number: 'asking' });
    const reply = await c.send({ text: 'BA123' });
    expect(reply.answers['flight_number']?.value).toBe('BA123');
    expect(reply.buttonContext).toBe('gate_confirmation');
    expect(reply.message).toContain('Changed: Flight: (not answered) → BA123.');
    expect(reply.message).not.toContain('(not answered)\n');
  });

  it('is offered at "which answer?", and chosen, asked', async () => {
    const c = await atCarSummary();
    const which = await c.send({ button: 'edit' });
    expect(which.buttons).toContainEqual({ label: 'Flight: not answered', value: 'flight_number' });
    const asked = await c.send({ button: 'flight_number' });
    expect(asked.state).toEqual({ flight_number: 'asking' });
  });

  it('a correction of another answer passes it over again (not asked again)', async () => {
    const c = await atCarSummary();
    const reply = await c.send({ text: 'make the daily budget 60' });
    expect(reply.buttonContext).toBe('gate_confirmation');
    expect(reply.answers['daily_budget']?.value).toBe(60);
    expect(reply.message).toContain('→ (not answered)');
  });
});

/** A pet's name, optional, asked only of someone with a pet. */
const PETS = flow({
  id: 'pets',
  version: 1,
  title: 'Pets',
  nodes: [
    { kind: 'question', id: 'has_pet', label: 'Pet', prompt: 'Do you have a pet?', answer: { type: 'category', categories: ['Yes', 'No'] } },
    { kind: 'question', id: 'pet_count', label: 'Number of pets', prompt: 'How many pets?', required: false, when: "answers.has_pet == 'Yes'", answer: { type: 'number', integer: true, min: 1, max: 9 } },
    { kind: 'question', id: 'city', label: 'City', prompt: 'Which city?', answer: { type: 'string' } },
    { kind: 'confirmation', id: 'review' },
    { kind: 'terminal', id: 'done', outcome: 'completed', message: 'Thanks.' },
  ],
  edges: [
    { from: 'has_pet', to: 'pet_count' },
    { from: 'pet_count', to: 'city' },
    { from: 'city', to: 'review' },
    { from: 'review', on: 'confirmed', to: 'done' },
    { from: 'review', on: 'edit', to: 'has_pet' },
  ],
});

describe('only what the flow allows on its path', () => {
  it('a question the path passed by is not offered, and its value is not taken', async () => {
    const c = startConversation(PETS, { today: () => TODAY });
    for (const text of ['No', 'Oslo']) await c.send({ text });
    expect(c.reply().message).not.toContain('not answered');
    const reply = await c.send({ text: 'I have 2 pets' });
    expect(reply.answers['pet_count']).toBeUndefined();
  });

  it('skipped, then given by its value alone ("2 pets"): added, and said', async () => {
    const c = startConversation(PETS, { today: () => TODAY });
    for (const text of ['Yes', 'skip', 'Oslo']) await c.send({ text });
    expect(c.reply().message).toContain('**How many pets?**\n→ (not answered)');
    const given = await c.send({ text: '2 pets' });
    expect(given.answers['pet_count']?.value).toBe(2);
    expect(given.message).toContain('Changed: Number of pets: (not answered) → 2.');
  });

  it('skipped, then the path no longer reaches it: not offered', async () => {
    const c = startConversation(PETS, { today: () => TODAY });
    for (const text of ['Yes', 'skip', 'Oslo']) await c.send({ text });
    const reply = await c.send({ text: 'change the pet answer to no' });
    expect(reply.answers['has_pet']?.value).toBe('No');
    expect(reply.message).not.toContain('not answered');
    const which = await c.send({ button: 'edit' });
    expect(which.buttons?.map((b) => b.value)).not.toContain('pet_count');
  });

  it('an exclusive group member ruled out by the other answer is not offered', async () => {
    const c = startConversation(example('contact-request'), { today: () => TODAY });
    for (const text of ['Ann Lee', 'skip', '202 555 0143']) await c.send({ text });
    expect(c.reply().message).not.toContain('not answered');
    const which = await c.send({ button: 'edit' });
    expect(which.buttons?.map((b) => b.value)).not.toContain('email');
  });
});
