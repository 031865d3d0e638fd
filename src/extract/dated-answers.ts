import { clauseTime, unasserted } from './assertion.js';
import { afterTakeBack } from './conclusion.js';
import { hedgedByLikelihood } from './guess.js';
import { BREAK, clauseEnd, clauseStart, tokenize } from './normalize.js';
import { DISCOVERY_VERBS } from './knowledge/verbs.js';
import { readRate } from './rates.js';
import { readScaleEnd } from './scale-ends.js';
import { anotherSubject } from './subject.js';
import { readTimingWindow } from './timing-windows.js';
import type { ExtractionQuestion } from './types.js';

/**
 * Answers read from what a category stands for rather than from its words (issue 26): a date read into a
 * timing category's window (timing-windows.ts), a rate into a frequency category's band (rates.ts). Each
 * is taken only from a clause that is the person's, about the asked thing, now or planned: not someone
 * else's date, not corrected, contrasted, past, ironic or hypothetical. offline.ts asks them only where no
 * category's words were read.
 */

/** Words of a clause that says when the person plans the asked thing ("we'd like to start from the 1st", "ideally in two weeks"). */
const PLAN_WORDS = new Set([
  'i', 'we', 'me', 'us', 'it', 'that', 'this', 'would', 'will', 'am', 'is', 'are', 'be', 'like', 'want', 'need', 'plan', 'planning',
  'to', 'start', 'starting', 'begin', 'leave', 'leaving', 'go', 'going', 'move', 'moving', 'fly', 'flying', 'travel', 'travelling',
  'can', 'could', 'hope', 'hoping', 'ideally', 'preferably', 'best', 'on', 'in', 'from', 'at', 'by', 'around', 'about', 'after', 'before',
  'until', 'till', 'not', 'the', 'of', 'for', 'well', 'so', 'um', 'hmm', 'ok', 'okay', 'please', 'just', 'only', 'earliest', 'latest',
  'sometime', 'some', 'time', 'early', 'mid', 'middle', 'late', 'end', 'beginning', 'next', 'this', 'coming', 'a', 'an', 'within',
  'there', 'back', 'away', 'off', 'any', 'day', 'date', 'ready', 'free', 'available', 'then', 'should', 'shall', 'let', 's', 'us',
  // A time said roughly ("like 20 min ago", "roughly a week ago").
  'like', 'roughly', 'approximately', 'approx', 'nearly', 'almost', 'circa', 'ish',
  // Someone coming to the person ("can you come tonight", "send someone asap if possible").
  'come', 'coming', 'round', 'over', 'out', 'send', 'someone', 'somebody', 'you', 'if', 'possible', 'need', 'needs', 'here',
  // A plan the person has changed: "we pushed it to june", "moved it forward to the 3rd".
  'pushed', 'moved', 'postponed', 'rescheduled', 'changed', 'brought', 'forward', 'delayed', 'put',
  // The same prepositions in the major languages ("en enero", "ab Januar", "a partir de janvier").
  'en', 'em', 'au', 'op', 'ab', 'desde', 'partir', 'des', 'dal', 'vanaf', 'im',
  // "Preferably" in the major languages ("am liebsten im Januar", "de preferencia en enero", "de preference en janvier").
  'am', 'liebsten', 'lieber', 'preferencia', 'preferiblemente', 'preference', 'plutot', 'preferibilmente', 'preferencialmente', 'liefst', 'bij', 'voorkeur',
]);
/** Words of a clause that tells when the asked thing happened ("it happened on tuesday", "we got hit a fortnight ago"). */
const EVENT_WORDS = new Set([
  'happened', 'happen', 'occurred', 'was', 'were', 'did', 'got', 'last', 'ago', 'just', 'only', 'hit', 'crashed', 'stolen', 'broken',
  'damaged', 'started', 'began', 'since', 'think', 'pretty', 'sure', 'must', 'have', 'been', 'had', 'accident', 'incident', 'all',
]);
/** Words that say the person does not know ("today, tomorrow, who knows"): whatever date or rate is near them is a guess. */
const NOT_KNOWN = [
  ['who', 'knows'], ['no', 'idea'], ['not', 'sure'], ['unsure'], ['do', 'not', 'know'], ['idk'], ['no', 'clue'], ['can', 'not', 'remember'],
  ['do', 'not', 'remember'], ['hard', 'to', 'say'], ['not', 'certain'], ['can', 'not', 'say'], ['god', 'knows'], ['dunno'],
];
const notKnown = (tokens: readonly string[]) => tokens.some((_, i) => NOT_KNOWN.some((p) => p.every((w, k) => tokens[i + k] === w)));
/**
 * What follows an opening clause that only denies ("not today, but tomorrow", "no, not monday - tuesday"): a
 * short clause of "not" and at most three words, then the rest (past a "but"). Undefined where there is none.
 */
