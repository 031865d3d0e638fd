/**
 * How many times a week, or a day (issue 26: general knowledge beyond a flow
 * author's synonyms): categories that count visits per week ("Once a week or
 * less", "2-3 times a week", "4 or more times a week") or per day ("Once a
 * day", "Twice a day", "Three times or more" asked "how many times a day")
 * and what people type for a count ("three times weekly", "twice a week",
 * "mon wed fri", "every day", "zweimal pro Woche", "twice daily", "morning
 * and evening", "dos veces al día"). Tokens are normalized (normalize.ts).
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
const PER = new Set(['a', 'per', 'each', 'every', 'por', 'par', 'pro', 'in', 'the', 'la', 'a', 'al', 'alla', 'na', 'am', 'le', 'op', 'de']);
const WEEK = new Set(['week', 'weeks', 'wk', 'weekly', 'semana', 'semaine', 'woche', 'settimana']);
/** A day, in English and the major European languages ("al dia", "par jour", "am Tag", "taglich", "al giorno", "per dag"). */
const DAY = new Set(['day', 'daily', 'dia', 'diario', 'diaria', 'jour', 'quotidien', 'tag', 'taglich', 'giorno', 'dag', 'dagelijks']);

/** The periods a count is made over. */
export type CountPeriod = 'week' | 'day';
const PERIOD_WORDS: Readonly<Record<CountPeriod, ReadonlySet<string>>> = { week: WEEK, day: DAY };

/** Words that are what is counted, between a count and its period ("one visit a day", "2 walks per day"). */
const COUNTED = new Set(['visit', 'visits', 'walk', 'walks', 'meal', 'meals', 'dose', 'doses', 'session', 'sessions', 'check', 'checks', 'trip', 'trips']);

/** Parts of a day named together: "morning and evening" is twice a day, "breakfast, lunch and dinner" three times. */
const PARTS_OF_DAY = new Set(['morning', 'mornings', 'noon', 'midday', 'lunch', 'lunchtime', 'afternoon', 'afternoons', 'evening', 'evenings', 'night', 'nights', 'bedtime', 'breakfast', 'dinner', 'supper', 'teatime']);
/** Parts of a day that are one visit between them ("lunch" and "noon"). */
const SAME_PART: Readonly<Record<string, string>> = {
  mornings: 'morning', breakfast: 'morning', midday: 'noon', lunch: 'noon', lunchtime: 'noon', afternoons: 'afternoon',
  teatime: 'afternoon', evenings: 'evening', dinner: 'evening', supper: 'evening', nights: 'night', bedtime: 'night',
};
const DAYS: Readonly<Record<string, number>> = {
  mon: 1, monday: 1, mondays: 1, tue: 2, tues: 2, tuesday: 2, tuesdays: 2, wed: 3, weds: 3, wednesday: 3, wednesdays: 3,
  thu: 4, thur: 4, thurs: 4, thursday: 4, thursdays: 4, fri: 5, friday: 5, fridays: 5, sat: 6, saturday: 6, saturdays: 6,
  sun: 7, sunday: 7, sundays: 7,
};
/** Phrases that give a count by themselves. */
const PHRASES: readonly [string[], number][] = [
  ['every day', 7], ['everyday', 7], ['daily', 7], ['each day', 7], ['every single day', 7], ['most days', 5], ['weekdays', 5],
  ['every weekday', 5], ['on weekdays', 5], ['weekends', 2], ['every weekend', 2], ['at weekends', 2], ['on weekends', 2],
  // (Less than weekly: "every other week" is half a time a week, and "rarely" less than once.)
  ['once in a while', 0.5], ['rarely', 0.5], ['seldom', 0.5], ['every now and then', 0.5], ['now and then', 0.5], ['occasionally', 0.5],
  ['every other week', 0.5], ['every second week', 0.5], ['fortnightly', 0.5], ['every fortnight', 0.5], ['jeden tag', 7], ['todos los dias', 7], ['tous les jours', 7], ['ogni giorno', 7], ['elke dag', 7],
].map(([p, n]) => [(p as string).split(' '), n as number]);

/** Phrases that give a count a day by themselves. */
const DAY_PHRASES: readonly [string[], number][] = [
  ['round the clock', 3], ['around the clock', 3],
].map(([p, n]) => [(p as string).split(' '), n as number]);

/** Counts with a "times" word and no period after them ("five times", "twice"), which the per-week reading missed. */
function barecounts(tokens: readonly string[], PERIOD: ReadonlySet<string>): number[] {
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
    if (PER.has(tokens[k] ?? '') || PERIOD.has(tokens[k] ?? '') || WEEK.has(tokens[k] ?? '') || DAY.has(tokens[k] ?? '') || /^(?:day|days|month|months|year|years|daily|monthly|yearly|fortnight)$/u.test(tokens[k] ?? '')) continue;
    out.push(n);
  }
  return out;
}

/** The range of times a week a category names, when it counts per week ("2-3 times a week", "once a week or less"). */
export function weeklyRangeOf(tokens: readonly string[]): NumberRange | undefined {
  if (!tokens.some((t) => WEEK.has(t))) return undefined;
  return countRangeOf(tokens, 'week');
}

