import { clauseTime, unasserted } from './assertion.js';
import { ANIMALS } from './knowledge/animals.js';
import { PEOPLE } from './knowledge/people.js';
import { BREAK, clauseEnd, clauseStart, normalize, tokenize } from './normalize.js';
import { anotherSubject } from './subject.js';
import type { ExtractionQuestion } from './types.js';

/**
 * A yes to "any pets?" in the pets named (issue 26: general knowledge beyond a flow author's synonyms; from the
 * rental application used by hand, where "two cats", "a hamster" and "we have a dog", asked whether any pets will
 * live in the flat, were asked again). At a Yes/No question whether there are any pets at all (not one asking
 * something of them: "is your pet vaccinated?"), an animal people keep, in a clause that says only that it is there
 * with the person, is the Yes. Only the yes is read, and only from a message with no denial, contrast, question,
 * other time or someone else's animal in it: "no cats", "a dog but it's my mum's", "do fish count?", "we had a
 * cat", "my neighbour's cat", "the dog next door barks all night" read nothing.
 */

/** A question whether there are any pets at all ("Will any pets live...?", "Do you have a pet?"), not about them. */
const ASKS_WHETHER_PETS = /\b(?:any|a)\s+(?:pets?|animals?)\b|\b(?:have|has|own|keep)\s+(?:any\s+|a\s+)?(?:pets?|animals?)\b/iu;
/** ... and not a question qualifying them ("any of your pets", "any pets that need medicine"). */
const QUALIFIES_PETS = /\bany of\b|\b(?:pets?|animals?)\s+(?:that|which|who|with|needing|needs?)\b/iu;
/** Words of a clause that says only that the animals are there, with the person: "we have two cats", "a dog will live with us". */
const THERE_WORDS = new Set([
  'we', 'i', 'have', 'has', 'got', 'own', 'there', 'is', 'are', 's', 'will', 'be', 'living', 'live', 'lives', 'with', 'us', 'me',
  'moving', 'move', 'in', 'coming', 'too', 'also', 'and', 'a', 'an', 'the', 'my', 'our', 'just', 'only', 'one', 'two', 'three',
  'four', 'five', 'yes', 'yeah', 'yep', 'am', 'bringing', 'bring',
]);
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
  if (!ASKS_WHETHER_PETS.test(gate.prompt) || QUALIFIES_PETS.test(gate.prompt)) return undefined;
  const tokens = tokenize(text);
  const at = tokens.findIndex(isAnimal);
  if (at < 0 || tokens.some((t) => DENIALS.has(t)) || CONTRASTED.test(text)) return undefined;
  // Its clause says nothing else of the animal ("the neighbour's dog barks all night" mentions one; it names no pet).
  if (tokens.slice(clauseStart(tokens, at), clauseEnd(tokens, at)).some((t) => !isAnimal(t) && !THERE_WORDS.has(t) && !/^\d{1,2}$/u.test(t))) return undefined;
  // Someone else's ("my neighbour's cat", "my sister has a dog"), another time ("we had a cat"), a wish or a joke.
  if (tokens[at - 1] === 's' && PEOPLE.has(tokens[at - 2] ?? '')) return undefined;
  if (tokens.some((t, i) => t === 's' && PEOPLE.has(tokens[i - 1] ?? '') && tokens[i + 1] !== BREAK)) return undefined;
  if (anotherSubject(tokens, at, gate.prompt, { peopleOnly: true })) return undefined;
  if (clauseTime(tokens, at, at + 1, gate.prompt) !== undefined) return undefined;
  if (unasserted(text, tokens, gate.prompt) !== undefined) return undefined;
  return yes;
}
