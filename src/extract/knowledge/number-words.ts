/**
 * Numbers written in words: English ("twelve", "forty two", "two hundred and fifty", "twelve hundred", "three
 * thousand four hundred") and the small numbers of the major European languages ("drei", "cinco", "quatre"), as
 * people type them in a chat (normalized tokens: lower case, no accents). Words that are also common English or
 * abbreviations are left out ("due", "sept", "dez", "otto", "sei"), and so are the words for one, which are
 * articles too ("un", "ein", "uno").
 */

import { foreignNumberAt } from './foreign-numbers.js';

// Word tables are Maps: a plain object would answer for "constructor".
const ENGLISH = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen',
  'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];
/** Two to ten, by language (German, French, Spanish, Italian, Portuguese, Dutch). */
const OTHER_LANGUAGES: readonly (readonly string[])[] = [
  ['zwei', 'drei', 'vier', 'funf', 'sechs', 'sieben', 'acht', 'neun', 'zehn'],
  ['deux', 'trois', 'quatre', 'cinq', 'six', '', 'huit', 'neuf', 'dix'],
  ['dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve', 'diez'],
  ['', 'tre', 'quattro', 'cinque', '', 'sette', '', 'nove', 'dieci'],
  ['dois', 'tres', 'quatro', 'cinco', 'seis', 'sete', 'oito', 'nove', ''],
  ['twee', 'drie', 'vier', 'vijf', 'zes', 'zeven', 'acht', 'negen', 'tien'],
];

/** Number words: zero..twenty, and two..ten in other languages. Compounds and "a hundred" are read in numberWordsAt. */
export const SMALL_NUMBERS: ReadonlyMap<string, number> = new Map([
  ...OTHER_LANGUAGES.flatMap((words) => words.map((w, i): [string, number] => [w, i + 2]).filter(([w]) => w !== '')),
  ...ENGLISH.map((w, i): [string, number] => [w, i]),
]);
export const TENS: ReadonlyMap<string, number> = new Map(
  ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'].map((w, i) => [w, 20 + 10 * i]),
);
/** Words that say a round figure is exact ("a dozen exactly"). */
const EXACTLY = new Set(['exactly', 'precisely', 'exact']);
/** Words a number in words is scaled by ("three grand", "two thousand"). */
export const WORD_SCALES: ReadonlyMap<string, number> = new Map([['thousand', 1000], ['grand', 1000], ['k', 1000], ['tausend', 1000], ['mille', 1000], ['mil', 1000]]);

/**
 * One number written in words from `at`: "twelve", "forty two", "a hundred", "two hundred and fifty", "twelve
 * hundred and fifty", "three thousand four hundred", "three grand", "a dozen exactly"; the value and the index after it, or undefined.
 */
export function numberWordsAt(tokens: readonly string[], at: number): { value: number; end: number } | undefined {
  const small = (t: string | undefined) => (t === undefined ? undefined : SMALL_NUMBERS.get(t));
  const unit = (t: string | undefined) => {
    const v = small(t);
    return v !== undefined && v >= 1 && v <= 9 ? v : undefined;
  };
  // A group below ten thousand: [unit|ten..nineteen|a hundred [and]] [tens [unit] | zero..twenty].
  const group = (i: number): { value: number; end: number } | undefined => {
    let value = 0;
    let j = i;
    const head = tokens[j] === 'a' ? 1 : small(tokens[j]);
    if (head !== undefined && head >= 1 && tokens[j + 1] === 'hundred') {
      value = head * 100;
      j += 2;
      if (tokens[j] === 'and' && (TENS.has(tokens[j + 1] ?? '') || SMALL_NUMBERS.has(tokens[j + 1] ?? ''))) j++;
    }
    const t = tokens[j];
    if (t !== undefined && TENS.has(t)) {
      value += TENS.get(t)!;
      j++;
      const u = unit(tokens[j]);
      if (u !== undefined) {
        value += u;
        j++;
      }
    } else if (t !== undefined && SMALL_NUMBERS.has(t) && !(t === 'zero' && j > i)) {
      value += SMALL_NUMBERS.get(t)!;
      j++;
    }
    return j === i ? undefined : { value, end: j };
  };
  // Dozens said to be exact: "a dozen exactly", "half a dozen precisely", "two dozen exactly". ("A dozen" alone is a
  // round figure people use loosely, "a dozen times": not read.)
  const dozen = tokens[at] === 'half' && tokens[at + 1] === 'a' ? { value: 6, word: at + 2 } : tokens[at] === 'a' || tokens[at] === 'one' ? { value: 12, word: at + 1 } : { value: (small(tokens[at]) ?? 0) * 12, word: at + 1 };
  if (tokens[dozen.word] === 'dozen' && dozen.value >= 6 && dozen.value <= 108 && EXACTLY.has(tokens[dozen.word + 1] ?? '')) return { value: dozen.value, end: dozen.word + 2 };
  const first = tokens[at] === 'a' && WORD_SCALES.has(tokens[at + 1] ?? '') ? { value: 1, end: at + 1 } : group(at);
  // In another major language ("cincuenta", "zwanzigtausend", "deux cent cinquante": foreign-numbers.ts), where
  // that reads further than English does.
  const foreign = foreignNumberAt(tokens, at);
  if (foreign && (!first || foreign.end > first.end)) return foreign;
  if (!first) return undefined;
  const scale = WORD_SCALES.get(tokens[first.end] ?? '');
  if (scale === undefined) return first;
  let end = first.end + 1;
  if (tokens[end] === 'and') end++;
  const rest = group(end);
  return rest && rest.value < scale ? { value: first.value * scale + rest.value, end: rest.end } : { value: first.value * scale, end: first.end + 1 };
}
