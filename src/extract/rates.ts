import { BREAK, tokenize } from './normalize.js';

/**
 * Frequency categories are rates (issue 26: general knowledge beyond a flow author's synonyms).
 *
 * "How often will you use your card abroad?" with Never / A few times a year / Every month or more, or "How
 * often is the property left empty overnight?" with Rarely / Monthly / Weekly, asks for a rate; people answer
 * with one ("twice a year", "a couple of nights a month", "every other weekend", "once a quarter"). Each
 * category's band of times per year comes from its name; the rate the person states is read in times per
 * year, and the category whose band holds it is the answer. Vague names get narrow bands or none: "Rarely" is
 * at most three times a year, "Occasionally", "Sometimes" and "Often" are never inferred from a rate (careful
 * people disagree where they start), and a category whose name is not understood leaves the question unread.
 * Counts per week and per day are per-week.ts's.
 */

/** Times per year, inclusive. */
export interface RateBand {
  min: number;
  max: number;
}

const PER_YEAR: Readonly<Record<string, number>> = {
  day: 365, daily: 365, night: 365, week: 52, weekly: 52, weekend: 52, fortnight: 26, month: 12, monthly: 12, quarter: 4,
  year: 1, yearly: 1, annually: 1, summer: 1, winter: 1, holiday: 1,
  // Every working day: five a week.
  weekday: 260, workday: 260, working: 260,
};
const COUNT: Readonly<Record<string, [number, number]>> = {
  once: [1, 1], twice: [2, 2], thrice: [3, 3], one: [1, 1], two: [2, 2], three: [3, 3], four: [4, 4], five: [5, 5], six: [6, 6],
  a: [1, 1], an: [1, 1], couple: [2, 2], few: [2, 4], several: [3, 6],
};
/** Categories that are no rate at all, or too vague to infer from one. */
const NO_BAND = /^(?:occasionally|sometimes|often|frequently|regularly|now and then|from time to time|it depends|depends|not sure|other)$/u;

/** The band a frequency category's name gives (undefined: none it can be read into). */
function nameBand(name: string): RateBand | 'none' | undefined {
  const n = tokenize(name).filter((t) => t !== BREAK).join(' ');
  if (/^(?:never|not at all|no)$/u.test(n)) return { min: 0, max: 0 };
  if (/^(?:rarely|hardly ever|seldom|almost never|very rarely)$/u.test(n)) return { min: 0.01, max: 3 };
  // (Every working day is daily: "5 days a week", "every weekday".)
  if (/^(?:daily|every day|each day|once a day)$/u.test(n)) return { min: 250, max: 400 };
  if (/^(?:weekly|every week|once a week)$/u.test(n)) return { min: 40, max: 80 };
  if (/^(?:monthly|every month|once a month)$/u.test(n)) return { min: 10, max: 20 };
  if (/^(?:yearly|every year|once a year|annually)$/u.test(n)) return { min: 1, max: 1 };
  if (/^(?:a few times a year|a couple of times a year|several times a year|once or twice a year|a few times per year)$/u.test(n)) return { min: 2, max: 8 };
  if (/^(?:every month or more|monthly or more|at least monthly|at least once a month|once a month or more)$/u.test(n)) return { min: 12, max: Infinity };
  if (/^(?:every week or more|weekly or more|at least weekly|once a week or more)$/u.test(n)) return { min: 52, max: Infinity };
  if (NO_BAND.test(n)) return 'none';
  return undefined;
}

/** The categories' bands, or undefined when some category is not understood, or fewer than two give a band. */
export function categoryBands(categories: readonly string[]): Map<string, RateBand> | undefined {
  const out = new Map<string, RateBand>();
  for (const c of categories) {
    const b = nameBand(c);
    if (b === undefined) return undefined;
    if (b !== 'none') out.set(c, b);
  }
  if (out.size < 2) return undefined;
  // "Twice a week" is weekly where the next band up is daily: each band of a period reaches half again above its top, but well
  // short of the middle of the gap to the next (on a scale of ratios), where which one is meant is a guess.
  const sorted = [...out].sort((a, b) => a[1].min - b[1].min);
  sorted.forEach(([c, b], k) => {
    const next = sorted[k + 1]?.[1].min;
    // ("Rarely" keeps its top: a vague word is no period to reach beyond.)
    if (next === undefined || !Number.isFinite(b.max) || b.min < 1) return;
    const reach = Math.min(b.max * 1.5, Math.sqrt(b.max * next) / 1.25);
    if (reach > b.max) out.set(c, { min: b.min, max: reach });
  });
  return out;
}

/** A rate the tokens state, in times per year, with where it is; undefined when there is none or more than one. */
export function statedRate(tokens: readonly string[]): { rate: RateBand; start: number; end: number } | undefined {
  const found: { rate: RateBand; start: number; end: number }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // "every other weekend", "every month", "every summer"
    if (t === 'every' || t === 'each') {
      const other = tokens[i + 1] === 'other' || tokens[i + 1] === 'second';
      const unit = PER_YEAR[tokens[i + (other ? 2 : 1)] ?? ''];
      if (unit !== undefined) {
        const n = other ? unit / 2 : unit;
        found.push({ rate: { min: n, max: n }, start: i, end: i + (other ? 3 : 2) });
        i += other ? 2 : 1;
        continue;
      }
    }
    // "once or twice a year", "a couple of times a month", "two or three nights a month", "3 weekends a year"
    let k = i;
    let lo: number | undefined;
    let hi: number | undefined;
    const c = COUNT[tokens[k] ?? ''] ?? (/^\d{1,2}$/u.test(tokens[k] ?? '') ? [Number(tokens[k]), Number(tokens[k])] as [number, number] : undefined);
    if (c === undefined) continue;
    [lo, hi] = c;
    k++;
    if (tokens[k] === 'or' || tokens[k] === 'to') {
      const c2 = COUNT[tokens[k + 1] ?? ''] ?? (/^\d{1,2}$/u.test(tokens[k + 1] ?? '') ? [Number(tokens[k + 1]), Number(tokens[k + 1])] as [number, number] : undefined);
      if (c2 === undefined) continue;
      hi = c2[1];
      k += 2;
    }
    if (tokens[k] === 'of') k++;
    // What is counted: times, or nights, weekends, days, trips (a night is one time here).
    if (/^(?:times?|nights?|weekends?|days?|trips?|visits?|holidays?|breaks?)$/u.test(tokens[k] ?? '')) k++;
    else if (t !== 'once' && t !== 'twice' && t !== 'thrice') continue;
    if (tokens[k] === 'a' || tokens[k] === 'per' || tokens[k] === 'each' || tokens[k] === 'every' || tokens[k] === 'in' || tokens[k] === 'an') k++;
    if (tokens[k] === 'the') k++;
    const unit = PER_YEAR[tokens[k] ?? ''];
    if (unit === undefined) continue;
    found.push({ rate: { min: lo * unit, max: hi * unit }, start: i, end: k + 1 });
    i = k;
  }
  return found.length === 1 ? found[0] : undefined;
}

/** The category whose band holds the one rate the text states. */
export function readRate(text: string, categories: readonly string[]): { category: string; start: number; end: number; tokens: string[] } | undefined {
  const bands = categoryBands(categories);
  if (!bands) return undefined;
  const tokens = tokenize(text);
  const stated = statedRate(tokens);
  if (!stated) return undefined;
  const holding = [...bands].filter(([, b]) => b.min <= stated.rate.min && stated.rate.max <= b.max);
  return holding.length === 1 ? { category: holding[0]![0], start: stated.start, end: stated.end, tokens } : undefined;
}
