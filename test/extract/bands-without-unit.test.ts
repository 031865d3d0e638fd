/**
 * Bands named without the unit every band names, and numbers stated as bounds. Found by hand in the plumber's
 * chat: "50 to 99" at "Roughly how old is the building?" ("Under 20 years", "20 to 49 years", …) was asked three
 * times and the question fell back to its buttons, while "under 25 years" was committed as "20 to 49 years"
 * (a bound read as the number itself). Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { matchCategory } from '../../src/extract/match-category.js';
import { bandsWithoutUnit, statedRange, within } from '../../src/extract/number-ranges.js';
import { tokenize } from '../../src/extract/normalize.js';

const building = { prompt: 'Roughly how old is the building?', categories: ['Under 20 years', '20 to 49 years', '50 to 99 years', '100 years or more'] };
const child = { prompt: 'How old is your child?', categories: ['Under 6 months', '6 to 23 months', '2 to 3 years', '4 years or older'] };
const read = (text: string, question = building) => {
  const r = matchCategory(text, question);
  return r.status === 'match' ? r.value : 'unread';
};
const named = (categories: string[]) => bandsWithoutUnit(categories.map((category) => ({ category, tokens: tokenize(category) })));

describe('bands without their unit', () => {
  it('leaves out the one unit every band names', () => {
    expect(Object.fromEntries(named(building.categories))).toEqual({
      'Under 20 years': ['under 20'],
      '20 to 49 years': ['20 to 49', '20 49', 'between 20 and 49'],
      '50 to 99 years': ['50 to 99', '50 99', 'between 50 and 99'],
      '100 years or more': ['100 or more'],
    });
    // Months beside years: "under 6" could be either.
    expect(named(child.categories).size).toBe(0);
    // A band that names no unit ("Under 18") has nothing to leave out.
    expect(named(['Under 18', '18 to 64', '65 and over']).size).toBe(0);
    // Names without a number are no band.
    expect(named(['None', '1 to 2 rooms', '3 rooms or more']).get('1 to 2 rooms')).toEqual(['1 to 2', '1 2', 'between 1 and 2']);
  });

  it.each([
    ['50 to 99', '50 to 99 years'],
    ['50-99', '50 to 99 years'],
    ['between 50 and 99', '50 to 99 years'],
    ['20 to 49', '20 to 49 years'],
    ['under 20', 'Under 20 years'],
    ['100 or more', '100 years or more'],
    ['under 20 i think', 'Under 20 years'],
    ['under 20 yrs', 'Under 20 years'],
  ])('"%s" is %s', (text, band) => {
    expect(read(text)).toBe(band);
  });

  it.each(['under 20 minutes away', 'not under 20', 'we are under 20 miles from town'])('"%s" names no band', (text) => {
    expect(read(text)).toBe('unread');
  });
});

describe('a number stated as a bound', () => {
  it('allows every value on its side', () => {
    expect(within(statedRange({ value: 15, start: 0, end: 1, bound: { side: 'below', open: true } }), { low: -Infinity, high: 20, lowOpen: false, highOpen: true })).toBe(true);
    expect(within(statedRange({ value: 25, start: 0, end: 1, bound: { side: 'below', open: true } }), { low: 20, high: 49, lowOpen: false, highOpen: false })).toBe(false);
    expect(within(statedRange({ value: 120, start: 0, end: 1, bound: { side: 'above', open: false } }), { low: 100, high: Infinity, lowOpen: false, highOpen: false })).toBe(true);
    expect(within(statedRange({ value: 30, start: 0, end: 1 }), { low: 20, high: 49, lowOpen: false, highOpen: false })).toBe(true);
  });

  it.each([
    ['under 15 years', 'Under 20 years'],
    ['at least 120 years', '100 years or more'],
  ])('"%s" is %s: every value it allows is in that band', (text, band) => {
    expect(read(text)).toBe(band);
  });

  it.each(['under 25 years', 'at least 18 years', 'at most 60 years'])('"%s" spans two bands: no answer', (text) => {
    expect(read(text)).toBe('unread');
  });
});

describe('bands of people, without the unit or with it said short', () => {
  const household = { prompt: 'How many people live in the home, you included?', categories: ['1 person', '2 people', '3 to 4 people', '5 or more people'] };
  it.each([
    ['3 to 4 ppl', '3 to 4 people'],
    ['5 or more ppl', '5 or more people'],
    ['2', '2 people'],
    ["we're 2", '2 people'],
  ])('"%s" is %s', (text, band) => {
    expect(read(text, household)).toBe(band);
  });
  it.each(['we live in flat 2', '2 dogs', '3 to 4 dogs'])('"%s" counts something else: unread', (text) => {
    expect(read(text, household)).toBe('unread');
  });
});
