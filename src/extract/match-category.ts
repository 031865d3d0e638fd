import {
  COMMON_SYNONYMS,
  CORRECTION_MARKERS,
  META_PHRASES,
  NEGATION_FILLERS,
  NEGATORS,
  NEUTRAL_PHRASES,
  QUESTION_OPENERS,
  REQUEST_OPENERS,
  STEERING_PHRASES,
  UNCERTAIN_PHRASES,
} from './lexicon.js';
import { BREAK, editDistance, normalize, tokenize } from './normalize.js';

/** The offline matcher reads at most this much text; longer messages go to a model. */
export const MAX_MATCH_TEXT_LENGTH = 1000;

export interface MatchableQuestion {
  categories: readonly string[];
  synonyms?: Readonly<Record<string, readonly string[]>> | undefined;
}

export type AbstainReason =
  | 'empty'
  | 'too_long'
  | 'steering'
  | 'question'
  | 'uncertain'
  | 'no_match'
  | 'ambiguous';

export type MatchResult =
  | { status: 'match'; value: string; confidence: number }
  | { status: 'abstain'; reason: AbstainReason };

interface Phrase {
  tokens: string[];
  /** What the phrase says: a category, a hedge ("maybe"), or nothing ("no problem"). */
  means: { category: string } | 'hedge' | 'neutral';
}

interface Mention {
  category: string;
  start: number;
  end: number;
  typo: boolean;
}

const phraseTokens = (phrase: string) => tokenize(phrase).filter((t) => t !== BREAK);
const STEERING = STEERING_PHRASES.map(phraseTokens);
const META = META_PHRASES.map(phraseTokens);
const OPENERS = QUESTION_OPENERS.map(phraseTokens);
const REQUESTS = REQUEST_OPENERS.map(phraseTokens);
const CORRECTIONS = CORRECTION_MARKERS.map(phraseTokens);
const NEGATOR_SET = new Set(NEGATORS);
const FILLER_SET = new Set(NEGATION_FILLERS);

/**
 * The offline matcher: finds which category of a question a message means, or
 * abstains. It commits only when exactly one category is meant, with no hedge,
 * no question back and no attempt to steer the assistant. A negated mention
 * ("not an emergency") is dropped; a negated "yes", or a negated category of a
 * two-way question, means the other answer; after a correction ("no, wait,
 * yes") only what follows counts.
 */
export function matchCategory(text: string, gate: MatchableQuestion): MatchResult {
  if (text.trim().length === 0) return abstain('empty');
  if (text.length > MAX_MATCH_TEXT_LENGTH) return abstain('too_long');
  const all = tokenize(text);
  if (all.length === 0) return abstain('empty');

  const whole = all.filter((t) => t !== BREAK).join(' ');
  const lexicon = lexiconFor(gate);
  const exact = gate.categories[lexicon.normalized.indexOf(whole)];
  if (exact !== undefined && !/\?\s*$/.test(text)) return { status: 'match', value: exact, confidence: 1 };

  if (STEERING.some((p) => indexOf(all, p) >= 0)) return abstain('steering');
  if (META.some((p) => indexOf(all, p) >= 0) || OPENERS.some((p) => startsAt(all, 0, p))) return abstain('question');
  if (/\?\s*$/.test(text) && !REQUESTS.some((p) => startsAt(all, lastClauseStart(all), p))) return abstain('question');

  const corrected = afterLastCorrection(all);
  if (corrected === undefined) return abstain('uncertain');
  const tokens = all.slice(corrected);
  // "Nothing is missing", "absolutely not": negations that combine or trail
  // are easy to read backwards, and a wrong answer is worse than a new question.
  if (hasDoubleNegative(tokens)) return abstain('ambiguous');
  const { phrases, hedges } = lexicon;
  // A hedge anywhere wins, even inside what reads as an answer ("I don't remember").
  if (hedges.some((h) => indexOf(tokens, h) >= 0)) return abstain('uncertain');
  const mentions: Mention[] = [];
  const consumedBy = new Map<number, Phrase>();
  for (let i = 0; i < tokens.length; ) {
    const found = longestPhraseAt(tokens, i, phrases);
    if (!found) {
      i++;
      continue;
    }
    for (let k = i; k < i + found.length; k++) consumedBy.set(k, found.phrase);
    if (typeof found.phrase.means === 'object')
      mentions.push({ category: found.phrase.means.category, start: i, end: i + found.length, typo: found.typo });
    i += found.length;
  }

  if (hasTrailingNot(tokens, consumedBy)) return abstain('ambiguous');

  const { yes, no } = lexicon;
  const otherOf = (category: string) =>
    category === yes && no !== undefined
      ? no
      : category === no
        ? undefined
        : gate.categories.length === 2
        ? gate.categories.find((c) => c !== category)
        : undefined;

  const meant = new Set<string>();
  let typo = false;
  let flipped = false;
  for (const m of mentions) {
    const negator = negatorBefore(tokens, m.start, consumedBy);
    // "no, we don't": a negator read as the same answer agrees with it.
    if (negator === undefined || negator.consumedAs === m.category) {
      meant.add(m.category);
      typo ||= m.typo;
      continue;
    }
    // "no lapses": the "no" read as an answer was only negating what follows.
    if (negator.consumedAs !== undefined) meant.delete(negator.consumedAs);
    const other = otherOf(m.category);
    if (other !== undefined) {
      meant.add(other);
      flipped = true;
    }
  }
  if (meant.size === 0) return abstain('no_match');
  if (meant.size > 1) return abstain('ambiguous');
  const [value] = [...meant];
  const wholePhrase = mentions.length === 1 && mentions[0]!.start === 0 && mentions[0]!.end === tokens.length;
  const confidence = typo ? 0.7 : flipped ? 0.8 : wholePhrase ? 0.95 : 0.85;
  return { status: 'match', value: value!, confidence };
}

