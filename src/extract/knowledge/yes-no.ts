/**
 * Yes and no in words, in the major languages (issue 26: general knowledge
 * beyond a flow author's synonyms). The single words come from glibc's locale
 * data (`locales.generated.ts`); the phrases and colloquial forms below are
 * kept by hand, as no maintained list of them exists.
 */
import { LOCALE_YES_NO } from './locales.generated.js';
import { BREAK, normalize, tokenize } from '../normalize.js';

const fromLocales = (side: 'yes' | 'no') => Object.values(LOCALE_YES_NO).map((entry) => entry[side]);

/** Words and phrases that say yes (normalized: lowercase, no accents, contractions expanded). */
export const YES_WORDS: readonly string[] = unique([
  ...fromLocales('yes'),
  'yes', 'yeah', 'yea', 'yep', 'yup', 'ya', 'yah', 'yess', 'yse', 'ys', 'yeh', 'yas', 'ye', 'y', 'aye', 'sure', 'certainly',
  'correct', 'affirmative', 'absolutely', 'definitely', 'of course', 'indeed', 'uh huh', 'yes please',
  'that is right', 'that is correct', 'right', 'exactly', 'true', 'positive', 'totally', 'for sure',
  // Colloquial forms in other languages.
  'si', 'claro', 'jawohl', 'genau', 'ouais', 'hai', 'ええ', '是的', '对', '네', 'haan', 'kylla', 'certo', 'bien sur', 'por supuesto',
]);

/** Words and phrases that say no. */
export const NO_WORDS: readonly string[] = unique([
  ...fromLocales('no'),
  'no', 'nope', 'nah', 'noo', 'n', 'negative', 'not at all', 'no way', 'absolutely not', 'definitely not', 'of course not',
  'certainly not', 'false', 'nada', 'wrong', 'that is wrong', 'incorrect', 'not right', 'not correct', 'not true',
  // "Yeah no", "yeah nah": a colloquial no.
  'yeah no', 'yeah nah', 'yea no', 'ya no',
  // Colloquial forms in other languages.
  'nao', 'hayir', 'ochi', '不', '没有', '아니', 'nahin', 'niet', 'nee', 'keineswegs', 'pas du tout', 'para nada',
]);

function unique(words: string[]): string[] {
  return [...new Set(words.map((w) => normalize(w)).filter((w) => w.length > 0))];
}

const phrases = (list: readonly string[]) => list.map((p) => p.split(' '));
const YES = phrases(YES_WORDS);
const NO = phrases(NO_WORDS);
/** Words that may stand around a bare yes or no without changing it ("yes please", "no thanks", "oh yes it is"). */
const FILLER = new Set(['please', 'thanks', 'thank', 'you', 'ok', 'okay', 'oh', 'well', 'it', 'is', 'that', 'this', 'so', 'all', 'good', 'fine', 'i', 'am', 'sorry', 'mate', 'sir', 'madam', 'merci', 'danke', 'gracias', 'obrigado', 'grazie', 'bitte']);

/**
 * Reads a reply to a yes/no check ("Is that right?", "Just to check: ...").
 * It answers only when the whole first clause is a yes or a no (with
 * politeness around it) and no later clause says the other, or a
 * question or a "but" follows: "yes", "sí", "nein, das stimmt nicht",
 * "no, that's wrong" are read; "yes but the date is wrong", "maybe", "why?"
 * are not (undefined: the check is asked again or the text read otherwise).
 * `tokens`: the text's tokens, when the caller has them already.
 */
export function readYesNo(text: string, tokens: readonly string[] = tokenize(text)): 'yes' | 'no' | undefined {
  if (/\?\s*$/.test(text)) return undefined;
  const clauses: string[][] = [[]];
  for (const t of tokens) (t === BREAK ? clauses.push([]) : clauses[clauses.length - 1]!.push(t));
  // ("Yeah, no": a colloquial no said in two clauses.)
  if (clauses.length >= 2 && clauses[0]!.length === 1 && ['yeah', 'yea', 'ya'].includes(clauses[0]![0]!) && sideOf(clauses[1]!) === 'no') clauses.splice(0, 1);
  const sides = clauses.map(sideOf);
  const first = sides[0];
  if (first === undefined || first === 'other' || first === 'filler') return undefined;
  // A contrast ("but", "though") was made a break by normalize: "yes but ..." is not a plain yes.
  if (/\b(but|however|though|except)\b/i.test(text)) return undefined;
  return sides.every((s) => s === first || s === 'filler') ? first : undefined;
}

/** What one clause says: yes, no, politeness only, or something else. */
function sideOf(clause: string[]): 'yes' | 'no' | 'filler' | 'other' {
  // Said twice for emphasis ("no no"): once.
  const rest = clause.filter((t, i) => !FILLER.has(t) && t !== clause[i - 1]);
  if (rest.length === 0) return 'filler';
  const joined = rest.join(' ');
  const is = (list: string[][]) => list.some((p) => p.join(' ') === joined);
  // "not" anywhere turns a yes around ("not correct"); a no phrase stays a no.
  if (is(NO) || (rest.includes('not') && rest.some((t) => YES.some((p) => p.length === 1 && p[0] === t)))) return 'no';
  if (is(YES)) return 'yes';
  return 'other';
}
