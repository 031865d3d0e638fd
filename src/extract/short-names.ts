import { BREAK, tokenize } from './normalize.js';
import { bandsWithoutUnit } from './number-ranges.js';

/**
 * Names people shorten a question's categories to (issue 26, coverage of clear answers): a band without the unit
 * every band names ("50 to 99", "50-99", "under 20" for "50 to 99 years", "Under 20 years"), and a "not yet"
 * without its verb ("Not passed yet"). A shortened name says less than the category's, so it answers only where
 * nothing else follows it but a filler or the category's own unit said short ("3 to 4 ppl"): "under 20 minutes
 * away" and "not yet had lessons" are about something else. A band that is a number alone ("2" for "2 people")
 * also opens its clause: "we live in flat 2" is no answer.
 */

/** The shortened names of a question's categories: each phrase (normalized tokens joined) with its category. */
export function shortNamesOf(categories: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  const words = (c: string) => tokenize(c).filter((t) => t !== BREAK);
  for (const [category, bands] of bandsWithoutUnit(categories.map((category) => ({ category, tokens: words(category) }))))
    for (const band of bands) if (!names.has(band)) names.set(band, category);
  for (const category of categories) {
    const name = words(category);
    if (name.length === 3 && name[0] === 'not' && name[2] === 'yet' && !names.has('not yet')) names.set('not yet', category);
  }
  return names;
}

/** Words that may follow a shortened name ("under 20 I think", "not yet but soon"): no other thing or doing. */
const AFTER_A_SHORT_NAME = new Set(['i', 'ish', 'probably', 'maybe', 'roughly', 'approx', 'approximately', 'tbh', 'lol', 'haha', 'at', 'we', 'but', 'and', 'so', 'now', 'sorry', 'unfortunately', 'sadly']);
/** Words before a number alone that keep it the answer ("just 2", "we're 2", "about 3"). */
const BEFORE_A_SHORT_NUMBER = new Set(['just', 'only', 'about', 'around', 'roughly', 'we', 're', 'are', 'there', 's', 'its', 'it', 'is', 'so', 'ok', 'um', 'hmm']);
/** Units as people shorten them ("3 to 4 ppl", "under 20 yrs"): the category's own unit, said short. */
const SHORT_UNITS: Readonly<Record<string, readonly string[]>> = {
  people: ['ppl', 'pax', 'peeps', 'persons', 'person'], years: ['yrs', 'yr', 'y', 'year'], hours: ['hrs', 'hr', 'h', 'hour'],
  minutes: ['mins', 'min'], months: ['mths', 'mos', 'mo', 'month'], weeks: ['wks', 'wk', 'week'], bedrooms: ['beds', 'bed', 'br', 'bdrm'],
};

/** Whether a shortened name of `category`, found at [start, end) of the message, answers: see the module's comment. */
export function shortNameStands(tokens: readonly string[], at: { start: number; end: number }, category: string): boolean {
  const next = tokens[at.end];
  const ends =
    next === undefined ||
    next === BREAK ||
    AFTER_A_SHORT_NAME.has(next) ||
    (next === 'or' && tokens[at.end + 1] === 'so') ||
    tokenize(category).some((w) => SHORT_UNITS[w]?.includes(next) ?? false);
  if (!ends) return false;
  if (at.end - at.start !== 1 || !/^\d+$/u.test(tokens[at.start]!)) return true;
  for (let i = at.start - 1; i >= 0 && tokens[i] !== BREAK; i--) if (!BEFORE_A_SHORT_NUMBER.has(tokens[i]!)) return false;
  return true;
}
