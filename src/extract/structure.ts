import { TAKE_BACK } from './conclusion.js';
import { BREAK, tokenize } from './normalize.js';
import { PART_OF_THE_YEAR } from './knowledge/periods.js';

/** A question of how often. */
const HOW_OFTEN = /\bhow often\b|\bhow many times\b|\bhow frequently\b/iu;
/** A part of the year right where it stands ("in winter" after "monthly"). */
const PART_OF_THE_YEAR_AT = new RegExp(`^${PART_OF_THE_YEAR.source}`, 'iu');
/** A part of the year an answer is said to hold only in ("but only in winter", "just over christmas"). */
const ONLY_PART_OF_THE_YEAR = new RegExp(`\\b(?:only|just)\\s+${PART_OF_THE_YEAR.source.replace(/^\\b/u, '')}`, 'iu');

/** Whether a message, at a question of how often, says its frequency holds only in part of the year ("monthly, but only in winter"). */
export function onlyPartOfTheYear(text: string, prompt: string | undefined): boolean {
  return prompt !== undefined && HOW_OFTEN.test(prompt) && ONLY_PART_OF_THE_YEAR.test(text);
}

/**
 * The structure of a message around a category answer (issue 26: the words that assert the value, by the
 * person, now), for what the phrase reader (match-category.ts) reads in words but not in structure:
 * - a take-back after the answer ("very flexible. ugh no, we need it on the 19th", "tomorrow, sorry, I mean
 *   today"), and a contrast that moves to now ("we were going to move in january but now it's next week"):
 *   only what follows is the answer;
 * - a denied "only" ("it won't be only in my name"): the answer is more than the words say;
 * - the answer said of someone else, not the person ("yes, for my kid, not for me");
 * - another kind of the question's thing ("yes, the smoke alarm" asked about a burglar alarm).
 */
export type Structure = { kind: 'keep' } | { kind: 'abstain'; why: string } | { kind: 'reread'; text: string; keepOtherwise?: boolean };

const NEGATORS = new Set(['not', 'no', 'never', 'nt', 'won', 'isn', 'doesn', 'don', 'wasn', 'aren']);
const BE = new Set(['be', 'is', 'are', 's', 'been', 'was', 'were']);
const EXCLUSIVE = new Set(['only', 'just', 'alone', 'solely', 'exclusively']);
/** A clause of nothing but a "no" and an interjection ("ugh no", "oh no", "nah"): said after an answer, it takes it back. */
const INTERJECTIONS = new Set(['ugh', 'oh', 'hmm', 'hm', 'um', 'uh', 'erm', 'argh', 'wait', 'sorry', 'damn', 'oops', 'well']);
const NO = new Set(['no', 'nope', 'nah']);
/** A contrast that moves the answer to now or to what holds in the end. */
const TO_NOW = [['now'], ['actually'], ['in', 'the', 'end'], ['instead'], ['these', 'days'], ['at', 'the', 'moment']];
const DURATION_UNITS = new Set(['years', 'months', 'weeks', 'days', 'while', 'ages', 'decades', 'year', 'month', 'week']);
const NOW = new Set(['now', 'currently', 'nowadays', 'atm']);
const CONTRAST = new Set(['but', 'though', 'however', 'although']);
/** Words that are no kind of a thing ("an alarm", "any alarm", "the alarm"). */
const NOT_A_KIND = new Set([
  'a', 'an', 'the', 'any', 'no', 'one', 'some', 'my', 'our', 'his', 'her', 'their', 'your', 'this', 'that', 'its', 'it', 's', 'yes', 'yeah',
  'new', 'old', 'own', 'proper', 'real', 'working', 'fitted', 'installed', 'full', 'valid', 'is', 'are', 'was', 'have', 'has', 'had',
  'of', 'in', 'on', 'at', 'for', 'with', 'and', 'or', 'but', 'not', 'never', 'there', 'got', 'big', 'small', 'good', 'decent',
]);