function afterDenial(tokens: readonly string[]): string[] | undefined {
  let i = 0;
  if ((tokens[0] === 'no' || tokens[0] === 'nope') && tokens[1] === BREAK) i = 2;
  if (tokens[i] !== 'not') return undefined;
  const end = tokens.indexOf(BREAK, i);
  if (end < 0 || end - i > 4) return undefined;
  let rest = tokens.slice(end + 1);
  if (rest[0] === 'but') rest = rest.slice(1);
  return rest.some((t) => t !== BREAK) ? rest : undefined;
}
/** Verbs that tell when something began or happened (the asked event, looking back). */
const STARTING = new Set(['started', 'start', 'starts', 'began', 'begun', 'happened', 'occurred', 'burst', 'broke', 'appeared', 'came', 'kicked']);
/** "Actually", "instead", "sorry" opening or closing a message: a take-back of an earlier turn's answer. */
const ALONE_TAKE_BACK = /^\s*(?:actually|sorry|instead|oh|hmm|no wait|wait)\b[\s,.!-]*|[\s,.!-]*\b(?:actually|instead|then)[\s.!]*$/giu;
/** A correction or a contrast: which date holds is left to the words that say it. */
const TURNED = /\b(?:sorry|wait|actually|i mean|i meant|scratch that|or rather|correction|instead|but|though|however|although)\b/iu;
const CHANGED_MIND = /\b(?:sorry|wait|actually|i mean|i meant|scratch that|or rather|correction|instead|but|though|however|although|was going to|were going to|used to|originally|ago|last|was|were|had|did|back in)\b/iu;
/**
 * The timing category a date in the text falls in (timing-windows.ts), when the clause holding it is the
 * person's, said now or of what is planned, and not ironic nor hypothetical.
 */
