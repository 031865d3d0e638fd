/**
 * Wrong commits found on the new driving-lessons and solar-survey dev splits (issue 26, tenth round), each a rule:
 * a count said as a bound ("more than 10 hours") is no count; a house number is no amount; a value for part of the
 * year is no correction of the one before; a count given to someone else ("one, but it's the neighbour's") is not
 * the person's; a part of the asked thing ("the electricity part alone") is still the asked thing; "ça dépend"
 * hedges as "it depends" does. Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { matchCategory } from '../../src/extract/match-category.js';
import { readTypedValue } from '../../src/extract/read-typed.js';

const hours = (text: string) => {
  const r = matchCategory(text, {
    prompt: 'How many hours of lessons with an instructor has the learner had before?',
    categories: ['None', 'Under 10 hours', '10 to 30 hours', 'More than 30 hours'],
  });
  return r.status === 'match' ? r.value : 'unread';
};
const bill = (text: string) => {
  const r = readTypedValue({ type: 'number', min: 20, max: 600, unit: 'EUR' }, text, { prompt: "About how much is your household's electricity bill per month, in euros?" });
  return r.ok ? r.value : 'refused';
};
const cars = (text: string) => {
  const r = readTypedValue({ type: 'number', integer: true, min: 0, max: 3, unit: 'cars' }, text, { prompt: 'How many electric cars does your household charge at home?' });
  return r.ok ? r.value : 'refused';
};

describe('a count said as a bound', () => {
  it.each([
    ['more than 40 hours', 'More than 30 hours'],
    ['less than 5 hours', 'Under 10 hours'],
    ['at most 8 hours', 'Under 10 hours'],
    ['12 hours', '10 to 30 hours'],
  ])('"%s" is %s: every count it allows is there', (text, value) => {
    expect(hours(text)).toBe(value);
  });

  it.each(['more than 10 hours', "not more than 10 hours I'd say", 'over 20 hours'])('"%s" spans two categories: unread', (text) => {
    expect(hours(text)).toBe('unread');
  });
});

describe('numbers that are not the amount', () => {
  it('a house number is an address', () => {
    expect(bill("we're at 48 Elm Road, the bills go to my husband")).toBe('refused');
    expect(bill('12b Station Rd')).toBe('refused');
    expect(bill("we're at 48 Elm Road, we pay 95")).toBe(95);
    expect(bill('about 120 on the high street')).toBe(120);
  });

  it('a value for part of the year corrects nothing', () => {
    expect(bill('about 120 in winter but more like 60 in summer')).toBe('refused');
    expect(bill('120, sorry, more like 60')).toBe(60);
  });

  it('a part of the asked thing is the asked thing; a part of another is not', () => {
    expect(bill('the electricity part alone is about 110')).toBe(110);
    expect(bill('around 200, though the gas is on the same bill, the electricity part alone is about 110')).toBe('refused');
  });

  it("a count given to someone else is not the person's", () => {
    expect(cars("one, but it's the neighbour's, he plugs it into our socket")).toBe('refused');
    expect(cars('one, but it belongs to my daughter')).toBe('refused');
    expect(cars("one, but it's a hybrid")).toBe(1);
  });
});

describe('"it depends" in other languages', () => {
  it.each(['ça dépend de mon père, des fois oui des fois non', 'kommt drauf an', 'dipende dal tempo'])('"%s" is a hedge', (text) => {
    const r = matchCategory(text, {
      prompt: 'How often does the learner drive outside lessons (with family or friends)?',
      categories: ['Never', 'Less than once a week', 'Once or twice a week', 'Three or more times a week'],
    });
    expect(r.status).not.toBe('match');
  });
});
