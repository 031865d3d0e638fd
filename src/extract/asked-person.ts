/**
 * Whom a question asks about, when it is one person other than the one answering: "Does your child have any
 * allergies?", "How old is the oldest person travelling?", "Is the patient an adult?". On such a question "he" and
 * "she" are that person ("she doesn't have any allergies"), and "I" is not ("I don't have any allergies" says
 * nothing of the child). A question put to "you" alone ("Do you smoke?") or about anyone in a group ("Is anyone
 * travelling ...?") has no such person.
 */
import { BREAK, tokenize } from './normalize.js';
import { CHILDREN, PARTNERS } from './knowledge/people.js';

/** Nouns that name the one person a question is about, after "your", "the" or "this". */
const PERSON_ASKED = new Set([
  'child', 'son', 'daughter', 'baby', 'kid', 'toddler', 'boy', 'girl', 'partner', 'spouse', 'husband', 'wife', 'patient',
  'person', 'driver', 'passenger', 'traveller', 'traveler', 'tenant', 'guest', 'applicant', 'student', 'pupil',
]);
/** Of those, the ones the one answering cannot be (the driver or the oldest traveller may well be "me"). */
const NEVER_THE_SPEAKER = new Set(['child', 'son', 'daughter', 'baby', 'kid', 'toddler', 'boy', 'girl', 'partner', 'spouse', 'husband', 'wife', 'pupil']);
const OWNERS = new Set(['your', 'the', 'this']);
const AUXILIARIES = new Set(['is', 'are', 'was', 'were', 'does', 'do', 'did', 'has', 'have', 'had', 'will', 'would', 'can', 'could', 'should', 'may', 'might', 'must']);
/** Words between the owner and the noun that still describe the one person ("the oldest person", "your youngest child"). */
const DESCRIBING = /^(?:\p{L}+est|main|other|second|first|little|new)$/u;

const cache = new Map<string, string | null>();

/** The noun of the one person `prompt` asks about ("child" of "your child"), or undefined. */
function personAsked(prompt: string | undefined): string | undefined {
  if (prompt === undefined) return undefined;
  let found = cache.get(prompt);
  if (found === undefined) {
    if (cache.size > 1000) cache.clear();
    const tokens = tokenize(prompt);
    found = null;
    for (let i = 0; i < tokens.length && found === null; i++) {
      // (The question's subject, after its auxiliary: "does your child", "how old is the oldest person"; not its
      // object, "how many adults will collect your child".)
      if (!OWNERS.has(tokens[i]!) || !(i === 0 || AUXILIARIES.has(tokens[i - 1]!))) continue;
      const noun = DESCRIBING.test(tokens[i + 1] ?? '') ? tokens[i + 2] : tokens[i + 1];
      if (noun !== undefined && noun !== BREAK && PERSON_ASKED.has(noun)) found = noun;
    }
    cache.set(prompt, found);
  }
  return found ?? undefined;
}

/** The words by which one answering names the person asked about, by the noun the question uses. */
const CHILD = [...CHILDREN, 'little', 'youngest', 'eldest', 'oldest'];
const NAMED_AS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ...['child', 'son', 'daughter', 'baby', 'kid', 'toddler', 'boy', 'girl', 'pupil', 'student'].map((n): [string, ReadonlySet<string>] => [n, new Set(CHILD)]),
  ...['partner', 'spouse', 'husband', 'wife'].map((n): [string, ReadonlySet<string>] => [n, new Set(PARTNERS)]),
]);

/** Whether "my <noun>" may name the one person `prompt` asks about ("my son is two" asked how old the child is). */
export function namesPersonAsked(noun: string, prompt: string | undefined): boolean {
  const asked = personAsked(prompt);
  return asked !== undefined && (NAMED_AS.get(asked)?.has(noun) ?? false);
}

/** Whether `prompt` asks about one person other than the one answering, whom "he" or "she" may name. */
export const asksOfAnotherPerson = (prompt: string | undefined): boolean => personAsked(prompt) !== undefined;

/** The one answering, as a subject that has or is something ("I don't have", "I'm", "I've never"). */
const SPEAKER_STATES = new Set(['have', 'had', 'am', 'was', 'do', 'did', 'never']);

/**
 * Whether the clause opening at `start` has the one answering as its subject, stating something of themselves
 * ("I don't have any allergies", "I'm allergic to cats") on a question about another person who cannot be them (a
 * child, a partner; the oldest traveller may be "me").
 */
export function speakerStatesOwn(tokens: readonly string[], start: number, prompt: string | undefined): boolean {
  if (tokens[start] !== 'i' || !SPEAKER_STATES.has(tokens[start + 1] ?? '')) return false;
  const noun = personAsked(prompt);
  return noun !== undefined && NEVER_THE_SPEAKER.has(noun);
}
