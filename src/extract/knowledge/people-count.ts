/**
 * How many people a message lists (issue 26: "2 adults and 1 kid" is 3, "me, my
 * wife and our two kids" is 4, "me and my girlfriend" is 2, "dos personas" is 2):
 * general knowledge of the words for people and for small numbers in the major
 * languages. A list is counted only when every part of it is understood; a pet,
 * a guess or anything else unknown leaves it uncounted. Tokens are normalized
 * (normalize.ts).
 */
import { SMALL_NUMBERS } from './number-words.js';

/**
 * Small numbers in words (number-words.ts), with the words for one and two that are too ambiguous elsewhere but
 * count people here ("uno", "due"), and the words for two people at once.
 */
const NUMBERS: ReadonlyMap<string, number> = new Map([
  ...SMALL_NUMBERS,
  ...Object.entries({ uno: 1, una: 1, eins: 1, due: 2, sei: 6, sept: 7, otto: 8, dez: 10, couple: 2, pair: 2, both: 2, twins: 2 }),
]);
/** The one answering, in the major languages: counted once however often named ("me, myself and I"). */
const SPEAKER = new Set(['me', 'i', 'myself', 'moi', 'io', 'yo', 'ich', 'eu', 'ik', 'jag', 'ja']);
/** One person each. */
const ONE_PERSON = new Set([
  'wife', 'husband', 'partner', 'girlfriend', 'boyfriend', 'fiance', 'fiancee', 'spouse', 'son', 'daughter',
  'kid', 'child', 'baby', 'toddler', 'teenager', 'mother', 'mum', 'mom', 'father', 'dad', 'brother', 'sister', 'friend', 'flatmate',
  'roommate', 'grandmother', 'grandma', 'grandfather', 'grandpa', 'aunt', 'uncle', 'cousin', 'nephew', 'niece', 'stepson',
  'stepdaughter', 'lodger', 'adult', 'person', 'boy', 'girl', 'newborn', 'missus', 'mrs', 'hubby', 'wifey', 'him', 'her', 'housemate',
  'madre', 'padre', 'mama', 'papa', 'mae', 'pai', 'moglie', 'marito', 'esposa', 'esposo', 'marido', 'mujer', 'frau', 'mann', 'femme',
  'mari', 'mutter', 'vater', 'mere', 'pere', 'hermano', 'hermana', 'fratello', 'sorella', 'bruder', 'schwester', 'figlio', 'figlia',
  'hijo', 'hija', 'sohn', 'tochter', 'fils', 'fille',
]);
/** Words for several people, counted by the number before them ("two kids"); "parents" and "twins" are two without one. */
const PEOPLE = new Set([
  'people', 'persons', 'adults', 'kids', 'children', 'sons', 'daughters', 'boys', 'girls', 'babies', 'teenagers', 'teens',
  'friends', 'flatmates', 'roommates', 'parents', 'twins', 'grandparents', 'personas', 'personnes', 'personen', 'persone', 'pessoas',
  'adultos', 'ninos', 'kinder', 'enfants', 'erwachsene', 'adultes',
]);
const PAIRS = new Set(['parents', 'twins', 'grandparents']);
/** Words for everybody counted at once ("2 people, me and my partner": the list after it names the same two). */
const TOTALS = new Set(['people', 'persons', 'personas', 'personnes', 'personen', 'persone', 'pessoas']);
/** German counts of a group ("wir sind zu viert": we are four). */
const ZU: ReadonlyMap<string, number> = new Map([['zweit', 2], ['dritt', 3], ['viert', 4], ['funft', 5], ['sechst', 6], ['siebt', 7], ['acht', 8]]);
/** Words that join or wrap a list and count nobody ("we are", "somos", "wir sind"). */
const GLUE = new Set([
  'somos', 'nous', 'sommes', 'siamo', 'wir', 'sind', 'zijn', 'estamos',
  'and', 'plus', 'with', 'my', 'our', 'the', 'just', 'only', 'it', 'is', 'will', 'be', 'would', 'that', 'of', 'us', 'we', 'are', 'there',
  'in', 'total', 'all', 'together', 'y', 'und', 'et', 'e', 'mi', 'mis', 'meine', 'mein', 'ma', 'mon', 'mes', 'mio', 'mia', 'a', 'an',
  '+', 'his', 'their', 'your', 'mine', 'minha', 'meu', 'mijn', 'en', 'och', 'min',
  // "me and my wife as well", "my husband too".
  'too', 'also', 'as', 'well',
  // Where and when the people are: "three of us living here at the moment", "two of us at home now".
  'living', 'live', 'lives', 'here', 'at', 'home', 'now', 'moment', 'currently',
]);

/** A list that grows later or on a condition is no count of now ("and a baby on the way", "sometimes my mum"). */
export const ADDED_LATER = /\b(?:on the way|due|soon|sometimes|maybe|might|weekends?|visits?|stays? over|expecting)\b/iu;

