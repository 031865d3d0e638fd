/**
 * The ends of an ordered scale (issue 26: common words the author did not list; from the broadband-order and
 * travel-insurance dev splits, where "the fastest you've got" and "the cheapest one" were asked again). A
 * superlative names the first or last category where the categories are numbers of one kind of unit or
 * names on a known ladder; elsewhere, off the end, negated or someone else's, it reads nothing. Sentences
 * written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline, type ExtractionQuestion } from '../../src/extract/index.js';
import { scaleOf } from '../../src/extract/scale-ends.js';

const read = (text: string, q: Omit<ExtractionQuestion, 'key'>) =>
  extractOffline({ text, key: 'q', allowModel: false, questions: [{ key: 'q', ...q }] }).values['q']?.value ?? 'abstain';
const storage = { prompt: 'How much cloud storage do you need?', categories: ['2 TB', '200 GB', '50 GB'] };
const plan = { prompt: 'Which membership level?', categories: ['Bronze', 'Silver', 'Gold'] };
const line = { prompt: 'Which line speed?', categories: ['50 Mbit/s', '300 Mbit/s', '2 Gbit/s'] };
const room = { prompt: 'Which room type?', categories: ['Single', 'Double', 'Suite'] };

describe('ordered categories', () => {
  it('numbers of one unit are ordered by value, prefixes counted; known ladders by their rank', () => {
    expect(scaleOf(storage.categories)?.order).toEqual(['50 GB', '200 GB', '2 TB']);
    expect(scaleOf(plan.categories)?.order).toEqual(['Bronze', 'Silver', 'Gold']);
    expect(scaleOf(room.categories)).toBeUndefined();
    expect(scaleOf(['2 rooms', '3 adults'])).toBeUndefined();
  });
});

describe('a superlative names an end', () => {
  it.each([
    ['whichever is cheapest', storage, '50 GB'],
    ["the biggest you've got please", storage, '2 TB'],
    ['top tier obviously', plan, 'Gold'],
    ['the most affordable one', plan, 'Bronze'],
    ['the quickest', line, '2 Gbit/s'],
  ] as const)('"%s" is read', (text, q, expected) => {
    expect(read(text, q)).toBe(expected);
  });

  it('reads nothing off a scale, off the end, negated, of speed where there is none, or said by someone else', () => {
    expect(read('the cheapest', room)).toBe('abstain');
    expect(read('the second cheapest', plan)).toBe('abstain');
    expect(read("not the cheapest, we're not students", plan)).toBe('abstain');
    expect(read('the fastest', plan)).toBe('abstain');
    expect(read('my partner wants the biggest', storage)).toBe('abstain');
    expect(read('the cheapest or the biggest, not sure', storage)).toBe('abstain');
  });
});
