import type { AnswerValue } from './context.js';
import { normalize, tokenize, BREAK } from '../extract/normalize.js';

/**
 * Reading a message at the summary as a correction: which answer it names,
 * and the new value it gives. Pure: the caller hands in how each question
 * reads a text (the same readers the question uses when it asks).
 *
 * The rule is "never commit what the person did not say":
 * - a new value is taken only when the message names the one answer it changes,
 *   or names none and exactly one answer reads it (a value that fits several
 *   answers asks which);
 * - a bare yes/no value (a yes/no category, a boolean) is taken only when the
 *   message names its answer: "no" at the summary says the summary is wrong,
 *   not which answer;
 * - a message naming an answer without a readable new value asks that question
 *   again: the one it names most surely, by the words of its label (or, less
 *   surely, of its question: "when the plumber comes"); a tie, or asking to
 *   change something without naming it, asks which answer to change; anything
 *   else is not understood.
 */

/** An answer the summary shows that the person may correct. */
export interface CorrectableAnswer {
  /** The answer key. */
  key: string;
  /** Words that name it: its label, key and id. */
  names: readonly string[];
  /** The question as it was asked ("When should the plumber come?"): its words name the answer too, less surely. */
  asked?: string | undefined;
  /** Its current value; undefined for an optional question the person skipped (any value it reads gives it one). */
  value: AnswerValue | undefined;
  /** Reads the message as a value for this answer; undefined when it does not read one. */
  read(text: string): AnswerValue | undefined;
  /** Its values are only yes/no: a value alone does not say which answer it is for. */
  yesNo: boolean;
}

export type CorrectionReading =
  /** Change `key`: `text` is the message to answer it with, or null to ask it again. */
  | { kind: 'change'; key: string; text: string | null }
  /** Asks to change something without saying which answer, or names several. */
  | { kind: 'choose' }
  /** Neither a correction nor a wish to change anything that can be read. */
  | { kind: 'unclear' };

/** Words too common to name an answer. */
const NOT_NAMES = new Set(['the', 'a', 'an', 'of', 'to', 'is', 'my', 'your', 'for', 'and', 'or', 'in', 'on', 'at', 'answer', 'question', 'q']);
/** Words of a question too common to name its answer ("What", "would", "you"). */
const NOT_ASKED_NAMES = new Set([
  'what', 'which', 'whom', 'how', 'why', 'many', 'much', 'does', 'did', 'are', 'was', 'were', 'can', 'could',
  'will', 'would', 'should', 'have', 'has', 'you', 'yours', 'this', 'that', 'there', 'with', 'from', 'any', 'anyone', 'like', 'want',
  'need', 'please', 'roughly', 'about', 'most', 'between', 'including', 'included', 'yes', 'means', 'not', 'still', 'right', 'now',
]);

const stem = (word: string) => word.replace(/ies$/u, 'y').replace(/(?<=(?:s|x|z|ch|sh))es$/u, '').replace(/(?<=[^s])s$/u, '');

// Names are a flow's labels and keys, read at every correction: their words are kept (a bounded few).
const wordsOfName = new Map<string, string[]>();

/** The words a name is made of: `2_insurance_history` → insurance, history. */
export function nameWords(name: string): string[] {
  let words = wordsOfName.get(name);
  if (!words) {
    words = normalize(name.replace(/[_\-.]+/g, ' '))
      .split(/\s+/)
      .filter((w) => w.length >= 3 && !/^\d+$/.test(w) && !NOT_NAMES.has(w))
      .map(stem);
    if (wordsOfName.size >= 2000) wordsOfName.clear();
    wordsOfName.set(name, words);
  }
  return words;
}

/**
 * How surely the message (its words, stemmed) names the answer: two for each word of its label, key or id it says,
 * one for each other word of its question ("when the plumber comes" names "When should the plumber come?" more
 * than "Who will let the plumber in?").
 */
function naming(stems: ReadonlySet<string>, answer: CorrectableAnswer): number {
  const own = new Set(answer.names.flatMap((name) => nameWords(name)));
  const asked = new Set(answer.asked === undefined ? [] : nameWords(answer.asked).filter((w) => !NOT_ASKED_NAMES.has(w) && !own.has(w)));
  let score = 0;
  for (const w of own) if (stems.has(w)) score += 2;
  for (const w of asked) if (stems.has(w)) score += 1;
  return score;
}

export function readCorrection(text: string, answers: readonly CorrectableAnswer[], wishesToEdit: boolean): CorrectionReading {
  const stems = new Set(tokenize(text).filter((t) => t !== BREAK).map(stem));
  const scores = answers.map((a) => naming(stems, a));
  // Named by a word of its label, key or id: what a new value may be given to.
  const named = answers.filter((a) => a.names.some((name) => nameWords(name).some((w) => stems.has(w))));
  const reads = new Map(answers.map((a) => [a, a.read(text)] as const));
  const fits = answers.filter((a) => reads.get(a) !== undefined);
  const changed = fits.filter((a) => reads.get(a) !== a.value);
  const namedChanged = changed.filter((a) => named.includes(a));
  if (namedChanged.length === 1) return { kind: 'change', key: namedChanged[0]!.key, text };
  // A value alone: exactly one answer reads it (not one that has it already beside one it would change: "2" with
  // 3 days and 2 collectors is no surer a change of the days than a repeat of the collectors), no answer is named,
  // and it is not a bare yes/no.
  if (named.length === 0 && fits.length === 1 && changed.length === 1 && !changed[0]!.yesNo) return { kind: 'change', key: changed[0]!.key, text };
  // Named without a value, by its label or its question: the one named most surely is asked again; a tie asks which.
  const best = Math.max(0, ...scores);
  const mostSurely = best === 0 ? [] : answers.filter((_, k) => scores[k] === best);
  if (mostSurely.length === 1) return { kind: 'change', key: mostSurely[0]!.key, text: null };
  // A value that fits more than one answer changes none silently: which one is asked.
  const fitsSeveral = changed.length > 0 && fits.filter((a) => !a.yesNo || changed.includes(a)).length > 1;
  if (mostSurely.length > 1 || fitsSeveral || wishesToEdit) return { kind: 'choose' };
  return { kind: 'unclear' };
}
