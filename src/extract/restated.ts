import { BREAK, tokenize } from './normalize.js';
import { clauseTime, unasserted } from './assertion.js';
import { saidOfAnother } from './match-category.js';
import { ANSWER_FILLERS, UNCERTAIN_PHRASES } from './lexicon.js';
import { PEOPLE } from './knowledge/people.js';
import { namesPersonAsked } from './asked-person.js';
import type { MatchableQuestion } from './match-category.js';

/**
 * A yes/no question answered in its own words (issue 26, coverage of clear answers).
 *
 * - Said back (`byRestatement`): "she's allergic to nuts" asked whether the child has any allergies, "I can smell
 *   gas" asked whether you can smell gas, "we own it" asked whether you own the home. The message says the
 *   question's predicate (its words of substance after the one asked about: "allergies", "smell gas", "own") of
 *   the one asked, now and plainly: that is the question's Yes, and the same with its verb denied ("she isn't
 *   allergic to anything", "I don't own it") is its No. Never at a question worded in the negative ("Is the roof
 *   NOT in direct sun?"), whose Yes and No the words would turn round.
 * - In the words of its "(Yes means …)" (`byYesMeans`): "automatic please" where Yes means lessons in an automatic.
 *
 * Read only where nothing else was, and only from a message of one clause with no contrast, condition, hedge,
 * question, other time or someone else as its subject.
 */

/** Words of a question that are none of its substance: auxiliaries, pronouns, quantities, time, place. */
const NOT_SUBSTANCE = new Set([
  'do', 'does', 'did', 'is', 'are', 'was', 'were', 'can', 'could', 'will', 'would', 'have', 'has', 'had', 'should', 'shall', 'may',
  'you', 'your', 'yourself', 'the', 'a', 'an', 'any', 'anyone', 'anybody', 'some', 'someone', 'there', 'it', 'its', 'this', 'that',
  'currently', 'now', 'right', 'still', 'ever', 'already', 'yet', 'today', 'anywhere', 'at', 'in', 'on', 'of', 'to', 'for', 'with',
  'from', 'get', 'got', 'need', 'really', 'also', 'both', 'all', 'one', 'own', 'like', 'want', 'wish', 'prefer', 'mind', 'able',
]);
/** Openers of a yes/no question. */
const AUXILIARY = /^(?:do|does|did|is|are|was|were|can|could|will|would|have|has|had|should|shall|may)\b/u;
/** A question worded in the negative, or a message that turns or conditions what it says. */
const NEGATIVE_QUESTION = /\bnot\b|n't\b|\bnever\b|\bno longer\b/u;
const TURNS = new Set([
  'but', 'though', 'although', 'however', 'except', 'if', 'unless', 'when', 'whether', 'or', 'maybe', 'perhaps', 'probably', 'think',
  'guess', 'apparently', 'supposedly', 'allegedly', 'sometimes', 'usually', 'occasionally', 'often', 'rarely', 'seldom',
]);
const NEGATORS = new Set(['not', 'no', 'never', 'nothing', 'none', 'nobody', 'neither', 'nor', 'without']);
/** Words one answering a question put to "you" names themselves by (or a thing that is there: "there's a smell of gas"). */
const SELF = new Set(['i', 'we', 'me', 'us', 'my', 'our', 'm', 're', 'there']);

/** A question of now, and the words of a message that put it in the past. */
const PRESENT = /^(?:do|does|is|are|can|will|have|has)\b/u;
const PAST = new Set(['was', 'were', 'had', 'did', 'used', 'ago', 'previously', 'before', 'once', 'yesterday', 'earlier', 'last', 'could']);
const DETERMINERS = new Set(['the', 'a', 'an', 'my', 'our', 'his', 'her', 'their', 'this', 'that', 'another']);

/**
 * Words of a "Yes means …" that say nothing of its side: fillers ("only", "instead", "first") and nouns of a kind
 * rather than of the side ("roles", "activities", "lessons"). (A verb in -ed, "fitted", "emptied", describes.)
 */
