/**
 * Issue 26, rules the held-out sets showed missing (a, b, c of the s33 round) and
 * the dev errors after them, each as a general rule checked with sentences written
 * for these tests (in no corpus), on questions with no synonyms.
 */
import { describe, expect, it } from 'vitest';
import { matchCategory, type MatchableQuestion } from '../../src/extract/match-category.js';

const read = (text: string, gate: MatchableQuestion) => {
  const r = matchCategory(text, gate);
  return r.status === 'match' ? r.value : 'abstain';
};

describe('(c) a denied opposite of what a yes/no question asks is its Yes', () => {
  const cover: MatchableQuestion = { prompt: 'Has your health cover been continuous for the last three years?', categories: ['Yes', 'No'] };
  const fence: MatchableQuestion = { prompt: 'Is the garden fenced on all sides?', categories: ['Yes', 'No'] };
  const permit: MatchableQuestion = { prompt: 'Is your parking permit still valid?', categories: ['Yes', 'No'] };

  it.each([
    ['no, never had a gap', cover],
    ['nope, no break at all', cover],
    ['not once did it lapse', cover],
    ['no, never been unfenced', fence],
    ['no, it has never expired', permit],
  ] as const)('"%s" is Yes', (text, gate) => {
    expect(read(text, gate)).toBe('Yes');
  });

  it('the opposite said plainly is still No, and a denial with a limit or a contradiction abstains', () => {
    expect(read('no, there was a break in the spring', cover)).toBe('No');
    expect(read('no', cover)).toBe('No');
    expect(read('never a gap until my move in 2024', cover)).toBe('abstain');
    expect(read('no gap in january, but a gap in june', cover)).toBe('abstain');
  });

  it('a question that names the negative itself keeps a denial as its No', () => {
    const gaps: MatchableQuestion = { prompt: 'Were there any gaps in your health cover?', categories: ['Yes', 'No'] };
    expect(read('no, never had a gap', gaps)).toBe('No');
  });
});
