/**
 * Numbers for category questions whose categories are number ranges. A flow
 * says so in its own words: a category or synonym such as "under 18",
 * "18 or older", "18+", "65 and over" or "0 17" (written "0-17") is a range,
 * and a message that states one number ("she's 16", "my 15yo", "he turns 18
 * next month") means the category whose ranges hold it. Only an age-like
 * statement counts (after "is", "turned", before "years old", or alone): a
 * number in passing ("room 12", "for 10 years") means nothing. A number that
 * falls in no range, or in two, is not an answer.
 */
import { BREAK } from './normalize.js';

export interface NumberRange {
  low: number;
  high: number;
  lowOpen: boolean;
  highOpen: boolean;
}

const BELOW = new Set(['under', 'below', 'younger', 'less', 'fewer']);
const ABOVE = new Set(['over', 'above', 'older', 'more']);
const UP = new Set(['older', 'over', 'above', 'more', 'up', 'higher', 'greater']);
const DOWN = new Set(['younger', 'under', 'below', 'less', 'fewer', 'lower']);
const NUMBER = /^\d{1,4}$/;

const range = (low: number, high: number, lowOpen = false, highOpen = false): NumberRange => ({ low, high, lowOpen, highOpen });

/** The range a phrase (normalized tokens) states, or undefined when it states none. */
export function rangeOf(tokens: readonly string[]): NumberRange | undefined {
  const n = (t: string | undefined) => (t !== undefined && NUMBER.test(t) ? Number(t) : undefined);
  const [a, b, c] = tokens;
  if (tokens.length === 1) {
    const plus = /^(\d{1,4})\+$/.exec(a ?? '');
    if (plus) return range(Number(plus[1]), Infinity);
    const exact = n(a);
    return exact === undefined ? undefined : range(exact, exact);
  }
  // "under 18", "younger than 18", "over 64", "older than 64"
  const bound = n(tokens[tokens.length - 1]);
  if (bound !== undefined && a !== undefined && (tokens.length === 2 || (tokens.length === 3 && b === 'than'))) {
    if (BELOW.has(a)) return range(-Infinity, bound, false, true);
    if (ABOVE.has(a)) return range(bound, Infinity, true, false);
  }
  if (tokens.length === 3 && a === 'at' && bound !== undefined) {
    if (b === 'least') return range(bound, Infinity);
    if (b === 'most') return range(-Infinity, bound);
  }
  if (tokens.length === 3 && a === 'up' && b === 'to' && bound !== undefined) return range(-Infinity, bound);
  // "18 or older", "65 and over", "17 or younger"
  const first = n(a);
  if (first !== undefined && tokens.length === 3 && (b === 'or' || b === 'and') && c !== undefined) {
    if (UP.has(c)) return range(first, Infinity);
    if (DOWN.has(c)) return range(-Infinity, first);
  }
  // "0-17" (normalized "0 17"), "18 to 64"
  const last = n(tokens[tokens.length - 1]);
  if (first !== undefined && last !== undefined && first < last) {
    if (tokens.length === 2) return range(first, last);
    if (tokens.length === 3 && (b === 'to' || b === 'through' || b === 'thru')) return range(first, last);
  }
  return undefined;
}

export function inRange(value: number, r: NumberRange): boolean {
  const aboveLow = r.lowOpen ? value > r.low : value >= r.low;
  const belowHigh = r.highOpen ? value < r.high : value <= r.high;
  return aboveLow && belowHigh;
}

/** A number stated in a message, where it stands (token indices, end exclusive). */
export interface StatedNumber {
  value: number;
  start: number;
  end: number;
}

/** Words after which a number is an age now ("she's 16", "just turned 18"); "was 17" is not. */
const COPULA = new Set(['is', 'am', 'are', 'turned', 'aged', 'age', 's']);
/** "turns 18 next month": the person is one year younger now. */
const TURNING = new Set(['turns', 'turning']);
const YEAR_UNITS = new Set(['years', 'year', 'yrs', 'yr', 'yo', 'y']);
const SHORT_UNITS = new Set(['months', 'month', 'mo', 'mos', 'weeks', 'week', 'wks', 'wk', 'days', 'day']);
/** "for 10 years", "in 2 years": a span of time, not an age. */
const SPAN_BEFORE = new Set([
  'for', 'in', 'since', 'after', 'before', 'within', 'every', 'last', 'past', 'next', 'than', 'by', 'from', 'to', 'until',
  'over', 'about', 'around', 'almost', 'nearly',
]);
/**
 * Words that may follow an age ("17 today", "17, turns 18 next month", "16
 * and a half"); any other word makes the number a measure of something else
 * ("5 foot", "28 weeks pregnant", "3 kids").
 */
const AFTER_AN_AGE = new Set([
  'old', 'today', 'now', 'and', 'next', 'this', 'last', 'but', 'so', 'soon', 'already', 'yet', 'tomorrow', 'yesterday',
  'too', 'also', 'lol', 'please', 'thanks', 'turns', 'turning', 'he', 'she', 'i', 'we', 'they', 'though', 'actually',
]);
/** Digits alone or with a year unit glued on ("15yo", "3yrs"). */
const AGE_TOKEN = /^(\d{1,3})(yo|yrs?|y|years?)?$/;

/**
 * The numbers a message states as an age: each with an age-like context, and
 * outside the tokens already read as phrases (`skip`).
 */
export function statedNumbers(tokens: readonly string[], from: number, skip: (i: number) => boolean): StatedNumber[] {
  const found: StatedNumber[] = [];
  for (let i = from; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (skip(i)) continue;
    const m = AGE_TOKEN.exec(token);
    if (!m) continue;
    let value = Number(m[1]);
    // No one is that old: an id, a price, a room.
    if (value > 125) continue;
    const before = tokens[i - 1];
    const before2 = tokens[i - 2];
    const next = tokens[i + 1];
    const next2 = tokens[i + 2];
    let end = i + 1;
    const clauseStart = before === undefined || before === BREAK || i === from;
    const clauseEnd = next === undefined || next === BREAK;
    let aged = false;
    if (m[2] !== undefined) aged = true;
    else if (next !== undefined && YEAR_UNITS.has(next)) {
      aged = before === undefined || !SPAN_BEFORE.has(before);
      end = next2 === 'old' ? i + 3 : next === 'y' && next2 === 'o' ? i + 3 : i + 2;
    } else if (next !== undefined && SHORT_UNITS.has(next) && next2 === 'old') {
      // "3 weeks old": not a year old yet.
      value = 0;
      aged = true;
      end = i + 3;
    } else if (next !== undefined && SHORT_UNITS.has(next)) {
      continue;
    }
    if (before !== undefined && COPULA.has(before)) aged = true;
    if ((before !== undefined && TURNING.has(before)) || (before2 === 'will' && (before === 'be' || before === 'turn'))) {
      aged = true;
      if (next !== 'today' && value > 0) value -= 1;
    }
    if (clauseStart && clauseEnd) aged = true;
    const following = tokens[end];
    if (aged && (following === undefined || following === BREAK || end > i + 1 || m[2] !== undefined || AFTER_AN_AGE.has(following)))
      found.push({ value, start: i, end });
  }
  return found;
}