function abstain(reason: AbstainReason): MatchResult {
  return { status: 'abstain', reason };
}

/** What the matcher knows about one question, built once per flow question. */
interface GateLexicon {
  /** Every phrase that means something for this question, longest first. */
  phrases: Phrase[];
  /** The hedges that are not answers of this question (a "Not sure" category is one). */
  hedges: string[][];
  /** The categories, normalized, in order. */
  normalized: string[];
  yes: string | undefined;
  no: string | undefined;
}

// Keyed by the categories array and the synonyms object, which a flow keeps
// for its lifetime, rather than by the gate object, which callers rebuild.
const lexiconCache = new WeakMap<readonly string[], WeakMap<object, GateLexicon>>();
const NO_SYNONYMS = {};

function lexiconFor(gate: MatchableQuestion): GateLexicon {
  let bySynonyms = lexiconCache.get(gate.categories);
  if (!bySynonyms) lexiconCache.set(gate.categories, (bySynonyms = new WeakMap()));
  const cached = bySynonyms.get(gate.synonyms ?? NO_SYNONYMS);
  if (cached) return cached;

  const byText = new Map<string, Phrase>();
  const add = (text: string, means: Phrase['means']) => {
    const tokens = phraseTokens(text);
    const key = tokens.join(' ');
    if (tokens.length > 0 && !byText.has(key)) byText.set(key, { tokens, means });
  };
  // Labels and the flow's own synonyms first: they win over built-in words.
  for (const category of gate.categories) {
    add(category, { category });
    const own = Object.entries(gate.synonyms ?? {}).find(([k]) => k.toLowerCase() === category.toLowerCase());
    for (const phrase of own?.[1] ?? []) add(phrase, { category });
  }
  for (const category of gate.categories)
    for (const phrase of COMMON_SYNONYMS[normalize(category)] ?? []) add(phrase, { category });
  for (const phrase of NEUTRAL_PHRASES) add(phrase, 'neutral');
  for (const phrase of UNCERTAIN_PHRASES) add(phrase, 'hedge');
  const phrases = [...byText.values()].sort((a, b) => b.tokens.length - a.tokens.length);
  const normalized = gate.categories.map((c) => normalize(c));
  const lexicon: GateLexicon = {
    phrases,
    hedges: phrases.filter((p) => p.means === 'hedge').map((p) => p.tokens),
    normalized,
    yes: gate.categories[normalized.indexOf('yes')],
    no: gate.categories[normalized.indexOf('no')],
  };
  bySynonyms.set(gate.synonyms ?? NO_SYNONYMS, lexicon);
  return lexicon;
}

function longestPhraseAt(
  tokens: string[],
  at: number,
  phrases: Phrase[],
): { phrase: Phrase; length: number; typo: boolean } | undefined {
  if (tokens[at] === BREAK) return undefined;
  for (const phrase of phrases) if (startsAt(tokens, at, phrase.tokens)) return { phrase, length: phrase.tokens.length, typo: false };
  for (const phrase of phrases) {
    if (phrase.means === 'hedge' || phrase.means === 'neutral') continue;
    if (phrase.tokens.every((word, k) => tokens[at + k] !== undefined && closeEnough(tokens[at + k]!, word)))
      return { phrase, length: phrase.tokens.length, typo: true };
  }
  return undefined;
}