/** The number of people the tokens list, or undefined when any part is not understood or nobody is counted. */
export function countPeople(tokens: readonly string[]): number | undefined {
  let total = 0;
  let stated: number | undefined;
  let pending: number | undefined;
  let speaker = false;
  // "Not just me, my husband too": more than the person alone (any other "not" leaves the list uncounted).
  const from = tokens[0] === 'not' && (tokens[1] === 'just' || tokens[1] === 'only') ? 2 : 0;
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === '|') continue;
    // "A family of four", "zu viert": a total of the group.
    const group = t === 'family' && tokens[i + 1] === 'of' ? -1 : t === 'zu' && ZU.has(tokens[i + 1] ?? '') ? ZU.get(tokens[i + 1]!)! : undefined;
    if (group !== undefined) {
      const size = group > 0 ? group : /^\d{1,2}$/u.test(tokens[i + 2] ?? '') ? Number(tokens[i + 2]) : NUMBERS.get(tokens[i + 2] ?? '');
      if (size === undefined || stated !== undefined || pending !== undefined) return undefined;
      stated = size;
      i += group > 0 ? 1 : 2;
      continue;
    }
    const n = /^\d{1,2}$/u.test(t) ? Number(t) : NUMBERS.get(t);
    if (n !== undefined) {
      if (pending !== undefined) return undefined;
      pending = n;
      continue;
    }
    // "Three of us, me, my wife and her mum": a total like "3 people".
    if (t === 'of' && tokens[i + 1] === 'us' && pending !== undefined) {
      if (stated !== undefined) return undefined;
      stated = pending;
      pending = undefined;
      i++;
      continue;
    }
    if (SPEAKER.has(t)) {
      if (pending !== undefined && pending !== 1) return undefined;
      total += speaker ? 0 : 1;
      speaker = true;
      pending = undefined;
      continue;
    }
    // "her mum": "her" owns the one named next; "me and her": she is one.
    if (t === 'her' && (ONE_PERSON.has(tokens[i + 1] ?? '') || PEOPLE.has(tokens[i + 1] ?? '') || NUMBERS.has(tokens[i + 1] ?? ''))) continue;
    // "my mother-in-law": one person.
    if (t === 'in' && tokens[i + 1] === 'law' && ONE_PERSON.has(tokens[i - 1] ?? '')) {
      i++;
      continue;
    }
    if (TOTALS.has(t) && pending !== undefined) {
      if (stated !== undefined) return undefined;
      stated = pending;
      pending = undefined;
      continue;
    }
    if (PEOPLE.has(t)) {
      total += pending ?? (PAIRS.has(t) ? 2 : NaN);
      pending = undefined;
      continue;
    }
    if (ONE_PERSON.has(t)) {
      if (pending !== undefined && pending !== 1) return undefined;
      total += 1;
      pending = undefined;
      continue;
    }
    if (!GLUE.has(t)) return undefined;
  }
  // A number left with nothing after it ("dos", "drei") is a bare count only if nothing else was counted.
  if (pending !== undefined) {
    if (total > 0 || stated !== undefined) return undefined;
    total = pending;
  }
  // "2 people, me and my partner": a total and the people it counts must agree.
  if (stated !== undefined) return total === 0 || total === stated ? stated : undefined;
  return Number.isFinite(total) && total > 0 ? total : undefined;
}

/** Plurals of the animals people keep, and the words for them in the major languages (singular in animals.ts). */
const ANIMAL_PLURALS: Readonly<Record<string, string>> = {
  gatos: 'cat', perros: 'dog', chats: 'cat', chiens: 'dog', katzen: 'cat', hunde: 'dog', gatti: 'cat', cani: 'dog', fishes: 'fish',
  mice: 'mouse', geese: 'goose', puppies: 'puppy', guinea: 'guinea', budgies: 'budgie', ponies: 'pony',
};

/**
 * How many animals the tokens list ("3 cats + 1 dog" 4, "a single hamster" 1, "tres gatos" 3, "two adults, two kids and one
 * dog" 1: the people are not counted), or undefined when any part is not understood.
 */
export function countAnimals(tokens: readonly string[], isAnimal: (word: string) => boolean): number | undefined {
  let total = 0;
  let pending: number | undefined;
  let animals = 0;
  for (const t of tokens) {
    if (t === '|' || t === '+' || t === 'single' || t === 'total' || t === 'animals' || t === 'pets') continue;
    const n = /^\d{1,2}$/u.test(t) ? Number(t) : NUMBERS.get(t);
    if (n !== undefined) {
      if (pending !== undefined) return undefined;
      pending = n;
      continue;
    }
    const singular = ANIMAL_PLURALS[t] ?? t.replace(/(?<=[^s])s$/u, '');
    if (isAnimal(singular)) {
      // "a dog", "one cat": one; a plural with no number before it ("cats") says no count.
      if (pending === undefined && singular === t) pending = 1;
      if (pending === undefined) return undefined;
      total += pending;
      animals++;
      pending = undefined;
      continue;
    }
    if (PEOPLE.has(t) || ONE_PERSON.has(t)) {
      pending = undefined;
      continue;
    }
    if (!GLUE.has(t)) return undefined;
  }
  if (pending !== undefined) return undefined;
  return animals > 0 && total > 0 ? total : undefined;
}