/** Words of frequency that admit no exception, and words that open the condition an answer holds under. */
const ABSOLUTES = new Set(['never', 'always', 'daily', 'nightly', 'constantly']);
const CONDITIONS = new Set(['with', 'without', 'on', 'at', 'during', 'except', 'unless', 'when', 'whenever', 'if', 'in', 'for', 'after', 'before', 'while']);
const EMPHASIS = [['in', 'my', 'life'], ['in', 'his', 'life'], ['in', 'her', 'life'], ['in', 'their', 'life'], ['in', 'our', 'lives'], ['in', 'a', 'million', 'years'], ['for', 'me'], ['in', 'all', 'these', 'years'], ['in', 'all', 'my', 'years']];

const FIGURATIVE = new Set([
  'morally', 'emotionally', 'spiritually', 'mentally', 'socially', 'basically', 'practically', 'virtually', 'technically',
  'almost', 'nearly', 'kinda', 'sorta', 'metaphorically', 'figuratively', 'creatively',
]);

const at = (tokens: readonly string[], i: number, p: readonly string[]) => p.every((w, k) => tokens[i + k] === w);
const join = (tokens: readonly string[]) => tokens.map((t) => (t === BREAK ? ',' : t)).join(' ');

/**
 * What the structure of `tokens` says of a reading whose mentions span [first, last): keep it, abstain, or read
 * again only the part that replaces it.
 */
