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
import { numberWordsAt } from './knowledge/number-words.js';

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
  // "0-17" (normalized "0 17"), "18 to 64", "1 or 2" (of "Once or twice a week")
  const last = n(tokens[tokens.length - 1]);
  if (first !== undefined && last !== undefined && first < last) {
    if (tokens.length === 2) return range(first, last);
    if (tokens.length === 3 && (b === 'to' || b === 'through' || b === 'thru' || b === 'or')) return range(first, last);
  }
  return undefined;
}

/**
 * The bands' words without their unit, where every band names the same one: "under 20", "50 to 99", "100 or more"
 * for "Under 20 years", "50 to 99 years", "100 years or more". People leave out what every option says. By
 * category (names without a number are no band and are left out); none where a band names no unit, or the bands
 * name different ones ("Under 6 months" beside "2 to 3 years": "under 6" could be either).
 */
export function bandsWithoutUnit(categories: readonly { category: string; tokens: readonly string[] }[]): Map<string, string[]> {
  const bands = categories.filter((c) => c.tokens.some((t) => /\d/u.test(t)));
  const found = new Map<string, string[]>();
  const units = new Set<string>();
  for (const { category, tokens } of bands) {
    // The one word whose leaving out makes the name a range.
    const at = tokens.findIndex((t, i) => /^\p{L}+$/u.test(t) && rangeOf(tokens.filter((_, j) => j !== i)) !== undefined);
    if (at < 0 || rangeOf(tokens) !== undefined) return new Map();
    units.add(SINGULAR_UNITS[tokens[at]!] ?? tokens[at]!.replace(/s$/u, ''));
    const rest = tokens.filter((_, j) => j !== at);
    const [a, b, c] = rest;
    // ("50-99" is written "50 99" once normalized.)
    found.set(category, [rest.join(' '), ...(rest.length === 3 && b === 'to' ? [`${a} ${c}`, `between ${a} and ${c}`] : [])]);
  }
  return units.size === 1 && found.size >= 2 ? found : new Map();
}

/** Units whose plural is another word ("1 person", "2 people"). */
const SINGULAR_UNITS: Readonly<Record<string, string>> = { people: 'person', children: 'child', men: 'man', women: 'woman' };

/** Time units an age may be given in, as months. */
const MONTHS_IN: ReadonlyMap<string, number> = new Map([
  ['years', 12], ['year', 12], ['yrs', 12], ['yr', 12], ['months', 1], ['month', 1], ['mo', 1], ['mos', 1], ['weeks', 12 / 52],
  ['week', 12 / 52], ['wks', 12 / 52], ['days', 12 / 365], ['day', 12 / 365],
]);

/**
 * The range a phrase states in a unit of time, in months: "Under 6 months", "6 to 23 months", "2 to 3 years",
 * "4 years or older". A whole number of units is a band up to the next one, as people count age: "2 to 3 years"
 * holds a child of three and a half ([24, 48) months). Undefined when the phrase names no time unit, or two.
 */
export function monthRangeOf(tokens: readonly string[]): NumberRange | undefined {
  const units = new Set(tokens.filter((t) => MONTHS_IN.has(t)).map((t) => MONTHS_IN.get(t)!));
  if (units.size !== 1) return undefined;
  const per = [...units][0]!;
  const r = rangeOf(tokens.filter((t) => !MONTHS_IN.has(t) && t !== 'old' && t !== 'of' && t !== 'age'));
  if (!r) return undefined;
  const closedTop = Number.isFinite(r.high) && !r.highOpen && Number.isInteger(r.high);
  return range(r.low * per, closedTop ? (r.high + 1) * per : r.high * per, r.lowOpen, closedTop || r.highOpen);
}

/** A range given in years without a unit ("under 18"), in months. */
export function yearsInMonths(r: NumberRange): NumberRange {
  const closedTop = Number.isFinite(r.high) && !r.highOpen && Number.isInteger(r.high);
  return range(r.low * 12, closedTop ? (r.high + 1) * 12 : r.high * 12, r.lowOpen, closedTop || r.highOpen);
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
  /** "Under 25 years", "at least 18": the number bounds what is stated from above or below; it is not its value. */
  bound?: Bound;
  /** "In my forties", "mid 30s": a span of ages, not one (in the unit of `value`). */
  span?: NumberRange;
  /** Said with no unit of time and no birthday ("18", "she's 2"; not "she turned 4"): in months, `value` reads it as years. */
  unitless?: true;
}

/** A number said as a bound: what is stated lies on one side of it, the number itself included or not. */
export interface Bound {
  side: 'below' | 'above';
  open: boolean;
}

/** Every value a number allows: the number alone, or all those on its side of a bound. */
export function boundedRange(value: number, bound: Bound | undefined): NumberRange {
  if (bound === undefined) return range(value, value);
  return bound.side === 'below' ? range(-Infinity, value, false, bound.open) : range(value, Infinity, bound.open, false);
}

