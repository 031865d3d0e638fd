/**
 * The answer a self-correcting message settles on (issue 26, self-correction: 24 misses on the travel, childcare,
 * broadband and motor dev splits). A closing "so X" / "then X" after a take-back or a question to oneself is the
 * answer; after the last take-back ("sorry no", "scratch that") a date, a rate or a number is read as if said alone;
 * a category named by its number and unit is named by "the 500" or "1 gig". Each case was asked again before.
 * Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { conclusionOf } from '../../src/extract/conclusion.js';
import { extractOffline } from '../../src/extract/offline.js';
import { tokenize } from '../../src/extract/normalize.js';
import { readTypedValue } from '../../src/extract/read-typed.js';

const ask = (text: string, prompt: string, categories: string[]) =>
  extractOffline({ text, key: 'q', allowModel: false, today: '2026-11-27', questions: [{ key: 'q', prompt, categories }] }).values['q']?.value ?? 'abstain';
const pets = (text: string) => ask(text, 'Do you have any pets?', ['Yes', 'No']);
const rooms = (text: string) => {
  const r = readTypedValue({ type: 'number', integer: true, min: 1, max: 8, unit: 'bedrooms' }, text, { prompt: 'How many bedrooms?' });
  return r.ok ? r.value : 'refused';
};

describe('the answer a self-correction settles on', () => {
  it('is a closing "so X" or "then X" after a take-back or a question to oneself', () => {
    expect(conclusionOf(tokenize('a cat. wait, she moved out, so no'))).toEqual(['no']);
    expect(conclusionOf(tokenize('my wife has a cat so yes'))).toBeUndefined();
    expect(conclusionOf(tokenize('sorry, so what'))).toEqual(['what']);
    expect(pets('a cat. wait, she moved out last month, so no')).toBe('No');
    expect(pets('no - hmm, does a goldfish count? then yes')).toBe('Yes');
    expect(rooms('three, I mean plus the box room, so 4')).toBe(4);
  });

  it('takes no conclusion from a joke, nor without a take-back', () => {
    expect(pets('sorry, so yes lol')).toBe('abstain');
    expect(pets('my flatmate has a dog so yes')).toBe('abstain');
  });

  it('reads a date after the last take-back as if said alone', () => {
    const start = (text: string) => ask(text, 'When should the cover start?', ['Today', 'Within a month', 'Later']);
    expect(start('tomorrow, sorry no, mid-february')).toBe('Later');
    expect(start('in march - scratch that, we moved it to the 14th of december')).toBe('Within a month');
  });

  it('names a category of a number and a unit by its number or the unit as people say it', () => {
    const speed = (text: string) => ask(text, 'Which speed would you like?', ['50 Mbit/s', '300 Mbit/s', '2 Gbit/s']);
    expect(speed('the 300 please')).toBe('300 Mbit/s');
    expect(speed('2 gig')).toBe('2 Gbit/s');
    expect(speed('50 meg is plenty')).toBe('50 Mbit/s');
    expect(speed('the 100')).toBe('abstain');
  });
});

describe('more take-backs', () => {
  it('"more like", "or rather", "well no" replace the answer before them', () => {
    expect(ask('monthly, well, more like weekly', 'How often do you work late?', ['Never', 'Monthly', 'Weekly'])).toBe('Weekly');
    expect(ask('weekly - or rather monthly', 'How often do you work late?', ['Never', 'Monthly', 'Weekly'])).toBe('Monthly');
    expect(ask('never. well no, monthly', 'How often do you work late?', ['Never', 'Monthly', 'Weekly'])).toBe('Monthly');
  });
  it('a bare "no" between two dates takes the first back, with the "actually" after it', () => {
    const when = ['Today', 'In the last 7 days', 'More than a week ago'];
    expect(ask('today, no, monday', 'When did the noise start?', when)).toBe('In the last 7 days');
    expect(ask('yesterday... no, actually a fortnight ago', 'When did the noise start?', when)).toBe('More than a week ago');
  });
  it('between two numbers, a bare "no" takes the first back; a marker the message ends on leaves the one before it', () => {
    expect(rooms('2, no 3, I forgot the attic')).toBe(3);
    expect(rooms('4 - no 5')).toBe(5);
    expect(rooms('5. hmm more like 4 actually')).toBe(4);
    // ("2 no 3" with nothing between is not read: no sign it is a take-back.)
    expect(rooms('2 no 3')).toBe('refused');
  });
  it('what the person says of their typing is not a value: "missed a zero"', () => {
    const budget = (text: string) => {
      const r = readTypedValue({ type: 'number', min: 100, max: 50000, unit: 'EUR' }, text, { prompt: 'What is your budget in euros?' });
      return r.ok ? r.value : 'refused';
    };
    expect(budget('300 - no, 3000, missed a zero')).toBe(3000);
    expect(budget('3000, I added an extra zero before')).toBe(3000);
  });
});

describe('a take-back that can only be one, mid-clause', () => {
  // From the dev splits: "yes sorry I meant no, parking's free" and "yes- sorry misread, no never" were not read.
  const parking = { key: 'q', prompt: 'Are there parking restrictions outside your home?', categories: ['Yes', 'No'] };
  const read = (text: string) => extractOffline({ text, key: 'q', allowModel: false, questions: [parking] }).values['q']?.value ?? 'abstain';
  it.each([
    ['yes sorry I meant no', 'No'],
    ['no oops yes there are', 'Yes'],
    ['yes my bad no', 'No'],
  ])('"%s" is %s', (text, expected) => {
    expect(read(text)).toBe(expected);
  });

  it('"well" or "actually" mid-clause only qualify: no take-back there', () => {
    expect(read('yes well no')).toBe('abstain');
  });
});