export function structureOf(tokens: readonly string[], first: number, last: number, prompt: string | undefined): Structure {
  // "No, it's not a basement flat, there's a garden", "no, not a walk-up": a bare "no" that opens a denial of
  // something else agrees with that denial; what it says of the question is left to the words after it.
  if (first === 0 && last === 1 && NO.has(tokens[0]!) && deniesAnotherThing(tokens.slice(tokens[1] === BREAK ? 2 : 1), prompt)) return { kind: 'abstain', why: 'no_of_a_denial' };
  // Take-backs after the answer: what follows them is the answer.
  for (let i = tokens.length - 1; i >= last; i--) {
    const marker = TAKE_BACK.find((p) => at(tokens, i, p));
    const clauseNo = tokens[i - 1] === BREAK && NO.has(tokens[i] ?? '') && i > last;
    const interjected = INTERJECTIONS.has(tokens[i] ?? '') && NO.has(tokens[i + 1] ?? '') && tokens[i - 1] === BREAK && i > last;
    const len = marker?.length ?? (interjected ? 2 : clauseNo ? 1 : 0);
    if (len === 0) continue;
    // (A bare "no" clause must be followed by more: "yes, no problem" is no take-back.)
    if ((clauseNo || interjected) && tokens[i + len] !== BREAK) continue;
    // (After a negative answer a "no" agrees with it: "it's not unrestricted, no - residents only".)
    if ((clauseNo || interjected) && tokens.slice(0, last).some((t) => NEGATORS.has(t))) continue;
    const tail = tokens.slice(i + len).filter((t, k, all) => t !== BREAK || (k > 0 && k < all.length - 1));
    return tail.some((t) => t !== BREAK) ? { kind: 'reread', text: join(tail) } : { kind: 'abstain', why: 'taken_back' };
  }
  // "..., but now it's next week": the contrast moves the answer to now.
  // (normalize.ts writes a contrast word as a clause break: "was X, now Y" and "X but now Y" are alike.)
  for (let i = last; i < tokens.length; i++) {
    if (!CONTRAST.has(tokens[i]!) && tokens[i] !== BREAK) continue;
    const from = CONTRAST.has(tokens[i + 1] ?? '') ? i + 2 : i + 1;
    const now = TO_NOW.find((p) => at(tokens, from, p));
    if (now) return { kind: 'reread', text: join(tokens.slice(from + now.length)) };
  }
  // "retired from football, working in a bank now": a later clause said of now, when the answer's is not.
  const clauseOf = (k: number) => {
    let a = k;
    while (a > 0 && tokens[a - 1] !== BREAK) a--;
    let b = k;
    while (b < tokens.length && tokens[b] !== BREAK) b++;
    return [a, b] as const;
  };
  const [, answerEnd] = clauseOf(Math.max(first, last - 1));
  const [answerStart] = clauseOf(first);
  // ("For a few years now" measures a time: no now of its own.)
  const saysNow = (from: number, to: number) =>
    tokens.slice(from, to).some((t, k) => (NOW.has(t) && !DURATION_UNITS.has(tokens[from + k - 1] ?? '')) || TO_NOW.slice(2).some((p) => at(tokens, from + k, p)));
  if (!saysNow(answerStart, answerEnd)) {
    for (let b = answerEnd; b < tokens.length; ) {
      const [from, to] = clauseOf(b + 1);
      // (Where it says what the person is doing now, "working in a bank now", the first answer is of another time: an
      // answer it holds replaces it, or nothing is read; where it only describes, "lots of free time now", it stands.)
      const doing = tokens.slice(from, to).some((t) => t.length >= 6 && t.endsWith('ing'));
      if (from < to && saysNow(from, to)) return { kind: 'reread', text: join(tokens.slice(from, to)), keepOtherwise: !doing };
      b = to;
    }
  }
  // "never with strangers", "always on weekdays": an absolute said only under a condition is not absolute.
  // ("Never in my life", "never before" at the end of its clause only stress it.)
  const stressed = EMPHASIS.some((p) => at(tokens, last, p)) || (tokens[last] === 'before' && (tokens[last + 1] === undefined || tokens[last + 1] === BREAK));
  if (last - first === 1 && ABSOLUTES.has(tokens[first]!) && CONDITIONS.has(tokens[last] ?? '') && !stressed)
    return { kind: 'abstain', why: 'restricted' };
  // "Monthly in winter" asked how often: a frequency of part of the year is not how often the rest of it.
  if (prompt !== undefined && HOW_OFTEN.test(prompt) && PART_OF_THE_YEAR_AT.test(tokens.slice(last, last + 4).join(' ')))
    return { kind: 'abstain', why: 'restricted' };
  // "it won't be only in my name": a denied "only" says there is more than its words.
  for (let i = 0; i < tokens.length; i++) {
    if (!EXCLUSIVE.has(tokens[i]!)) continue;
    // (Right before it, or with a form of "be" between: "not only", "won't be only", "isn't just".)
    let k = i - 1;
    while (k > 0 && BE.has(tokens[k]!)) k--;
    if (k >= 0 && NEGATORS.has(tokens[k]!)) return { kind: 'abstain', why: 'denied_only' };
  }
  // "morally bankrupt", "almost flooded": an adverb of degree or of a figurative sense before the question's own
  // word says the literal thing asked is not (or not surely) so.
  if (prompt !== undefined) {
    const own = promptWords(prompt);
    for (let i = 0; i + 1 < tokens.length; i++)
      if (FIGURATIVE.has(tokens[i]!) && tokens[i + 1]!.length >= 4 && (own.has(tokens[i + 1]!) || own.has(tokens[i + 1]!.replace(/(?:ed|s)$/u, '')))) return { kind: 'abstain', why: 'figurative' };
  }
  // "yes, for my kid, not for me": the answer is said of someone else.
  const toYou = prompt !== undefined && /\byou\b/iu.test(prompt);
  if (toYou) {
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i] !== 'not') continue;
      const next = tokens[i + 1] === 'for' || tokens[i + 1] === 'about' || tokens[i + 1] === 'by' ? i + 2 : i + 1;
      if (tokens[next] === 'me' || tokens[next] === 'myself' || tokens[next] === 'mine') return { kind: 'abstain', why: 'said_of_another' };
    }
  }
  // "yes, the smoke alarm" asked about a burglar alarm: another kind of the thing asked.
  // (A denial stands: "no, only a fire alarm" says there is no burglar alarm.)
  if (prompt !== undefined && !tokens.some((t) => NEGATORS.has(t))) {
    const asked = kindsAsked(prompt);
    for (let i = 1; i < tokens.length; i++) {
      const kind = asked.get(tokens[i]!);
      const before = tokens[i - 1]!;
      if (kind === undefined || before === BREAK || before === kind || NOT_A_KIND.has(before) || before.length < 3 || /\d/u.test(before)) continue;
      // (Unless the kind asked is named too: "a fire alarm but no burglar alarm".)
      const named = tokens.some((t, k) => t === kind && tokens[k + 1] === tokens[i]);
      if (!promptWords(prompt).has(before) && !named) return { kind: 'abstain', why: 'another_kind' };
    }
  }
  return { kind: 'keep' };
}