/** Every value a stated number allows. */
export const statedRange = (n: StatedNumber): NumberRange => n.span ?? boundedRange(n.value, n.bound);

const DECADE_WORDS: Readonly<Record<string, number>> = {
  twenties: 20, thirties: 30, forties: 40, fifties: 50, sixties: 60, seventies: 70, eighties: 80, nineties: 90,
};
/**
 * The ages a decade names, where tokens[i] is one ("forties", "40s", "20 s"): "early" is its first four years,
 * "mid" the middle three, "late" the last three; with where it ends. Only after "my/his/her/their/your", "in the",
 * or a part of it, or alone in its clause: "the 1940s" or "the 40s" said of a time are no age.
 */
function decadeAt(tokens: readonly string[], i: number): { low: number; high: number; start: number; end: number } | undefined {
  const t = tokens[i]!;
  const glued = /^([2-9]0)s$/u.exec(t);
  const split = /^[2-9]0$/u.test(t) && tokens[i + 1] === 's';
  const decade = DECADE_WORDS[t] ?? (glued ? Number(glued[1]) : split ? Number(t) : undefined);
  if (decade === undefined) return undefined;
  const end = split ? i + 2 : i + 1;
  const part = tokens[i - 1];
  const [low, high] = part === 'early' ? [decade, decade + 3] : part === 'mid' || part === 'middle' ? [decade + 3, decade + 6] : part === 'late' ? [decade + 7, decade + 9] : [decade, decade + 9];
  const at = part === 'early' || part === 'mid' || part === 'middle' || part === 'late' ? i - 1 : i;
  const before = tokens[at - 1];
  const owned = before === 'my' || before === 'his' || before === 'her' || before === 'their' || before === 'your' || before === 'our';
  const alone = (before === undefined || before === BREAK) && (tokens[end] === undefined || tokens[end] === BREAK);
  if (!owned && !alone && at === i) return undefined;
  return { low, high, start: at, end };
}

/** Whether every value in `inner` is in `outer`. */
export function within(inner: NumberRange, outer: NumberRange): boolean {
  const low = inner.low > outer.low || (inner.low === outer.low && (inner.lowOpen || !outer.lowOpen));
  const high = inner.high < outer.high || (inner.high === outer.high && (inner.highOpen || !outer.highOpen));
  return low && high;
}

/**
 * The bound the words before tokens[at] make of the number there: "under 25", "less than 10", "at most 3", "up to
 * 4", "max 5", "more than 30", "over 30", "at least 18"; a denial turns it round ("not more than 10" is at most 10).
 */
export function boundAt(tokens: readonly string[], at: number): Bound | undefined {
  const [b1, b2, b3] = [tokens[at - 1], tokens[at - 2], tokens[at - 3]];
  const denied = (w: string | undefined) => w === 'not' || w === 'no';
  if (b1 === 'than' && (b2 === 'less' || b2 === 'fewer')) return denied(b3) ? { side: 'above', open: false } : { side: 'below', open: true };
  if (b1 === 'than' && (b2 === 'more' || b2 === 'over')) return denied(b3) ? { side: 'below', open: false } : { side: 'above', open: true };
  if (b1 === 'under' || b1 === 'below') return denied(b2) ? { side: 'above', open: false } : { side: 'below', open: true };
  if (b1 === 'over' || b1 === 'above') return denied(b2) ? { side: 'below', open: false } : { side: 'above', open: true };
  if ((b2 === 'at' && b1 === 'most') || (b2 === 'up' && b1 === 'to') || b1 === 'max' || b1 === 'maximum') return { side: 'below', open: false };
  if ((b2 === 'at' && b1 === 'least') || b1 === 'min' || b1 === 'minimum') return { side: 'above', open: false };
  return undefined;
}

/** Words after which a number is an age now ("she's 16", "just turned 18"); "was 17" is not. */
const COPULA = new Set(['is', 'am', 'are', 'turned', 'aged', 'age', 's']);
/** "turns 18 next month": the person is one year younger now. */
const TURNING = new Set(['turns', 'turning']);
const YEAR_UNITS = new Set(['years', 'year', 'yrs', 'yr', 'yo', 'y', 'ans', 'anos', 'anni', 'jahre', 'jaar', 'jaren']);
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
  // Asides that say nothing of the number ("I'm 34 fwiw", "34 btw").
  'fwiw', 'btw', 'tbh', 'haha', 'thx', 'ty', 'cheers', 'tho', 'anyway', 'anyways', 'x', 'xx',
]);
/** Digits alone or with a year unit glued on ("15yo", "3yrs"). */
const AGE_TOKEN = /^(\d{1,3})(yo|yrs?|y|years?)?$/;

