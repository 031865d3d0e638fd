/**
 * Units of time written short ("15 yrs", "last yr", "every 2 wks", "12 mths") are the units (issue 26: in the
 * blind boiler-service dev split, "15 yrs or more" and "within the last yr def" were not read). Only after a number
 * or a word that counts them: "yr engineer" (your) is left alone. Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../src/extract/index.js';
import { tokenize } from '../../src/extract/normalize.js';

const age = { key: 'q', prompt: 'How old is the boiler?', categories: ['Under 5 years', '5 to 9 years', '10 to 14 years', '15 years or more'] };
const serviced = { key: 'q', prompt: 'When was the boiler last serviced?', categories: ['Within the last year', '1 to 2 years ago', 'More than 2 years ago', 'Never serviced'] };
const read = (text: string, q: typeof age) => extractOffline({ text, key: 'q', allowModel: false, questions: [q], today: '2026-11-28' }).values['q']?.value ?? 'abstain';

describe('units of time written short', () => {
  it.each([
    ['15 yrs or more', '15 years or more'],
    ['3yrs old', '3 years old'],
    ['every 2 wks', 'every 2 weeks'],
    ['12 mths', '12 months'],
    ['a few yrs ago', 'a few years ago'],
    ['within the last yr', 'within the last year'],
    ['at the mo', 'at the moment'],
    ['yr engineer was late', 'yr engineer was late'],
  ])('"%s" is "%s"', (text, expected) => {
    expect(tokenize(text).join(' ')).toBe(expected);
  });

  it('answers read from them', () => {
    expect(read('15 yrs or more', age)).toBe('15 years or more');
    expect(read('within the last yr def', serviced)).toBe('Within the last year');
  });
});
