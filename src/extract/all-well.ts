/**
 * "Everyone's fine", "all healthy", "we're all in good health", "not a scratch on anyone": asked whether anyone (or
 * you) was hurt, is ill or is being treated, a statement that all are well is its No (issue 26: general knowledge
 * beyond the author's synonyms, from the travel and motor-claim dev splits). Only of the person, of everyone or of
 * no one named: "my son is fine" says nothing of the others.
 */
import { BREAK, tokenize } from './normalize.js';

/** Words of a question about harm or illness. */
const HARM = new Set([
  'hurt', 'injured', 'injury', 'injuries', 'harmed', 'wounded', 'ill', 'sick', 'unwell', 'treated', 'treatment', 'condition', 'conditions',
  'symptoms', 'illness', 'illnesses', 'medical', 'disease', 'diseases',
]);
/** Words and phrases that say someone is well. */
const WELL: readonly (readonly string[])[] = [
  ['fine'], ['ok'], ['okay'], ['good'], ['healthy'], ['well'], ['unhurt'], ['unharmed'], ['uninjured'], ['in', 'good', 'health'],
  ['clean', 'bill', 'of', 'health'], ['not', 'a', 'scratch'], ['fit', 'and', 'healthy'], ['all', 'good'],
];
/** Who may be said to be well: everyone, the person, or no one named at all. */
const EVERYONE = new Set(['everyone', 'everybody', 'all', 'we', 'us', 'i', 'me', 'both', 'are', 'am', 'is', 's', 'were', 'was', 'of', 'totally', 'completely', 'perfectly', 'absolutely', 'thankfully', 'luckily', 'yes', 'no', 'nope', 'nah']);

const harmCache = new Map<string, boolean>();
function asksOfHarm(prompt: string): boolean {
  let found = harmCache.get(prompt);
  if (found === undefined) {
    if (harmCache.size > 1000) harmCache.clear();
    harmCache.set(prompt, (found = tokenize(prompt).some((t) => HARM.has(t))));
  }
  return found;
}

/** Where the tokens say all are well, on a question about harm or illness; undefined where they do not. */
export function allWellAt(tokens: readonly string[], prompt: string | undefined): { start: number; end: number } | undefined {
  if (prompt === undefined || !asksOfHarm(prompt)) return undefined;
  for (let i = 0; i < tokens.length; i++) {
    const phrase = WELL.find((p) => p.every((w, k) => tokens[i + k] === w));
    if (!phrase) continue;
    // (A negation before it, "not fine", says the opposite: "not a scratch" is itself the phrase.)
    let start = i;
    while (start > 0 && tokens[start - 1] !== BREAK) start--;
    const before = tokens.slice(start, i);
    if (phrase[0] !== 'not' && before.some((t) => t === 'not' || t === 'never' || t === 'no')) return undefined;
    if (!before.every((t) => EVERYONE.has(t))) continue;
    // ("Fine until the ambulance came": a wellness that ended.)
    let end = i + phrase.length;
    while (end < tokens.length && tokens[end] !== BREAK) end++;
    if (tokens.slice(i + phrase.length, end).some((t) => t === 'until' || t === 'till' || t === 'then')) return undefined;
    return { start: i, end: i + phrase.length };
  }
  return undefined;
}
