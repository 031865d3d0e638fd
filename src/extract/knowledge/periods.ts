/**
 * Periods an amount is counted over ("a month", "per night", "yearly", "pro
 * Woche"), in English and the major European languages: one table for the
 * reader's checks that an amount is per the period a question asks
 * (number-measure.ts, read-typed.ts).
 */
export type PeriodName = 'hour' | 'day' | 'night' | 'week' | 'month' | 'year';

export interface PeriodWords {
  name: PeriodName;
  /** Its nouns, as a regex alternation ("weeks?|wks?"). */
  nouns: string;
  /** Adjectives and adverbs of it ("weekly"). */
  adjectives: string;
  /** Phrases of other languages ("pro woche|par semaine"). */
  foreign: string;
}

export const PERIODS: readonly PeriodWords[] = [
  { name: 'hour', nouns: 'hours?|hrs?', adjectives: 'hourly', foreign: 'pro stunde|par heure|por hora' },
  { name: 'day', nouns: 'days?', adjectives: 'daily', foreign: 'pro tag|par jour|al dia|por dia' },
  { name: 'night', nouns: 'nights?', adjectives: 'nightly', foreign: 'pro nacht|par nuit|por noche' },
  { name: 'week', nouns: 'weeks?|wks?', adjectives: 'weekly', foreign: 'pro woche|par semaine|por semana|a la semana' },
  { name: 'month', nouns: 'months?|mo|mths?', adjectives: 'monthly', foreign: 'pro monat|im monat|par mois|al mes|por mes' },
  { name: 'year', nouns: 'years?|yrs?|annum', adjectives: 'yearly|annually|annual|p\\.?a\\.?', foreign: 'pro jahr|im jahr|par an|al ano|por ano' },
];

/** The words that name a period as a rate ("a week", "per night", "/day", "or night", "weekly", "pro Woche"; never "next week"): a regex source. */
export const rateWords = (period: PeriodWords): string =>
  String.raw`\b(?:(?:per|a|an|each|every|one|or|\/)\s*)(?:${period.nouns})\b|\b(?:${period.adjectives})\b|\b(?:${period.foreign})\b`;

const NAMED = PERIODS.map((period) => [period.name, new RegExp(rateWords(period), 'iu')] as const);

/** The periods a question or a message names as rates ("per day (or night)" names two). */
export function periodsNamed(text: string): PeriodName[] {
  return NAMED.filter(([, re]) => re.test(text)).map(([name]) => name);
}

/** A part of the year ("in winter", "over the summer", "in December"): what is said of it holds only then. */
export const PART_OF_THE_YEAR =
  /\b(?:in|during|over|through)\s+(?:the\s+)?(?:winters?|summers?|spring|autumn|fall|holidays|(?:high|low|peak|off[- ]?peak)\s+season|january|february|march|april|may|june|july|august|september|october|november|december)\b/iu;
/** A part of the week ("at weekends", "on weekdays"). */
export const PART_OF_THE_WEEK = /\b(?:on|at|during)\s+(?:the\s+)?(?:weekends?|weekdays?)\b/iu;