const kindCache = new Map<string, Map<string, string>>();
const wordCache = new Map<string, Set<string>>();
function promptWords(prompt: string): Set<string> {
  let words = wordCache.get(prompt);
  if (!words) {
    if (wordCache.size > 1000) wordCache.clear();
    wordCache.set(prompt, (words = new Set(tokenize(prompt))));
  }
  return words;
}
/** The nouns a question names with a kind before them ("burglar alarm" → alarm: burglar). */
function kindsAsked(prompt: string): Map<string, string> {
  let kinds = kindCache.get(prompt);
  if (!kinds) {
    if (kindCache.size > 1000) kindCache.clear();
    kinds = new Map();
    const tokens = tokenize(prompt);
    for (let i = 1; i < tokens.length; i++) {
      const [mod, head] = [tokens[i - 1]!, tokens[i]!];
      if (mod !== BREAK && head !== BREAK && KIND_WORDS.has(mod) && head.length >= 4) kinds.set(head, mod);
    }
    kindCache.set(prompt, kinds);
  }
  return kinds;
}
/**
 * Words that name a kind before a noun in a question: only these make the noun a kind (a compound of two nouns,
 * "burglar alarm", "driving licence", "personal trainer"); an adjective of degree ("full", "valid") is no kind.
 */
const KIND_WORDS = new Set(['burglar', 'driving', 'personal', 'smoke', 'fire', 'security', 'health', 'travel', 'credit', 'debit', 'savings']);

const PLACE_WORDS = new Set(['in', 'at', 'on', 'with', 'here', 'there', 'from', 'inside', 'under', 'somewhere', 'upstairs', 'downstairs', 'by', 'near']);
const OWNER = new Set(['my', 'our', 'the', 'your', 'his', 'her', 'their']);
const STATE_VERBS = new Set(['is', 's', 'are', 'was', 'were', 'has', 'have', 'had', 'looks', 'seems', 'got', 'will', 'would']);
/**
 * "nah my licence is fine, it's my card that expired": a bare yes or no beside a clause that speaks of the asked
 * thing in its own words ("my licence is fine"), which the reader did not read, is not grounded: which of the
 * two is the answer, and what the bare word answers, is a guess.
 */
export function unreadClauseOfAskedThing(tokens: readonly string[], mentions: readonly { start: number; end: number }[], prompt: string | undefined): boolean {
  if (prompt === undefined) return false;
  const own = promptWords(prompt);
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (!OWNER.has(tokens[i]!) || !own.has(tokens[i + 1]!) || tokens[i + 1]!.length < 4 || !STATE_VERBS.has(tokens[i + 2]!)) continue;
    // (Where it is, "my permit is in the car", says it exists: no second answer.)
    if (PLACE_WORDS.has(tokens[i + 3] ?? '')) continue;
    let b = i;
    while (b < tokens.length && tokens[b] !== BREAK) b++;
    if (!mentions.some((m) => m.start < b && m.end > i)) return true;
  }
  return false;
}

/** A clause that opens by denying a thing the question does not name ("it's not a basement flat", "not a walk-up"). */
function deniesAnotherThing(rest: readonly string[], prompt: string | undefined): boolean {
  let i = 0;
  if (['it', 'that', 'this', 'its', 'thats'].includes(rest[i] ?? '')) i++;
  if (['is', 's', 'was'].includes(rest[i] ?? '')) i++;
  if (rest[i] !== 'not') return false;
  const asked = new Set(tokenize(prompt ?? '').filter((t) => t !== BREAK));
  const denied = rest.slice(i + 1).filter((t, k, all) => t !== BREAK && all.slice(0, k).every((u) => u !== BREAK) && !NOT_A_THING.has(t));
  return denied.some((t) => !asked.has(t));
}
/** Words after "not" that name no thing ("no, not really", "no, not at the moment"). */
const NOT_A_THING = new Set([
  'a', 'an', 'the', 'on', 'in', 'at', 'my', 'our', 'really', 'all', 'quite', 'exactly', 'sure', 'yet', 'anymore', 'much', 'often', 'ever',
  'now', 'currently', 'today', 'that', 'this', 'one', 'any', 'anything', 'so', 'much', 'moment', 'present', 'time', 'these', 'days', 'right',
  'any', 'more', 'at', 'least', 'for', 'me', 'us', 'them', 'it', 'true', 'correct', 'right', 'case', 'applicable', 'needed', 'necessary',
]);
