/**
 * Categories that count a thing ("1 bedroom", "2-3 bedrooms", "4+ bedrooms",
 * "Studio or 1 bedroom", "3 or more rooms"), read from a count said with the
 * same thing ("a two-bed flat", "three bedrooms", "2 bed"): the category whose
 * range holds the count, when exactly one does. A count said without the thing
 * ("2") or with another thing ("2 kids") is not read here.
 */
import { BREAK, tokenize } from './normalize.js';
import { boundAt, boundedRange, inRange, rangeOf, within, type NumberRange } from './number-ranges.js';
import { ADDED_LATER, countPeople } from './knowledge/people-count.js';

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
};
/** Short and foreign names of a counted thing, by the stem of its name ("2 bed" is two bedrooms). */
const ALIASES: Readonly<Record<string, readonly string[]>> = {
  bedroom: ['bed', 'beds', 'bd', 'bdr', 'bdrm', 'bdrms', 'br', 'schlafzimmer', 'dormitorio', 'dormitorios', 'habitacion', 'habitaciones', 'chambre', 'chambres', 'slaapkamer', 'slaapkamers', 'camera', 'camere'],
  room: ['zimmer', 'pieces', 'piece', 'kamer', 'kamers'],
};
/** Words that may stand between a count and its thing ("two double bedrooms", "3 big rooms"). */
const BETWEEN = new Set(['double', 'single', 'big', 'small', 'large', 'little', 'good', 'sized', 'size', 'proper', 'real']);

/** Plurals that are other words ("1 person", "2 people"). */
const IRREGULAR: Readonly<Record<string, string>> = { people: 'person', children: 'child', men: 'man', women: 'woman' };
const stem = (w: string) => IRREGULAR[w] ?? w.replace(/(?:es|s)$/u, '');

interface Counted {
  category: string;
  thing: string;
  range: NumberRange;
}
const cache = new WeakMap<readonly string[], Counted[]>();

/** What each category counts, and how many ("2-3 bedrooms": bedroom, 2 to 3). Categories that count nothing are left out. */
function countedOf(categories: readonly string[]): Counted[] {
  let counted = cache.get(categories);
  if (counted) return counted;
  counted = [];
  for (const category of categories) {
    const tokens = tokenize(category).filter((t) => t !== BREAK);
    // "Studio or 1 bedroom": each alternative ("3 or more" is one).
    const alternatives: string[][] = [[]];
    tokens.forEach((t, i) => {
      const bound = /^(?:more|less|fewer|over|above|under|below)$/u.test(tokens[i + 1] ?? '');
      if (t === 'or' && !bound) alternatives.push([]);
      else alternatives[alternatives.length - 1]!.push(t);
    });
    for (const alternative of alternatives) {
      // "6 bedrooms or more": the bound said after the thing.
      const tail = alternative.slice(-2);
      const after = alternative.length >= 4 && (tail[0] === 'or' || tail[0] === 'and') && /^(?:more|over|above|less|fewer|under)$/u.test(tail[1]!);
      const words = after ? [...alternative.slice(0, -3), ...tail, alternative[alternative.length - 3]!] : alternative;
      const thing = words[words.length - 1];
      if (thing === undefined || !/^[a-z]{3,}$/u.test(thing) || words.length < 2) continue;
      const count = words.slice(0, -1).map((w) => (w in NUMBER_WORDS ? String(NUMBER_WORDS[w]) : w));
      const range = rangeOf(count);
      if (range) counted.push({ category, thing: stem(thing), range });
    }
  }
  // One category alone counting a thing says nothing about the others: at least two, of one thing.
  if (counted.length < 2 || new Set(counted.map((c) => c.thing)).size !== 1) counted = [];
  cache.set(categories, counted);
  return counted;
}

/**
 * The category of the people a message counts ("4", "four of us", "me, my wife and our two kids", "a family of
 * five"), where the categories count people ("1 person", "3 to 4 people"): knowledge/people-count.ts counts
 * the whole message, every part understood. A count that comes and goes ("and sometimes my mum") is none.
 */
