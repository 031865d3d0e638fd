/**
 * What a number in a message measures, against what the question asks for.
 *
 * A number is the answer only when it measures the asked thing: "$40" is not
 * 40 EUR, "40 a week" is not a monthly budget, "I started lifting 25 years
 * ago" is not an age, and "a family of five" is not a count of bedrooms. Such
 * numbers are blanked out of the text before it is read, so what is left
 * ("I'm 45 and have been lifting for 20 years" → 45) can still answer; when
 * nothing is left, the caller says why (`why`) rather than "no number found".
 *
 * Converting (40 a week → 173 a month, dollars → euros) would be a guess the
 * person did not make: the reader refuses and asks again instead.
 */

import { PERIODS, periodsNamed, type PeriodName } from './knowledge/periods.js';
import { ANIMALS } from './knowledge/animals.js';
import { PEOPLE } from './knowledge/people.js';

/** A number as people write it before a unit: digits (with separators, "5k", "2 million"), or a number word. */
const NUMBER =
  String.raw`(?<![\p{L}\p{N}])(?:\d[\d.,']*(?:\s*(?:k|m|mn|grand|thousand|hundred|million))?|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine|hundred|thousand))*)`;

/** Currencies a question's unit or a message may name; the key is what `currencyOf` returns. ("Bucks" is left out: people say it of any money.) */
const CURRENCY_WORDS: Readonly<Record<string, { unit: RegExp; before: string; after: string }>> = {
  EUR: { unit: /^(?:eur|euros?|€)$/iu, before: String.raw`€|\beur\b`, after: String.raw`€|eur\b|euros?\b` },
  USD: { unit: /^(?:usd|us\$|\$|dollars?)$/iu, before: String.raw`\$|\busd\b|\bus\$`, after: String.raw`\$|usd\b|dollars?\b` },
  GBP: { unit: /^(?:gbp|£|pounds?(?: sterling)?)$/iu, before: String.raw`£|\bgbp\b`, after: String.raw`£|gbp\b|pounds?\b|quids?\b` },
  CHF: { unit: /^(?:chf|francs?)$/iu, before: String.raw`\bchf\b`, after: String.raw`chf\b|francs?\b` },
  JPY: { unit: /^(?:jpy|yen|¥)$/iu, before: String.raw`¥|\bjpy\b`, after: String.raw`¥|jpy\b|yen\b` },
};

/** A day and a night are one period here (a rental's day, a room's night). */
const groupOf = (name: PeriodName) => (name === 'night' ? 'day' : name);

/** A sum over a whole stay or trip: not a rate per period. */
const TOTAL = String.raw`\b(?:in\s+total|total|altogether|all\s+in|for\s+the\s+(?:whole|entire|full)\s+(?:\w+\s+)?(?:trip|stay|rental|holiday|vacation|week|month|year|weekend))\b`;

/** What a street is called after its name ("48 Elm Road", "12 high st"). */
const STREET = String.raw`(?:road|rd|street|st|lane|ln|avenue|ave|close|drive|crescent|court|ct|place|pl|terrace|gardens|grove|square|sq|mews|walk|way|row|hill|boulevard|blvd)\b`;

/** Collective nouns: "a family of five" counts people. */
const PEOPLE_GROUP = String.raw`\b(?:family|household|group|party|team|couple|crew)\s+of\s+`;

export interface MeasuredText {
  /** The text with the numbers that measure something else blanked out (the same text when none do). */
  text: string;
  /** Why the blanked numbers are not the answer, said to the person; absent when nothing was blanked. */
  why?: string;
}

/**
 * The text of a message with every number that measures something other than
 * what the question asks (its `unit`, and the period or the age its `prompt`
 * asks for) blanked out.
 */
