import {
  COMMON_SYNONYMS,
  NEGATION_FILLERS,
  NEGATORS,
  QUESTION_OPENERS,
  STEERING_PHRASES,
  UNCERTAIN_PHRASES,
} from './lexicon.js';
import { BREAK, editDistance, normalize, tokenize } from './normalize.js';

/** The offline matcher reads at most this much text; longer messages go to a model. */
export const MAX_MATCH_TEXT_LENGTH = 1000;

export interface MatchableGate {
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
  /** The category it means, or null for a hedge ("maybe", "no idea"). */
  category: string | null;
}

interface Mention {
  category: string;
  start: number;
  end: number;
  typo: boolean;
}

const phraseTokens = (phrase: string) => tokenize(phrase).filter((t) => t !== BREAK);
const STEERING = STEERING_PHRASES.map(phraseTokens);
const OPENERS = QUESTION_OPENERS.map(phraseTokens);
const NEGATOR_SET = new Set(NEGATORS);
const FILLER_SET = new Set(NEGATION_FILLERS);

/**
 * The offline matcher: finds which category of a question a message means, or
 * abstains. It commits only when exactly one category is meant, with no hedge,
 * no question back and no attempt to steer the assistant; a negated mention
 * ("not an emergency") is dropped, and a negated "yes" means "no".
 */
export function matchCategory(text: string, gate: MatchableGate): MatchResult {
  if (text.trim().length === 0) return abstain('empty');
  if (text.length > MAX_MATCH_TEXT_LENGTH) return abstain('too_long');
  const tokens = tokenize(text);
  if (tokens.length === 0) return abstain('empty');

  const whole = normalize(text).replaceAll(` ${BREAK}`, '').replaceAll(BREAK, '').trim();
  const exact = gate.categories.find((c) => normalize(c) === whole);
  if (exact !== undefined) return { status: 'match', value: exact, confidence: 1 };

  if (STEERING.some((p) => indexOf(tokens, p) >= 0)) return abstain('steering');
  if (/\?\s*$/.test(text) || OPENERS.some((p) => startsWith(tokens, p))) return abstain('question');

  const phrases = phrasesFor(gate);
  const mentions: Mention[] = [];
  let hedged = false;
  for (let i = 0; i < tokens.length; ) {
    const found = longestPhraseAt(tokens, i, phrases);
    if (!found) {
      i++;
      continue;
    }
    if (found.phrase.category === null) hedged = true;
    else mentions.push({ category: found.phrase.category, start: i, end: i + found.length, typo: found.typo });
    i += found.length;
  }
  if (hedged) return abstain('uncertain');

  const consumed = new Set<number>();
  for (const m of mentions) for (let i = m.start; i < m.end; i++) consumed.add(i);
  const yes = gate.categories.find((c) => normalize(c) === 'yes');
  const no = gate.categories.find((c) => normalize(c) === 'no');

  const meant = new Set<string>();
  let typo = false;
  let flipped = false;
  for (const m of mentions) {
    if (!isNegated(tokens, m.start, consumed)) {
      meant.add(m.category);
      typo ||= m.typo;
    } else if (m.category === yes && no !== undefined) {
      meant.add(no);
      flipped = true;
    }
  }
  if (meant.size === 0) return abstain('no_match');
  if (meant.size > 1) return abstain('ambiguous');
  const [value] = meant as Set<string> & { size: 1 };
  const wholePhrase = mentions.length === 1 && mentions[0]!.start === 0 && mentions[0]!.end === tokens.length;
  const confidence = typo ? 0.7 : flipped ? 0.8 : wholePhrase ? 0.95 : 0.85;
  return { status: 'match', value: value!, confidence };
}

function abstain(reason: AbstainReason): MatchResult {
  return { status: 'abstain', reason };
}

const phraseCache = new WeakMap<MatchableGate, Phrase[]>();

/** Every phrase that means a category of this question, plus the hedges, longest first. */
function phrasesFor(gate: MatchableGate): Phrase[] {
  const cached = phraseCache.get(gate);
  if (cached) return cached;
  const byText = new Map<string, Phrase>();
  const add = (text: string, category: string | null) => {
    const tokens = phraseTokens(text);
    const key = tokens.join(' ');
    if (tokens.length > 0 && !byText.has(key)) byText.set(key, { tokens, category });
  };
  // Labels and the flow's own synonyms first: they win over built-in words.
  for (const category of gate.categories) {
    add(category, category);
    const own = Object.entries(gate.synonyms ?? {}).find(([k]) => k.toLowerCase() === category.toLowerCase());
    for (const phrase of own?.[1] ?? []) add(phrase, category);
  }
  for (const category of gate.categories)
    for (const phrase of COMMON_SYNONYMS[normalize(category)] ?? []) add(phrase, category);
  for (const phrase of UNCERTAIN_PHRASES) add(phrase, null);
  const phrases = [...byText.values()].sort((a, b) => b.tokens.length - a.tokens.length);
  phraseCache.set(gate, phrases);
  return phrases;
}

function longestPhraseAt(
  tokens: string[],
  at: number,
  phrases: Phrase[],
): { phrase: Phrase; length: number; typo: boolean } | undefined {
  if (tokens[at] === BREAK) return undefined;
  for (const phrase of phrases)
    if (phrase.tokens.every((t, k) => tokens[at + k] === t)) return { phrase, length: phrase.tokens.length, typo: false };
  // Small typos, only in longer words and keeping the first letter, so that
  // short everyday words ("hope", "now") never pass for answers.
  const token = tokens[at]!;
  if (token.length < 5) return undefined;
  for (const phrase of phrases) {
    if (phrase.category === null || phrase.tokens.length !== 1) continue;
    const word = phrase.tokens[0]!;
    if (word.length < 5 || word[0] !== token[0]) continue;
    const allowed = word.length >= 8 ? 2 : 1;
    if (editDistance(token, word, allowed) <= allowed) return { phrase, length: 1, typo: true };
  }
  return undefined;
}

/** A negator shortly before the mention, in the same clause, that is not itself an answer. */
function isNegated(tokens: string[], start: number, consumed: Set<number>): boolean {
  for (let i = start - 1, seen = 0; i >= 0 && seen < 4; i--, seen++) {
    const t = tokens[i]!;
    if (t === BREAK || consumed.has(i)) return false;
    if (NEGATOR_SET.has(t)) return true;
    if (!FILLER_SET.has(t)) return false;
  }
  return false;
}

function indexOf(tokens: string[], phrase: string[]): number {
  for (let i = 0; i + phrase.length <= tokens.length; i++) if (phrase.every((t, k) => tokens[i + k] === t)) return i;
  return -1;
}

function startsWith(tokens: string[], phrase: string[]): boolean {
  return phrase.every((t, k) => tokens[k] === t);
}
