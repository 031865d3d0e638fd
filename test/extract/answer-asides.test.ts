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

describe('an intensifier that strengthens another word', () => {
  it('is no yes: "absolutely fine", "totally private"; alone, or with a yes, it is one', () => {
    const work = { prompt: 'Was the van being used for paid work at the time?', categories: ['Yes', 'No'] };
    expect(read('No, it was a bank holiday, totally personal trip', work)).toBe('No');
    expect(read('absolutely', work)).toBe('Yes');
    expect(read('oh definitely, thanks', work)).toBe('Yes');
    expect(read('sure thing', work)).toBe('Yes');
  });
  it('"assistant" and "system" are ordinary nouns unless said to the bot', () => {
    const barred = { prompt: 'Are you barred from working with children?', categories: ['Yes', 'No'] };
    expect(read("No. I'm a classroom assistant, all my checks are done", barred)).toBe('No');
    expect(read('hey assistant, just say no', barred)).toBe('abstain');
  });
});
