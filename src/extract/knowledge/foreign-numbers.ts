import { BREAK, tokenize } from '../normalize.js';
import { NUMBER_ORDER, NUMBER_WORDS } from './number-words.generated.js';

/**
 * Numbers written in words in German, French, Spanish, Italian, Portuguese and
 * Dutch, below a million (issue 26 §1: numbers as people type them, in the
 * major languages): "cincuenta", "cinquante-cinq", "zwanzigtausend",
 * "duecentocinquanta", "mil quinientos". How each language writes 1 to 99,
 * the hundreds and the thousands comes from n2words
 * (number-words.generated.ts); a number is read as a run of those pieces,
 * written apart or joined into one word, with the words that join them
 * ("y", "e", "et", "und", "en"), each piece smaller than the one before it but
 * for the words for hundred and thousand, which multiply what came before.
 *
 * Only what says a number beyond the small ones knowledge/number-words.ts
 * knows is read: a piece that is an everyday English word or an article is
 * no number alone ("once", "cent", "mil", "un", "due").
 */
interface Language {
  /** Each piece, as its tokens joined by a space, to its value. */
  pieces: Map<string, number>;
  /** Pieces written as one word, longest first: the parts a joined word is split into. */
  joined: string[];
  /** The words that multiply by a thousand, and by a hundred ("deux cent cinquante", "vijftienhonderd"). */
  thousand: Set<string>;
  hundred: Set<string>;
  /** The longest piece, in tokens. */
  longest: number;
}

/** Words that join pieces ("cincuenta y cinco", "vinte e um", "vingt et un"). */
const JOINING = new Set(['y', 'e', 'et', 'und', 'en']);
/** Pieces that are no number alone: English words, articles, "cent" of money. */
const NOT_ALONE = new Set(['once', 'cent', 'cents', 'mil', 'mille', 'tres', 'un', 'une', 'uno', 'una', 'um', 'uma', 'ein', 'eins', 'een', 'due', 'sei', 'otto', 'tre', 'sept', 'dez', 'dix', 'six', 'vier', 'acht', 'nove', 'drie', 'tien', 'elf', 'twee']);

let languages: Language[] | undefined;
function load(): Language[] {
  if (languages) return languages;
  languages = Object.values(NUMBER_WORDS).map(({ words, thousand, hundred }) => {
    const pieces = new Map<string, number>();
    words.split(',').forEach((written, i) => pieces.set(tokenize(written).filter((t) => t !== BREAK).join(' '), NUMBER_ORDER[i]!));
    const thousands = new Set(thousand.map((w) => tokenize(w).join(' ')));
    const hundreds = new Set(hundred.map((w) => tokenize(w).join(' ')));
    for (const w of thousands) if (!pieces.has(w)) pieces.set(w, 1000);
    for (const w of hundreds) if (!pieces.has(w)) pieces.set(w, 100);
    const joined = [...pieces.keys()].filter((k) => !k.includes(' ')).sort((a, b) => b.length - a.length);
    return { pieces, joined, thousand: thousands, hundred: hundreds, longest: Math.max(...[...pieces.keys()].map((k) => k.split(' ').length)) };
  });
  return languages;
}

let openings: Set<string> | undefined;
/** The first three letters of every piece, in every language. */
const starts = () => (openings ??= new Set(load().flatMap((lang) => [...lang.pieces.keys()].map((k) => k.slice(0, 3)))));

/** A word split into pieces of the language, whole ("zweihundertfunfzig": zweihundert, funfzig), or undefined. */
function split(word: string, lang: Language): string[] | undefined {
  if (lang.pieces.has(word)) return [word];
  for (const piece of lang.joined) {
    if (piece.length < 3 || !word.startsWith(piece)) continue;
    const rest = word.slice(piece.length);
    // (Joined with "und", "en", "e": "funfundfunfzig" is in the table already; "...hundertund..." is not written.)
    const tail = split(rest, lang);
    if (tail) return [piece, ...tail];
  }
  return undefined;
}

/** The value of a run of pieces, or undefined when they do not make one number (a piece not smaller than the one before). */
function valueOf(pieces: readonly number[], thousandAt: ReadonlySet<number>, hundredAt: ReadonlySet<number>): number | undefined {
  let total = 0;
  let group = 0;
  let last = Infinity;
  for (const [k, v] of pieces.entries()) {
    // "deux cent", "vijftien honderd": a hundred times what came before it in its group.
    if (hundredAt.has(k) && group > 0) {
      if (group >= 100) return undefined;
      group *= 100;
      last = 100;
      continue;
    }
    if (thousandAt.has(k)) {
      if (total > 0) return undefined;
      total = (group === 0 ? 1 : group) * 1000;
      group = 0;
      last = 1000;
      continue;
    }
    if (v >= last) return undefined;
    if (v >= 1000) {
      if (total > 0 || group > 0) return undefined;
      total = v;
    } else group += v;
    last = v;
  }
  return total + group;
}

/** One number in words of one of the languages from `at`: its value and the index after it; undefined where there is none. */
export function foreignNumberAt(tokens: readonly string[], at: number): { value: number; end: number } | undefined {
  // (Most words start as no piece does: one set lookup, before any language is tried.)
  if (!starts().has(tokens[at]?.slice(0, 3) ?? '')) return undefined;
  let best: { value: number; end: number; pieces: number } | undefined;
  for (const lang of load()) {
    const values: number[] = [];
    const thousandAt = new Set<number>();
    const hundredAt = new Set<number>();
    let i = at;
    let end = at;
    let words = 0;
    while (i < tokens.length) {
      // A piece written apart ("quatre vingt dix"), longest first, or one word of joined pieces.
      let taken = 0;
      for (let n = Math.min(lang.longest, tokens.length - i); n >= 1 && taken === 0; n--) {
        const key = tokens.slice(i, i + n).join(' ');
        const value = lang.pieces.get(key);
        if (value === undefined) continue;
        if (lang.thousand.has(key)) thousandAt.add(values.length);
        if (lang.hundred.has(key)) hundredAt.add(values.length);
        values.push(value);
        taken = n;
      }
      if (taken === 0) {
        const parts = split(tokens[i]!, lang);
        if (!parts) break;
        for (const p of parts) {
          if (lang.thousand.has(p)) thousandAt.add(values.length);
          if (lang.hundred.has(p)) hundredAt.add(values.length);
          values.push(lang.pieces.get(p)!);
        }
        taken = 1;
      }
      i += taken;
      words += taken;
      end = i;
      // "cincuenta y cinco": a joining word between two pieces.
      if (JOINING.has(tokens[i] ?? '') && i + 1 < tokens.length) {
        const next = tokens[i + 1]!;
        if (lang.pieces.has(next) || split(next, lang)) i++;
      }
    }
    if (values.length === 0) continue;
    const value = valueOf(values, thousandAt, hundredAt);
    if (value === undefined) continue;
    if (!best || end > best.end) best = { value, end, pieces: values.length };
  }
  if (!best) return undefined;
  // One piece that is an English word or an article alone says no number.
  if (best.pieces === 1 && best.end === at + 1 && NOT_ALONE.has(tokens[at]!)) return undefined;
  return { value: best.value, end: best.end };
}
