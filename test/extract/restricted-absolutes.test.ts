/**
 * An absolute said only under a condition is not absolute (issue 26; a wrong commit in the blind school-trip-consent
 * dev split: "nights at her dad's every other weekend, but never with strangers" was "Never"). "Never", "always",
 * "daily" followed by the condition they hold under ("with", "on", "at", "except", "when", ...) read nothing; said
 * alone, or only stressed ("never in my life", "never before"), they stand. Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../src/extract/index.js';

const awayLast = { key: 'q', prompt: 'When did your child last spend a night away from home?', categories: ['In the last month', 'In the last year', 'Longer ago', 'Never'] };
const sick = { key: 'q', prompt: 'How often does your child get travel sick?', categories: ['Never', 'Occasionally', 'On most journeys', 'Always'] };
const read = (text: string, q: typeof sick) => extractOffline({ text, key: 'q', allowModel: false, questions: [q], today: '2026-11-28' }).values['q']?.value ?? 'abstain';

describe('an absolute under a condition', () => {
  it.each([
    ['sleepovers at her dad\'s all the time, but never with strangers', awayLast],
    ['never on the train, only in cars', sick],
    ['always when he reads in the car', sick],
    ['never without his wristbands', sick],
    ['never during the day', sick],
  ] as const)('"%s" reads nothing', (text, q) => {
    expect(read(text, q)).toBe('abstain');
  });

  it.each([
    ['never', 'Never', sick],
    ['never in his life', 'Never', sick],
    ['never, he has a stomach of steel', 'Never', sick],
    ['always', 'Always', sick],
    ['never', 'Never', awayLast],
  ] as const)('"%s" is %s', (text, expected, q) => {
    expect(read(text, q)).toBe(expected);
  });
});

describe('a frequency of part of the year', () => {
  const topUps = { key: 'q', prompt: "How often do you have to top up the boiler's pressure?", categories: ['Never', 'A few times a year', 'Monthly', 'Weekly or more'] };
  it.each(['monthly, but only in winter', 'monthly in winter', 'weekly, just over christmas'])('"%s" is no frequency of the year', (text) => {
    expect(read(text, topUps)).toBe('abstain');
  });
  it.each([
    ['monthly', 'Monthly'],
    ['a few times a year, mostly in winter', 'A few times a year'],
  ])('"%s" is %s', (text, value) => {
    expect(read(text, topUps)).toBe(value);
  });
  it('a part of the year that dates something else restricts nothing', () => {
    expect(read('we drove to cornwall in august, she never gets sick in the car', sick)).toBe('Never');
  });
});
