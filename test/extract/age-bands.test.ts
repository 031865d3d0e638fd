/**
 * Categories that are bands of age in a unit of time ("Under 6 months", "6 to 23 months", "2 to 3 years", "4 years or
 * older") hold the age a message states, in any unit and in words: before this, only unitless ranges ("under 18")
 * were read, and "he's 3" or "11 months" at a nursery's age question was asked again. Sentences written for these
 * tests (issue 26, from misses on the childcare dev split).
 */
import { describe, expect, it } from 'vitest';
import { matchCategory } from '../../src/extract/match-category.js';
import { monthRangeOf } from '../../src/extract/number-ranges.js';
import { tokenize } from '../../src/extract/normalize.js';

const child = { prompt: 'How old is your child?', categories: ['Under 6 months', '6 to 23 months', '2 to 3 years', '4 years or older'] };
const read = (text: string) => {
  const r = matchCategory(text, child);
  return r.status === 'match' ? r.value : 'unread';
};

describe('age bands in units of time', () => {
  it('a band of whole units reaches up to the next unit', () => {
    expect(monthRangeOf(tokenize('2 to 3 years'))).toEqual({ low: 24, high: 48, lowOpen: false, highOpen: true });
    expect(monthRangeOf(tokenize('Under 6 months'))).toEqual({ low: -Infinity, high: 6, lowOpen: false, highOpen: true });
    expect(monthRangeOf(tokenize('4 years or older'))).toEqual({ low: 48, high: Infinity, lowOpen: false, highOpen: false });
    expect(monthRangeOf(tokenize('under 18'))).toBeUndefined();
  });

  it.each([
    ['she is 3', '2 to 3 years'],
    ["he's three and a half", '2 to 3 years'],
    ['nine months', '6 to 23 months'],
    ['she is 20 mo', '6 to 23 months'],
    ['forty months', '2 to 3 years'],
    ['7 weeks old', 'Under 6 months'],
    ['she just turned four', '4 years or older'],
    ['tiene 2 anos', '2 to 3 years'],
    ['sie ist zwei Jahre alt', '2 to 3 years'],
  ])('"%s" is %s', (text, band) => {
    expect(read(text)).toBe(band);
  });

  it('a number without its unit, where the bands count months and years, is read only where both readings agree or it names a closed band in years', () => {
    // As years in the open band ("4 years or older"), as months in another: either may be meant.
    expect(read('18')).toBe('unread');
    expect(read('she is 5')).toBe('unread');
    // "2", "3": a toddler's age in years, in a closed band.
    expect(read('2')).toBe('2 to 3 years');
    expect(read('18 months')).toBe('6 to 23 months');
    expect(read('5 years old')).toBe('4 years or older');
  });

  it("reads nothing from someone else's age, a span of time, or a count of people", () => {
    expect(read('his sister is 5')).toBe('unread');
    expect(read('we have been waiting for 3 months')).toBe('unread');
    expect(read('we are two')).toBe('unread');
  });
});
