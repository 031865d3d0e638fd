/**
 * Words around an answer that only say it more surely or add nothing (issue 26: answers with extra words;
 * from the volunteer-signup dev split): "no. definitely" is a sure No, not a No and a Yes; "I'm 34 fwiw" is
 * an age. Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline, type ExtractionQuestion } from '../../src/extract/index.js';

const read = (text: string, q: Omit<ExtractionQuestion, 'key'>) =>
  extractOffline({ text, key: 'q', allowModel: false, questions: [{ key: 'q', ...q }] }).values['q']?.value ?? 'abstain';
const banned = { prompt: 'Have you ever been banned from driving?', categories: ['Yes', 'No'] };
const ages = { prompt: 'How old are you?', categories: ['Under 18', '18 to 39', '40 or older'] };

describe('an intensifier after a bare answer', () => {
  it.each([
    ['No. Absolutely', 'No'],
    ['yes - definitely', 'Yes'],
    ['nope, for sure', 'No'],
  ])('"%s" is %s', (text, expected) => {
    expect(read(text, banned)).toBe(expected);
  });
  it('another answer after the bare one is still two answers', () => {
    expect(read('no. definitely yes', banned)).toBe('abstain');
  });
});

describe('a range written with a dash', () => {
  it('"18-39" names "18 to 39"', () => {
    expect(read('18-39', ages)).toBe('18 to 39');
  });
});

describe('an aside after an age', () => {
  it('"fwiw", "btw", "tbh" after it add nothing', () => {
    expect(read("I'm 41 fwiw", ages)).toBe('40 or older');
    expect(read("i'm 17 tbh", ages)).toBe('Under 18');
  });
});