export function withoutOtherMeasures(text: string, unit: string | undefined, prompt: string | undefined): MeasuredText {
  let out = text.normalize('NFKC');
  let why: string | undefined;
  const blank = (pattern: RegExp, reason: string) => {
    out = out.replace(pattern, (m) => {
      why ??= reason;
      return ' '.repeat(m.length);
    });
  };

  const asked = unit === undefined ? undefined : currencyOf(unit);
  if (asked !== undefined) {
    for (const [code, spelling] of Object.entries(CURRENCY_WORDS)) {
      if (code === asked) continue;
      const reason = `That reads as an amount in ${code}, not in ${unit}. Please give the amount in ${unit}.`;
      blank(new RegExp(`(?:${spelling.before})\\s*${NUMBER}`, 'giu'), reason);
      blank(new RegExp(`${NUMBER}\\s*(?:${spelling.after})`, 'giu'), reason);
    }
  }

  // At a question of anything but money ("how many languages", "how many nights"): no amount of money answers it ("6 quid").
  if (unit !== undefined && asked === undefined && !MONEY_WORDS.has(unit.trim().toLowerCase())) {
    const reason = `That reads as an amount of money, not ${unit}. Please give the number of ${unit}.`;
    for (const spelling of Object.values(CURRENCY_WORDS)) {
      blank(new RegExp(`(?:${spelling.before})\\s*${NUMBER}`, 'giu'), reason);
      blank(new RegExp(`${NUMBER}\\s*(?:${spelling.after})`, 'giu'), reason);
    }
    blank(new RegExp(`${NUMBER}\\s*(?:bucks?|cents?|pence|p\\b|euro\\s*cents?)`, 'giu'), reason);
  }
  const named = prompt === undefined ? undefined : [...new Set(periodsNamed(`${prompt} ${unit ?? ''}`).map(groupOf))];
  const per = named?.length === 1 ? named[0] : undefined;
  // "40 a week", "40€ per week", "40 bucks every week", "40/week", "40 weekly" (never "a week ago"): blanked when
  // another period than the question's, or any period where it asks one sum of money (a refund, a deposit).
  const blankRates = (others: (group: string) => boolean, reason: (group: string) => string) => {
    for (const period of PERIODS.filter((p) => others(groupOf(p.name)))) {
      blank(new RegExp(`${NUMBER}\\s*(?:\\p{L}+\\s+){0,2}?(?:a|an|per|each|every|\\/|a\\s+single)\\s*(?:${period.nouns})\\b(?!\\s+ago)`, 'giu'), reason(groupOf(period.name)));
      blank(new RegExp(`${NUMBER}\\s*(?:\\p{L}+\\s+)?(?:${period.adjectives})\\b`, 'giu'), reason(groupOf(period.name)));
    }
  };
  if (named?.length === 0 && asked !== undefined)
    blankRates(() => true, (group) => `That reads as an amount per ${group}; the question asks for one amount. Please give the amount in ${unit}.`);
  if (per !== undefined) {
    // Said back in the question's own word: a room's "night", a rental's "day".
    const perWord = per === 'day' && /\bnight|nightly\b/iu.test(prompt ?? '') ? 'night' : per;
    blankRates((group) => group !== per, (group) => `That reads as an amount per ${group}; the question asks per ${perWord}. Please give the amount per ${perWord}.`);
    const total = new RegExp(TOTAL, 'iu');
    // ("My total budget per day is 60" names the asked period: that total is the rate asked.)
    if (total.test(out) && !periodsNamed(out).some((name) => groupOf(name) === per))
      blank(new RegExp(`${NUMBER}(?=[^.;!?]*${TOTAL})|(?<=${TOTAL}[^.;!?]*)${NUMBER}`, 'giu'), `That reads as a total; the question asks per ${perWord}. Please give the amount per ${perWord}.`);
  }

  if (prompt !== undefined && asksAnAge(prompt)) {
    const reason = 'That reads as how long something has lasted, not your age. Please give your age in years.';
    // "25 years ago", "for 20 years", "since 2015", "20 years of training", "the last 10 years".
    blank(new RegExp(`${NUMBER}\\s*(?:years?|yrs?)\\s+(?:ago|of(?!\\s+age)|since|now|already|running)\\b`, 'giu'), reason);
    blank(new RegExp(`\\b(?:for|past|last)\\s+(?:the\\s+)?(?:past\\s+|last\\s+)?${NUMBER}\\s*(?:years?|yrs?)\\b`, 'giu'), reason);
    blank(new RegExp(`\\bsince\\s+${NUMBER}`, 'giu'), reason);
  }

  if (unit !== undefined && !/^(?:people|persons?|adults?|guests?|travell?ers?|passengers?)$/iu.test(unit))
    blank(new RegExp(`${PEOPLE_GROUP}${NUMBER}`, 'giu'), `That reads as a count of people, not ${unit}. Please reply with just the number.`);

  // "We're at 48 Elm Road", "flat 12", "number 7": where someone lives is no amount and no count.
  blank(new RegExp(`${NUMBER}[a-z]?\\s+(?:(?!(?:on|in|at|the|a|an|per|for|to|of|and|but|or|my|our|a)\\s)\\p{L}+\\s+){1,3}?${STREET}|\\b(?:flat|apartment|apt|unit|house\\s+number|at\\s+number|no\\.)\\s*\\d+[a-z]?\\b`, 'giu'), 'That reads as an address, not the number asked. Please reply with just the number.');

  // "built in 1990, 4 floors" asked how many bedrooms, "2 kids and a dog" asked how many pets: a count of
  // another thing than the question counts (a plural noun right after the number that is not the unit nor a kind of it).
  // (At a question of money too: "I want my 3 items back" counts items, not euros.)
  if (unit !== undefined && !/^(?:years?|yrs?|%|percent)$/iu.test(unit.trim())) {
    const kinds = asked === undefined ? kindsOf(unit) : MONEY_WORDS;
    out = out.replace(new RegExp(`(${NUMBER})(\\s+)(\\p{L}{2,})\\b`, 'giu'), (m, n: string, _s: string, word: string) => {
      const noun = word.toLowerCase();
      // ("90, thanks": a number that ends its clause counts nothing after it.)
      if (/[.,']$/u.test(n)) return m;
      // "one is a closet", "one of them": a pronoun, no count.
      const pronoun = /^(?:one|1)$/iu.test(n) && ONE_AS_PRONOUN.has(noun);
      // A plural noun, or a singular one after "one" ("one room").
      const counted = noun.length >= 4 && noun.endsWith('s') && !noun.endsWith('ss') ? true : /^(?:one|1)$/iu.test(n) && noun.length >= 3 && !FUNCTION_WORDS.has(noun) && !noun.endsWith('ly');
      if (!pronoun && (!counted || kinds.has(singular(noun)) || NOT_A_THING.has(noun))) return m;
      why ??= `That reads as a count of ${noun}, not ${unit}. Please reply with just the number of ${unit}.`;
      return ' '.repeat(m.length);
    });
  }

  return why === undefined ? { text } : { text: out.replace(/\s+/gu, ' ').trim(), why };
}

const singular = (w: string) => w.replace(/ies$/u, 'y').replace(/(?<=(?:ch|sh|ss|x))es$/u, '').replace(/(?<=[^s])s$/u, '');
/** Plural words after a number that count nothing else ("3 others", "2 thousands"). */
const NOT_A_THING = new Set(['thanks', 'thx', 'cheers', 'others', 'ones', 'thousands', 'hundreds', 'millions', 'plus', 'tops', 'totals', 'is', 'was', 'has', 'its', 'thats', 'lets']);
const ONE_AS_PRONOUN = new Set(['is', 'was', 'of', 'has', 'had', 's', 'will', 'would', 'can', 'isn', 'doesn']);
/** Words after "one" that are no noun it counts ("one more", "one please", "one only"). */
const FUNCTION_WORDS = new Set([
  'and', 'or', 'but', 'more', 'less', 'too', 'please', 'maybe', 'max', 'total', 'only', 'each', 'per', 'for', 'with', 'the', 'now',
  'currently', 'right', 'just', 'thanks', 'thank', 'if', 'so', 'at', 'in', 'on', 'to', 'from', 'then', 'really', 'actually',
  'person', 'that', 'this', 'which', 'who', 'here', 'there', 'all', 'not', 'yet', 'atm', 'lol', 'haha', 'tops', 'either', 'other',
]);
/** Words after an amount of money that are its unit or a part of it, never a count of something else. */
const MONEY_WORDS = new Set(['euro', 'eur', 'dollar', 'buck', 'pound', 'quid', 'franc', 'cent', 'grand', 'thousand', 'k', 'yen', 'usd', 'gbp', 'chf', 'net', 'gros', 'total']);
const PEOPLE_UNIT = /^(?:people|persons?|adults?|guests?|travell?ers?|passengers?|occupants?|residents?|members?|children|child|kids?)$/iu;
const DEPENDANT_UNIT = /^(?:dependants?|dependents?)$/iu;
const DEPENDANT_KINDS = [
  'dependant', 'dependent', 'kid', 'child', 'children', 'son', 'daughter', 'baby', 'toddler', 'teenager', 'teen', 'twin', 'infant', 'boy', 'girl',
  'stepson', 'stepdaughter', 'grandchild', 'grandson', 'granddaughter', 'parent', 'mother', 'father', 'mum', 'mom', 'dad',
];
/** Whether `word` names what a count in `unit` counts: the unit itself or a kind of it ("kids" in dependants, "cats" in pets). */
export const countsAsUnit = (word: string, unit: string): boolean => kindsOf(unit).has(singular(word.toLowerCase()));
/** Words that name what a count unit counts: the unit itself, and its kinds (cats are pets, kids are people, doubles are bedrooms). */
function kindsOf(unit: string): Set<string> {
  const u = singular(unit.trim().toLowerCase());
  const kinds = new Set([u]);
  if (/^(?:pet|animal)$/u.test(u)) for (const a of ANIMALS) kinds.add(a);
  // (Those who depend on the person are children and kin, not people at large: "5 people in my team".)
  if (DEPENDANT_UNIT.test(unit.trim())) for (const w of DEPENDANT_KINDS) kinds.add(w);
  else if (PEOPLE_UNIT.test(unit.trim())) for (const w of [...PEOPLE, ...PEOPLE_KINDS]) kinds.add(w);
  if (/bed/u.test(u)) for (const w of ['bed', 'bedroom', 'double', 'single', 'twin', 'bdrm', 'br']) kinds.add(w);
  return kinds;
}
const PEOPLE_KINDS = ['adult', 'grownup', 'person', 'people', 'children', 'dependant', 'dependent', 'guest', 'member', 'occupant', 'resident', 'tenant', 'traveller', 'traveler', 'passenger', 'teen', 'boy', 'girl', 'twin', 'parent', 'grandparent', 'senior', 'infant', 'student', 'flatmate', 'housemate', 'roommate', 'of'];

/** The currency a question's unit names ("EUR", "euros", "€" → "EUR"), if it names one. */
export function currencyOf(unit: string): string | undefined {
  const u = unit.trim();
  return Object.entries(CURRENCY_WORDS).find(([, spelling]) => spelling.unit.test(u))?.[0];
}

/** A question that asks the person's age. */
const asksAnAge = (prompt: string) => /\bhow old\b|\b(?:your|their|the)\s+age\b|^\s*age\b/iu.test(prompt);