/** The period a category's words count over ("twice a day": day), if any. */
export function periodNamedIn(tokens: readonly string[]): CountPeriod | undefined {
  if (tokens.some((t) => WEEK.has(t))) return 'week';
  if (tokens.some((t) => DAY.has(t))) return 'day';
  return undefined;
}

/**
 * The period a question's wording asks a count over: "How many times a day should the sitter come?" is 'day';
 * "How often do you train?" names none (a bare "5" there may be anything).
 */
export function countPeriodAsked(promptTokens: readonly string[]): CountPeriod | undefined {
  if (!promptTokens.includes('times')) return undefined;
  for (let i = 0; i + 1 < promptTokens.length; i++)
    if (PER.has(promptTokens[i]!) || promptTokens[i] === 'per')
      for (const period of ['day', 'week'] as const) if (PERIOD_WORDS[period].has(promptTokens[i + 1]!)) return period;
  return undefined;
}

/**
 * The range of times a period a category names, its period said or not ("Twice a day", and "Three times or more"
 * beside it): "3 or more" read from its count words.
 */
export function countRangeOf(tokens: readonly string[], period: CountPeriod): NumberRange | undefined {
  const counted = tokens
    .map((t) => (t in TIMES ? String(TIMES[t]) : t in NUMBER_WORDS && t !== 'a' ? String(NUMBER_WORDS[t]) : t))
    .filter((t) => !TIME_WORDS.has(t) && !PER.has(t) && !PERIOD_WORDS[period].has(t));
  return rangeOf(counted);
}

/**
 * The times a week a message states, where (token indices, end exclusive):
 * "3 times a week", "twice weekly", "mon wed fri" (days named), "every day".
 * Undefined when it states none, or two different ones.
 */
export function timesPerWeek(tokens: readonly string[]): { value: number; start: number; end: number } | undefined {
  return timesPer(tokens, 'week');
}

/**
 * The times a period a message states ({@link timesPerWeek} for a week). A day also reads parts of the day named
 * together ("morning and evening": 2) and "every N hours" (24 / N); a bare count ("2") only where
 * `bare` (the question asks how many times a period, and the message is the count alone).
 */
export function timesPer(tokens: readonly string[], period: CountPeriod, bare = false): { value: number; start: number; end: number } | undefined {
  const PERIOD = PERIOD_WORDS[period];
  const found: { value: number; start: number; end: number }[] = [];
  if (bare) {
    const words = tokens.filter((t) => t !== 'times' && t !== 'x');
    const count = words.length === 1 ? (/^\d{1,2}$/u.test(words[0]!) ? Number(words[0]) : (TIMES[words[0]!] ?? NUMBER_WORDS[words[0]!])) : undefined;
    if (count !== undefined && words[0] !== 'a') return { value: count, start: 0, end: tokens.length };
  }
  if (period === 'day') {
    const parts = new Set<string>();
    let from = -1;
    let to = -1;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      const phrase = DAY_PHRASES.find(([p]) => p.every((w, k) => tokens[i + k] === w));
      if (phrase) found.push({ value: phrase[1], start: i, end: i + phrase[0].length });
      // "every 4 hours", "every eight hours"
      if ((t === 'every' || t === 'each') && /^hours?$/u.test(tokens[i + 2] ?? '')) {
        const n = /^\d{1,2}$/u.test(tokens[i + 1]!) ? Number(tokens[i + 1]) : NUMBER_WORDS[tokens[i + 1]!];
        if (n !== undefined && n > 0 && 24 % n === 0) found.push({ value: 24 / n, start: i, end: i + 3 });
      }
      if (PARTS_OF_DAY.has(t)) {
        parts.add(SAME_PART[t] ?? t);
        if (from < 0) from = i;
        to = i + 1;
      }
    }
    // Two parts or more joined by "and" ("morning and evening", "breakfast, lunch and dinner"), not "morning or evening".
    if (parts.size >= 2 && tokens.slice(from, to).includes('and') && !tokens.slice(from, to).includes('or'))
      found.push({ value: parts.size, start: from, end: to });
  }
  const days = new Set<number>();
  let daysFrom = -1;
  let daysTo = -1;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const phrase = period === 'week' ? PHRASES.find(([p]) => p.every((w, k) => tokens[i + k] === w)) : undefined;
    if (phrase) {
      found.push({ value: phrase[1], start: i, end: i + phrase[0].length });
      i += phrase[0].length - 1;
      continue;
    }
    if (period === 'week' && t in DAYS) {
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
      // "one visit a day", "2 walks per day": what is counted, then its period (checked below).
      else if (count !== undefined && COUNTED.has(tokens[k] ?? '')) n = count;
    }
    if (n === undefined) continue;
    if (COUNTED.has(tokens[k] ?? '')) k++;
    while (PER.has(tokens[k] ?? '')) k++;
    if (!PERIOD.has(tokens[k] ?? '')) continue;
    found.push({ value: n, start: i, end: k + 1 });
    i = k;
  }
  if (days.size >= 2) found.push({ value: days.size, start: daysFrom, end: daysTo });
  const values = new Set(found.map((f) => f.value));
  // "Twice a week, sometimes five times": a count with no period after one per week counts per week too (rule a of
  // issue 26: two values of the question's kind, and no correction, are no answer).
  if (found.length > 0) for (const n of barecounts(tokens, PERIOD)) values.add(n);
  return values.size === 1 ? found[0] : undefined;
}
