/**
 * Numbers in words and in short forms as people type them (issue 26, from misses on the childcare, travel and
 * moving dev splits): "twelve hundred and fifty" and "three grand" were refused with "please write the number in
 * digits", "1,2k" as an unclear decimal, and "drei" or "cinco" were not numbers at all. Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { numberWordsAt } from '../../src/extract/knowledge/number-words.js';
import { tokenize } from '../../src/extract/normalize.js';
import { readTypedValue } from '../../src/extract/read-typed.js';

const words = (text: string) => numberWordsAt(tokenize(text), 0)?.value;
const euros = (text: string) => {
  const r = readTypedValue({ type: 'number', min: 0, max: 100000, unit: 'EUR' }, text, { prompt: 'How much did it cost, in euros?' });
  return r.ok ? r.value : 'refused';
};
const nights = (text: string) => {
  const r = readTypedValue({ type: 'number', integer: true, min: 1, max: 14, unit: 'nights' }, text, { prompt: 'How many nights will you stay?' });
  return r.ok ? r.value : 'refused';
};

describe('numbers in words', () => {
  it.each([
    ['fifteen hundred', 1500],
    ['nineteen hundred and ninety', 1990],
    ['four grand', 4000],
    ['two thousand three hundred', 2300],
    ['a grand', 1000],
    ['vier', 4],
    ['cinq', 5],
    ['siete', 7],
  ])('"%s" is %s', (text, value) => {
    expect(words(text)).toBe(value);
  });

  it('leaves out words that are English too, or an article', () => {
    expect(words('due')).toBeUndefined();
    expect(words('sept')).toBeUndefined();
    expect(words('un')).toBeUndefined();
  });

  it('reads them where an amount or a count is asked', () => {
    expect(euros('fifteen hundred and twenty')).toBe(1520);
    expect(euros('about four grand all in')).toBe(4000);
    expect(nights('sechs Nächte')).toBe(6);
    expect(nights('tres noches')).toBe(3);
  });

  it('reads numbers beyond ten in the major European languages (from n2words), apart or joined', () => {
    expect(words('cincuenta y cinco')).toBe(55);
    expect(words('zweihundertfünfzig')).toBe(250);
    expect(words('deux cent cinquante')).toBe(250);
    expect(words('quatre-vingt-dix-neuf')).toBe(99);
    expect(words('ventimila')).toBe(20000);
    expect(words('mil quinientos')).toBe(1500);
    expect(words('duzentos e cinquenta')).toBe(250);
    expect(words('vijftienhonderd')).toBe(1500);
    expect(euros('zwanzigtausend Euro')).toBe(20000);
    expect(euros('circa duemila euro')).toBe(2000);
    expect(nights('doce noches')).toBe(12);
  });

  it('a foreign piece that is an English word or an article alone is no number', () => {
    expect(words('once')).toBeUndefined();
    expect(words('cent')).toBeUndefined();
    expect(words('elf')).toBeUndefined();
    expect(nights('once a week')).toBe('refused');
    // Pieces in an order that makes no one number do not add up: "cinq cinquante" is five, then fifty.
    expect(words('cinq cinquante')).toBe(5);
  });

  it('"just the one" is a count of one; "the one" describing a thing is no number', () => {
    expect(nights('just the one')).toBe(1);
    expect(nights('only the one night, thanks')).toBe(1);
    expect(nights('the one')).toBe('refused');
    expect(nights('just the one with the sea view')).toBe('refused');
  });

  it('a comma before one or two digits and a scale is a decimal comma', () => {
    expect(euros('2,4k')).toBe(2400);
    expect(euros('3,75 thousand')).toBe(3750);
    expect(euros('2,400')).toBe(2400);
  });
});

/**
 * At a question in a currency, a comma before two digits is the cents ("24,50"), and a code of letters and digits
 * beside the amount is left out ("ref AB1234, about 60") (issue 26, from the broadband dev split: both were refused).
 */
describe('amounts beside codes, and cents after a comma', () => {
  const monthly = (text: string) => {
    const r = readTypedValue({ type: 'number', min: 10, max: 200, unit: 'EUR' }, text, { prompt: 'What is the most you want to pay per month, in euros?' });
    return r.ok ? r.value : 'refused';
  };
  it('reads them', () => {
    expect(monthly('24,50')).toBe(24.5);
    expect(monthly('my account is XK2231, about 60')).toBe(60);
  });
  it('still refuses a code alone, and a comma that is no decimal where no currency is asked', () => {
    expect(monthly('XK2231')).toBe('refused');
    expect(nights('2,5')).toBe('refused');
  });
});

describe('a word after a number that is a property of every object', () => {
  it('is no scale ("7 constructor" was read as NaN once a code no longer stopped the reading)', async () => {
    const { parseTypedAnswer } = await import('../../src/extract/parse-typed.js');
    expect(parseTypedAnswer('number', '7 constructor')).toMatchObject({ ok: true, value: 7 });
    expect(parseTypedAnswer('number', '7 toString')).toMatchObject({ ok: true, value: 7 });
  });
});

describe('dozens', () => {
  // From the blind boiler-service dev split: "a dozen exactly" radiators was not read.
  const radiators = { type: 'number', integer: true, min: 1, max: 30, unit: 'radiators' } as const;
  const prompt = 'How many radiators are there in the home, towel rails included?';
  it.each([
    ['a dozen exactly', 12],
    ['half a dozen exactly', 6],
    ['two dozen precisely', 24],
  ])('"%s" is %d', (text, expected) => {
    const r = readTypedValue(radiators, text, { prompt });
    expect(r.ok && r.value).toBe(expected);
  });

  it('a dozen not said to be exact is a round figure, not read ("a dozen", "dozens", "half a dozen")', () => {
    for (const text of ['a dozen', 'dozens', 'half a dozen', 'a dozen or so']) expect(readTypedValue(radiators, text, { prompt }).ok, text).toBe(false);
    expect(numberWordsAt(tokenize('a dozen'), 0)).toBeUndefined();
  });
});
