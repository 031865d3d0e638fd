import { unasserted } from './assertion.js';
import { afterTakeBack } from './conclusion.js';
import { hedgedByLikelihood } from './guess.js';
import { BREAK, clauseStart, tokenize } from './normalize.js';
import { inRange, rangeOf, type NumberRange } from './number-ranges.js';
import { anotherSubject } from './subject.js';
import type { ExtractionQuestion } from './types.js';

/**
 * How old a thing is, from the year it was made (issue 26: general knowledge beyond a flow author's synonyms; found
 * by hand: "built in the 1930s", "fitted in 2013" asked how old a building or a boiler is). At a question of age
 * whose categories are spans of years ("Under 5 years", "10 to 14 years", "100 years or more"), a year, or a
 * decade, that the thing dates from gives its age: today's year less that year, or one less (the month is not
 * said). The category is read only when every age the year can mean falls in it: "2016" on 2026-11-28 is 9 or 10
 * years, which is no answer between "5 to 9" and "10 to 14".
 */

/** Words before a year that say the thing dates from it ("built in 1985", "from the 1930s", "new in 2015", "re-tiled in 2015"). */
const DATING = new Set(['in', 'from', 'since', 'built', 'fitted', 'installed', 'made', 'bought', 'put', 'dates', 'dating', 'new', 'around', 'circa', 'c', 'about', 'roughly', 'approx', 'approximately', 'the', 'early', 'late', 'mid', 'back',
  // Made new again: what was replaced dates from then ("re-tiled in 2015", "the roof went on in 2015", "had it redone").
  'replaced', 'redone', 'renewed', 're', 'retiled', 'tiled', 'laid', 'relaid', 'reroofed', 'rebuilt', 'refitted', 'done', 'went', 'on']);
/** A year ("1985") or a decade ("1930s", "the 80s" is left out: which century is a guess). */
const YEAR = /^(1[89]\d\d|20\d\d)(s?)$/u;
/** Words of a dating clause that say nothing of what is dated ("it was put in around 2010", "ours is from 1985"). */
const SAYS_NOTHING = new Set(['it', 'its', 's', 'is', 'was', 'were', 'has', 'had', 'been', 'got', 'we', 'i', 'they', 'ours', 'mine', 'our', 'my', 'this', 'one', 'all', 'originally', 'first', 'apparently']);
const ASKS_AGE = /\bhow old\b|\bage of\b|\bwhat age\b/iu;
const YEAR_WORDS = new Set(['year', 'years', 'yrs', 'yr']);

/** The categories as spans of years, when every one of them is one ("Under 5 years", "15 years or more"). */
function yearSpans(categories: readonly string[]): Map<string, NumberRange> | undefined {
  const spans = new Map<string, NumberRange>();
  for (const category of categories) {
    const tokens = tokenize(category);
    if (!tokens.some((t) => YEAR_WORDS.has(t))) return undefined;
    const range = rangeOf(tokens.filter((t) => !YEAR_WORDS.has(t) && t !== 'old'));
    if (!range) return undefined;
    spans.set(category, range);
  }
  return spans;
}

/** The category the year a thing was made puts it in, or undefined (no such question, no such year, or no one category). */
export function byYearMade(text: string, gate: ExtractionQuestion, today: string): string | undefined {
  if (gate.prompt === undefined || !ASKS_AGE.test(gate.prompt) || hedgedByLikelihood(text)) return undefined;
  const spans = yearSpans(gate.categories);
  if (!spans) return undefined;
  const tail = afterTakeBack(tokenize(text));
  if (tail !== undefined) return byYearMade(tail.join(' '), gate, today);
  const tokens = tokenize(text);
  const years = tokens.flatMap((t, i) => (YEAR.test(t) ? [i] : []));
  // One year, said of the thing: two years are two things or a change of mind, which is left to the words.
  if (years.length !== 1) return undefined;
  const at = years[0]!;
  const [, digits, decade] = YEAR.exec(tokens[at]!)!;
  const first = Number(digits);
  const last = decade ? first + 9 : first;
  const now = Number(today.slice(0, 4));
  if (last > now || (decade && first % 10 !== 0)) return undefined;
  // The year alone ("1990"), or after words that date the thing asked: each word before it in its clause dates, is
  // the question's own, or says nothing ("the boiler was fitted in 2013"; not "we bought the house in 2001").
  const from = clauseStart(tokens, at);
  const alone = at === from && (tokens[at + 1] === undefined || tokens[at + 1] === BREAK);
  if (!alone && (at === from || !DATING.has(tokens[at - 1]!))) return undefined;
  const asked = new Set(tokenize(gate.prompt));
  if (tokens.slice(from, at).some((t) => !DATING.has(t) && !asked.has(t) && !SAYS_NOTHING.has(t))) return undefined;
  if (anotherSubject(tokens, at, gate.prompt, { peopleOnly: false })) return undefined;
  if (unasserted(text, tokens, gate.prompt) !== undefined) return undefined;
  // Every age the year can mean: made before today's date in that year, or after it.
  const youngest = Math.max(0, now - last - 1);
  const oldest = now - first;
  const holders = [...spans].filter(([, r]) => inRange(youngest, r) && inRange(oldest, r)).map(([category]) => category);
  return holders.length === 1 ? holders[0] : undefined;
}
