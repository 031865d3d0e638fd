import { NEGATION_FILLERS, NEGATORS, TEMPORAL_PHRASES } from './lexicon.js';
import { readCategory, saidOfAnother, type MatchableQuestion } from './match-category.js';
import { PEOPLE } from './knowledge/people.js';
import { BREAK, clauseStart, tokenize } from './normalize.js';
import { clauseTime, unasserted } from './assertion.js';
import { anotherSubject, personAsSubject } from './subject.js';
import { namesTheOneAsked, personIsAnswer } from './who-asked.js';

const NEGATOR_SET = new Set(NEGATORS);
const FILLER_SET = new Set(NEGATION_FILLERS);

/** Why a model's evidence does not ground its value; undefined when it does. */
export type EvidenceProblem = 'missing' | 'not_in_message' | 'negated' | 'not_asserted' | 'someone_else' | 'another_time' | 'contradicted' | 'too_vague';

/**
 * Checks the words a model quotes for a value (its evidence) against the
 * message: they must occur in it (normalised: case, accents, contractions),
 * not under a negation there ("not" right before them in their clause, or a
 * "not" closing it: "daily (not)"), in a message that asserts something (no
 * sarcasm or hypothetical: assertion.ts), said by the person of the asked
 * thing (not "my brother is a student", "my landlord has a dog"), of now (not
 * "we used to have a cat", "her sister had lapses"), and the offline reader
 * must not read another category in it. For a
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
  const start = words[at]!;
  const end = words[at + quoted.length - 1]! + 1;
  if (!NEGATOR_SET.has(quoted[0]!) && (negatedAt(said, start) || deniedAfter(said, end))) return 'negated';
  if (unasserted(text) !== undefined) return 'not_asserted';
  if (!asked && (quoted.length < 2 || quoted.every((t) => /^\d+$/.test(t) || FILLER_SET.has(t)))) return 'too_vague';
  const offline = readCategory(text, gate, { ownWordsOnly: !asked }).result;
  if (offline.status === 'match') return offline.value.toLowerCase() !== value.toLowerCase() ? 'contradicted' : undefined;
  // Not read offline: the same tests the offline reader puts to its own readings (offline.ts, match-category.ts),
  // whose, and when.
  const whoItIs = personIsAnswer(value, gate.prompt) && namesTheOneAsked(said, start, end, gate.prompt);
  if (!whoItIs && gate.prompt !== undefined) {
    for (let i = start; i < end; i++)
      if (anotherSubject(said, i, gate.prompt, { peopleOnly: true }) || (saidOfAnother(said, i, gate.prompt) && personBefore(said, start))) return 'someone_else';
    if (personAsSubject(said, start, end)) return 'someone_else';
  }
  if (clauseTime(said, start, end, gate.prompt) !== undefined || TEMPORAL.some((p) => inClause(said, start, p))) return 'another_time';
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

/** "Daily (not)", "daily, not": a negation that closes the clause after the evidence, or stands alone after it. */
function deniedAfter(tokens: string[], end: number): boolean {
  let i = end;
  if (tokens[i] === BREAK) i++;
  return NEGATOR_SET.has(tokens[i] ?? '') && (i + 1 >= tokens.length || tokens[i + 1] === BREAK);
}

/** A person named in the clause before `at` ("her sister had lapses"; not "her insurer has been on and off"). */
function personBefore(tokens: string[], at: number): boolean {
  for (let i = at - 1; i >= 0 && tokens[i] !== BREAK; i--) if (PEOPLE.has(tokens[i]!.replace(/(?<=[^s])s$/u, ''))) return true;
  return false;
}

const TEMPORAL = TEMPORAL_PHRASES.map((p) => tokenize(p).filter((t) => t !== BREAK));
/** Whether `phrase` occurs in the clause that holds `at`. */
function inClause(tokens: string[], at: number, phrase: string[]): boolean {
  for (let i = clauseStart(tokens, at); i < tokens.length && tokens[i] !== BREAK; i++) if (phrase.every((t, k) => tokens[i + k] === t)) return true;
  return false;
}

function indexOf(tokens: string[], phrase: string[]): number {
  for (let i = 0; i + phrase.length <= tokens.length; i++) if (phrase.every((t, k) => tokens[i + k] === t)) return i;
  return -1;
}
