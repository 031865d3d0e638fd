/**
 * How many times a week (issue 26: general knowledge beyond a flow author's
 * synonyms): categories that count visits per week ("Once a week or less",
 * "2-3 times a week", "4 or more times a week") and what people type for a
 * count ("three times weekly", "twice a week", "mon wed fri", "every day",
 * "zweimal pro Woche"). Tokens are normalized (normalize.ts).
 */
import { rangeOf, type NumberRange } from '../number-ranges.js';

/** Counts, in English and the major European languages: "once", "zweimal", "tres veces", "deux fois". */
const TIMES: Readonly<Record<string, number>> = {
  once: 1, twice: 2, thrice: 3, einmal: 1, zweimal: 2, dreimal: 3, viermal: 4, funfmal: 5, sechsmal: 6,
};
const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, una: 1, un: 1, une: 1, uno: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5,
  deux: 2, trois: 3, quatre: 4, cinq: 5, een: 1, twee: 2, drie: 3, vier: 4, vijf: 5, ein: 1, zwei: 2, drei: 3, funf: 5,
  due: 2, tre: 3, quattro: 4,
};
const TIME_WORDS = new Set(['times', 'time', 'x', 'veces', 'vez', 'fois', 'keer', 'mal', 'volte', 'volta', 'vezes']);
const PER = new Set(['a', 'per', 'each', 'every', 'por', 'par', 'pro', 'in', 'the', 'la', 'a', 'al', 'alla', 'na']);
const WEEK = new Set(['week', 'weeks', 'wk', 'weekly', 'semana', 'semaine', 'woche', 'settimana']);
const DAYS: Readonly<Record<string, number>> = {
  mon: 1, monday: 1, mondays: 1, tue: 2, tues: 2, tuesday: 2, tuesdays: 2, wed: 3, weds: 3, wednesday: 3, wednesdays: 3,
  thu: 4, thur: 4, thurs: 4, thursday: 4, thursdays: 4, fri: 5, friday: 5, fridays: 5, sat: 6, saturday: 6, saturdays: 6,
  sun: 7, sunday: 7, sundays: 7,
};
/** Phrases that give a count by themselves. */
const PHRASES: readonly [string[], number][] = [
  ['every day', 7], ['everyday', 7], ['daily', 7], ['each day', 7], ['every single day', 7], ['most days', 5], ['weekdays', 5],
  ['every weekday', 5], ['on weekdays', 5], ['weekends', 2], ['every weekend', 2], ['at weekends', 2], ['on weekends', 2],
  ['once in a while', 1], ['rarely', 1], ['seldom', 1], ['every now and then', 1], ['now and then', 1], ['occasionally', 1],
  ['every other week', 1], ['jeden tag', 7], ['todos los dias', 7], ['tous les jours', 7], ['ogni giorno', 7], ['elke dag', 7],
].map(([p, n]) => [(p as string).split(' '), n as number]);

/** Counts with a "times" word and no period after them ("five times", "twice"), which the per-week reading missed. */
function barecounts(tokens: readonly string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    let n: number | undefined;
    let k = i + 1;
    if (t in TIMES) n = TIMES[t];
    else {
      const m = /^(\d{1,2})$/u.exec(t);
      const count = m ? Number(m[1]) : NUMBER_WORDS[t];
      if (count !== undefined && TIME_WORDS.has(tokens[k] ?? '') && tokens[k] !== 'x') {
        n = count;
        k++;
      }
    }
    if (n === undefined) continue;
    // Followed by a period ("a week", "a month", "per day"): counted above, or another period.
    if (PER.has(tokens[k] ?? '') || WEEK.has(tokens[k] ?? '') || /^(?:day|days|month|months|year|years|daily|monthly|yearly|fortnight)$/u.test(tokens[k] ?? '')) continue;
    out.push(n);
  }
  return out;
}

/** The range of times a week a category names, when it counts per week ("2-3 times a week", "once a week or less"). */
export function weeklyRangeOf(tokens: readonly string[]): NumberRange | undefined {
  if (!tokens.some((t) => WEEK.has(t))) return undefined;
  const counted = tokens
    .map((t) => (t in TIMES ? String(TIMES[t]) : t in NUMBER_WORDS && t !== 'a' ? String(NUMBER_WORDS[t]) : t))
    .filter((t) => !TIME_WORDS.has(t) && !PER.has(t) && !WEEK.has(t));
  return rangeOf(counted);
}

/**
 * The times a week a message states, where (token indices, end exclusive):
 * "3 times a week", "twice weekly", "mon wed fri" (days named), "every day".
 * Undefined when it states none, or two different ones.
 */
export function timesPerWeek(tokens: readonly string[]): { value: number; start: number; end: number } | undefined {
  const found: { value: number; start: number; end: number }[] = [];
  const days = new Set<number>();
  let daysFrom = -1;
  let daysTo = -1;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const phrase = PHRASES.find(([p]) => p.every((w, k) => tokens[i + k] === w));
    if (phrase) {
      found.push({ value: phrase[1], start: i, end: i + phrase[0].length });
      i += phrase[0].length - 1;
      continue;
    }
    if (t in DAYS) {
      days.add(DAYS[t]!);
      if (daysFrom < 0) daysFrom = i;
      daysTo = i + 1;
      continue;
    }
    // A count, its "times" word (or one word for both: "twice", "zweimal"), then "a week".
    let n: number | undefined;
    let k = i + 1;
    if (t in TIMES) n = TIMES[t];
    else {
      const m = /^(\d{1,2})x?$/u.exec(t);
      const count = m ? Number(m[1]) : NUMBER_WORDS[t];
      if (count !== undefined && TIME_WORDS.has(tokens[k] ?? '')) {
        n = count;
        k++;
      } else if (m && t.endsWith('x')) n = count;
    }
    if (n === undefined) continue;
    while (PER.has(tokens[k] ?? '')) k++;
    if (!WEEK.has(tokens[k] ?? '')) continue;
    found.push({ value: n, start: i, end: k + 1 });
    i = k;
  }
  if (days.size >= 2) found.push({ value: days.size, start: daysFrom, end: daysTo });
  const values = new Set(found.map((f) => f.value));
  // "Twice a week, sometimes five times": a count with no period after one per week counts per week too (rule a of
  // issue 26: two values of the question's kind, and no correction, are no answer).
  if (found.length > 0) for (const n of barecounts(tokens)) values.add(n);
  return values.size === 1 ? found[0] : undefined;
}