/** Words that liken the subject to someone ("the size of a 3 year old", "like a 5 year old"). */
const LIKENING = new Set(['of', 'like', 'than', 'as']);
/** Words before "are" that make the number after it a count of people ("we are two"), not an age. */
const GROUP = new Set(['we', 'there', 'they']);

/**
 * The numbers a message states as an age: each with an age-like context, and outside the tokens already read as
 * phrases (`skip`); in years, or in months where `inMonths` ("11 months", "2 and a half", "thirty months", "3 weeks
 * old"). Digits and numbers in words alike ("she's two").
 */
export function statedNumbers(tokens: readonly string[], from: number, skip: (i: number) => boolean, inMonths = false): StatedNumber[] {
  const found: StatedNumber[] = [];
  for (let i = from; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (skip(i)) continue;
    const decade = decadeAt(tokens, i);
    if (decade) {
      // (In months, a whole year of age reaches up to the next: the late forties hold 49 and a half.)
      const span = inMonths ? range(decade.low * 12, (decade.high + 1) * 12, false, true) : range(decade.low, decade.high);
      found.push({ value: span.low, start: decade.start, end: decade.end, span });
      i = decade.end - 1;
      continue;
    }
    const m = AGE_TOKEN.exec(token);
    // ("a" and "one" alone are an article and a pronoun more often than an age.)
    const spelled = m || token === 'a' || token === 'an' || token === 'one' ? undefined : numberWordsAt(tokens, i);
    if (!m && !spelled) continue;
    // (Inside a number in words already read from an earlier word: the "two" of "forty two".)
    if (!m && i > from && (numberWordsAt(tokens, i - 1)?.end ?? 0) > i) continue;
    // "The size of a 3 year old", "acts like a 5 year old": someone the subject is likened to, not their age.
    if ((tokens[i - 1] === 'a' || tokens[i - 1] === 'an') && LIKENING.has(tokens[i - 2] ?? '')) continue;
    let value = m ? Number(m[1]) : spelled!.value;
    const after = m ? i + 1 : spelled!.end;
    // No one is that old: an id, a price, a room.
    if (value > 125 && !inMonths) continue;
    const before = tokens[i - 1];
    const before2 = tokens[i - 2];
    const next = tokens[after];
    const next2 = tokens[after + 1];
    let end = after;
    let months = value * 12;
    const clauseStart = before === undefined || before === BREAK || i === from;
    let aged = false;
    if (m?.[2] !== undefined) aged = true;
    else if (next !== undefined && YEAR_UNITS.has(next)) {
      aged = before === undefined || !SPAN_BEFORE.has(before);
      end = next2 === 'old' ? after + 2 : next === 'y' && next2 === 'o' ? after + 2 : after + 1;
    } else if (next !== undefined && SHORT_UNITS.has(next)) {
      // "3 weeks old", "he's 11 months", "11 mo": an age in months where asked in months; "for 3 weeks" is a span.
      months = value * (MONTHS_IN.get(next) ?? 1);
      end = next2 === 'old' ? after + 2 : after + 1;
      if (next2 === 'old') aged = true;
      else if (!inMonths || (before !== undefined && SPAN_BEFORE.has(before))) continue;
      else aged = clauseStart || (before !== undefined && COPULA.has(before));
      value = 0;
    }
    // "2 and a half", "two and a half years": half a unit more.
    if (tokens[end] === 'and' && tokens[end + 1] === 'a' && tokens[end + 2] === 'half') {
      const per = next !== undefined && SHORT_UNITS.has(next) ? MONTHS_IN.get(next) ?? 1 : 12;
      months += per / 2;
      end += 3;
      if (YEAR_UNITS.has(tokens[end] ?? '')) end++;
    }
    if (before !== undefined && COPULA.has(before) && !(before === 'are' && GROUP.has(before2 ?? ''))) aged = true;
    // ("Turned four" is a birthday: years, with no unit said.)
    const turning = (before !== undefined && TURNING.has(before)) || (before2 === 'will' && (before === 'be' || before === 'turn'));
    if (turning) {
      aged = true;
      if (tokens[end] !== 'today' && value > 0) value -= 1;
      if (tokens[end] !== 'today') months -= 1;
    }
    if (clauseStart && (tokens[end] === undefined || tokens[end] === BREAK)) aged = true;
    const following = tokens[end];
    if (aged && (following === undefined || following === BREAK || end > after || m?.[2] !== undefined || AFTER_AN_AGE.has(following))) {
      const bound = boundAt(tokens, i);
      const unitless = !turning && before !== 'turned' && m?.[2] === undefined && (next === undefined || (!YEAR_UNITS.has(next) && !SHORT_UNITS.has(next)));
      found.push({ value: inMonths ? months : value, start: i, end, ...(bound && { bound }), ...(unitless && { unitless: true as const }) });
    }
  }
  return found;
}
