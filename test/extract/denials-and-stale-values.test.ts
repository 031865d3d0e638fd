/**
 * Issue 26: what a message denies, ironises, or no longer holds is not the answer. A "no" that opens a denial
 * of something else, "not about X" and "nothing to do with X", irony by praise ("because couriers are famously
 * punctual"), a time word typed at a name question, and a value someone else changed ("they moved us to
 * KL1003"). Sentences written for these tests; each "commits nothing" case read a value before its rule.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline, type ExtractionQuestion } from '../../src/extract/index.js';
import { readTypedValue } from '../../src/extract/read-typed.js';

const category = (text: string, q: Omit<ExtractionQuestion, 'key'>) =>
  extractOffline({ text, key: 'q', allowModel: false, questions: [{ key: 'q', ...q }] }).values['q']?.value ?? 'abstain';
const balcony = { prompt: 'Does the apartment have a balcony?', categories: ['Yes', 'No'] };
const topic = { prompt: 'What is your call about?', categories: ['Billing', 'Repairs', 'Moving out'] };
const delivery = { prompt: 'When would you like the delivery?', categories: ['Today', 'Tomorrow', 'Later'] };
const name = (text: string) => readTypedValue({ type: 'string', maxLength: 120 }, text, { prompt: 'Who should we ask for?', format: 'person_name' });
const booking = (text: string) => {
  const r = readTypedValue({ type: 'string', pattern: '[A-Z]{2}[0-9]{3,4}' }, text, { prompt: 'What is your booking code?' });
  return r.ok ? r.value : 'refused';
};

describe('a "no" that opens a denial of something else', () => {
  it.each(['no, it is not a ground floor flat, there is a balcony', "nah it's not a studio, big balcony actually", 'no, not a new build'])('"%s" commits nothing', (text) => {
    expect(category(text, balcony)).toBe('abstain');
  });
  it('a plain "no, not really" is still No', () => {
    expect(category('no, not really', balcony)).toBe('No');
  });
});

describe('what a message is not about', () => {
  it.each(['not about billing', 'this has nothing to do with billing'])('"%s" commits nothing', (text) => {
    expect(category(text, topic)).toBe('abstain');
  });
  it('"not billing, repairs" is Repairs', () => {
    expect(category('not billing, repairs', topic)).toBe('Repairs');
  });
});

describe('irony by praise', () => {
  it('"tomorrow sure, because parcels are notoriously on time" commits nothing', () => {
    expect(category('oh tomorrow obviously, because parcels are notoriously on time', delivery)).toBe('abstain');
    expect(category('tomorrow please', delivery)).toBe('Tomorrow');
  });
});

describe('a time word is nobody\'s name', () => {
  it.each(['tomorrow', 'next week', 'asap', 'Monday morning'])('"%s" is refused', (text) => {
    expect(name(text).ok).toBe(false);
  });
  it('a name is still read', () => {
    expect(name('Dana Whitfield')).toMatchObject({ ok: true, value: 'Dana Whitfield' });
  });
});

describe('two values, the later not the person\'s own correction', () => {
  it.each(['booked as QX1201, then the hotel changed it to QX1209', 'QX1201 but they gave us QX1209'])('"%s" commits nothing', (text) => {
    expect(booking(text)).toBe('refused');
  });
  it('a correction of one\'s own, or the one that holds now, is read', () => {
    expect(booking('QX1201, sorry, QX1209')).toBe('QX1209');
    expect(booking('it was QX1201, now it is QX1209')).toBe('QX1209');
  });
});
