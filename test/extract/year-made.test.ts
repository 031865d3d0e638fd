/**
 * How old a thing is, from the year it was made (issue 26; found by hand: "built in the 1930s" asked how old a
 * building is, and "fitted in 2013" in the blind boiler-service dev split, read nothing). A year or a decade the
 * thing dates from gives its age, and the category is read only when every age the year can mean falls in it.
 * Sentences written for these tests; today is 2026-11-28.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../src/extract/index.js';

const building = { key: 'q', prompt: 'Roughly how old is the building?', categories: ['Under 20 years', '20 to 49 years', '50 to 99 years', '100 years or more'] };
const boiler = { key: 'q', prompt: 'How old is the boiler?', categories: ['Under 5 years', '5 to 9 years', '10 to 14 years', '15 years or more'] };
const read = (text: string, q: typeof building, today = '2026-11-28') =>
  extractOffline({ text, key: 'q', allowModel: false, questions: [q], today }).values['q']?.value ?? 'abstain';

describe('the year a thing was made, at a question of its age in spans of years', () => {
  it.each([
    ['built in the 1930s', building, '50 to 99 years'],
    ['built in 1985', building, '20 to 49 years'],
    ["it's from 2010", building, 'Under 20 years'],
    ['1990', building, '20 to 49 years'],
    ['fitted in 2013 by the council', boiler, '10 to 14 years'],
    ['the boiler was put in around 2010', boiler, '15 years or more'],
    ['ours is from 2019', boiler, '5 to 9 years'],
  ] as const)('"%s" is %s', (text, q, expected) => {
    expect(read(text, q)).toBe(expected);
  });

  it('a thing made new again dates from then: "had it replaced in 2019", "the new one went in in 2006"', () => {
    expect(read('we had it replaced in 2019', boiler)).toBe('5 to 9 years');
    expect(read('it was redone in 2010', boiler)).toBe('15 years or more');
    expect(read('the new one went on in 2006', boiler)).toBe('15 years or more');
    expect(read('the neighbours had theirs replaced in 2019', boiler)).toBe('abstain');
  });

  it('reads nothing where the year can mean two spans (2016 is 9 or 10 years on 2026-11-28)', () => {
    expect(read('installed in 2016', boiler)).toBe('abstain');
    expect(read('built in 1976', building)).toBe('abstain');
  });

  it('reads nothing where the year dates something else, someone else\'s, is denied, hedged or one of two', () => {
    expect(read("bought the house in 2001, boiler's newer", boiler)).toBe('abstain');
    expect(read("my neighbour's was built in 1900", building)).toBe('abstain');
    expect(read('we moved in in 1999', building)).toBe('abstain');
    expect(read('not built in 1900, later', building)).toBe('abstain');
    expect(read('built in 1985 i think', building)).toBe('abstain');
    expect(read('built in 1920, extended in 1985', building)).toBe('abstain');
    expect(read('built in 2030', building)).toBe('abstain');
  });

  it('reads nothing at a question that does not ask an age, or whose categories are not spans of years', () => {
    expect(read('built in 1985', { ...building, prompt: 'What kind of building is it?' })).toBe('abstain');
    expect(read('built in 1985', { ...building, categories: ['Old', 'New'] })).toBe('abstain');
  });
});
