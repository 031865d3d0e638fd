/**
 * Issue 26, coverage of clear answers: a category that is itself a denial
 * ("No delivery", "Never renewed") is said by denying its thing plainly.
 * Sentences written for these tests (in no corpus), on questions with no synonyms.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../src/extract/offline.js';
import type { ExtractionQuestion } from '../../src/extract/types.js';

const delivery: ExtractionQuestion = { key: 'delivery', prompt: 'Shall we deliver the sofa?', categories: ['Delivery and assembly', 'Delivery only', 'No delivery'] };
const renewed: ExtractionQuestion = { key: 'renewed', prompt: 'When did you last renew your passport?', categories: ['This year', 'Earlier', 'Never renewed'] };
const read = (text: string, at: ExtractionQuestion) => extractOffline({ text, key: at.key, allowModel: false, questions: [at] }).values[at.key]?.value;

describe('a category that denies a thing, said by denying it', () => {
  it('a plain denial of the thing is that category', () => {
    expect(read("we don't need delivery", delivery)).toBe('No delivery');
    expect(read('no need for delivery, thanks', delivery)).toBe('No delivery');
    expect(read("I've never had it renewed", renewed)).toBe('Never renewed');
    expect(read("it's never been renewed", renewed)).toBe('Never renewed');
  });

  it('not when something else is denied, someone else denies it, or the denial is hedged, past or ironic', () => {
    expect(read("don't deliver it on a monday", delivery)).toBeUndefined();
    expect(read("my neighbour doesn't need delivery", delivery)).toBeUndefined();
    expect(read("I don't think we need delivery", delivery)).toBeUndefined();
    expect(read("we didn't need delivery last time", delivery)).toBeUndefined();
    expect(read("no need for delivery lol, it's a sofa", delivery)).toBeUndefined();
    expect(read("we don't need delivery? it's heavy", delivery)).toBeUndefined();
    expect(read("I don't not need delivery", delivery)).toBeUndefined();
  });
});

describe('a category read from a denial makes way for one asserted in a clause of its own', () => {
  const work: ExtractionQuestion = { key: 'work', prompt: 'What is your employment status?', categories: ['Employed', 'Self-employed', 'Student', 'Retired', 'Not working'] };
  it('"not employed, I work for myself" is Self-employed, either way round', () => {
    expect(read('not employed, I work for myself', work)).toBe('Self-employed');
    expect(read('I work for myself, not employed by anyone', work)).toBe('Self-employed');
    // The denial alone, or with nothing else asserted, is still its own category.
    expect(read('not employed', work)).toBe('Not working');
  });
  it("not when what is asserted is someone else's", () => {
    expect(read('not working, my husband is self-employed', work)).toBeUndefined();
  });
});