export function byTimingWindow(text: string, gate: ExtractionQuestion, today: string): string | undefined {
  // "In the new year probably": not said surely; offered back, never committed (guess.ts).
  if (hedgedByLikelihood(text)) return undefined;
  // "January actually", "actually, early january": a take-back with no other date in the message turns back an
  // earlier answer (asked again after a correction), not one of its own.
  const alone = text.replace(ALONE_TAKE_BACK, ' ').trim();
  if (alone !== text.trim() && alone !== '') return byTimingWindow(alone, gate, today);
  // "Next week, sorry no, mid-january": what follows the last take-back, read alone.
  const tail = afterTakeBack(tokenize(text));
  if (tail !== undefined) return byTimingWindow(tail.join(' '), gate, today);
  // "Not today, but tomorrow's fine": what follows a clause that only denies, read alone.
  const corrected = afterDenial(tokenize(text));
  if (corrected !== undefined) return byTimingWindow(corrected.join(' '), gate, today);
  const read = readTimingWindow(text, gate.categories, new Date(`${today}T00:00:00Z`));
  if (read === undefined || gate.prompt === undefined || notKnown(read.tokens)) return undefined;
  if (unasserted(text, read.tokens, gate.prompt) !== undefined) return undefined;
  // A question about when something happened ("Today / In the last 7 days / More than a week ago"): the date is
  // the person's account of it, unless said of someone else, found out then ("I only noticed it today"), denied
  // or turned by a contrast.
  if (read.past) {
    if (TURNED.test(text)) return undefined;
    const start = clauseStart(read.tokens, read.start);
    const end = clauseEnd(read.tokens, read.end);
    const clause = read.tokens.slice(start, end);
    if (clause.some((t) => DISCOVERY_VERBS.has(t) || t === 'not' || t === 'never')) return undefined;
    // (Another thing's date, "my policy renewed on the 20th", "the confirmation says the 3rd": the words before
    // the date must tell of the asked event, or be the question's own.)
    const asked = new Set(tokenize(gate.prompt));
    // ("The leak started like 20 min ago": a thing that started, began or happened then is the asked event, whatever
    // it is called; someone's doing is not: "my wife noticed it on tuesday".)
    const started = clause.some((t) => STARTING.has(t)) && !anotherSubject(read.tokens, read.start, gate.prompt, { peopleOnly: true });
    if (!started && read.tokens.slice(start, read.start).some((t) => !PLAN_WORDS.has(t) && !EVENT_WORDS.has(t) && !asked.has(t))) return undefined;
    return read.category;
  }
  // (Someone or something else's date: "payday is on the 1st", "the lease runs out 31 december": the words
  // before the date, in its clause, must be the person's plan or the question's own words.)
  const from = clauseStart(read.tokens, read.start);
  const asked = new Set(tokenize(gate.prompt));
  if (read.tokens.slice(from, read.start).some((t) => !PLAN_WORDS.has(t) && !asked.has(t))) return undefined;
  // (A correction, a contrast or a past: which date holds is left to the words that say it.)
  if (CHANGED_MIND.test(text)) return undefined;
  if (clauseTime(read.tokens, read.start, read.end, gate.prompt) === 'past') return undefined;
  return read.category;
}

/** A rate said to hold from a time to come ("from next month I'll be away every week"): not how often now. */
const FROM_A_LATER_TIME = /\b(?:will|shall|going to|gonna|from next|starting|from (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*|soon|next (?:month|week|year))\b|'ll\b/iu;
/** The frequency category a rate the person states falls in (rates.ts), said of themselves (or the asked thing), now. */
export function byRate(text: string, gate: ExtractionQuestion): string | undefined {
  if (hedgedByLikelihood(text)) return undefined;
  const tail = afterTakeBack(tokenize(text));
  if (tail !== undefined) return byRate(tail.join(' '), gate);
  const read = readRate(text, gate.categories);
  if (read === undefined || gate.prompt === undefined || notKnown(read.tokens)) return undefined;
  if (unasserted(text, read.tokens, gate.prompt) !== undefined || CHANGED_MIND.test(text) || FROM_A_LATER_TIME.test(text)) return undefined;
  if (anotherSubject(read.tokens, read.start, gate.prompt, { peopleOnly: true })) return undefined;
  // (A negation in its clause: "not even once a year".)
  if (read.tokens.slice(clauseStart(read.tokens, read.start), read.start).some((t) => t === 'not' || t === 'never' || t === 'no')) return undefined;
  return read.category;
}

/** The end of an ordered scale a superlative names ("the cheapest one", "the fastest you've got"), said by the person, now (scale-ends.ts). */
export function byScaleEnd(text: string, gate: ExtractionQuestion): string | undefined {
  if (hedgedByLikelihood(text) || gate.prompt === undefined) return undefined;
  const tail = afterTakeBack(tokenize(text));
  if (tail !== undefined) return byScaleEnd(tail.join(' '), gate);
  const tokens = tokenize(text);
  const read = readScaleEnd(tokens, gate.categories);
  if (read === undefined || notKnown(tokens)) return undefined;
  if (unasserted(text, tokens, gate.prompt) !== undefined || CHANGED_MIND.test(text)) return undefined;
  if (anotherSubject(tokens, read.start, gate.prompt, { peopleOnly: true })) return undefined;
  return read.category;
}