const MEANS_FILLERS = new Set([
  'only', 'instead', 'must', 'first', 'those', 'they', 'them', 'much', 'most', 'that', 'which', 'than', 'more', 'less', 'also', 'just',
  'then', 'there', 'here', 'roles', 'role', 'activities', 'activity', 'lessons', 'lesson', 'sessions', 'options', 'things', 'people', 'days',
  'time', 'times', 'whole', 'part', 'some', 'other', 'others',
]);
const THIRD_PERSONS = new Set(['he', 'she', 'they', 'him', 'her', 'them', 'his', 'their']);
const FILLERS = new Set([...ANSWER_FILLERS, 's', 'its', 'would', 'will', 'can', 'could', 'do', 'does', 'has', 'have', 'got']);
/** Words that place a thing ("in the loft", "under the stairs"). */
const IN_PLACE = new Set(['in', 'on', 'at', 'under', 'inside', 'up', 'down', 'of', 'to', 'from', 'with', 'by', 'for']);

const UNCERTAIN = UNCERTAIN_PHRASES.map((p) => tokenize(p));
const prefix = (w: string) => w.slice(0, Math.min(w.length, 5));
/** A word's stem, roughly: "tilts" and "tilted", "shade" and "shaded" share one. */
const stem = (w: string) => w.replace(/(?:ing|ed|es|s|e)$/u, '');

/**
 * The question's predicate: its words of substance past the one it asks about, up to the next word of none
 * ("allergies"; "smell gas" of "Can you smell gas anywhere…?"; "own" of "Do you own the property?").
 */
function predicateOf(prompt: string): string[] | undefined {
  // The question itself: the last sentence that asks, without what brackets add ("(food, medicine, …)").
  const asked = askedSentence(prompt);
  if (asked === '') return undefined;
  const words = tokenize(asked).filter((t) => t !== BREAK);
  if (!AUXILIARY.test(words[0] ?? '') || NEGATIVE_QUESTION.test(asked.toLowerCase())) return undefined;
  // ("Do you own…": "own" is the predicate itself, once past the auxiliary and the subject.)
  const rest = words.slice(1);
  const subject = rest.findIndex((w) => w === 'you' || PEOPLE.has(w) || w === 'there');
  // Only a question of what the one asked does or has ("you", "your child", "there"): "Has a doctor advised you
  // against exercise?" asks what someone else did, and "my doctor advised me" may be either answer.
  if (subject >= 0 && PEOPLE.has(rest[subject]!) && rest[subject - 1] !== 'your') return undefined;
  if (rest.slice(subject + 1).includes('you')) return undefined;
  const substance = (w: string) => (w === 'own' || !NOT_SUBSTANCE.has(w)) && !PEOPLE.has(w) && w.length >= 3;
  const from = rest.findIndex((w, k) => k > subject && substance(w));
  if (from < 0) return undefined;
  const to = rest.findIndex((w, k) => k > from && !substance(w));
  return rest.slice(from, to < 0 ? undefined : to);
}

/** The question's Yes and No categories, where it has only those two. */
export function yesAndNo(gate: MatchableQuestion): { yes: string; no: string } | undefined {
  const yes = gate.categories.find((c) => c.trim().toLowerCase() === 'yes');
  const no = gate.categories.find((c) => c.trim().toLowerCase() === 'no');
  return yes === undefined || no === undefined || gate.categories.length !== 2 ? undefined : { yes, no };
}

/** The question as asked: its last sentence that asks, without what brackets add. */
const askedSentence = (prompt: string) => prompt.replace(/\([^)]*\)/gu, ' ').split(/(?<=[.!?])\s+/u).reverse().find((s) => s.includes('?')) ?? '';

/** The question's predicate said back (`predicateOf`), read once per question. */
export const askedPredicate = (prompt: string): readonly string[] | undefined => asked(prompt).predicate;

