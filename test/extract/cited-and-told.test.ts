/**
 * Values the message tells of rather than gives (issue 26, rule: "by the person"): words quoted from a source,
 * a thing printed on a site or a leaflet that the clause then talks about, a person who is the subject of a
 * statement, "'s" that is "is" after a person, and a title's period that ends no clause. Sentences written for
 * these tests; each "commits nothing" case read a value before its rule, and the plain answer beside it is
 * still read.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline, type ExtractionQuestion } from '../../src/extract/index.js';
import { readTypedValue } from '../../src/extract/read-typed.js';

const category = (text: string, q: Omit<ExtractionQuestion, 'key'>) =>
  extractOffline({ text, key: 'q', allowModel: false, questions: [{ key: 'q', ...q }] }).values['q']?.value ?? 'abstain';
const parking = { prompt: 'Is there parking at the venue?', categories: ['Yes', 'No'] };
const pack = { prompt: 'Which package would you like?', categories: ['Starter', 'Premium'] };
const role = { prompt: 'Are you the cat owner, or booking for someone else?', categories: ['Owner', 'Family member', 'Friend or neighbour'] };
const work = { prompt: 'What is your work situation?', categories: ['Employed', 'Self-employed', 'Student', 'Retired'] };

describe('a value quoted from a source is the source\'s', () => {
  it.each([
    ['the venue\'s page says "parking: yes"', parking],
    ["the leaflet reads 'parking: no'", parking],
    ['their email said “Premium”', pack],
  ] as const)('"%s" commits nothing', (text, q) => {
    expect(category(text, q)).toBe('abstain');
  });

  it('a plain answer, and the person quoting themselves, are read', () => {
    expect(category('yes, there is parking', parking)).toBe('Yes');
    expect(category('I said "premium" already, premium please', pack)).toBe('Premium');
  });
});

describe('a thing printed somewhere that the clause talks about is not chosen', () => {
  it('"the premium package in your brochure seems pricey" commits nothing; choosing it does', () => {
    expect(category('the premium package in your brochure seems pricey', pack)).toBe('abstain');
    expect(category("I'd like the premium package in your brochure", pack)).toBe('Premium');
  });
});

describe('a person who is the subject of a statement is not the role asked', () => {
  it('"my cousin has the spare keys" commits nothing; "I\'m her neighbour" is read', () => {
    expect(category('my cousin has the spare keys', role)).toBe('abstain');
    expect(category("I'm her neighbour", role)).toBe('Friend or neighbour');
  });
});

describe("'s after a person is 'is'", () => {
  it('"my housemate\'s a student" commits nothing', () => {
    expect(category("my housemate's a student", work)).toBe('abstain');
    expect(category("I'm a student, so is my housemate", work)).toBe('Student');
  });
});

describe("a title's period ends no clause", () => {
  it('"our GP is Dr. Okafor" is not the patient\'s name', () => {
    const r = readTypedValue({ type: 'string' }, 'our GP is Dr. Okafor', { prompt: "What is the patient's full name?", format: 'person_name' });
    expect(r.ok).toBe(false);
  });
});

describe("'s before an -ing verb, 'about' or a place is 'is' too", () => {
  const age = (text: string) => {
    const r = readTypedValue({ type: 'number', integer: true, min: 18, max: 99, unit: 'years' }, text, { prompt: 'How old is the oldest person travelling?' });
    return r.ok ? r.value : 'refused';
  };
  const people = (text: string) => {
    const r = readTypedValue({ type: 'number', integer: true, min: 1, max: 8, unit: 'travellers' }, text, { prompt: 'How many people are travelling, including you?' });
    return r.ok ? r.value : 'refused';
  };
  it('"the driver\'s about 50" and "my cousin\'s taking her 2 boys on another trip" commit nothing', () => {
    expect(age("the driver's about 50, I'd guess")).toBe('refused');
    expect(people("my cousin's taking her 2 boys on another trip")).toBe('refused');
    expect(age("I'm the oldest, 52")).toBe(52);
  });
});

describe('the same age claimed year after year is a joke', () => {
  it('"39, for the fifth year running" commits nothing', () => {
    const r = readTypedValue({ type: 'number', integer: true, min: 18, max: 99, unit: 'years' }, '39, for the fifth year running', { prompt: 'How old are you?' });
    expect(r.ok).toBe(false);
  });
});
