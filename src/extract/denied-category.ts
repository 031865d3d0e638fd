import { ANSWER_FILLERS, NEGATORS, THANKS_AND_GREETINGS } from './lexicon.js';
import { BREAK, tokenize, wordStem as stem } from './normalize.js';
import { plainStatement } from './restated.js';
import { unasserted } from './assertion.js';
import type { MatchableQuestion } from './match-category.js';

/**
 * A category that is itself a denial ("No packing", "Never serviced", "Not passed yet"), said by denying its thing
 * (issue 26, coverage of clear answers): "we don't need packing", "no need for packing", "it's never been serviced".
 * The thing's word is said once, at the end of a plain clause of the one asked, now (restated.ts), after one
 * denial and only words of needing or having between them; the message's other clauses are fillers alone ("...,
 * thanks"). "Don't pack the plates" leaves its thing ("the plates") after it, and is not read.
 */

const NEGATOR_SET = new Set(NEGATORS);
/** Words between a denial and its thing: "don't need any packing", "never had it serviced", "no need for packing". */
const BETWEEN = new Set([
  'need', 'needed', 'needs', 'want', 'wanted', 'require', 'required', 'any', 'for', 'it', 'them', 'had', 'have', 'has', 'been',
  'ever', 'get', 'got', 'do', 'does', 'done', 'be', 'the', 'a', 'us', 'to', 'really', 'actually', 'once', 'yet', 'bother', 'with',
]);
/** Words that may close the clause after the thing: "no packing needed", "not serviced yet", "at all". */
const AFTER = new Set(['needed', 'required', 'please', 'thanks', 'thank', 'you', 'at', 'all', 'yet', 'ever', 'for', 'us', 'me', 'it', 'then', 'really', 'done', 'thx', 'ta']);
const FILLERS = new Set([...ANSWER_FILLERS, ...THANKS_AND_GREETINGS]);


/** The categories that deny a thing, by the stem of the thing's word ("No packing": "pack"). */
function deniedThings(gate: MatchableQuestion): Map<string, string> {
  const found = new Map<string, string>();
  const repeated = new Set<string>();
  for (const category of gate.categories) {
    const words = tokenize(category).filter((t) => t !== BREAK);
    if (words.length < 2 || !NEGATOR_SET.has(words[0]!)) continue;
    const thing = stem(words[1]!);
    if (found.has(thing)) repeated.add(thing);
    found.set(thing, category);
  }
  for (const thing of repeated) found.delete(thing);
  return found;
}

export function byDeniedCategory(text: string, gate: MatchableQuestion): string | undefined {
  const things = deniedThings(gate);
  if (things.size === 0 || gate.prompt === undefined) return undefined;
  const tokens = tokenize(text);
  if (text.includes('?') || unasserted(text, tokens, gate.prompt) !== undefined) return undefined;
  const said = tokens.map((t, i) => ({ i, category: things.get(stem(t)) })).filter((x) => x.category !== undefined);
  if (said.length !== 1) return undefined;
  const { i: at, category } = said[0]!;
  // The clause holding it; every other clause says nothing.
  let start = at;
  while (start > 0 && tokens[start - 1] !== BREAK) start--;
  let end = at;
  while (end < tokens.length && tokens[end] !== BREAK) end++;
  if (tokens.some((t, k) => t !== BREAK && (k < start || k >= end) && !FILLERS.has(t))) return undefined;
  if (!tokens.slice(at + 1, end).every((t) => AFTER.has(t))) return undefined;
  // One denial before it, and only words of needing or having between them.
  let k = at - 1;
  while (k >= start && BETWEEN.has(tokens[k]!)) k--;
  if (k < start || !NEGATOR_SET.has(tokens[k]!)) return undefined;
  if (tokens.slice(start, k).some((t) => NEGATOR_SET.has(t))) return undefined;
  const clause = tokens.slice(start, end);
  return plainStatement(clause.join(' '), clause, at - start, gate.prompt, true) ? category : undefined;
}