/** What a question's wording gives these readers, whatever the message: read once per question (a bounded few). */
interface Asked {
  /** The predicate said back (`predicateOf`), if the question has one. */
  predicate: string[] | undefined;
  /** The prefixes of every word of the question. */
  words: ReadonlySet<string>;
  /** Whether it asks of now ("Does…", "Is…"), so that a past said is another time. */
  present: boolean;
  /** The prefixes of the words its "(Yes means …)" gives its Yes alone, if it has one. */
  yesMeans: ReadonlySet<string> | undefined;
  /**
   * Of those, the stems of the ones every alternative of the "Yes means" shares: its words after the last "or" and the thing
   * after it ("shade" of "trees, buildings or a hill shade it"; none of "in a loft, behind fitted units or in a
   * cupboard"). Denied, they deny every alternative. None where the "Yes means" itself denies something.
   */
  yesMeansShared: ReadonlySet<string> | undefined;
}
const askedOf = new Map<string, Asked>();
function asked(prompt: string): Asked {
  let found = askedOf.get(prompt);
  if (!found) {
    const question = askedSentence(prompt);
    const means = /\(\s*yes means ([^)]*)\)/iu.exec(prompt);
    const inQuestion = new Set(tokenize(question).map(prefix));
    const own = (w: string) => w.length >= 4 && !w.endsWith('ed') && !NOT_SUBSTANCE.has(w) && !MEANS_FILLERS.has(w) && !PEOPLE.has(w) && !inQuestion.has(prefix(w));
    const gloss = means === null ? [] : tokenize(means[1]!).filter((t) => t !== BREAK);
    // After the last "or", past its articles and prepositions, the alternative's own word; what follows is shared.
    let shared = gloss.lastIndexOf('or') + 1;
    while (shared > 0 && shared < gloss.length && (DETERMINERS.has(gloss[shared]!) || IN_PLACE.has(gloss[shared]!))) shared++;
    if (shared > 0) shared++;
    found = {
      predicate: predicateOf(prompt),
      words: new Set(tokenize(prompt).map(prefix)),
      present: PRESENT.test(question.trim().toLowerCase()),
      yesMeans: means === null ? undefined : new Set(tokenize(means[1]!).filter(own).map(prefix)),
      yesMeansShared: means === null || gloss.some((t) => NEGATORS.has(t)) ? undefined : new Set(gloss.slice(shared).filter(own).map(stem)),
    };
    if (askedOf.size >= 1000) askedOf.clear();
    askedOf.set(prompt, found);
  }
  return found;
}

/**
 * Whether a message is one plain statement, of the one asked, now, about the question's thing, with its word of
 * substance at `at`: one clause, no contrast, condition, hedge, frequency, question, laugh or irony; no one else
 * named (on a question put to "you", the person names themselves or no one); no other time; no other thing after
 * it ("we own the flat above"). `saysWhose`: the words at `at` name the one asked themselves ("it's ours"), so no
 * "I" or "we" need come before them.
 */
export function plainStatement(text: string, tokens: readonly string[], at: number, prompt: string, saysWhose = false): boolean {
  if (text.includes('?') || tokens.includes(BREAK) || tokens.some((t) => TURNS.has(t))) return false;
  if (UNCERTAIN.some((p) => tokens.some((_, i) => p.every((w, k) => tokens[i + k] === w)))) return false;
  if (unasserted(text, tokens, prompt) !== undefined || clauseTime(tokens, 0, tokens.length, prompt) !== undefined) return false;
  if (saidOfAnother([...tokens], at, prompt)) return false;
  const toYou = /\byou\b/iu.test(prompt);
  const named = tokens.slice(0, at).filter((t) => PEOPLE.has(t) || THIRD_PERSONS.has(t));
  if (toYou && named.length > 0) return false;
  // Asked of one other person ("your child"): no one else named ("my husband is allergic to cats").
  if (named.some((t) => PEOPLE.has(t) && !namesPersonAsked(t, prompt))) return false;
  // Said of another time than the question's: "she was allergic as a baby" asked whether she has allergies.
  const question = asked(prompt);
  if (question.present && tokens.some((t) => PAST.has(t))) return false;
  for (let k = at + 1; k < tokens.length - 1; k++) if (DETERMINERS.has(tokens[k]!) && !question.words.has(prefix(tokens[k + 1]!))) return false;
  return saysWhose || !(toYou && !tokens.slice(0, at).some((t) => SELF.has(t)) && at > 1);
}

/** "Yes" or "No" for a message that says a yes/no question back; undefined when it does not, plainly. */
export function byRestatement(text: string, gate: MatchableQuestion): string | undefined {
  const answers = gate.prompt === undefined ? undefined : yesAndNo(gate);
  const predicate = gate.prompt === undefined ? undefined : asked(gate.prompt).predicate;
  if (answers === undefined || predicate === undefined) return undefined;
  const tokens = tokenize(text);
  // Every word of the predicate is said ("I smell burning" says no gas); where the first stands, the answer does.
  if (!predicate.every((w) => tokens.some((t) => t.startsWith(prefix(w))))) return undefined;
  const at = tokens.findIndex((t) => predicate.some((w) => t.startsWith(prefix(w))));
  if (!plainStatement(text, tokens, at, gate.prompt!)) return undefined;
  // Denied before the predicate ("she isn't allergic", "I don't own it") is No; anywhere after it, unclear.
  // (Two denials turn each other: "I wouldn't say no to a few sessions" is no plain No.)
  const denials = tokens.slice(0, at).filter((t) => NEGATORS.has(t)).length;
  if (denials > 1 || tokens.slice(at + 1).some((t) => NEGATORS.has(t))) return undefined;
  return denials === 1 ? answers.no : answers.yes;
}

