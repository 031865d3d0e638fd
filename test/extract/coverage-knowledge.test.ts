/**
 * Coverage of clear answers with general knowledge (issue 26, s34cover): each
 * case is a sentence of my own, not a corpus line, read at a question whose
 * categories carry no synonyms. Wrong readings are worse than misses, so every
 * group also holds messages that must stay unread.
 */
import { describe, expect, it } from 'vitest';
import { matchCategory, type MatchableQuestion } from '../../src/extract/index.js';

const value = (text: string, gate: MatchableQuestion) => {
  const r = matchCategory(text, gate);
  return r.status === 'match' ? r.value : 'abstain';
};

const pets: MatchableQuestion = { categories: ['Yes', 'No'], prompt: 'Will any pets live in the flat with you?' };

describe('"we have no ..." is a denial, never a yes', () => {
  it.each([
    ['we have no animals', 'abstain'],
    ['we have got no animals at all', 'abstain'],
    ['i have none', 'No'],
    ['we have no pets', 'No'],
  ])('"%s" at a pets question: %s', (text, expected) => {
    expect(value(text, pets)).toBe(expected);
  });
});
