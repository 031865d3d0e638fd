/**
 * "Tomorrow would be perfect" chooses tomorrow (issue 26, coverage; from the car-rental dev split, where "hi there!
 * we land in the afternoon so tomorrow would be perfect" was not read): "would be" with a word of approval, said to
 * the question, is a choice said politely, not a hypothetical. A contrast keeps it a wish ("a van would be great,
 * but we can't afford one"), and any other "would be" stays hypothetical. Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../src/extract/index.js';
import { readTypedValue } from '../../src/extract/read-typed.js';

const pickup = { key: 'q', prompt: 'When do you want to pick up the car?', categories: ['Today', 'Tomorrow', 'Later this week', 'Next week or later'] };
const size = { key: 'q', prompt: 'Which car class do you need?', categories: ['Small', 'Medium', 'Large', 'Van'] };
const read = (text: string, q: typeof pickup) => extractOffline({ text, key: 'q', allowModel: false, questions: [q], today: '2026-11-28' }).values['q']?.value ?? 'abstain';

describe('a choice said politely', () => {
  it.each([
    ['tomorrow would be perfect', 'Tomorrow', pickup],
    ['we land in the afternoon so tomorrow would be great, thanks', 'Tomorrow', pickup],
    ['a small one would be ideal', 'Small', size],
  ] as const)('"%s" is %s', (text, expected, q) => {
    expect(read(text, q)).toBe(expected);
  });

  it.each([
    ['a van would be great but we cannot afford one', size],
    ['it would be nice to have a van', size],
    ['tomorrow would be perfect if the flight lands on time', pickup],
  ] as const)('"%s" reads nothing', (text, q) => {
    expect(read(text, q)).toBe('abstain');
  });

  it('a typed value beside another: the one said as a wish before a contrast is not the answer ("30 would be ideal, but I can go to 45")', () => {
    const budget = { type: 'number', min: 10, max: 200, unit: 'EUR' } as const;
    const r = readTypedValue(budget, '30 would be ideal, but I can go to 45', { prompt: 'What is the most you want to spend per month, in euros?' });
    expect(r.ok && r.value).toBe(45);
  });
});

describe('another answer only found appealing', () => {
  // Found by hand (a wrong commit): "basic is fine, though premium sounds nice" had been Premium.
  const cover = { key: 'q', prompt: 'Which level of cover would you like?', categories: ['Basic', 'Standard', 'Premium'] };
  it.each(['basic is fine, though premium sounds nice', 'basic, but premium looks tempting'])('"%s" chooses nothing surely', (text) => {
    expect(read(text, cover)).toBe('abstain');
  });
  it.each([
    ['premium sounds good', 'Premium'],
    ['basic, but actually premium', 'Premium'],
  ])('"%s" is %s', (text, value) => {
    expect(read(text, cover)).toBe(value);
  });
});

describe('a first choice and its fallback', () => {
  // Found by hand (a wrong commit): "overnight if possible, otherwise home visits" had been Home visits.
  const care = { key: 'q', prompt: 'Hi! What kind of pet care do you need?', categories: ['Home visits', 'Overnight stays', 'Dog walking'] };
  it.each(['overnight if possible, otherwise home visits', 'overnight stays, failing that dog walking'])('"%s" is no sure answer', (text) => {
    expect(read(text, care)).toBe('abstain');
  });
  it('"home visits, otherwise nothing" is Home visits', () => {
    expect(read('home visits, otherwise nothing', care)).toBe('Home visits');
  });
});
