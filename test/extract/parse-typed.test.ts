import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/testing/random.js';
import { parseTypedAnswer, type TypedAnswerType, type TypedParse, type TypedParseOptions } from '../../src/extract/parse-typed.js';

/** A Saturday. */
const today = new Date('2026-11-21T12:00:00Z');

type Accepted = [text: string, value: string | number | boolean, confidence?: number];
type Refused = [text: string, message: RegExp];

function accepts(type: TypedAnswerType, [text, value, confidence]: Accepted, options: TypedParseOptions = {}) {
  const result = parseTypedAnswer(type, text, { today, ...options });
  expect(result).toMatchObject({ ok: true, value });
  if (!result.ok) return;
  expect(result.confidence).toBeGreaterThanOrEqual(0);
  expect(result.confidence).toBeLessThanOrEqual(1);
  if (confidence !== undefined) expect(result.confidence).toBe(confidence);
}

/** Refused with a sentence a person can act on, saying what was wrong. */
function refuses(type: TypedAnswerType, [text, message]: Refused, options: TypedParseOptions = {}) {
  const result = parseTypedAnswer(type, text, { today, ...options });
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expectSentence(result);
  expect(result.message).toMatch(message);
}

function expectSentence(result: TypedParse) {
  if (result.ok) throw new Error('expected a refusal');
  expect(result.message.length).toBeGreaterThan(10);
  expect(result.message).toMatch(/^["A-Z0-9]/);
  expect(result.message).toMatch(/[.?]$/);
}

describe('parseTypedAnswer: any type', () => {
  const types: TypedAnswerType[] = ['string', 'number', 'boolean', 'date', 'email', 'phone'];

  it.each(types)('%s: refuses an answer over 2000 characters, and reads one of exactly 2000', (type) => {
    refuses(type, ['x'.repeat(2001), /too long/]);
    refuses(type, [`${'a '.repeat(1000)}1`, /too long/]);
    const result = parseTypedAnswer(type, 'x'.repeat(2000), { today });
    if (!result.ok) expect(result.message).not.toMatch(/too long/);
  });

  it.each(types)('%s: refuses an empty or blank answer', (type) => {
    for (const text of ['', '   ', '\n\t ']) refuses(type, [text, /answer|find|tell|read/i]);
  });

  it('refuses, without throwing, what a plain JavaScript caller might pass', () => {
    const anyParse = parseTypedAnswer as (type: unknown, text: unknown, options?: unknown) => TypedParse;
    for (const [type, text, options] of [
      ['number', undefined, undefined],
      ['number', null, undefined],
      ['number', 42, undefined],
      ['colour', 'red', undefined],
      ['date', 'today', { today: new Date('not a date') }],
      ['date', 'today', { today: new Date(8.64e15) }],
    ] as const) {
      const result = anyParse(type, text, options);
      expect(result.ok).toBe(false);
      expectSentence(result);
    }
    expect(anyParse('date', '2026-12-01', null)).toEqual({ ok: true, value: '2026-12-01', confidence: 1 });
  });

  it('dates default "today" to now, in UTC', () => {
    const before = new Date().toISOString().slice(0, 10);
    const result = parseTypedAnswer('date', 'today');
    const after = new Date().toISOString().slice(0, 10);
    expect(result.ok).toBe(true);
    if (result.ok) expect([before, after]).toContain(result.value);
  });
});

describe('parseTypedAnswer: string', () => {
  it.each<Accepted>([
    ['hello', 'hello', 1],
    ['  hello   world \n', 'hello world', 1],
    ['line one\n\nline two', 'line one line two', 1],
    ['tab\there', 'tab here', 1],
    ['Ünïcödé 👍', 'Ünïcödé 👍', 1],
    ['bell\u0007 and nul\u0000 dropped', 'bell and nul dropped', 1],
  ])('%j → %j', (...c) => accepts('string', c));

  it.each<Refused>([
    ['', /did not get an answer/],
    ['   \n ', /did not get an answer/],
    ['\u0000\u0001', /did not get an answer/],
  ])('refuses %j', (...c) => refuses('string', c));
});

describe('parseTypedAnswer: number', () => {
  it.each<Accepted>([
    ['12', 12, 1],
    ['-3', -3, 1],
    ['\u22123', -3, 1],
    ['+5', 5, 1],
    ['12.5', 12.5, 1],
    ['-3.5', -3.5, 1],
    ['.5', 0.5, 1],
    ['0.125', 0.125, 1],
    ['0', 0, 1],
    ['-0', 0, 1],
    ['007', 7, 1],
    ['1,200', 1200, 1],
    ['1,200,000', 1200000, 1],
    ['12,345.67', 12345.67, 1],
    ['$1,200.50', 1200.5, 1],
    ['40%', 40, 1],
    ['40.', 40, 1],
    ['\uff13\uff10', 30, 1], // full-width digits
    ['about 40 watts', 40, 0.9],
    ['40W', 40, 0.9],
    ["It's 40.", 40, 0.9],
    ['I have 2 kids', 2, 0.9],
    ['about -3', -3, 0.9],
    ['Rating - 5', 5, 0.9],
    ['40 min', 40, 0.9],
    ['3rd floor', 3, 0.9],
    ['40 (forty)', 40, 0.9],
    ['twenty 20', 20, 0.9],
    ['zero', 0, 1],
    ['one', 1, 1],
    ['twelve', 12, 1],
    ['Twenty', 20, 1],
    ['forty', 40, 1],
    ['forty two', 42, 1],
    ['twenty-five', 25, 1],
    ['ninety nine', 99, 1],
    ['a hundred', 100, 1],
    ['one hundred', 100, 1],
    ['just one', 1, 0.9],
    ['about twelve watts', 12, 0.9],
    // Compounds of hundreds and thousands are read whole (they were refused before: "two hundred" is no less clear than "a hundred").
    ['two hundred', 200, 1],
    ['two hundred and fifty', 250, 1],
    ['five thousand', 5000, 1],
    ['three thousand four hundred and twelve', 3412, 1],
    // A sign in words is a sign: "minus 50" is -50, never 50 (a question with a minimum of 0 refuses it, saying why).
    ['minus 50', -50, 0.9],
    ['minus fifty', -50, 1],
    ['negative forty', -40, 1],
    ['Minus five', -5, 1],
    ['it is negative 3', -3, 0.9],
  ])('%j → %j', (...c) => accepts('number', c));

  it.each<Refused>([
    ['50 cents', /cents \(0\.50\)/],
    ['fifty cents', /cents \(0\.50\)/],
    ['about 75 cent', /cents \(0\.75\)/],
  ])('refuses %j rather than read it as a whole unit', (...c) => refuses('number', c));

  it.each<Refused>([
    ['no number here', /could not find a number/],
    ["I don't know", /could not find a number/],
    ['no one', /could not find a number/],
    ['the blue one', /could not find a number/],
    ['constructor', /could not find a number/],
    ['__proto__', /could not find a number/],
    ['between 10 and 20', /more than one number \(10 and 20\)/],
    ['10 or 20', /more than one number/],
    ['one or two', /more than one number \(1 and 2\)/],
    ['I have 2 dogs and 3 cats', /more than one number/],
    ['12:30', /more than one number/],
    ['\u00bd', /more than one number/], // ½ becomes 1⁄2
    ['10-20', /just one number, not a range/],
    ['10 - 20', /just one number, not a range/],
    ['10–20', /just one number, not a range/],
    ['5+5', /just one number/],
    ['10-10', /just one number/],
    ['1/2', /fraction/],
    ['1 200', /without spaces/],
    ['12,5', /write it with a point, like 12\.5/],
    ['1,20', /with a point, like 1\.20/],
    ['0,500', /with a point/],
    [',5', /with a point/],
    ['1.500', /Did you mean 1\.5 or 1500\?/],
    ['1.200.000', /could not read "1\.200\.000" as a number/],
    ['1.200,50', /could not read/],
    ['1.2.3', /could not read/],
    ['- 3', /negative number/],
    ['one and a half', /whole number in digits/],
    ['a dozen', /whole number in digits/],
    ['40+', /limit/],
    ['more than 40', /limit/],
    ['less than 5', /limit/],
    ['over 40', /limit/],
    ['at least 3', /limit/],
    ['up to 10', /limit/],
    ['< 5', /limit/],
    ['maybe 5', /not sure/],
    ['probably 40', /not sure/],
    ['not sure, 40', /not sure/],
    ['not 40', /not sure/],
    ['40?', /question/],
    ['A4', /could not read a number/],
    ['COVID-19', /could not read a number/],
    ['1e5', /could not read a number/],
    ['v2', /could not read a number/],
    ['12345678901234567890', /too long/],
    ['9007199254740993', /too long/],
  ])('refuses %j', (...c) => refuses('number', c));
});

describe('parseTypedAnswer: scales and sums of money (issue 26)', () => {
  it.each<Accepted>([
    ['5k', 5000, 1],
    ['5 k', 5000, 1],
    ['2.5k', 2500, 1],
    ['5 thousand', 5000, 1],
    ['2 million', 2000000, 1],
    ['around 12 grand', 12000, 0.9],
    // Beside a currency, a separator before three digits groups thousands, before two it marks cents.
    ['3.250 €', 3250, 1],
    ['€ 1.250.000', 1250000, 1],
    ['€12,40', 12.4, 1],
    ['1.999,95 EUR', 1999.95, 0.9],
  ])('%j → %j', (...c) => accepts('number', c));

  it('a count of other things than the question\'s unit is refused ("we are 4 people" asked for bedrooms)', () => {
    refuses('number', ['we are 4 people', /count of people or things/], { unit: 'bedrooms' });
    refuses('number', ['2 dogs', /count of people or things/], { unit: 'rooms' });
  });

  it('a number labelled with the question\'s own unit is the answer beside other things listed ("3 bedrooms and a study")', () => {
    accepts('number', ['2 bedrooms and a study', 2, 0.9], { unit: 'bedrooms' });
    // People listed must still be summed by the person.
    refuses('number', ['me and 2 kids', /total as one number/], { unit: 'people' });
  });

  it('a number of another unit of measure than the question\'s is refused ("25 years old" asked for euros)', () => {
    refuses('number', ['25 years old', /reads as years/], { unit: 'EUR' });
    refuses('number', ['3 weeks', /reads as weeks/], { unit: 'EUR' });
    accepts('number', ['25 years old', 25, 1], { unit: 'years' });
  });

  it('without a currency, "1.500" and "12,40" still ask which was meant', () => {
    refuses('number', ['1.500', /Did you mean 1\.5 or 1500\?/]);
    refuses('number', ['12,40', /with a point/]);
  });
});

describe('parseTypedAnswer: approximate numbers and units', () => {
  it.each<Accepted>([
    ['about 60 or so', 60, 0.9],
    ['60 or so', 60, 0.9],
    ['~60', 60, 0.9],
    ['roughly 60 give or take', 60, 0.9],
    ['60, more or less', 60, 0.9],
  ])('%j → %j where the question needs no exact number', (...c) => accepts('number', c));

  it('refuses an approximate number where the question needs the exact one, and still refuses hedges, limits and two numbers', () => {
    refuses('number', ['about 60', /exact number/], { exact: true });
    refuses('number', ['60 or so', /exact number/], { exact: true });
    refuses('number', ['60ish', /exact number/], { exact: true });
    accepts('number', ['60', 60, 1], { exact: true });
    refuses('number', ['maybe 60 or so', /not sure/]);
    refuses('number', ['about 60 or more', /limit/]);
    refuses('number', ['about 60 or 70', /more than one number/]);
  });

  it.each<Accepted>([
    ['about 650 m2', 650, 0.9],
    ['650m2', 650, 1],
    ['650 m²', 650, 1],
    ['650 sq m', 650, 1],
    ['650 square metres', 650, 1],
  ])('%j → %j for a question in m²', (...c) => accepts('number', c, { unit: 'm²' }));

  it('reads only the question\'s own unit', () => {
    accepts('number', ['40 watts', 40, 1], { unit: 'W' });
    accepts('number', ['40W', 40, 1], { unit: 'W' });
    refuses('number', ['about 650 m2', /number/]);
    refuses('number', ['650 m2', /number/], { unit: 'W' });
  });
});

describe('parseTypedAnswer: boolean', () => {
  it.each<Accepted>([
    ['yes', true, 1],
    ['Yes', true, 1],
    ['YES!', true, 1],
    ['Yes.', true, 1],
    ['no', false, 1],
    ['No.', false, 1],
    ['y', true, 0.95],
    ['N', false, 0.95],
    ['yep', true, 0.95],
    ['Yep!', true, 0.95],
    ['yeah', true, 0.95],
    ['yesss', true, 0.95],
    ['sure', true, 0.95],
    ['correct', true, 0.95],
    ['of course', true, 0.95],
    ['definitely', true, 0.95],
    ['YES PLEASE', true, 0.95],
    ['yes yes', true, 0.95],
    ['true', true, 0.95],
    ['I think so', true, 0.95],
    ['yes, we do', true, 0.95],
    ['sure, no problem', true, 0.95],
    ['nope', false, 0.95],
    ['nah', false, 0.95],
    ['not really', false, 0.95],
    ['no thanks', false, 0.95],
    ['absolutely not', false, 0.95],
    ['no way', false, 0.95],
    ["no, we don't", false, 0.95],
    ['never', false, 0.95],
    ['false', false, 0.95],
    ['yes, I have it here', true, 0.85],
  ])('%j → %j', (...c) => accepts('boolean', c));

  it.each<Refused>([
    ['not yes', /could not tell whether you meant yes or no/],
    ['yes but not now', /could not tell/],
    ['not now', /could not tell/],
    ['n/a', /could not tell/],
    ['hmm', /could not tell/],
    ['\u{1F44D}', /could not tell/],
    ['yes and no', /could not tell/],
    ['negative', /could not tell/], // reads as a test result, not as "no"
    ['positive', /could not tell/],
    ['yes... actually no', /both yes and no/],
    ['yeah, no', /both yes and no/],
    ['no, wait, yes', /both yes and no/],
    ['yes, nothing else', /both yes and no/],
    ['maybe', /not sure/],
    ['I guess so', /not sure/],
    ['no idea', /not sure/],
    ["I don't know", /not sure/],
    ['yes or no', /not sure/],
    ['either', /not sure/],
    ['yes?', /question/],
    ['what does that mean', /question/],
    ['what? no', /question/],
  ])('refuses %j', (...c) => {
    refuses('boolean', c);
    refuses('boolean', [c[0], /"Yes" or "No"/]);
  });

  describe('with the question\'s own labels', () => {
    const labels = { trueLabel: 'Agree', falseLabel: 'Disagree' };
    it.each<Accepted>([
      ['Agree', true, 1],
      ['agree', true, 1],
      ['DISAGREE', false, 1],
      ['I disagree', false, 0.85],
      ['yes', true, 0.95],
      ['no', false, 0.95],
    ])('%j → %j', (...c) => accepts('boolean', c, labels));

    it('names the labels when it cannot tell', () => {
      refuses('boolean', ['perhaps', /"Agree" or "Disagree"/], labels);
      refuses('boolean', ['I do not agree', /both yes and no/], labels);
    });

    it('reads a label that contains a negation as that label', () => {
      const opts = { trueLabel: 'Go ahead', falseLabel: 'Not now' };
      accepts('boolean', ['Not now', false, 1], opts);
      accepts('boolean', ['not now thanks', false, 0.95], opts);
      accepts('boolean', ['go ahead', true, 1], opts);
    });

    it('matches labels that are not words', () => {
      const opts = { trueLabel: '\u{1F44D}', falseLabel: '\u{1F44E}' };
      accepts('boolean', ['\u{1F44D}', true, 1], opts);
      accepts('boolean', [' \u{1F44E} ', false, 1], opts);
    });

    it('ignores labels that cannot be told apart', () => {
      const opts = { trueLabel: 'OK', falseLabel: 'ok' };
      refuses('boolean', ['ok', /could not tell/], opts);
      accepts('boolean', ['yes', true, 0.95], opts);
    });
  });
});

describe('parseTypedAnswer: date (today is Saturday 2026-11-21)', () => {
  it.each<Accepted>([
    ['2026-12-01', '2026-12-01', 1],
    ['2026-12-1', '2026-12-01', 1],
    ['2026/12/01', '2026-12-01', 1],
    ['2026-12-01T10:00:00Z', '2026-12-01', 1],
    ['1 December 2026', '2026-12-01', 1],
    ['1st December, 2026', '2026-12-01', 1],
    ['1-dec-2026', '2026-12-01', 1],
    ['December 1, 2026', '2026-12-01', 1],
    ['Dec 1 2026', '2026-12-01', 1],
    ['Dec. 1st, 2026', '2026-12-01', 1],
    ['Tuesday, 1 December 2026', '2026-12-01', 1],
    ['1 December 2026 10:30', '2026-12-01', 1],
    ['December 1st, 2026 please', '2026-12-01', 0.9],
    ['1 Dec', '2026-12-01', 0.9],
    ['December 1', '2026-12-01', 0.9],
    ['5th december', '2026-12-05', 0.9],
    ['the 1st of December', '2026-12-01', 0.9],
    ['November 21', '2026-11-21', 0.9], // on or after today
    ['November 20', '2027-11-20', 0.9],
    ['Jan 5', '2027-01-05', 0.9],
    ['feb 29', '2028-02-29', 0.9],
    ['friday 27 november', '2026-11-27', 0.9],
    ['25/12/2026', '2026-12-25', 1],
    ['12/25/2026', '2026-12-25', 1],
    ['12.25.2026', '2026-12-25', 1],
    ['05/05/2026', '2026-05-05', 1],
    ['29/02/2028', '2028-02-29', 1],
    ['today', '2026-11-21', 1],
    ['Today', '2026-11-21', 1],
    ['tonight', '2026-11-21', 1],
    ['tomorrow', '2026-11-22', 1],
    ['tmrw', '2026-11-22', 1],
    ['yesterday', '2026-11-20', 1],
    ['day after tomorrow', '2026-11-23', 1],
    ['the day before yesterday', '2026-11-19', 1],
    ['tomorrow at 3pm', '2026-11-22', 1],
    ['tomorrow (Nov 22)', '2026-11-22', 0.9],
    ['in 3 days', '2026-11-24', 0.95],
    ['in three days', '2026-11-24', 0.95],
    ['in a week', '2026-11-28', 0.95],
    ['in two weeks', '2026-12-05', 0.95],
    ['3 days ago', '2026-11-18', 0.95],
    ['2 days from now', '2026-11-23', 0.95],
    ['friday', '2026-11-27', 0.9],
    ['Friday', '2026-11-27', 0.9],
    ['saturday', '2026-11-28', 0.9], // strictly after today
    ['sunday', '2026-11-22', 0.9],
    ['next friday', '2026-11-27', 0.85],
    ['this friday', '2026-11-27', 0.85],
    ['last friday', '2026-11-20', 0.85],
    ['on Friday', '2026-11-27', 0.81],
  ])('%j → %j', (...c) => accepts('date', c));

  it.each<Refused>([
    ['01/12/2026', /could mean 2026-12-01 or 2026-01-12.*2026-12-01/],
    ['1/2/2026', /could mean/],
    ['2026-02-30', /no such date as 30 February 2026/],
    ['2026-13-01', /no such date as 2026-13-01/],
    ['13/13/2026', /no such date/],
    ['31/04/2026', /no such date as 31 April 2026/],
    ['29/02/2027', /no such date as 29 February 2027/],
    ['april 31', /no such date as 31 April/],
    ['0999-12-01', /no such date/],
    ['Friday, 1 December 2026', /1 December 2026 is a Tuesday, not a Friday/],
    ['December 2026', /Which day in December 2026\?/],
    ['today or tomorrow', /more than one date \(2026-11-21 and 2026-11-22\)/],
    ['monday or tuesday', /more than one date/],
    ['2026-12-01 (wednesday)', /more than one date/],
    ['this saturday', /today or Saturday next week/],
    ['friday next week', /one exact date/],
    ['around december 1', /one exact date/],
    ['not friday', /one exact date/],
    ['maybe friday', /one exact date/],
    ['before friday', /one exact date/],
    ['friday?', /question/],
    ['25/12/26', /could not read a date.*2026-12-01/],
    ['the 5th', /could not read a date/],
    ['3 or 4 december', /could not read a date/],
    ['in 2 months', /could not read a date/],
    ['next week', /could not read a date/],
    ['early december', /could not read a date/],
    ['may', /could not read a date/],
    ['soon', /could not read a date/],
    ['whenever', /could not read a date/],
  ])('refuses %j', (...c) => refuses('date', c));

  it('asks back about "next friday" said while this week\'s Friday is still ahead, with both dates', () => {
    const tuesday = new Date('2026-11-24T09:00:00Z');
    expect(parseTypedAnswer('date', 'next friday', { today: tuesday })).toEqual({
      ok: false,
      message: 'Did you mean Friday 27 November or Friday 4 December? Please choose one, or write the date like 2026-12-01.',
      candidates: [
        { value: '2026-11-27', label: 'Friday 27 November' },
        { value: '2026-12-04', label: 'Friday 4 December' },
      ],
    });
    // Across a year end the year is said.
    expect(parseTypedAnswer('date', 'next thursday', { today: new Date('2026-12-29T09:00:00Z') })).toMatchObject({
      candidates: [{ value: '2026-12-31' }, { value: '2027-01-07', label: 'Thursday 7 January 2027' }],
    });
    // A date picked from them reads as itself.
    expect(parseTypedAnswer('date', '2026-12-04', { today: tuesday })).toMatchObject({ ok: true, value: '2026-12-04' });
    // "This friday" and "friday" are this week's; on a Saturday "next friday" is the coming one (above).
    expect(parseTypedAnswer('date', 'this friday', { today: tuesday })).toMatchObject({ ok: true, value: '2026-11-27' });
    expect(parseTypedAnswer('date', 'friday', { today: tuesday })).toMatchObject({ ok: true, value: '2026-11-27' });
    // With another date, or a hedge, it is refused as before, with nothing to pick.
    expect(parseTypedAnswer('date', 'next friday or tomorrow', { today: tuesday })).toMatchObject({ ok: false, message: expect.stringMatching(/more than one date/) });
    expect(parseTypedAnswer('date', 'maybe next friday', { today: tuesday })).not.toHaveProperty('candidates');
  });

  it('reads relative dates from the given today, across month and year ends', () => {
    const newYearsEve = new Date('2026-12-31T23:59:59Z');
    expect(parseTypedAnswer('date', 'tomorrow', { today: newYearsEve })).toMatchObject({ value: '2027-01-01' });
    expect(parseTypedAnswer('date', 'in 2 days', { today: newYearsEve })).toMatchObject({ value: '2027-01-02' });
    expect(parseTypedAnswer('date', 'Jan 1', { today: newYearsEve })).toMatchObject({ value: '2027-01-01' });
    // A Thursday; "friday" is the next day.
    expect(parseTypedAnswer('date', 'friday', { today: newYearsEve })).toMatchObject({ value: '2027-01-01' });
    expect(parseTypedAnswer('date', 'in 999 weeks', { today: new Date('9990-06-01T00:00:00Z') })).toMatchObject({ ok: false });
    // Calendar date from the UTC parts, whatever the local time zone.
    expect(parseTypedAnswer('date', 'today', { today: new Date('2026-03-01T00:30:00Z') })).toMatchObject({ value: '2026-03-01' });
  });
});

describe('parseTypedAnswer: email', () => {
  it.each<Accepted>([
    ['jane@example.com', 'jane@example.com', 1],
    ['Jane.Doe@Example.COM', 'Jane.Doe@example.com', 1],
    ["it's Jane.Doe@Example.com thanks", 'Jane.Doe@example.com', 0.9],
    ['email: JOHN+tag@Sub.Example.co.uk!', 'JOHN+tag@sub.example.co.uk', 0.9],
    ['<jane@x.com>', 'jane@x.com', 0.9],
    ['mailto:jane@x.com', 'jane@x.com', 0.9],
    ['jane@x.com.', 'jane@x.com', 1],
    ["'o'brien@x.ie'.", "o'brien@x.ie", 1],
    ['*jane@x.com*', 'jane@x.com', 1],
    ['jane_doe-99@my-domain.io', 'jane_doe-99@my-domain.io', 1],
    ['jane@x.com, JANE@X.COM', 'jane@x.com', 0.9], // the same address twice
    ['\uff4a\uff41\uff4e\uff45\uff20x.com', 'jane@x.com', 1], // full-width
  ])('%j → %j', (...c) => accepts('email', c));

  it.each<Refused>([
    ['no email', /could not find an email address/],
    ['jane at example dot com', /could not find an email address/],
    ['jane @ x.com', /without spaces/],
    ['jane@gmail', /"jane@gmail" does not look like a complete email address/],
    ['jane@gmail,com', /does not look like a complete email address/],
    ['jane@x.c', /does not look like a complete/],
    ['jane@x.c0m', /does not look like a complete/],
    ['jane..doe@x.com', /does not look like a complete/],
    ['.jane@x.com', /does not look like a complete/],
    ['jane.@x.com', /does not look like a complete/],
    ['jane@x..com', /does not look like a complete/],
    ['jane@-x.com', /does not look like a complete/],
    ['a@b@c.com', /does not look like a complete/],
    ['jan\u00e9@x.com', /does not look like a complete/],
    [`${'a'.repeat(65)}@x.com`, /does not look like a complete/],
    ['jane@x.com or me@home', /"me@home" does not look like a complete/],
    ['a@x.com b@y.com', /more than one email address \(a@x\.com and b@y\.com\)/],
    ['old: a@x.com, new: b@x.com', /more than one email address/],
    ['jane,doe@x.com', /"jane,doe@x\.com" does not look like a complete/],
    ['jane@x.com,uk', /"jane@x\.com,uk" does not look like a complete/],
    ['a@x.com,b@y.com', /does not look like a complete/],
  ])('refuses %j', (...c) => refuses('email', c));
});

describe('parseTypedAnswer: phone', () => {
  it.each<Accepted>([
    ['+1 (555) 010-2233', '+15550102233', 1],
    ['+44 20 7946 0018', '+442079460018', 1],
    ['+ 1 555 010 2233', '+15550102233', 1],
    ['(555) 010-2233', '5550102233', 1],
    ['555.010.2233', '5550102233', 1],
    ['555-0102', '5550102', 1],
    ['030/1234567', '0301234567', 1],
    ['0049 30 1234567', '0049301234567', 1],
    ['123456789012345', '123456789012345', 1],
    ['my number is 020 7946 0018.', '02079460018', 0.9],
    ['Tel: +33 1 23 45 67 89', '+33123456789', 0.9],
    ['555-010-2233 thanks', '5550102233', 0.9],
    ['555 010 2233 or 555-010-2233', '5550102233', 0.9], // the same number twice
    ['\uff0b\uff14\uff14 20 7946 0018', '+442079460018', 1], // full-width
  ])('%j → %j', (...c) => accepts('phone', c));

  it.each<Refused>([
    ['no phone', /could not find a phone number/],
    ['12345', /too short/],
    ['555 01', /too short/],
    ['1234567890123456', /too long/],
    ['call 555 010 2233 or 555 010 4455', /more than one number/],
    ['+1 555 010 2233 ext 4', /more than one number/],
    ["I'm 40. 555 010 2233", /more than one number/],
    ['555 010 2233, 40', /more than one number/],
    ['555+0102233', /more than one number/],
    ['555-CALL-NOW', /letters/],
    ['1-800-FLOWERS', /letters/],
    ['555 01O 2233', /letters/],
    ['5550102233x12', /letters/],
    ['tel5550102233', /letters/],
    ['24/7 555 010 2233', /one phone number/],
    ['555 010/2233', /one phone number/],
  ])('refuses %j', (...c) => refuses('phone', c));
});

describe('parseTypedAnswer never throws', () => {
  const prng = seededRandom;

  const PIECES = [
    ...'0123456789', ' ', ' ', '  ', '\t', '\n', '\r\n', '.', ',', '-', '+', '/', '(', ')', '@', ':', '?', '!', "'", '"', '*', '_',
    '\u0000', '\u0007', '\u001b', '\u200b', '\u00a0', '\u2212', '\u2013', '\ufeff', '\ud800', '\udfff', '\u{1F600}', '\u{1F44D}',
    '\uff11', '\uff20', '\u00bd', '\u00b2', '\u0130', '\u00df', '\u0301', '\u2028', '\u202e',
    'a', 'Z', 'é', 'ß', 'yes', 'no', 'not', 'maybe', 'one', 'twenty', 'hundred', 'k', 'december', 'dec', 'may', 'friday',
    'next', 'today', 'tomorrow', 'in', 'days', 'weeks', 'ago', 'the', 'st', 'th', 'am', 'pm', 'jane', 'x.com', '.com',
    'example', 'mailto:', '2026', '12', '31', '1,200', '12,5', '1.500', '+1', '(555)', '555-0102', 'T10:00Z', '|',
    'constructor', '__proto__', 'valueOf',
  ];

  function randomText(next: () => number): string {
    const length = Math.floor(next() * 40);
    let text = '';
    for (let i = 0; i < length; i++) text += PIECES[Math.floor(next() * PIECES.length)]!;
    return text;
  }

  const types: TypedAnswerType[] = ['string', 'number', 'boolean', 'date', 'email', 'phone'];

  function expectWellFormed(type: TypedAnswerType, text: string, options: TypedParseOptions) {
    let result: TypedParse;
    try {
      result = parseTypedAnswer(type, text, options);
    } catch (error) {
      throw new Error(`${type} threw on ${JSON.stringify(text)}: ${String(error)}`);
    }
    if (!result.ok) {
      expect(typeof result.message, JSON.stringify(text)).toBe('string');
      expect(result.message.length, JSON.stringify(text)).toBeGreaterThan(0);
      return;
    }
    expect(result.confidence).toBeGreaterThanOrEqual(0);
    expect(result.confidence).toBeLessThanOrEqual(1);
    const value = result.value;
    const where = `${type} on ${JSON.stringify(text)} gave ${JSON.stringify(value)}`;
    if (type === 'string') expect(typeof value === 'string' && value.length > 0 && value === value.trim(), where).toBe(true);
    if (type === 'number') expect(typeof value === 'number' && Number.isFinite(value), where).toBe(true);
    if (type === 'boolean') expect(typeof value, where).toBe('boolean');
    if (type === 'date') expect(String(value), where).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    if (type === 'email') expect(String(value), where).toMatch(/^[^@\s]+@[a-z0-9.-]+\.[a-z]{2,}$/);
    if (type === 'phone') expect(String(value), where).toMatch(/^\+?\d{7,15}$/);
  }

  it('on 400 generated answers for every type, and every result is well formed', () => {
    const next = prng(20261121);
    for (let i = 0; i < 400; i++) {
      const text = randomText(next);
      const options: TypedParseOptions = { today, trueLabel: i % 7 === 0 ? randomText(next) : 'Yes', falseLabel: 'No' };
      for (const type of types) expectWellFormed(type, text, options);
    }
  });

  // A regular expression that backtracks catastrophically would not finish on these at all: the test's timeout catches it.
  it('on long and adversarial answers, and ends', () => {
    const texts = [
      '1,'.repeat(1000),
      '1.'.repeat(1000),
      '9 '.repeat(1000),
      '9-'.repeat(1000),
      '@a'.repeat(1000),
      'a@'.repeat(1000),
      `${'a'.repeat(1999)}@`,
      '(1'.repeat(1000),
      '+'.repeat(2000),
      'yes no '.repeat(285),
      'december 1 '.repeat(181),
      '\u{1F600}'.repeat(1000),
      '\ufdfa'.repeat(2000), // expands eighteen-fold under NFKC
      '\u0000'.repeat(2000),
      'x'.repeat(100_000),
    ];
    for (const text of texts) for (const type of types) expectWellFormed(type, text, { today });
  });
});
