import { clauseTime, unasserted } from './assertion.js';
import { ANIMALS, PEOPLE } from './knowledge/animals.js';
import { BREAK, normalize, tokenize } from './normalize.js';
import { anotherSubject } from './subject.js';
import type { ExtractionQuestion } from './types.js';

/**
 * A yes to "any pets?" in the pets named (issue 26: general knowledge beyond a flow author's synonyms; from the
 * rental application used by hand, where "two cats", "a hamster" and "we have a dog", asked whether any pets will
 * live in the flat, were asked again). At a Yes/No question about pets or animals, an animal people keep, named by
 * the person as there now, is the Yes. Only the yes is read, and only from a message with no denial, contrast,
 * question, other time or someone else's animal in it: "no cats", "a dog but it's my mum's", "do fish count?",
 * "we had a cat", "my neighbour's cat" read nothing.
 */

const ASKS_ABOUT_PETS = new Set(['pet', 'pets', 'animal', 'animals']);
const DENIALS = new Set(['no', 'not', 'never', 'none', 'without', 'nothing', 'zero', 'nope', 'nah', 'neither', 'nor']);
const CONTRASTED = /\b(?:but|though|however|although|except|unless|instead)\b/iu;

/** An animal word, singular or plural ("cats", "puppies"). */
function isAnimal(token: string): boolean {
  if (ANIMALS.has(token)) return true;
  if (token.endsWith('ies') && ANIMALS.has(`${token.slice(0, -3)}y`)) return true;
  return token.endsWith('s') && ANIMALS.has(token.slice(0, -1));
}

/** The Yes category, where the question asks about pets and the message names one as the person's now. */
export function byNamedKind(text: string, gate: ExtractionQuestion): string | undefined {
  if (gate.prompt === undefined || gate.categories.length !== 2 || text.includes('?')) return undefined;
  const yes = gate.categories.find((c) => normalize(c) === 'yes');
  if (yes === undefined || !gate.categories.some((c) => normalize(c) === 'no')) return undefined;
  if (!tokenize(gate.prompt).some((t) => ASKS_ABOUT_PETS.has(t))) return undefined;
  const tokens = tokenize(text);
  const at = tokens.findIndex(isAnimal);
  if (at < 0 || tokens.some((t) => DENIALS.has(t)) || CONTRASTED.test(text)) return undefined;
  // Someone else's ("my neighbour's cat", "my sister has a dog"), another time ("we had a cat"), a wish or a joke.
  if (tokens[at - 1] === 's' && PEOPLE.has(tokens[at - 2] ?? '')) return undefined;
  if (tokens.some((t, i) => t === 's' && PEOPLE.has(tokens[i - 1] ?? '') && tokens[i + 1] !== BREAK)) return undefined;
  if (anotherSubject(tokens, at, gate.prompt, { peopleOnly: true })) return undefined;
  if (clauseTime(tokens, at, at + 1, gate.prompt) !== undefined) return undefined;
  if (unasserted(text, tokens, gate.prompt) !== undefined) return undefined;
  return yes;
}
