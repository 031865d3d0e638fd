import { NEGATION_FILLERS, NEGATORS } from './lexicon.js';
import { readCategory, type MatchableQuestion } from './match-category.js';
import { BREAK, tokenize } from './normalize.js';
import { unasserted } from './assertion.js';

const NEGATOR_SET = new Set(NEGATORS);
const FILLER_SET = new Set(NEGATION_FILLERS);

/** Why a model's evidence does not ground its value; undefined when it does. */
export type EvidenceProblem = 'missing' | 'not_in_message' | 'negated' | 'not_asserted' | 'contradicted' | 'too_vague';

/**
 * Checks the words a model quotes for a value (its evidence) against the
 * message: they must occur in it (normalised: case, accents, contractions),
 * not under a negation there ("not" right before them in their clause), in a
 * message that asserts something (no sarcasm or hypothetical: assertion.ts),
 * and the offline reader must not read another category in it. For a
 * question not being asked, a single word or a bare number is too vague to
 * be about that question ("2" typed at the insurance question).
 */
export function checkEvidence(
  text: string,
  evidence: string,
  value: string,
  gate: MatchableQuestion,
  asked: boolean,
): EvidenceProblem | undefined {
  const said = tokenize(text);
  const quoted = tokenize(evidence).filter((t) => t !== BREAK);
  if (quoted.length === 0) return 'missing';
  // Matched across clause breaks ("no, I don't" quoted as "no I don't"), negation read within the clause.
  const words = said.flatMap((t, i) => (t === BREAK ? [] : [i]));
  const at = indexOf(words.map((i) => said[i]!), quoted);
  if (at < 0) return 'not_in_message';
  if (!NEGATOR_SET.has(quoted[0]!) && negatedAt(said, words[at]!)) return 'negated';
  if (unasserted(text) !== undefined) return 'not_asserted';
  if (!asked && (quoted.length < 2 || quoted.every((t) => /^\d+$/.test(t) || FILLER_SET.has(t)))) return 'too_vague';
  const offline = readCategory(text, gate, { ownWordsOnly: !asked }).result;
  if (offline.status === 'match' && offline.value.toLowerCase() !== value.toLowerCase()) return 'contradicted';
  return undefined;
}

/** A negator shortly before `at` in the same clause ("not a smoker", "never really smoked"). */
function negatedAt(tokens: string[], at: number): boolean {
  for (let i = at - 1, seen = 0; i >= 0 && seen < 4; i--, seen++) {
    const t = tokens[i]!;
    if (t === BREAK) return false;
    if (NEGATOR_SET.has(t)) return true;
    if (!FILLER_SET.has(t)) return false;
  }
  return false;
}

function indexOf(tokens: string[], phrase: string[]): number {
  for (let i = 0; i + phrase.length <= tokens.length; i++) if (phrase.every((t, k) => tokens[i + k] === t)) return i;
  return -1;
}