/**
 * "Yes" for a message that says what the question says its Yes means: "(Yes means lessons in an automatic only)"
 * and "automatic please", "(Yes means it is in a loft, behind fitted units or in a cupboard…)" and "it's in the
 * loft". Only its own words count, those the question does not use for the other side ("automatic", not "manual";
 * "land", not "activities"), said plainly and undenied. A No is never read so: "not in the loft" may still be in a
 * cupboard.
 */
/**
 * "No" for a message that plainly denies what every alternative of the question's "(Yes means …)" shares: "it's
 * not shaded", "no, it's not shaded" where Yes means "trees, buildings or a hill shade it". One denial, right before
 * the word, in a message of nothing else; a leading bare "no" agrees with it. (Denying one alternative, "not in the
 * loft", says nothing of the others: never read.)
 */
export function byYesMeansDenied(text: string, gate: MatchableQuestion): string | undefined {
  const answers = gate.prompt === undefined ? undefined : yesAndNo(gate);
  const shared = gate.prompt === undefined ? undefined : asked(gate.prompt).yesMeansShared;
  if (answers === undefined || shared === undefined || shared.size === 0) return undefined;
  const all = tokenize(text);
  // ("no, it's not shaded": the bare no opening the message agrees with the denial after it.)
  const tokens = (BARE_NOES.has(all[0] ?? '') ? all.slice(all[1] === BREAK ? 2 : 1) : all);
  const at = tokens.findIndex((t) => t.length >= 4 && shared.has(stem(t)));
  if (at < 1 || tokens.includes(BREAK)) return undefined;
  // The one denial, right before the word ("not shaded", "isn't really shaded"); before it only the thing and its verb.
  let k = at - 1;
  while (k > 0 && DENIAL_FILLERS.has(tokens[k]!)) k--;
  if (!NEGATORS.has(tokens[k]!) || tokens.filter((t) => NEGATORS.has(t)).length !== 1) return undefined;
  const words = asked(gate.prompt!).words;
  if (!tokens.slice(0, k).every((t) => FILLERS.has(t) || words.has(prefix(t)))) return undefined;
  if (!tokens.slice(at + 1).every((t) => FILLERS.has(t) || AT_ALL.has(t))) return undefined;
  return plainStatement(tokens.join(' '), tokens, at, gate.prompt!, true) ? answers.no : undefined;
}
const BARE_NOES = new Set(['no', 'nope', 'nah']);
const DENIAL_FILLERS = new Set(['really', 'very', 'much', 'that', 'too', 'at', 'all', 'be', 'been', 'being', 'is', 'getting', 'ever', 'a', 'an', 'the']);
const AT_ALL = new Set(['at', 'all', 'really', 'much', 'either', 'thankfully', 'luckily']);

export function byYesMeans(text: string, gate: MatchableQuestion): string | undefined {
  const answers = gate.prompt === undefined ? undefined : yesAndNo(gate);
  const question = gate.prompt === undefined ? undefined : asked(gate.prompt);
  const own = question?.yesMeans;
  if (answers === undefined || question === undefined || own === undefined) return undefined;
  const tokens = tokenize(text);
  const at = tokens.findIndex((t) => t.length >= 4 && own.has(prefix(t)));
  if (at < 0 || tokens.some((t) => NEGATORS.has(t))) return undefined;
  // In the question's words alone ("it's in the loft", "automatic please"): a word of its own ("there's a hill
  // behind us", "my dad has an automatic") may say something else of them.
  if (!tokens.every((t) => t === BREAK || FILLERS.has(t) || IN_PLACE.has(t) || question.words.has(prefix(t)))) return undefined;
  return plainStatement(text, tokens, at, gate.prompt!) ? answers.yes : undefined;
}
