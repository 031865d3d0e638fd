import { BREAK, tokenize } from './normalize.js';
import { clauseTime, unasserted } from './assertion.js';
import { saidOfAnother } from './match-category.js';
import { UNCERTAIN_PHRASES } from './lexicon.js';
import { PEOPLE } from './knowledge/people.js';
import { namesPersonAsked } from './asked-person.js';
import type { MatchableQuestion } from './match-category.js';

/**
 * A yes/no question answered by saying it back (issue 26, coverage of clear answers): "she's allergic to nuts"
 * asked whether the child has any allergies, "I can smell gas" asked whether you can smell gas, "we own it" asked
 * whether you own the home. The message says the question's predicate (its first word of substance after the one
 * asked about: "allergies", "smell", "own") of the one asked, now and plainly: that is the question's Yes, and the
 * same said with its verb denied ("she isn't allergic to anything", "I don't own it") is its No.
 *
 * Read only where nothing else was, and only from a message of one clause with no contrast, condition, hedge,
 * question, other time or someone else as its subject; never at a question worded in the negative ("Is the
 * roof NOT in direct sun?"), whose Yes and No the words would turn round.
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

const UNCERTAIN = UNCERTAIN_PHRASES.map((p) => tokenize(p));
const prefix = (w: string) => w.slice(0, Math.min(w.length, 5));

/**
 * The question's predicate: its words of substance past the one it asks about, up to the next word of none
 * ("allergies"; "smell gas" of "Can you smell gas anywhere…?"; "own" of "Do you own the property?").
 */
function predicateOf(prompt: string): string[] | undefined {
  // The question itself: the last sentence that asks, without what brackets add ("(food, medicine, …)").
  const asked = prompt.replace(/\([^)]*\)/gu, ' ').split(/(?<=[.!?])\s+/u).reverse().find((s) => s.includes('?'));
  if (asked === undefined) return undefined;
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

/** "Yes" or "No" for a message that says a yes/no question back; undefined when it does not, plainly. */
export function byRestatement(text: string, gate: MatchableQuestion): string | undefined {
  if (gate.prompt === undefined) return undefined;
  const yes = gate.categories.find((c) => c.trim().toLowerCase() === 'yes');
  const no = gate.categories.find((c) => c.trim().toLowerCase() === 'no');
  if (yes === undefined || no === undefined || gate.categories.length !== 2) return undefined;
  const predicate = predicateOf(gate.prompt);
  if (predicate === undefined || text.includes('?')) return undefined;
  const tokens = tokenize(text);
  // One clause: what a second one says may turn the first.
  if (tokens.includes(BREAK) || tokens.some((t) => TURNS.has(t))) return undefined;
  if (UNCERTAIN.some((p) => tokens.some((_, i) => p.every((w, k) => tokens[i + k] === w)))) return undefined;
  // Every word of the predicate is said ("I smell burning" says no gas); where the first stands, the answer does.
  if (!predicate.every((w) => tokens.some((t) => t.startsWith(prefix(w))))) return undefined;
  const at = tokens.findIndex((t) => predicate.some((w) => t.startsWith(prefix(w))));
  if (unasserted(text, tokens, gate.prompt) !== undefined || clauseTime(tokens, 0, tokens.length, gate.prompt) !== undefined) return undefined;
  if (saidOfAnother(tokens, at, gate.prompt)) return undefined;
  // Put to "you": the person names themselves ("I can smell gas", "we own it"), or no one ("allergic to nuts").
  const toYou = /\byou\b/iu.test(gate.prompt);
  const named = tokens.slice(0, at).filter((t) => PEOPLE.has(t) || ['he', 'she', 'they', 'him', 'her', 'them', 'his', 'their'].includes(t));
  if (toYou && named.length > 0) return undefined;
  // Asked of one other person ("your child"): no one else named ("my husband is allergic to cats").
  if (named.some((t) => PEOPLE.has(t) && !namesPersonAsked(t, gate.prompt))) return undefined;
  // Said of another time than the question's: "she was allergic as a baby" asked whether she has allergies.
  if (PRESENT.test(gate.prompt.trim().toLowerCase().split(/(?<=[.!?])\s+/u).reverse().find((q) => q.includes('?')) ?? '') && tokens.some((t) => PAST.has(t))) return undefined;
  // Of another thing than the question's: "we own the flat above" asked whether you own the property.
  const asked = new Set(tokenize(gate.prompt).map(prefix));
  for (let k = at + 1; k < tokens.length - 1; k++) if (DETERMINERS.has(tokens[k]!) && !asked.has(prefix(tokens[k + 1]!))) return undefined;
  if (toYou && !tokens.slice(0, at).some((t) => SELF.has(t)) && at > 1) return undefined;
  // Denied before the predicate ("she isn't allergic", "I don't own it") is No; anywhere after it, unclear.
  // (Two denials turn each other: "I wouldn't say no to a few sessions" is no plain No.)
  const denials = tokens.slice(0, at).filter((t) => NEGATORS.has(t)).length;
  if (denials > 1) return undefined;
  const deniedBefore = denials === 1;
  if (tokens.slice(at + 1).some((t) => NEGATORS.has(t))) return undefined;
  return deniedBefore ? no : yes;
}