export function peopleCountCategory(text: string, tokens: readonly string[], categories: readonly string[]): string | undefined {
  const counted = countedOf(categories);
  if (counted.length === 0 || counted[0]!.thing !== 'person' || ADDED_LATER.test(text)) return undefined;
  const n = countPeople(tokens);
  if (n === undefined) return undefined;
  const holders = new Set(counted.filter((c) => inRange(n, c.range)).map((c) => c.category));
  return holders.size === 1 ? [...holders][0] : undefined;
}

/** Words that may stand beside a number alone and say nothing else ("about 3", "just 2", "3 exactly"). */
const ABOUT = new Set(['about', 'around', 'roughly', 'approximately', 'approx', 'circa', 'ca', 'just', 'only', 'exactly', 'precisely', 'we', 'have', 'it', 'has', 'is', 's']);
/** Whether the question asks how many of the thing ("How many bedrooms does the home have?"). */
function asksHowMany(prompt: string | undefined, thing: string): boolean {
  if (prompt === undefined) return false;
  const words = tokenize(prompt);
  return words.some((w, i) => w === 'how' && words[i + 1] === 'many' && words.slice(i + 2, i + 5).some((x) => names(x, thing)));
}

/** Whether a word names the thing ("bedrooms", "bed", "Schlafzimmer" for bedroom). */
function names(word: string, thing: string): boolean {
  return stem(word) === thing || (ALIASES[thing]?.includes(word) ?? false);
}

/**
 * The counts of the thing the categories count, said in the message, with where (token indices, end exclusive).
 * Empty when the categories count nothing.
 */
export function thingCounts(tokens: readonly string[], categories: readonly string[], prompt?: string): { category: string; start: number; end: number }[] {
  const counted = countedOf(categories);
  if (counted.length === 0) return [];
  const thing = counted[0]!.thing;
  const out: { category: string; start: number; end: number }[] = [];
  // (Where a category has no number, "None" beside "Under 10 hours", a count of 0 may be it: not read here.)
  const zeroNamed = categories.some((c) => !/\d/u.test(c));
  const readable = (n: number) => !(n === 0 && zeroNamed);
  // "3" asked how many bedrooms the home has: the number alone counts the thing the question asks how many of.
  const alone = tokens.filter((t) => !ABOUT.has(t));
  if (alone.length === 1 && asksHowMany(prompt, thing)) {
    const n = /^\d{1,3}$/u.test(alone[0]!) ? Number(alone[0]) : NUMBER_WORDS[alone[0]!];
    const at = tokens.indexOf(alone[0]!);
    const holders = n === undefined || !readable(n) ? [] : [...new Set(counted.filter((c) => inRange(n, c.range)).map((c) => c.category))];
    return holders.length === 1 ? [{ category: holders[0]!, start: at, end: at + 1 }] : [];
  }
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const n = /^\d{1,2}$/u.test(t) ? Number(t) : NUMBER_WORDS[t];
    if (n === undefined || !readable(n)) continue;
    let k = i + 1;
    while (k < i + 3 && BETWEEN.has(tokens[k] ?? '')) k++;
    if (!names(tokens[k] ?? '', thing)) continue;
    // "Two double bedrooms and a single", "3 beds plus a box room": more is added after the count, which is then
    // not the whole count (the sum is left unread).
    for (let j = k + 1; j < tokens.length && tokens[j] !== BREAK; j++)
      if ((tokens[j] === 'and' || tokens[j] === 'plus') && /^(?:a|an|another|one|\d+|two|three|four|single|double)$/u.test(tokens[j + 1] ?? '')) return [];
    // ("More than 10 hours" beside "10 to 30 hours": every count it allows, in one category, or none.)
    const stated = boundedRange(n, boundAt(tokens, i));
    const holders = counted.filter((c) => within(stated, c.range)).map((c) => c.category);
    if (new Set(holders).size === 1) out.push({ category: holders[0]!, start: i, end: k + 1 });
    else return [];
  }
  return out;
}
