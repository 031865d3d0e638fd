/**
 * Categories that are bands of a counted thing ("Studio or 1 bedroom", "2 to 3 bedrooms", "6 bedrooms or more"),
 * where the question asks how many of it: a number alone is that count (found by a probe of every category
 * question's bare numbers: "3" at "How many bedrooms does the home have?" was asked again). Sentences written for
 * these tests.
 */
import { describe, expect, it } from 'vitest';
import { matchCategory, type MatchableQuestion } from '../../src/extract/match-category.js';

const cabins: MatchableQuestion = { prompt: 'How many cabins would you like to book?', categories: ['1 cabin', '2 to 3 cabins', '4 cabins or more'] };
const lessons: MatchableQuestion = { prompt: 'How many hours of coaching has the player had?', categories: ['None', 'Under 5 hours', '5 to 20 hours', 'More than 20 hours'] };
const read = (text: string, q: MatchableQuestion) => {
  const r = matchCategory(text, q);
  return r.status === 'match' ? r.value : 'unread';
};

describe('a number alone at a question of how many', () => {
  it('is the count of the thing the bands count, a bound after the thing too ("4 cabins or more")', () => {
    expect(read('3', cabins)).toBe('2 to 3 cabins');
    expect(read('about 3', cabins)).toBe('2 to 3 cabins');
    expect(read('five', cabins)).toBe('4 cabins or more');
    expect(read('7 cabins', cabins)).toBe('4 cabins or more');
    expect(read('12', lessons)).toBe('5 to 20 hours');
  });

  it('not where zero may be the category without a number ("None"), nor at a question that asks something else', () => {
    expect(read('0', lessons)).toBe('unread');
    expect(read('0 hours', lessons)).toBe('unread');
    expect(read('3', { ...cabins, prompt: 'Which cabin size suits your group?' })).toBe('unread');
    expect(read('maybe 3', cabins)).toBe('unread');
  });
});