/**
 * A small typo of `word`: one edit in words of five letters or more (two from
 * eight), keeping the first letter, or two swapped letters in shorter words
 * ("nwe"), so that everyday words ("hope", "now") never pass for answers.
 */
function closeEnough(token: string, word: string): boolean {
  if (token === word) return true;
  if (token === BREAK || token[0] !== word[0]) return false;
  if (word.length >= 5) {
    const allowed = word.length >= 8 ? 2 : 1;
    return token.length >= 4 && editDistance(token, word, allowed) <= allowed;
  }
  if (word.length < 3 || token.length !== word.length) return false;
  const diff = [...word].flatMap((c, i) => (c === token[i] ? [] : [i]));
  return diff.length === 2 && diff[1] === diff[0]! + 1 && word[diff[0]!] === token[diff[1]!] && word[diff[1]!] === token[diff[0]!];
}

/**
 * The negator shortly before a mention in the same clause, if any. A negator
 * that was itself read as an answer ("no" as No) is returned with that answer,
 * so the caller can take it back.
 */
function negatorBefore(
  tokens: string[],
  start: number,
  consumedBy: Map<number, Phrase>,
): { consumedAs: string | undefined } | undefined {
  for (let i = start - 1, seen = 0; i >= 0 && seen < 4; i--, seen++) {
    const t = tokens[i]!;
    if (t === BREAK) return undefined;
    const phrase = consumedBy.get(i);
    if (phrase) {
      // Only a bare negator read as an answer ("no") may negate what follows.
      const bare = phrase.tokens.length === 1 && NEGATOR_SET.has(t) && typeof phrase.means === 'object';
      return bare ? { consumedAs: (phrase.means as { category: string }).category } : undefined;
    }
    if (NEGATOR_SET.has(t)) return { consumedAs: undefined };
    if (!FILLER_SET.has(t)) return undefined;
  }
  return undefined;
}

/**
 * Where the words after a correction marker start: 0 when there is none, and
 * undefined when the person corrected themselves more than once (they are not
 * sure, and the last word is no better than the first).
 */
function afterLastCorrection(tokens: string[]): number | undefined {
  let from = 0;
  let corrections = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (i > 0 && tokens[i - 1] !== BREAK) continue;
    const marker = CORRECTIONS.find((p) => startsAt(tokens, i, p));
    if (marker && i + marker.length < tokens.length) {
      from = i + marker.length;
      corrections++;
    }
  }
  return corrections > 1 ? undefined : from;
}


function lastClauseStart(tokens: string[]): number {
  const i = tokens.lastIndexOf(BREAK);
  return i < 0 ? 0 : i + 1;
}

function indexOf(tokens: string[], phrase: string[]): number {
  for (let i = 0; i + phrase.length <= tokens.length; i++) if (startsAt(tokens, i, phrase)) return i;
  return -1;
}

function startsAt(tokens: string[], at: number, phrase: string[]): boolean {
  return phrase.length > 0 && phrase.every((t, k) => tokens[at + k] === t);
}

const NEGATIVE_WORDS = new Set([...NEGATORS, 'nothing', 'none', 'nobody', 'missing', 'lack', 'lacking', 'lacks', 'unavailable']);
const INTERJECTIONS = new Set(['no', 'nope', 'nah']);

/**
 * Two negative words in one clause ("nothing is missing", "we don't lack
 * anything"). A "no" opening a clause is an answer, not a negation: "no, we
 * don't" is one negative.
 */
function hasDoubleNegative(tokens: string[]): boolean {
  let count = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === BREAK) count = 0;
    else if (NEGATIVE_WORDS.has(t) && !(INTERJECTIONS.has(t) && (i === 0 || tokens[i - 1] === BREAK)) && ++count >= 2)
      return true;
  }
  return false;
}

/**
 * A "not" closing a clause, outside any known phrase, negates what came before
 * it ("totally not"): the matcher reads negation forwards only, so it abstains.
 */
function hasTrailingNot(tokens: string[], consumedBy: Map<number, Phrase>): boolean {
  return tokens.some(
    (t, i) =>
      t === 'not' &&
      !consumedBy.has(i) &&
      i > 0 &&
      tokens[i - 1] !== BREAK &&
      (i === tokens.length - 1 || tokens[i + 1] === BREAK),
  );
}
