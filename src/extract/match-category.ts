import { isAside } from './aside.js';
import { allWellAt } from './all-well.js';
import { conclusionOf } from './conclusion.js';
import { asksOfAnotherPerson, namesPersonAsked, speakerStatesOwn } from './asked-person.js';
import {
  ANSWER_FILLERS,
  APPROXIMATE_HEDGES,
  CLAUSE_TEMPORAL_PHRASES,
  COMMON_SYNONYMS,
  CORRECTION_MARKERS,
  COUNT_WORDS,
  DETERMINERS,
  META_PHRASES,
  NEGATION_FILLERS,
  NEGATORS,
  NEUTRAL_PHRASES,
  NOT_A_HEAD_NOUN,
  QUESTION_OPENERS,
  QUESTION_VERBS,
  REQUEST_OPENERS,
  RESTRICTING_OPENERS,
  STEERING_PHRASES,
  SUBJECT_MARKERS,
  TEMPORAL_PHRASES,
  UNCERTAIN_PHRASES,
} from './lexicon.js';
import { aboutThePast, clauseTime, unasserted } from './assertion.js';
import { BREAK, editDistance, normalize, tokenize, wordStem as stem } from './normalize.js';
import { inRange, monthRangeOf, rangeOf, statedNumbers, statedRange, within, yearsInMonths, type NumberRange } from './number-ranges.js';
import { countPeriodAsked, countRangeOf, periodNamedIn, timesPer, type CountPeriod } from './knowledge/per-week.js';
import { categoryByPart } from './category-parts.js';
import { shortNameStands, shortNamesOf } from './short-names.js';
import { peopleCountCategory, thingCounts } from './category-counts.js';
import { oppositesOf, otherChangesOf } from './knowledge/opposites.js';
import { NEVER_ADVERBS } from './knowledge/frequency.js';
import { DISCOVERY_VERBS, OPINION_VERBS, VIEW_VERBS } from './knowledge/verbs.js';
import { ABOUT_ANIMALS, ANIMALS } from './knowledge/animals.js';
import { FAMILY, HOUSEHOLD, PEOPLE } from './knowledge/people.js';
import { ALONE_ROLES, BROAD_ROLES } from './knowledge/roles.js';
import { asksAboutCompany, bareName, personIsAnswer, withoutArticle } from './who-asked.js';

/** The offline matcher reads at most this much text; longer messages go to a model. */
export const MAX_MATCH_TEXT_LENGTH = 1000;

export interface MatchableQuestion {
  categories: readonly string[];
  synonyms?: Readonly<Record<string, readonly string[]>> | undefined;
  /** The question's wording: a category word before one of its words ("a video visit") still answers it. */
  prompt?: string | undefined;
}

export type AbstainReason =
  | 'empty'
  | 'too_long'
  | 'steering'
  | 'question'
  | 'uncertain'
  | 'no_match'
  | 'ambiguous'
  /** The words that read as this answer belong to the answer of another question (see offline.ts). */
  | 'other_question';

export type MatchResult =
  | { status: 'match'; value: string; confidence: number }
  | { status: 'abstain'; reason: AbstainReason };

export interface MatchOptions {
  /**
   * Read only the flow's own words for this question (its categories and
   * synonyms), none of the built-in ones ("yes", "nope", "sometimes"): for a
   * question other than the one being asked, which the built-in words of an
   * answer to the asked one must never answer.
   */
  ownWordsOnly?: boolean;
}

/** A category read at a place in the message: token indices (end exclusive) into {@link CategoryReading.tokens}. */
export interface MentionAt {
  category: string;
  start: number;
  end: number;
  /** A built-in answer word ("yes", "nope"), not one the flow wrote for this question. */
  generic: boolean;
  /** Several words, or the category's own name: specific enough to answer a question not being asked. */
  specific: boolean;
  /** A stated number read through a category's range ("17" for "under 18"): it says nothing of which question it answers. */
  number: boolean;
}

/** What the matcher read and where, for extraction that weighs several questions at once (offline.ts). */
/** Shared by every caller that reads the same text (see readCategory): read-only. */
export interface CategoryReading {
  readonly result: MatchResult;
  /** The message's tokens (normalize.ts). */
  readonly tokens: readonly string[];
  /** The mentions that made the answer; empty when abstaining. */
  readonly mentions: readonly MentionAt[];
}

interface Phrase {
  tokens: string[];
  /** What the phrase says: a category, a hedge ("maybe"), or nothing ("no problem"). */
  means: { category: string } | 'hedge' | 'neutral';
  /** A built-in answer word rather than one of the flow's. */
  generic: boolean;
  /** The category's own name. */
  label: boolean;
}

interface Mention {
  category: string;
  start: number;
  end: number;
  typo: boolean;
  phrase: Phrase | undefined;
  /** A number that falls in the category's range ("he's 17"). */
  number: boolean;
}

const phraseTokens = (phrase: string) => tokenize(phrase).filter((t) => t !== BREAK);
const STEERING = STEERING_PHRASES.map(phraseTokens);
const META = META_PHRASES.map(phraseTokens);
const OPENERS = QUESTION_OPENERS.map(phraseTokens);
const REQUESTS = REQUEST_OPENERS.map(phraseTokens);
const CORRECTIONS = CORRECTION_MARKERS.map(phraseTokens);
/** Take-backs that mean nothing else, mid-clause too ("well", "actually", "rather" may only qualify). */
const UNMISTAKABLE_CORRECTIONS = ['sorry', 'i meant', 'oops', 'scratch that', 'no wait', 'wait no', 'no sorry', 'my bad', 'i take that back', 'strike that'].map(phraseTokens);
const TEMPORAL = TEMPORAL_PHRASES.map(phraseTokens);
const RESTRICTING = RESTRICTING_OPENERS.map(phraseTokens);
const SUBJECTS = SUBJECT_MARKERS.map(phraseTokens);
const CLAUSE_TEMPORAL = CLAUSE_TEMPORAL_PHRASES.map(phraseTokens);
const NEGATOR_SET = new Set(NEGATORS);
const FILLER_SET = new Set(NEGATION_FILLERS);
const QUESTION_VERB_SET = new Set(QUESTION_VERBS);
const OPENER_SET = new Set(QUESTION_OPENERS);
const DETERMINER_SET = new Set(DETERMINERS);
const NOT_A_HEAD = new Set(NOT_A_HEAD_NOUN);
const APPROXIMATE = new Set(APPROXIMATE_HEDGES);
const COUNTS = new Set(COUNT_WORDS);
/** Built-in yes/no-like answer words: they may answer the question asked, never one not asked. */
const GENERIC_WORDS = new Set(
  ['yes', 'no', 'partial', 'unknown', 'not sure'].flatMap((k) => COMMON_SYNONYMS[k] ?? []).map((p) => phraseTokens(p).join(' ')),
);
/** Words of steering that are also ordinary nouns ("a teaching assistant", "the heating system"): only said to the bot. */
const ADDRESSED = new Set(['assistant', 'system', 'chatbot']);
const ADDRESSING = new Set([BREAK, 'the', 'dear', 'hey', 'hi', 'hello', 'you', 'to', 'this', 'stupid', 'dumb']);
/**
 * "Instructions" steer when they are the assistant's ("your instructions", "new instructions: …"), not when they are
 * the person's own for someone ("I'll leave instructions", "the feeding instructions").
 */
const INSTRUCTION_WORDS = new Set(['instructions', 'instruction']);
const THE_ASSISTANTS = new Set([BREAK, 'your', 'previous', 'prior', 'new', 'system', 'above', 'earlier', 'following', 'original', 'these', 'all', 'any', 'those', 'its']);
/**
 * Whether the steering phrase `p` occurs in `tokens`: a noun of ADDRESSED only at a clause's start or addressed
 * ("hey assistant"), "instructions" only the assistant's.
 */
function steersAt(tokens: string[], p: string[]): boolean {
  if (p.length === 1 && INSTRUCTION_WORDS.has(p[0]!)) return tokens.some((t, i) => t === p[0] && (i === 0 || THE_ASSISTANTS.has(tokens[i - 1]!)));
  if (p.length !== 1 || !ADDRESSED.has(p[0]!)) return indexOf(tokens, p) >= 0;
  return tokens.some((t, i) => t === p[0] && (i === 0 || ADDRESSING.has(tokens[i - 1]!)));
}
/** Bare answer words a correction may open with ("well actually no ..."). */
const BARE_NOES = new Set(['no', 'nope', 'nah']);
const BARE_ANSWERS = new Set(['yes', 'yeah', 'yep', 'yup', ...BARE_NOES]);
/** Whether some band names months or weeks ("6 to 23 months"): a number without its unit may then be months. */
const bandsInMonths = (categories: readonly string[]) => categories.some((c) => /\b(?:months?|weeks?)\b/iu.test(c));
/** Words that only say an answer more surely ("definitely", "for sure"). */
/** Words that may open a clause before an answer ("oh absolutely", "well sure"). */
const INTERJECTION_WORDS = new Set(['oh', 'ohh', 'ah', 'well', 'and', 'but', 'so', 'i', 'it', 'is', 'that', 'most']);
const INTENSIFIERS = new Set(['definitely', 'absolutely', 'certainly', 'totally', 'surely', 'for', 'sure', 'of', 'course', '100', 'positive', 'defo', 'def']);

/**
 * The offline matcher: finds which category of a question a message means, or
 * abstains. It commits only when exactly one category is meant, with no hedge,
 * no question back and no attempt to steer the assistant. A negated mention
 * ("not an emergency") is dropped; a negated "yes", or a negated category of a
 * two-way question, means the other answer; after a correction ("no, wait,
 * yes") only what follows counts.
 */
export function matchCategory(text: string, gate: MatchableQuestion): MatchResult {
  return readCategory(text, gate).result;
}

/**
 * {@link matchCategory}, saying where in the message the answer was read.
 *
 * Beyond the rules above, it reads as people write: a "?" after a clear
 * answer in the flow's words ("about my bill?") is a rising voice, not a
 * question, unless the clause is asked ("is it urgent?"); a hedge right before
 * a count ("maybe one gap") makes the count approximate, not the answer
 * unsure; a stated number means the category whose range holds it ("he's 17"
 * when a category is "under 18"); after words that say whom the message is
 * about ("I'm 45, but the patient is my son") only what follows counts. It
 * abstains on what is said of another time ("we used to", "not anymore"), on
 * an answer a later clause keeps only in part ("gaps, but only one"), on a
 * typo as close to two categories, on a category word that only describes
 * another thing ("the follow-up form"), and on a bare "no" that takes back
 * something other than an answer to this question ("it's a follow-up, well
 * actually no, she's new").
 */
export function readCategory(text: string, gate: MatchableQuestion, options: MatchOptions = {}): CategoryReading {
  // One message is read many times in a turn: against the asked question and each later one, by
  // several guards, and at a summary against every answer to find a correction, which the
  // question then reads once more. Its readings are kept until another text is read.
  if (text !== lastRead.text) lastRead = { text, tokens: null, readings: new WeakMap() };
  const lexicon = lexiconFor(gate, options.ownWordsOnly === true);
  let byPrompt = lastRead.readings.get(lexicon);
  if (!byPrompt) lastRead.readings.set(lexicon, (byPrompt = new Map()));
  let reading = byPrompt.get(gate.prompt);
  if (!reading) {
    lastRead.tokens ??= text.length > MAX_MATCH_TEXT_LENGTH ? [] : tokenize(text);
    byPrompt.set(gate.prompt, (reading = read(text, lastRead.tokens, gate, lexicon)));
  }
  return reading;
}

/** The text read last, its tokens, and its readings by lexicon and prompt (a reading depends on nothing else). */
let lastRead: { text: string; tokens: string[] | null; readings: WeakMap<GateLexicon, Map<string | undefined, CategoryReading>> } = {
  text: '',
  tokens: null,
  readings: new WeakMap(),
};

function read(text: string, all: string[], gate: MatchableQuestion, lexicon: GateLexicon): CategoryReading {
  const done = (result: MatchResult, mentions: MentionAt[] = []): CategoryReading => ({ result, tokens: all, mentions });
  const abstain = (reason: AbstainReason) => done({ status: 'abstain', reason });
  if (text.trim().length === 0) return abstain('empty');
  if (text.length > MAX_MATCH_TEXT_LENGTH) return abstain('too_long');
  if (all.length === 0) return abstain('empty');
  // "Oh no, I always look like a hamster": "oh no" is dismay, no denial; what follows it is read alone.
  if (all[0] === 'oh' && all[1] === 'no' && (all.length === 2 || all[2] === BREAK)) {
    const rest = all.slice(3);
    return rest.length === 0 ? abstain('uncertain') : read(rest.join(' '), rest, gate, lexicon);
  }
  // "Every day, I mean weekdays, so 5": the answer a self-correction settles on (conclusion.ts), when the whole
  // message asserts something (no joke, no condition).
  const concluded = conclusionOf(all);
  if (concluded !== undefined) {
    const settled = read(concluded.join(' '), concluded, gate, lexicon);
    const offset = all.length - concluded.length;
    if (settled.result.status === 'match' && unasserted(text, all, gate.prompt) === undefined)
      // (Settled on after a take-back, a bare "so no" answers the question asked, not one the way there spoke of.)
      return done(settled.result, settled.mentions.map((m) => ({ ...m, start: m.start + offset, end: m.end + offset, generic: false })));
  }

  const asked = /\?\s*$/.test(text);
  const whole = all.filter((t) => t !== BREAK).join(' ');
  const exactAt = lexicon.normalized.indexOf(whole);
  // (Not with a laugh or an eye-roll beside it: "Daily 😂" says nothing surely.)
  if (exactAt >= 0 && !asked && lexicon.labels[exactAt] !== undefined && unasserted(text, all, gate.prompt) === undefined) {
    const generic = GENERIC_WORDS.has(whole);
    const mention: MentionAt = { category: lexicon.labels[exactAt]!, start: 0, end: all.length, generic, specific: true, number: false };
    return done({ status: 'match', value: mention.category, confidence: 1 }, [mention]);
  }

  if (STEERING.some((p) => steersAt(all, p))) return abstain('steering');
  // "What do you mean?" asks about the question; "I mean today" corrects the answer.
  if (META.some((p) => all.some((t, i) => startsAt(all, i, p) && !(p.length === 1 && all[i - 1] === 'i'))) || OPENERS.some((p) => startsAt(all, 0, p)))
    return abstain('question');
  // A "?" closing a clause that asks ("is it urgent?") is a question back; one
  // closing a plain answer ("about my bill?") is a rising voice, read below.
  let tentative = false;
  if (asked) {
    const last = lastClauseStart(all);
    if (!REQUESTS.some((p) => startsAt(all, last, p))) {
      if (QUESTION_VERB_SET.has(all[last]!) || all.slice(last).some((t) => OPENER_SET.has(t))) return abstain('question');
      tentative = true;
    }
  }

  // "No rush? it's urgent!": an answer said back as a question, then more, is questioned, not given.
  // ("Adult? no, minor", "urgent? not really": a denial or correction after it is read below.)
  const afterAsking = /\?([^?]*[\p{L}\p{N}][^?]*)$/u.exec(text)?.[1];
  const asking = afterAsking === undefined ? [] : tokenize(afterAsking).filter((t) => t !== BREAK);
  if (asking.some((t) => !POLITE.has(t)) && !NEGATOR_SET.has(asking[0]!) && !BARE_NOES.has(asking[0]!) && !CORRECTIONS.some((p) => startsAt(asking, 0, p)))
    return abstain('question');
  const correction = lastCorrection(all, lexicon);
  if (correction === 'several') return abstain('uncertain');
  let from = correction?.end ?? 0;
  // "It's a follow-up, well actually no, she's new": the "no" takes back what
  // came before, which answered another question, not this one.
  if (correction && from < all.length && BARE_ANSWERS.has(all[from]!)) {
    const before = all.slice(0, correction.start);
    if (before.some((t) => t !== BREAK) && scan(before, lexicon.phrases).mentions.length === 0) {
      from++;
      while (all[from] === BREAK) from++;
    }
  }
  // "I'm 45, but the patient is my son": only what is said of the one the question is about.
  for (let i = all.length - 1; i >= from; i--) {
    const subject = SUBJECTS.find((p) => startsAt(all, i, p));
    if (subject) {
      // "the patient is 18": the "is" stays, so that the number reads as an age.
      from = i + subject.length - (subject[subject.length - 1] === 'is' ? 1 : 0);
      break;
    }
  }
  // "No pets, but my kid wants a hamster": what follows a contrast changes or qualifies what came before.
  // The answer is read after it when it says one, and not at all when it says something else.
  const contrast = lastContrast(text);
  if (contrast !== undefined) {
    const tail = tokenize(text.slice(contrast));
    const at = all.length - tail.length;
    if (at > from && tail.length > 0) {
      const inTail = scan(tail, lexicon.phrases);
      // "Urgent, but not an emergency": a tail that only denies another answer leaves the one before it.
      const said = inTail.mentions.filter((m) => negatorBefore(tail, m.start, inTail.consumedBy) === undefined);
      const numbers = lexicon.ranges.size > 0 && statedNumbers(tail, 0, (i) => inTail.consumedBy.has(i), lexicon.rangesInMonths).length > 0;
      const denies = inTail.mentions.length > 0 && said.length === 0;
      const before = scan(all.slice(from, at), lexicon.phrases).mentions;
      // "New patient, but also a video call": two answers, not one replacing the other; "double, but a suite if it is
      // free": the second only on a condition (rule a of issue 26: two values, neither a correction).
      if ((said.length > 0 || numbers) && before.length > 0 && tail.some((t) => ADDING.has(t) || CONDITIONAL.has(t))) return abstain('ambiguous');
      // "Basic is fine, though premium sounds nice": a tail that only finds another answer appealing chooses nothing.
      if (said.length > 0 && before.length > 0 && tail.some((t, k) => APPRAISING.has(t) && k > said[0]!.start)) return abstain('ambiguous');
      // "My wife takes it to work daily, but I never do" asked how often the car is used: someone else's value before,
      // the person's own after. Asked of "you" alone the person's is the answer; asked of a thing or of anyone, either
      // may be: two values, neither a correction.
      // ("Daily, but I never do": the same, the one before left unnamed.)
      // (Unless it moves the answer to now: "never, but I drive to work daily now".)
      const mine = (tail[0] === 'i' || (tail[0] === BREAK && tail[1] === 'i')) && !tail.some((t) => t === 'now' || t === 'currently' || t === 'nowadays');
      if ((said.length > 0 || numbers) && !toYouAlone(gate.prompt) && before.length > 0 && (mine || before.some((m) => saidOfAnother(all, from + m.start, gate.prompt))))
        return abstain('ambiguous');
      // "Yes, but my son never does" asked whether you do, "he's 3, but his sister is 4" asked your child's age: asked of
      // "you" alone or of one other person, a tail said all of someone else is an aside; the answer before it stands,
      // read as if said alone.
      const tailNumbers = numbers ? statedNumbers(tail, 0, (i) => inTail.consumedBy.has(i), lexicon.rangesInMonths) : [];
      const headNumbers = lexicon.ranges.size > 0 ? statedNumbers(all.slice(from, at), 0, () => false, lexicon.rangesInMonths) : [];
      const ofAnother = [...said.map((m) => m.start), ...tailNumbers.map((n) => n.start)];
      // (Someone else's view of the answer is no aside but a dispute: "asap, but my partner says after new year".)
      const anotherMayAside = !tail.some((t) => VIEWS.has(t)) && (toYouAlone(gate.prompt) || asksOfAnotherPerson(gate.prompt));
      // The answer before the contrast, read as if said alone.
      const readAlone = () => {
        const alone = text.slice(0, contrast).replace(/[\s,;:.!–—-]*\b(?:but|though|although|however)\s*$/iu, '');
        return read(alone, tokenize(alone), gate, lexicon);
      };
      if (anotherMayAside && ofAnother.length > 0 && before.length + headNumbers.length > 0 && ofAnother.every((at) => saidOfAnother(tail, at, gate.prompt)))
        return readAlone();
      if (said.length > 0 || numbers) from = at;
      else if (!denies && tail.some((t) => t !== BREAK && !CONTRAST_FILLERS.has(t))) {
        // ("No, but his brother is allergic to nuts": a tail that speaks of someone else, asked of you or of one other person.)
        const firstClauseEnd = tail.indexOf(BREAK, 1) < 0 ? tail.length : tail.indexOf(BREAK, 1);
        const ofSomeoneElse = anotherMayAside && before.length > 0 && saidOfAnother(tail, firstClauseEnd, gate.prompt);
        if (!ofSomeoneElse && !isAside(tail, all.slice(from, at), gate.prompt, gate.categories)) return abstain('uncertain');
        // An aside after it ("no alarm, but we have cameras") leaves the answer before it (aside.ts).
        return readAlone();
      }
    }
  }
  // "We used to rent vans, now a small car": a later clause that opens with "now" and answers is what holds now.
  for (let i = all.length - 1; i > from; i--) {
    if (all[i - 1] !== BREAK) continue;
    const opener = NOW_OPENERS.find((p) => startsAt(all, i, p));
    if (!opener) continue;
    const tail = all.slice(i + opener.length);
    if (scan(tail, lexicon.phrases).mentions.length > 0 || (lexicon.period !== undefined && timesPer(tail, lexicon.period) !== undefined)) from = i + opener.length;
    break;
  }
  const tokens = all.slice(from);
  if (tokens.length === 0) return abstain('no_match');
  // Sarcasm and hypotheticals assert nothing about now (assertion.ts); what was taken back or contrasted away does not count.
  if (unasserted(text, tokens, gate.prompt) !== undefined) return abstain('uncertain');
  // "Nothing is missing", "absolutely not": negations that combine or trail
  // are easy to read backwards, and a wrong answer is worse than a new question.
  if (hasDoubleNegative(tokens)) return abstain('ambiguous');
  // "It doesn't cover dental" asked "Is the patient NOT covered?": a denial said to a question worded in the negative
  // agrees or disagrees as one reads it; only a bare yes or no, opening a clause, is taken as said.
  if (lexicon.yes !== undefined && lexicon.no !== undefined && negativelyWorded(gate.prompt) && tokens.some((t, i) => NEGATOR_SET.has(t) && !(BARE_NOES.has(t) && (i === 0 || tokens[i - 1] === BREAK || tokens[i - 1] === 'so'))))
    return abstain('ambiguous');
  // "It's not true that he stayed": a negation of a whole clause, easy to read backwards.
  if (SENTENTIAL_NEGATIONS.some((p) => indexOf(tokens, p) >= 0)) return abstain('ambiguous');
  // "Not anymore" asked a yes/no question about now ("Do you still...?", "Are your symptoms getting worse?"): no, now.
  const stopped = lexicon.yes !== undefined && lexicon.no !== undefined && gate.prompt !== undefined && !aboutThePast(gate.prompt)
    ? STOPPED.map((p) => ({ p, at: indexOf(tokens, p) })).find((x) => x.at >= 0)
    : undefined;
  // "We used to", "not anymore": true then, not now (unless the question has a word for that: "not anymore" is Never).
  if (!stopped && TEMPORAL.some((p) => indexOf(tokens, p) >= 0 && !lexicon.phrases.some((q) => typeof q.means === 'object' && indexOf(q.tokens, p) >= 0)))
    return abstain('uncertain');
  // "Gaps in coverage, but only one": what came before holds only in part.
  if (tokens.some((t, i) => t === BREAK && RESTRICTING.some((p) => startsAt(tokens, i + 1, p)))) return abstain('uncertain');
  // A hedge anywhere wins, even inside what reads as an answer ("I don't remember"),
  // except a soft one before a count: "maybe one gap" is about one gap.
  // (A hedge word inside a category's own name is no hedge: "either" of "A few days either way".)
  const named = lexicon.hedges.length > 0 ? scan(tokens, lexicon.phrases).consumedBy : undefined;
  if (lexicon.hedges.some((h) => hedgedAt(tokens, h, named))) return abstain('uncertain');

  // "Just a dummy alarm box": a fake thing is not the thing asked about, whatever the yes says.
  if (lexicon.yes !== undefined && lexicon.no !== undefined && fakeOfAsked(tokens, gate.prompt)) return abstain('uncertain');
  // "No, the previous owners said it did in 2018": a later "it did" says the opposite of the bare no.
  if (lexicon.yes !== undefined && lexicon.no !== undefined && ellipticYesAfterNo(tokens)) return abstain('ambiguous');
  // "Yes, a very loud parrot" asked whether an alarm is fitted: the yes is about the thing it names, not the one asked.
  if (lexicon.yes !== undefined && lexicon.no !== undefined && namesAnotherThing(tokens, gate.prompt)) return abstain('uncertain');
  // "No, never had a gap" asked whether the cover was continuous: the denial of the question's opposite is its Yes.
  if (lexicon.yes !== undefined && lexicon.no !== undefined) {
    const denial = deniedOpposite(tokens, gate.prompt);
    if (denial === 'unsure') return abstain('ambiguous');
    if (denial !== undefined)
      return done({ status: 'match', value: lexicon.yes, confidence: 0.8 }, [{ category: lexicon.yes, start: denial.start + from, end: denial.end + from, generic: false, specific: true, number: false }]);
  }
  const found = scan(tokens, lexicon.phrases);
  if (found.typoTie) return abstain('ambiguous');
  // "Overnight if possible, otherwise home visits": what comes after "otherwise" is a fallback, not the choice.
  const fallbackAt = tokens.findIndex((t, i) => t === 'otherwise' || (t === 'failing' && tokens[i + 1] === 'that') || (t === 'or' && tokens[i + 1] === 'else'));
  if (fallbackAt > 0 && found.mentions.some((m) => m.start > fallbackAt)) return abstain('ambiguous');
  const { consumedBy } = found;
  const clauseOf = clauses(tokens);
  // "Last time I took basic", "my dad smoked daily", "I'll be retired next year": true then, not now (assertion.ts).
  const mentions = found.mentions.filter(
    (m) => !describesAnotherThing(tokens, m, lexicon, gate.prompt, consumedBy) && clauseTime(tokens, m.start, m.end, gate.prompt) === undefined && !foundThen(tokens, m.start, gate.prompt),
  );
  // "Under 20 minutes away" asked how old the building is, "not yet had lessons" asked when the test was passed: a
  // shortened name, followed by another thing.
  for (let k = mentions.length - 1; k >= 0; k--) {
    const m = mentions[k]!;
    const shortOf = m.phrase && lexicon.shortened.get(m.phrase.tokens.join(' '));
    if (shortOf !== undefined && !shortNameStands(tokens, m, shortOf)) mentions.splice(k, 1);
  }
  // "None, it's only under the sink" asked whether the water is not turned off: a "none" that answers no "any".
  for (let k = mentions.length - 1; k >= 0; k--) {
    const m = mentions[k]!;
    if (m.category === lexicon.no && m.phrase && QUANTITY_NOES.has(m.phrase.tokens.join(' ')) && (tokens[m.end] === undefined || tokens[m.end] === BREAK) && !ASKS_OF_ANY.test(gate.prompt ?? ''))
      mentions.splice(k, 1);
  }
  // "The day after today", "until next week": a time said relative to the answer's word is not it.
  for (let k = mentions.length - 1; k >= 0; k--) if (RELATIVE.has(tokens[mentions[k]!.start - 1] ?? '')) mentions.splice(k, 1);
  // "No pets" asked about smoking, "I never lost it" asked about a licence: the "no" or "never" negates
  // another thing, named right after it, and answers nothing here.
  for (let k = mentions.length - 1; k >= 0; k--) if (negatesAnotherThing(tokens, mentions[k]!, lexicon, gate.prompt, consumedBy)) mentions.splice(k, 1);
  // "No alarm, but we have cameras": "we have" names what they have, another thing than this question's.
  for (let k = mentions.length - 1; k >= 0; k--) if (affirmsAnotherThing(tokens, mentions[k]!, lexicon, gate.prompt, consumedBy)) mentions.splice(k, 1);
  // "Nobody else will drive" asked whether you hold a licence: "nobody" answers a question about anyone, not one put to you.
  for (let k = mentions.length - 1; k >= 0; k--) if (nobodyAskedOfYou(tokens, mentions[k]!, gate.prompt)) mentions.splice(k, 1);
  // "I won't be there myself" asked who will let the plumber in: a person denied in their own clause is not the answer.
  for (let k = mentions.length - 1; k >= 0; k--) {
    const m = mentions[k]!;
    if (personIsAnswer(m.category, gate.prompt) && tokens.some((t, i) => clauseOf[i] === clauseOf[m.start] && (i < m.start || i >= m.end) && NEGATOR_SET.has(t))) mentions.splice(k, 1);
  }
  // "My imaginary friend", "a pretend neighbour": an answer named as unreal is a joke, not an answer.
  if (mentions.some((m) => [1, 2].some((k) => FAKE.has(tokens[m.start - k] ?? '') || (m.end - m.start > k && FAKE.has(tokens[m.end - 1 - k] ?? ''))))) return abstain('uncertain');
  // "My landlord is retired", "the ad said immediately": said of someone or something else, not by the person of themselves.
  if (mentions.some((m) => saidOfAnother(tokens, m.start, gate.prompt))) return abstain('uncertain');
  // "I read on the website it's available immediately", "I was told later is fine": what someone else says, reported.
  if (mentions.some((m) => REPORTED.some((p) => { const at = indexOf(tokens, p); return at >= 0 && at < m.start; }))) return abstain('uncertain');
  if (CLAUSE_TEMPORAL.some((p) => mentions.some((m) => clauseHas(tokens, clauseOf[m.start]!, p) && !(m.phrase && indexOf(m.phrase.tokens, p) >= 0))))
    return abstain('uncertain');

  if (hasTrailingNot(tokens, consumedBy)) return abstain('ambiguous');
  // "Urgent? not really": a clause that only denies takes back the answer before it.
  if (mentions.length > 0 && deniesBefore(tokens, mentions[0]!.end, consumedBy)) return abstain('ambiguous');

  // "Three times weekly", "mon wed fri": a count per week, where the categories count per week ("twice daily",
  // "morning and evening" where they count per day; a bare "2" where the question asks how many times a day).
  const weekly = lexicon.period !== undefined ? timesPer(tokens, lexicon.period, lexicon.countAsked) : undefined;
  if (weekly && !saidOfAnother(tokens, weekly.start, gate.prompt) && clauseTime(tokens, weekly.start, weekly.end, gate.prompt) === undefined) {
    const holders = [...lexicon.weekly].filter(([, r]) => inRange(weekly.value, r)).map(([category]) => category);
    if (holders.length === 1) mentions.push({ category: holders[0]!, start: weekly.start, end: weekly.end, typo: false, phrase: undefined, number: true });
    mentions.sort((a, b) => a.start - b.start);
  }
  // "A two-bed flat" where the categories count bedrooms ("1 bedroom", "2-3 bedrooms", "4+ bedrooms").
  if (lexicon.counting) {
    for (const c of thingCounts(tokens, gate.categories, gate.prompt))
      if (!saidOfAnother(tokens, c.start, gate.prompt) && clauseTime(tokens, c.start, c.end, gate.prompt) === undefined)
        mentions.push({ category: c.category, start: c.start, end: c.end, typo: false, phrase: undefined, number: true });
    // "Four of us", "me, my wife and our two kids", where the categories count people: the whole message counts them.
    const people = mentions.length === 0 ? peopleCountCategory(text, tokens, gate.categories) : undefined;
    if (people !== undefined && clauseTime(tokens, 0, tokens.length, gate.prompt) === undefined)
      mentions.push({ category: people, start: 0, end: tokens.length, typo: false, phrase: undefined, number: true });
    mentions.sort((a, b) => a.start - b.start);
  }
  if (lexicon.ranges.size > 0) {
    for (const n of statedNumbers(tokens, 0, (i) => consumedBy.has(i), lexicon.rangesInMonths)) {
      // "Her brother is 12": a number said of someone else.
      if (saidOfAnother(tokens, n.start, gate.prompt)) return abstain('uncertain');
      // "My dad's 70, he's driving me there": the one who takes the person along is not the one asked about.
      if (takesTheSpeaker(tokens) && !speakerIsSubject(tokens, n.start)) return abstain('uncertain');
      // ("Under 25 years" where the bands are "Under 20 years" and "20 to 49 years": either.)
      const stated = statedRange(n);
      const holders = [...lexicon.ranges].filter(([, ranges]) => ranges.some((r) => within(stated, r))).map(([category]) => category);
      if (holders.length !== 1) return abstain('ambiguous');
      // "18" where the bands count months and years ("6 to 23 months", "4 years or older"): read as years it falls
      // in an open-ended band, as months in another: either is meant. (A closed band in years, "2 to 3 years", is
      // how people give a toddler's age: "2".)
      if (lexicon.rangesInMonths && n.unitless && n.span === undefined && n.bound === undefined && bandsInMonths(gate.categories)) {
        const asMonths = [...lexicon.ranges].filter(([, ranges]) => ranges.some((r) => inRange(n.value / 12, r))).map(([category]) => category);
        const openEnded = lexicon.ranges.get(holders[0]!)!.some((r) => r.high === Infinity && inRange(n.value, r));
        if (openEnded && asMonths.length === 1 && asMonths[0] !== holders[0]) return abstain('ambiguous');
      }
      mentions.push({ category: holders[0]!, start: n.start, end: n.end, typo: false, phrase: undefined, number: true });
    }
    mentions.sort((a, b) => a.start - b.start);
  }

  // "Stable", "about the same" asked whether it is getting worse: another change, or none, is its No.
  if (mentions.length === 0 && lexicon.no !== undefined && lexicon.yes !== undefined && gate.prompt !== undefined) {
    const other = otherChanges(gate.prompt);
    const at = other.length > 0 ? tokens.findIndex((t, i) => other.some((w) => startsAt(tokens, i, w)) && negatorBefore(tokens, i, consumedBy) === undefined) : -1;
    const asked = promptWords(gate.prompt);
    const ofSomeoneElse = tokens.slice(0, Math.max(at, 0)).some((t) => PEOPLE.has(t) || FAMILY.has(t) || THIRD_PERSON.has(t));
    if (at >= 0 && !ofSomeoneElse && !tokens.some((t) => asked.has(t) && CHANGE_WORDS.has(t)) && !saidOfAnother(tokens, at, gate.prompt))
      mentions.push({ category: lexicon.no, start: at, end: at + 1, typo: false, phrase: undefined, number: false });
  }
  // "Everyone's fine" asked whether anyone was hurt: all are well, its No (all-well.ts).
  if (mentions.length === 0 && lexicon.no !== undefined && lexicon.yes !== undefined) {
    const well = allWellAt(tokens, gate.prompt);
    if (well !== undefined && clauseTime(tokens, well.start, well.end, gate.prompt) === undefined)
      mentions.push({ category: lexicon.no, start: well.start, end: well.end, typo: false, phrase: undefined, number: false });
  }
  // "It has not" asked whether it has flooded: the clause denies the question's verb.
  if (mentions.length === 0 && lexicon.no !== undefined && lexicon.yes !== undefined) {
    const at = tokens.findIndex((t, i) => t === 'not' && (i === tokens.length - 1 || tokens[i + 1] === BREAK) && ellipticDenialAt(tokens, i) !== undefined);
    if (at > 0 && tokens.every((t) => t !== BREAK)) mentions.push({ category: lexicon.no, start: at - 2, end: at + 1, typo: false, phrase: undefined, number: false });
  }
  if (stopped && mentions.length === 0) mentions.push({ category: lexicon.no!, start: stopped.at, end: stopped.at + stopped.p.length, typo: false, phrase: undefined, number: false });
  // "Just me" asked whether anyone besides the person will drive: no one else.
  if (mentions.length === 0 && lexicon.no !== undefined && [...promptWords(gate.prompt)].some((w) => ABOUT_OTHERS.has(w))) {
    const alone = ONLY_ME.map((p) => ({ p, at: indexOf(tokens, p) })).find((x) => x.at >= 0);
    if (alone && !tokens.some((t) => t === 'and' || t === 'plus' || t === 'with' || ADDING.has(t)))
      mentions.push({ category: lexicon.no, start: alone.at, end: alone.at + alone.p.length, typo: false, phrase: undefined, number: false });
  }
  // "Not fitted" asked whether an alarm is fitted, "not worse" asked whether it gets worse: a denied word of the
  // question's own wording is its No, on a question put to the person or about a thing (not about anyone else).
  if (mentions.length === 0 && lexicon.no !== undefined && lexicon.yes !== undefined) {
    const denied = deniedPromptWord(tokens, gate.prompt);
    if (denied !== undefined && !saidOfAnother(tokens, denied.start, gate.prompt) && clauseTime(tokens, denied.start, denied.end, gate.prompt) === undefined)
      mentions.push({ category: lexicon.no, start: denied.start, end: denied.end, typo: false, phrase: undefined, number: false });
  }

  // "My landlord's absolutely fine with it", "totally private": an intensifier inside a clause, or before the word
  // it strengthens, says that word more surely; it answers only as a clause of its own ("absolutely!", "oh sure",
  // "yes absolutely", "sure, thanks").
  for (let k = mentions.length - 1; k >= 0; k--) {
    const m = mentions[k]!;
    if (m.end - m.start !== 1 || !INTENSIFIERS.has(tokens[m.start]!)) continue;
    const before = tokens[m.start - 1];
    const after = tokens[m.end];
    const modifies = after !== undefined && after !== BREAK && after !== 'thing' && !BARE_ANSWERS.has(after) && !POLITE.has(after);
    if (modifies || (before !== undefined && before !== BREAK && !BARE_ANSWERS.has(before) && !INTERJECTION_WORDS.has(before))) mentions.splice(k, 1);
  }
  // "No. Definitely", "no, absolutely": an intensifier after a bare answer says it more surely; it is no "yes".
  if (mentions.length === 2 && BARE_ANSWERS.has(tokens[mentions[0]!.start]!) && mentions[0]!.end === mentions[0]!.start + 1) {
    const rest = tokens.slice(mentions[0]!.end).filter((t) => t !== BREAK);
    if (rest.length > 0 && rest.every((t) => INTENSIFIERS.has(t))) mentions.pop();
  }
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
  const behind: Mention[] = [];
  let typo = false;
  let flipped = false;
  for (const m of mentions) {
    const negator = negatorBefore(tokens, m.start, consumedBy);
    // "no, we don't": a negator read as the same answer agrees with it.
    if (negator === undefined || negator.consumedAs === m.category) {
      meant.add(m.category);
      behind.push(m);
      typo ||= m.typo;
      continue;
    }
    // "no lapses": the "no" read as an answer was only negating what follows.
    if (negator.consumedAs !== undefined) {
      meant.delete(negator.consumedAs);
      for (let k = behind.length - 1; k >= 0; k--) if (behind[k]!.category === negator.consumedAs) behind.splice(k, 1);
    }
    // "not 17" says what the number is not, which is no range.
    if (m.number) continue;
    const other = otherOf(m.category);
    if (other !== undefined) {
      meant.add(other);
      flipped = true;
    }
  }
  if (meant.size === 0) {
    // "A savings one", "just walks": a short answer naming part of one category's name (category-parts.ts).
    const part = mentions.length === 0 && !tentative ? categoryByPart(tokens, gate.categories, gate.prompt) : undefined;
    if (part === undefined) return abstain('no_match');
    return done({ status: 'match', value: part, confidence: 0.8 }, [{ category: part, start: from, end: all.length, generic: true, specific: false, number: false }]);
  }
  // "Not employed, I work for myself": a category read from a denial ("not employed" is Not working) beside one
  // asserted in a clause of its own is what the denial made way for.
  if (meant.size === 2) {
    const ofClause = clauses(tokens);
    const denial = behind.filter((m) => m.phrase !== undefined && !m.phrase.generic && NEGATOR_SET.has(m.phrase.tokens[0]!));
    const asserted = behind.filter((m) => !denial.includes(m) && !m.number && denial.every((d) => ofClause[d.start] !== ofClause[m.start]));
    const kept = new Set(asserted.map((m) => m.category));
    if (denial.length > 0 && kept.size === 1 && behind.every((m) => denial.includes(m) || asserted.includes(m))) {
      meant.clear();
      meant.add([...kept][0]!);
    }
  }
  if (meant.size > 1) return abstain('ambiguous');
  const [value] = [...meant];
  // "Dog walking, for my goldfish": the answer names one animal, the message another, and not it.
  if (otherAnimal(value!, tokens)) return abstain('uncertain');
  const said: MentionAt[] = behind.map((m) => ({
    category: m.category,
    start: m.start + from,
    end: m.end + from,
    generic: m.phrase !== undefined && m.phrase.generic,
    specific: m.number || (m.phrase !== undefined && !m.typo && (m.phrase.label || m.phrase.tokens.length > 1)),
    number: m.number,
  }));
  // "yes?" may be "yes, what?": only the flow's own words answer with a rising voice.
  if (tentative && (flipped || said.every((m) => m.generic))) return abstain('question');
  const wholePhrase = mentions.length === 1 && mentions[0]!.start === 0 && mentions[0]!.end === tokens.length;
  const confidence = typo ? 0.7 : flipped ? 0.8 : wholePhrase && !tentative ? 0.95 : 0.85;
  return done({ status: 'match', value: value!, confidence }, said);
}

/**
 * The words a question's own phrases are made of (categories and the flow's synonyms), and whether its
 * categories name number ranges: what a message must contain for the question to be read at all
 * (offline.ts indexes them once per flow, so a message is read only for the questions it may answer).
 */
export function ownWordsOf(gate: MatchableQuestion): { words: string[]; numbers: boolean } {
  const lexicon = lexiconFor(gate, true);
  const words = new Set<string>();
  for (const p of lexicon.phrases) if (typeof p.means === 'object') for (const t of p.tokens) words.add(t);
  return { words: [...words], numbers: lexicon.ranges.size > 0 };
}

/**
 * One word of every phrase the full reading knows for a category of the
 * question (the built-in synonyms and a bare yes or no too): its longest, the
 * least common. A message mentions a phrase only when it holds each of its
 * words or a small typo of it, so one that holds none of these (and no number,
 * where a category names a range) reads no value for the question.
 */
export function phraseKeysOf(gate: MatchableQuestion): { words: string[]; numbers: boolean } {
  const lexicon = lexiconFor(gate, false);
  const words = new Set<string>();
  for (const p of lexicon.phrases)
    if (typeof p.means === 'object') words.add(p.tokens.reduce((longest, t) => (t.length > longest.length ? t : longest)));
  return { words: [...words], numbers: lexicon.ranges.size > 0 };
}

/** What the matcher knows about one question, built once per flow question. */
interface GateLexicon {
  /** Every phrase that means something for this question, longest first. */
  phrases: Phrase[];
  /** The hedges that are not answers of this question (a "Not sure" category is one). */
  hedges: string[][];
  /** The categories, normalized, in order. */
  normalized: string[];
  /** The categories an exact answer may name (in own-words mode, not "Yes" or "No"). */
  labels: (string | undefined)[];
  yes: string | undefined;
  no: string | undefined;
  /** The words of each category's phrases: "a video visit" is still about a visit. */
  words: Map<string, Set<string>>;
  /**
   * Names shortened from a category: a band without its unit ("under 20" for "Under 20 years"), a "not yet" without
   * its verb ("Not passed yet"). An answer only where no other thing or doing follows ("under 20 minutes away", "not
   * yet had lessons").
   */
  shortened: Map<string, string>;
  /** Number ranges the categories name ("under 18"), by category. */
  ranges: Map<string, NumberRange[]>;
  /** Whether `ranges` are in months (a category names its unit of time: "Under 6 months"), else as stated (years for an age). */
  rangesInMonths: boolean;
  /** Times a period the categories name ("2-3 times a week", "Twice a day"), by category: read from counts (knowledge/per-week.ts). */
  weekly: Map<string, NumberRange>;
  /** Counts of a thing the categories count are read ("a two-bed flat" for "2-3 bedrooms"): built-in knowledge, not own words. */
  counting: boolean;
  /** The period those counts are made over, when there are such categories. */
  period: CountPeriod | undefined;
  /** The question asks how many times a period ("How many times a day...?"): a bare count answers it. */
  countAsked: boolean;
}

// Keyed by the categories array and the synonyms object, which a flow keeps
// for its lifetime, rather than by the gate object, which callers rebuild.
const lexiconCache = new WeakMap<readonly string[], WeakMap<object, { full: GateLexicon; own: GateLexicon }>>();
const NO_SYNONYMS = {};

function lexiconFor(gate: MatchableQuestion, ownWordsOnly: boolean): GateLexicon {
  let bySynonyms = lexiconCache.get(gate.categories);
  if (!bySynonyms) lexiconCache.set(gate.categories, (bySynonyms = new WeakMap()));
  let cached = bySynonyms.get(gate.synonyms ?? NO_SYNONYMS);
  if (!cached) bySynonyms.set(gate.synonyms ?? NO_SYNONYMS, (cached = { full: buildLexicon(gate, false), own: buildLexicon(gate, true) }));
  return ownWordsOnly ? cached.own : cached.full;
}

function buildLexicon(gate: MatchableQuestion, ownWordsOnly: boolean): GateLexicon {
  const byText = new Map<string, Phrase>();
  const add = (text: string, means: Phrase['means'], label = false) => {
    const tokens = phraseTokens(text);
    const key = tokens.join(' ');
    const generic = GENERIC_WORDS.has(key);
    if (ownWordsOnly && typeof means === 'object' && generic) return;
    if (tokens.length > 0 && !byText.has(key)) byText.set(key, { tokens, means, generic, label });
  };
  const ranges = new Map<string, NumberRange[]>();
  const monthRanges = new Map<string, NumberRange[]>();
  // Labels and the flow's own synonyms first: they win over built-in words.
  for (const category of gate.categories) {
    add(category, { category }, true);
    // "Nobody, it was parked": the words before the comma name it too, where no other category's name opens with them.
    const head = tokenize(category);
    const cut = head.indexOf(BREAK);
    if (cut > 0 && gate.categories.filter((c) => tokenize(c).slice(0, cut).join(' ') === head.slice(0, cut).join(' ')).length === 1)
      add(head.slice(0, cut).join(' '), { category }, true);
    const own = Object.entries(gate.synonyms ?? {}).find(([k]) => k.toLowerCase() === category.toLowerCase());
    for (const phrase of own?.[1] ?? []) add(phrase, { category });
    for (const phrase of [category, ...(own?.[1] ?? [])]) {
      const r = rangeOf(phraseTokens(phrase));
      const inMonths = monthRangeOf(phraseTokens(phrase));
      if (r) ranges.set(category, [...(ranges.get(category) ?? []), r]);
      if (inMonths) monthRanges.set(category, [...(monthRanges.get(category) ?? []), inMonths]);
    }
  }
  // "Under 6 months", "2 to 3 years": where a category names its unit of time, every range is read in months
  // (a range without a unit in years), and so is the age a message states ("11 months", "2 and a half").
  const rangesInMonths = monthRanges.size > 0;
  if (rangesInMonths) for (const [category, list] of ranges) if (!monthRanges.has(category)) monthRanges.set(category, list.map(yearsInMonths));
  // Names people shorten the categories to ("50 to 99" for "50 to 99 years", "not yet" for "Not passed yet").
  const shortened = ownWordsOnly ? new Map<string, string>() : shortNamesOf(gate.categories);
  for (const [phrase, category] of shortened) add(phrase, { category });
  if (!ownWordsOnly)
    for (const category of gate.categories) {
      // The name as people shorten or spell it: without its article ("few times a year" for "A few times a year"),
      // a count in digits or in words ("within 2 weeks" for "Within two weeks").
      for (const variant of nameVariants(phraseTokens(category))) add(variant, { category });
      // "the 500" for "500 Mbit/s": a category named by a number and its unit, the only one with that number.
      const own = phraseTokens(category);
      if (own.length >= 2 && /^\d+$/u.test(own[0]!) && own.slice(1).every((w) => /^\p{L}+$/u.test(w)) && gate.categories.filter((c) => phraseTokens(c)[0] === own[0]).length === 1)
        add(`the ${own[0]}`, { category });
      // "1 gig", "500 meg": a speed's unit as people say it.
      for (const alias of own.length >= 2 && /^\d+$/u.test(own[0]!) ? (SPEED_UNITS.get(own[1]!) ?? []) : []) add(`${own[0]} ${alias}`, { category });
      if (!BROAD_ROLES.has(bareName(category))) for (const phrase of knownWordsFor(category)) add(phrase, { category });
    }
  // "Friend or neighbour": either word alone names the category (not "once a week or less": a bound, no alternative).
  if (!ownWordsOnly)
    for (const category of gate.categories) {
      const parts = normalize(category).split(' or ');
      // (A leading article is part of no bound: "A neighbour or friend".)
      if (parts.length === 2 && !/\d/u.test(category) && parts.every((p) => p.length > 0 && !withoutArticle(p).split(' ').some((w) => NOT_AN_ALTERNATIVE.has(w))))
        for (const part of parts) {
          add(part, { category });
          // Each part's everyday words too ("mate" for a friend, "next door" for a neighbour).
          for (const phrase of knownWordsFor(part)) add(phrase, { category });
        }
    }
  // "Someone else", "Family member": the words no closer category of this question has taken ("my son" where
  // there is no "My child").
  if (!ownWordsOnly)
    for (const category of gate.categories)
      // (Being alone is "No one" only asked who comes along: asked who drove, "on my own" is the person.)
      if (BROAD_ROLES.has(bareName(category)) && (!ALONE_ROLES.has(bareName(category)) || asksAboutCompany(gate.prompt)))
        for (const phrase of knownWordsFor(category)) add(phrase, { category });
  // "Never" where the lowest frequency is "Rarely" and there is no "Never": the only option that fits.
  const rarely = gate.categories.find((c) => normalize(c) === 'rarely');
  // (Not where a category says none has happened yet: "jamais" beside "First time" is no "Rarely".)
  if (!ownWordsOnly && rarely !== undefined && !gate.categories.some((c) => /\b(?:never|none|first time|not at all)\b/u.test(normalize(c))))
    for (const phrase of NEVER_ADVERBS) add(phrase, { category: rarely });
  for (const phrase of NEUTRAL_PHRASES) add(phrase, 'neutral');
  for (const phrase of UNCERTAIN_PHRASES) add(phrase, 'hedge');
  const phrases = [...byText.values()].sort((a, b) => b.tokens.length - a.tokens.length);
  const weekly = new Map<string, NumberRange>();
  // The period is named by the categories ("2-3 times a week") or, failing that, asked by the question ("How many
  // times a day...?" with "Once a day", "Twice a day", "Three times or more").
  const promptTokens = gate.prompt === undefined ? [] : phraseTokens(gate.prompt);
  const asked = countPeriodAsked(promptTokens);
  const named = gate.categories.map((c) => periodNamedIn(phraseTokens(c))).find((p) => p !== undefined);
  let period = named ?? asked;
  if (!ownWordsOnly && period !== undefined)
    for (const category of gate.categories) {
      const tokens = phraseTokens(category);
      const own = periodNamedIn(tokens);
      // A category naming another period ("once a month") is none of these counts; one naming none counts beside
      // per-day categories ("Three times or more"), not beside per-week ones (as before).
      const counts = own === period || (own === undefined && (named === undefined || period === 'day'));
      const r = counts ? countRangeOf(tokens, period) : undefined;
      if (r) weekly.set(category, r);
    }
  if (weekly.size < 2) {
    weekly.clear();
    period = undefined;
  }
  const normalized = gate.categories.map((c) => normalize(c));
  const words = new Map<string, Set<string>>();
  for (const p of phrases)
    if (typeof p.means === 'object') {
      const set = words.get(p.means.category) ?? new Set<string>();
      for (const t of p.tokens) set.add(t);
      words.set(p.means.category, set);
    }
  return {
    phrases,
    hedges: phrases.filter((p) => p.means === 'hedge').map((p) => p.tokens),
    normalized,
    shortened,
    labels: gate.categories.map((c, i) => (ownWordsOnly && GENERIC_WORDS.has(normalized[i]!) ? undefined : c)),
    yes: gate.categories[normalized.indexOf('yes')],
    no: gate.categories[normalized.indexOf('no')],
    words,
    ranges: rangesInMonths ? monthRanges : ranges,
    rangesInMonths,
    weekly,
    period,
    countAsked: period !== undefined && asked === period,
    counting: !ownWordsOnly,
  };
}

/**
 * "None", "nothing", "nobody" said alone: a No only to a question whether there is any, or of having one ("Any
 * allergies?", "Can you smell anything?", "Do you have pets?"); asked "Is the water NOT turned off?", "none" says
 * nothing. (As the subject of a clause, "nothing's coming out", it denies what the clause says, and is read.)
 */
const QUANTITY_NOES = new Set(['none', 'nothing', 'nada', 'nobody', 'no one', 'nobody else', 'no one else', 'nobody will', 'no one will', 'nobody does', 'no one does']);
const ASKS_OF_ANY = /\b(?:any|anything|anyone|anybody|anywhere|someone|somebody|something|there|have|has|got|had|who|else)\b/iu;

/** The built-in words for a category (lexicon.ts), looked up by its name with or without its article. */
// (Own keys only: a category named "constructor" or "__proto__" has no built-in words.)
const knownWordsFor = (category: string): readonly string[] =>
  [normalize(category), bareName(category)].map((k) => (Object.hasOwn(COMMON_SYNONYMS, k) ? COMMON_SYNONYMS[k] : undefined)).find((w) => w !== undefined) ?? [];

const COUNT_NAMES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
/** A category's name without a leading article, and with its counts written the other way (digits, words). */
function nameVariants(tokens: string[]): string[] {
  const out = new Set<string>();
  const swapped = tokens.map((t) => (/^\d{1,2}$/u.test(t) && Number(t) < COUNT_NAMES.length ? COUNT_NAMES[Number(t)]! : COUNT_NAMES.includes(t) ? String(COUNT_NAMES.indexOf(t)) : t));
  for (const words of [tokens, swapped]) {
    out.add(words.join(' '));
    // "18-64" for "18 to 64": a range of two numbers written with a dash.
    if (words.length === 3 && words[1] === 'to' && /^\d+$/u.test(words[0]!) && /^\d+$/u.test(words[2]!)) out.add(`${words[0]} ${words[2]}`);
    // (Not a name of one word after its article: "a lot" is no "lot".)
    if (words.length > 2 && (words[0] === 'a' || words[0] === 'an' || words[0] === 'the')) out.add(words.slice(1).join(' '));
  }
  out.delete(tokens.join(' '));
  return [...out];
}

/** The phrases of a lexicon read left to right, longest first at each place. */
function scan(tokens: string[], phrases: Phrase[]): { mentions: Mention[]; consumedBy: Map<number, Phrase>; typoTie: boolean } {
  const mentions: Mention[] = [];
  const consumedBy = new Map<number, Phrase>();
  let typoTie = false;
  for (let i = 0; i < tokens.length; ) {
    const found = longestPhraseAt(tokens, i, phrases);
    if (!found) {
      i++;
      continue;
    }
    if (found === 'tie') {
      typoTie = true;
      i++;
      continue;
    }
    for (let k = i; k < i + found.length; k++) consumedBy.set(k, found.phrase);
    if (typeof found.phrase.means === 'object')
      mentions.push({ category: found.phrase.means.category, start: i, end: i + found.length, typo: found.typo, phrase: found.phrase, number: false });
    i += found.length;
  }
  return { mentions, consumedBy, typoTie };
}

/**
 * The phrase at `at`: an exact one, longest first; else the longest one the
 * words are a small typo of, or 'tie' when such a typo is as close to phrases
 * of two categories (a guess either way).
 */
function longestPhraseAt(
  tokens: string[],
  at: number,
  phrases: Phrase[],
): { phrase: Phrase; length: number; typo: boolean } | 'tie' | undefined {
  if (tokens[at] === BREAK) return undefined;
  const index = phraseIndexOf(phrases);
  for (const phrase of index.byFirstWord.get(tokens[at]!) ?? []) if (startsAt(tokens, at, phrase.tokens)) return { phrase, length: phrase.tokens.length, typo: false };
  let best: { phrase: Phrase; distance: number } | undefined;
  let tie = false;
  // (A typo keeps every word's first letter: closeEnough.)
  for (const phrase of index.byFirstLetter.get(tokens[at]![0]!) ?? []) {
    if (typeof phrase.means !== 'object') continue;
    if (best && phrase.tokens.length < best.phrase.tokens.length) break;
    if (!phrase.tokens.every((word, k) => tokens[at + k] !== undefined && closeEnough(tokens[at + k]!, word))) continue;
    const distance = phrase.tokens.reduce((sum, word, k) => sum + editDistance(tokens[at + k]!, word, 2), 0);
    const category = phrase.means.category;
    if (!best || distance < best.distance) {
      best = { phrase, distance };
      tie = false;
    } else if (distance === best.distance && typeof best.phrase.means === 'object' && best.phrase.means.category !== category) {
      tie = true;
    }
  }
  if (!best) return undefined;
  return tie ? 'tie' : { phrase: best.phrase, length: best.phrase.tokens.length, typo: true };
}

/**
 * The phrases by their first word, and the answers among them by their first letter, each longest first as in
 * the list: at a word, only these can start there (built once per list; the lexicons keep theirs).
 */
interface PhraseIndex {
  byFirstWord: Map<string, Phrase[]>;
  byFirstLetter: Map<string, Phrase[]>;
}
const phraseIndexes = new WeakMap<Phrase[], PhraseIndex>();
function phraseIndexOf(phrases: Phrase[]): PhraseIndex {
  let index = phraseIndexes.get(phrases);
  if (!index) {
    index = { byFirstWord: new Map(), byFirstLetter: new Map() };
    for (const phrase of phrases) {
      const first = phrase.tokens[0]!;
      const sameWord = index.byFirstWord.get(first);
      if (sameWord) sameWord.push(phrase);
      else index.byFirstWord.set(first, [phrase]);
      if (typeof phrase.means !== 'object') continue;
      const sameLetter = index.byFirstLetter.get(first[0]!);
      if (sameLetter) sameLetter.push(phrase);
      else index.byFirstLetter.set(first[0]!, [phrase]);
    }
    phraseIndexes.set(phrases, index);
  }
  return index;
}

/**
 * A small typo of `word`: one edit in words of five letters or more (two from
 * eight), keeping the first letter, or two swapped letters in shorter words
 * ("nwe"), so that everyday words ("hope", "now") never pass for answers.
 */
function closeEnough(token: string, word: string): boolean {
  if (token === word) return true;
  if (token === BREAK || token[0] !== word[0]) return false;
  // "I employ three people", "I'll retire": a word without its suffix is another word ("employed", "employee", "retired").
  if (word.startsWith(token) && /^(?:e?d|ee|e?r|ing|ment)$/u.test(word.slice(token.length))) return false;
  if (word.length >= 5) {
    const allowed = word.length >= 8 ? 2 : 1;
    return token.length >= 4 && editDistance(token, word, allowed) <= allowed;
  }
  if (word.length < 3 || token.length !== word.length) return false;
  const diff = [...word].flatMap((c, i) => (c === token[i] ? [] : [i]));
  return diff.length === 2 && diff[1] === diff[0]! + 1 && word[diff[0]!] === token[diff[1]!] && word[diff[1]!] === token[diff[0]!];
}

/**
 * A category word that only describes the noun after it, a thing named with
 * a determiner ("the follow-up form", "my email address"): the message talks
 * about that thing, not this question's answer. The noun may be a word of the
 * question ("a video visit") or of the category ("the portal app").
 */
function describesAnotherThing(
  tokens: string[],
  m: Mention,
  lexicon: GateLexicon,
  prompt: string | undefined,
  consumedBy: Map<number, Phrase>,
): boolean {
  const before = tokens[m.start - 1];
  const after = tokens[m.end];
  if (before === undefined || !DETERMINER_SET.has(before) || after === undefined || after === BREAK) return false;
  if (consumedBy.has(m.end) || NOT_A_HEAD.has(after) || /\d/.test(after) || /(?:ing|ly)$/.test(after)) return false;
  // "My mother's cat": the category word owns the thing (a possessive), it does not describe it.
  if (after === 's') return false;
  // "My brother drove" asked who drove: a person named as the answer, and what they did.
  if (personIsAnswer(m.category, prompt) && PEOPLE.has(tokens[m.end - 1]!)) return false;
  if (lexicon.words.get(m.category)?.has(after)) return false;
  return !promptWords(prompt).has(after);
}

/** Words that report what someone else said or wrote. */
const REPORTED = [
  'i read', 'i heard', 'i saw on', 'according to', 'they said', 'they say', 'he said', 'she said', 'it says', 'it said',
  'they told me', 'i was told', 'we were told', 'was told', 'someone said', 'apparently', 'rumour has it', 'supposedly',
].map(phraseTokens);
/** Units of speed and what people call them ("1 Gbit/s": "1 gig", "1 gigabit"). */
const SPEED_UNITS: ReadonlyMap<string, readonly string[]> = new Map([
  ['mbit', ['mbps', 'meg', 'megs', 'megabit', 'megabits', 'mb']],
  ['gbit', ['gbps', 'gig', 'gigs', 'gigabit', 'gigabits', 'gb']],
]);
/** Verbs a clause may open with, its subject said in the clause before ("Sarah, my flatmate, is a student"). */
const CLAUSE_VERBS = new Set(['is', 'are', 'was', 'were', 'has', 'have', 'had', 's']);
/** Verbs that give someone's view of the answer ("my partner says", "he thinks", "she'd rather"). */
const VIEWS = new Set([...VIEW_VERBS, 'rather', 'prefers', 'prefer']);
/** A question worded in the negative ("Is the patient NOT covered?", "Have you never...?"), its note after it aside. */
const negativelyWorded = (prompt: string | undefined) => prompt !== undefined && /\b(?:not|never)\b|n't\b/iu.test(prompt.split(/[?(]/u)[0]!);
/** Negations of a whole clause ("it's not true that he stayed", "it isn't the case that..."). */
const SENTENTIAL_NEGATIONS = ['not true that', 'not the case that', 'untrue that', 'not right that', 'not correct that', 'false that'].map(phraseTokens);
/**
 * Whether a question is put to "you" alone: "you" its subject ("Do you use the van?", "your own situation"), not
 * a thing or a person of yours ("Has your landlord refused?"), nor anyone else.
 */
function toYouAlone(prompt: string | undefined): boolean {
  if (prompt === undefined) return false;
  let alone = toYouAloneCache.get(prompt);
  if (alone === undefined) {
    if (toYouAloneCache.size > 1000) toYouAloneCache.clear();
    // (The question itself, not a note after it: "(If you own your home, answer No.)".)
    const words = phraseTokens(prompt.split(/[?(]/u)[0]!);
    alone = words.some((w, i) => w === 'you' || w === 'yourself' || (w === 'your' && words[i + 1] === 'own')) && !words.some((w) => ABOUT_OTHERS.has(w));
    toYouAloneCache.set(prompt, alone);
  }
  return alone;
}
const toYouAloneCache = new Map<string, boolean>();
/**
 * "It happened more than a week ago but I only found the damage today": a time in a clause about finding out is when
 * it was found, not when the thing asked happened (unless the question asks when it was noticed).
 */
function foundThen(tokens: readonly string[], at: number, prompt: string | undefined): boolean {
  if ([...promptWords(prompt)].some((w) => DISCOVERY_VERBS.has(w))) return false;
  let start = at;
  while (start > 0 && tokens[start - 1] !== BREAK) start--;
  let end = at;
  while (end < tokens.length && tokens[end] !== BREAK) end++;
  return tokens.slice(start, end).some((t) => DISCOVERY_VERBS.has(t));
}
/** A stop that holds now. */
const STOPPED = ['not anymore', 'not any more', 'no longer', 'not any longer', 'anymore not'].map(phraseTokens);
/** The person alone, answering a question about anyone else. */
const ONLY_ME = ['just me', 'only me', 'me only', 'just myself', 'only myself', 'me alone', 'myself only', 'just i', 'only i', 'solo', 'alone', 'by myself', 'on my own'].map(phraseTokens);
/** Words of a question's wording that say nothing of its topic. */
const PROMPT_STOP = new Set([
  'what', 'when', 'where', 'which', 'would', 'could', 'should', 'will', 'have', 'does', 'with', 'that', 'this', 'your', 'like',
  'want', 'need', 'from', 'into', 'about', 'there', 'their', 'they', 'please', 'much', 'many', 'often', 'more', 'most', 'other',
  'some', 'also', 'just', 'only', 'than', 'then', 'here', 'been', 'being', 'were', 'currently', 'right', 'today', 'still', 'ever',
  'moment', 'years', 'last', 'known', 'anyone', 'besides', 'else',
]);
/**
 * A negator ("not", "never", "no longer") right before a word of the question's wording, alone in its clause
 * but for fillers: "not fitted", "it's not getting worse", "never flooded". Where, or undefined.
 */
function deniedPromptWord(tokens: string[], prompt: string | undefined): { start: number; end: number } | undefined {
  const words = promptWords(prompt);
  if ([...words].some((w) => ABOUT_OTHERS.has(w))) return undefined;
  // ("Is the patient NOT covered?": a question that denies its own word is agreed with by a denial; read nothing.)
  if (negativelyWorded(prompt)) return undefined;
  const stems = new Set([...words].filter((w) => w.length >= 4 && !PROMPT_STOP.has(w)).map(stem));
  let found: { start: number; end: number } | undefined;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] !== 'not' && tokens[i] !== 'never') continue;
    let k = i + 1;
    while (k < tokens.length && k <= i + 3 && (FILLER_SET.has(tokens[k]!) || tokens[k] === 'been' || tokens[k] === 'getting' || tokens[k] === 'any')) k++;
    const w = tokens[k];
    if (w === undefined || w === BREAK || !stems.has(stem(w))) continue;
    // Two denials, or one with more words in its clause than the denied one, read two ways: none is taken.
    if (found) return undefined;
    found = { start: i, end: k + 1 };
  }
  return found;
}

/** Words opening a clause about now, after one about another time ("..., now hardly ever", "..., this time basic"). */
const NOW_OPENERS = [['now'], ['currently'], ['nowadays'], ['these', 'days'], ['at', 'the', 'moment'], ['this', 'time'], ['but', 'now'], ['and', 'now']];
const RELATIVE = new Set(['after', 'before', 'until', 'till', 'til']);
/** Words a bare "no" or "never" may be followed by and still be the answer ("no thanks", "never have", "no, we don't"). */
const AFTER_A_BARE_NO = new Set([
  ...ANSWER_FILLERS, ...NEGATION_FILLERS, ...NEGATORS, 'thx', 'ty', 'mate', 'man', 'dude', 'sir', 'maam', 'madam', 'ever', 'at',
  'all', 'had', 'been', 'was', 'were', 'did', 'once', 'none', 'nothing', 'not', 'chance', 'way', 'thank', 'either', 'neither',
  'anymore', 'more', 'longer', 'again', 'yet', 'currently', 'today', 'either',
  // Nouns that say "nothing of the kind" of any question ("no restrictions", "no issues at all").
  'restrictions', 'restriction', 'issues', 'issue', 'problems', 'concerns', 'limitations', 'limits', 'objections', 'plans',
]);

/**
 * A bare "no" or "never" read as this question's answer that negates the
 * word after it, a word neither of this question's answers nor of its
 * wording: "no pets" asked about smoking, "never lost it" asked about a
 * licence. The person said something about that other thing.
 */
function negatesAnotherThing(tokens: string[], m: Mention, lexicon: GateLexicon, prompt: string | undefined, consumedBy: Map<number, Phrase>): boolean {
  if (m.phrase === undefined || !m.phrase.generic) return false;
  const said = tokens.slice(m.start, m.end).join(' ');
  // "Nobody smokes" asked about pets: what nobody does is said right after it, past "else" and a modal.
  const nobody = said === 'nobody' || said === 'no one' || said === 'nobody else' || said === 'no one else';
  if (!nobody && (m.end - m.start !== 1 || (said !== 'no' && said !== 'never'))) return false;
  let after = m.end;
  if (nobody) while (tokens[after] === 'else' || MODALS.has(tokens[after] ?? '') || tokens[after] === 'really' || tokens[after] === 'ever') after++;
  const next = tokens[after];
  if (next === undefined || next === BREAK || consumedBy.has(after) || AFTER_A_BARE_NO.has(next) || /\d/u.test(next)) return false;
  const own = stem(next);
  if ([...promptWords(prompt)].some((w) => stem(w) === own)) return false;
  let stems = answerStems.get(lexicon);
  if (!stems) answerStems.set(lexicon, (stems = new Set([...lexicon.words.values()].flatMap((words) => [...words].map(stem)))));
  return !stems.has(own);
}
const answerStems = new WeakMap<GateLexicon, Set<string>>();

const HAVING = new Set(['have', 'has', 'got']);
/** What a "we have" may have and still be this question's thing: a pronoun for it, or a quantity. */
const FOR_IT = new Set(['it', 'one', 'that', 'them', 'those', 'these', 'this', 'some', 'both', 'all', 'everything', 'yes', 'too', 'also', 'already']);
/**
 * A built-in yes that ends in "have" or "got" ("we have", "I have") followed
 * by a thing that is neither a word of this question's answers nor of its
 * wording: "we have cameras" asked about a burglar alarm says what they have
 * instead, not Yes.
 */
function affirmsAnotherThing(tokens: string[], m: Mention, lexicon: GateLexicon, prompt: string | undefined, consumedBy: Map<number, Phrase>): boolean {
  if (m.phrase === undefined || !m.phrase.generic || !HAVING.has(tokens[m.end - 1] ?? '')) return false;
  // "We have no animals", "I've got none": the "have" carries a denial, not a yes.
  const denied = tokens[m.end] === 'got' ? m.end + 1 : m.end;
  if (['no', 'none', 'nothing', 'zero'].includes(tokens[denied] ?? '')) return true;
  let after = m.end;
  while (DETERMINER_SET.has(tokens[after] ?? '') || ADVERBS.has(tokens[after] ?? '') || tokens[after] === 'a' || tokens[after] === 'an') after++;
  const next = tokens[after];
  if (next === undefined || next === BREAK || consumedBy.has(after) || FOR_IT.has(next) || /\d/u.test(next)) return false;
  const own = stem(next);
  if ([...promptWords(prompt)].some((w) => stem(w) === own)) return false;
  let stems = answerStems.get(lexicon);
  if (!stems) answerStems.set(lexicon, (stems = new Set([...lexicon.words.values()].flatMap((words) => [...words].map(stem)))));
  return !stems.has(own);
}

const NOBODY = new Set(['nobody', 'none', 'noone']);
/**
 * A built-in "nobody", "no one" or "none" read as No on a question put to the
 * person alone ("Do you hold a licence?"): it says that no one does something,
 * which answers a question about anyone ("Will anyone besides you drive?",
 * "Does anyone in the flat smoke?"), not one about the person.
 */
function nobodyAskedOfYou(tokens: string[], m: Mention, prompt: string | undefined): boolean {
  if (m.phrase === undefined || !m.phrase.generic || m.phrase.label) return false;
  const first = tokens[m.start]!;
  if (!NOBODY.has(first) && !(first === 'no' && tokens[m.start + 1] === 'one')) return false;
  const words = promptWords(prompt);
  return [...words].some((w) => YOU.has(w)) && ![...words].some((w) => ABOUT_OTHERS.has(w) || w === 'any');
}

const promptWordCache = new Map<string, Set<string>>();
function promptWords(prompt: string | undefined): Set<string> {
  if (prompt === undefined) return new Set();
  let words = promptWordCache.get(prompt);
  if (!words) {
    if (promptWordCache.size > 1000) promptWordCache.clear();
    promptWordCache.set(prompt, (words = new Set(phraseTokens(prompt))));
  }
  return words;
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
    // ("Nothing to do with billing": "nothing" denies what it is said to have to do with.)
    if (NEGATOR_SET.has(t) || t === 'nothing') return { consumedAs: undefined };
    if (!FILLER_SET.has(t)) return undefined;
  }
  return undefined;
}

/**
 * The correction in a message: where its markers start and where what they
 * introduce starts; 'several' when the person corrected themselves more than
 * once (they are not sure, and the last word is no better than the first).
 * Markers in a row ("well, actually", "no wait, sorry") are one correction.
 * On a question with no "No" answer, a "no" standing alone ("adult? no,
 * minor") is a marker too.
 */
function lastCorrection(tokens: string[], lexicon: GateLexicon): { start: number; end: number } | 'several' | undefined {
  let last: { start: number; end: number } | undefined;
  let count = 0;
  for (let i = 0; i < tokens.length; ) {
    const chained = last !== undefined && last.end === i;
    // (A take-back that can only be one, "sorry", "I meant", "oops", corrects wherever it stands: "yes sorry I meant no".)
    if (!chained && i > 0 && tokens[i - 1] !== BREAK && !UNMISTAKABLE_CORRECTIONS.some((p) => startsAt(tokens, i, p))) {
      i++;
      continue;
    }
    let length = CORRECTIONS.find((p) => startsAt(tokens, i, p))?.length;
    if (length === undefined && lexicon.no === undefined && BARE_NOES.has(tokens[i]!) && tokens[i + 1] === BREAK) length = 1;
    if (length === undefined || i + length >= tokens.length) {
      i++;
      continue;
    }
    let end = i + length;
    while (tokens[end] === BREAK) end++;
    if (chained) last!.end = end;
    else {
      last = { start: i, end };
      count++;
    }
    i = end;
  }
  return count > 1 ? 'several' : last;
}

/** Some clause of the text is said of someone or something else ("my friend's order was ZZ1111"): for typed answers. */
export function mentionsAnother(text: string, prompt: string | undefined): boolean {
  const tokens = tokenize(text);
  return tokens.some((t, i) => {
    if ((i > 0 && tokens[i - 1] !== BREAK) || t === BREAK) return false;
    const end = tokens.indexOf(BREAK, i);
    return saidOfAnother(tokens, end < 0 ? tokens.length : end, prompt);
  });
}

/** Where the text after the last contrast word ("but", "though", "except") starts, if there is one. */
function lastContrast(text: string): number | undefined {
  let end: number | undefined;
  // ("Anything but a van" is no contrast: normalize.ts reads it as "except".)
  for (const m of text.matchAll(/(?<!\b(?:anything|everything|all|whatever|any)\s+)\b(?:but|though|although|however)\b/giu)) end = m.index + m[0].length;
  return end;
}
/** Words after a contrast that add nothing ("..., but yes", "but thanks"). */
const CONTRAST_FILLERS = new Set([
  'thanks', 'thank', 'you', 'please', 'ok', 'okay', 'still', 'anyway', 'lol', 'so', 'yeah', 'i', 'guess', 'otherwise', 'fine',
  'good', 'great', 'all', 'else', 'it', 'is', 'that', 'whatever',
]);
/** Words that add a second answer rather than replace the first ("but also a video call"). */
/** Politeness after a question ("could I get it today? thanks"): no more answer. */
const POLITE = new Set(['thanks', 'thank', 'you', 'please', 'thx', 'ty', 'cheers', 'ta', 'much', 'so', 'a', 'lot', 'in', 'advance', 'merci', 'danke', 'gracias']);
const CONDITIONAL = new Set(['if', 'unless', 'provided', 'assuming', 'depending', 'otherwise']);
const ADDING = new Set(['also', 'too', 'plus', 'additionally']);

/** Owners that name someone other than the person ("my landlord", "her brother", "the ad"). */
const OWNERS = new Set(['my', 'our', 'his', 'her', 'their', 'the', 'your']);
/** After "my" or "the", words that still mean the person or their answer ("my own boss", "the total is"). */
const STILL_ME = new Set([
  'own', 'self', 'whole', 'answer', 'household', 'family', 'home', 'place', 'situation', 'status', 'name', 'full', 'number',
  'phone', 'mobile', 'cell', 'email', 'address', 'birthday', 'age', 'job', 'work', 'income', 'salary', 'order', 'account',
  'budget', 'plan', 'preference', 'reason', 'amount', 'refund', 'date', 'schedule', 'symptoms', 'pain', 'max', 'maximum',
  'most', 'limit', 'total', 'price', 'cost', 'best', 'flight', 'booking', 'licence', 'license', 'current',
]);
/** Verbs that say how something appears, not that it is chosen ("premium sounds nice", "the big one looks tempting"). */
const APPRAISING = new Set(['sounds', 'sound', 'looks', 'look', 'seems', 'seem', 'tempting', 'tempted', 'appealing']);
/** Words after a thing that name a part or an aspect of it, not someone else ("the visit type", "my insurance status"). */
const OF_A_THING = new Set([
  'type', 'kind', 'sort', 'category', 'option', 'choice', 'level', 'size', 'history', 'details', 'info', 'information',
  // A part of the thing, or the thing set apart: "the electricity part", "the electricity alone".
  'part', 'portion', 'share', 'bit', 'side', 'element', 'component', 'alone', 'itself',
]);
/** A question about others than the person ("Will anyone besides you drive?", "your household's income"). */
const ABOUT_OTHERS = new Set(['anyone', 'anybody', 'someone', 'somebody', 'everyone', 'household', 'besides', 'else']);
const YOU = new Set(['you', 'your', 'yourself']);
/** Indefinite subjects: never the person ("someone", "people", "everyone in my family"). */
const INDEFINITE = new Set(['someone', 'somebody', 'everyone', 'everybody', 'people', 'anyone', 'anybody', 'others', 'friends', 'neighbours', 'neighbors']);
/** Someone takes the person somewhere ("he's driving me there", "my mum will bring me"): the person is the one going. */
const TAKING = new Set(['driving', 'drive', 'drives', 'taking', 'take', 'takes', 'bringing', 'bring', 'brings', 'dropping', 'drop', 'picking', 'pick', 'accompanying', 'escorting', 'giving']);
function takesTheSpeaker(tokens: readonly string[]): boolean {
  return tokens.some((t, i) => TAKING.has(t) && (tokens[i + 1] === 'me' || (tokens[i + 1] === 'along' && tokens[i + 2] === 'me')));
}
/** The subject of the clause holding `at` is the person ("I'm 70", "me, 70"). */
function speakerIsSubject(tokens: readonly string[], at: number): boolean {
  let s = at;
  while (s > 0 && tokens[s - 1] !== BREAK) s--;
  return ME.has(tokens[s] ?? '') || (at === s);
}
const THIRD_PERSON = new Set(['he', 'she', 'they', 'someone', 'somebody', 'everyone', 'everybody']);
/** Words of a question that make it about a person other than "you" ("Is the patient an adult?"). */
const PERSON_NOUNS = new Set(['patient', 'patients', 'person', 'child', 'member', 'client', 'guest', 'passenger', 'driver', 'tenant', 'resident', 'applicant', 'customer', 'who', 'whom', 'they', 'he', 'she', 'him', 'her']);
/** The person among the subjects ("my wife and I"). */
const ME = new Set(['i', 'we', 'me', 'us', 'myself']);
/** Words after a noun that name a part or a place of it, not a statement about it ("the bedroom of the house"). */
const NOT_A_VERB = new Set(['of', 'in', 'at', 'on', 'for', 'from', 'with', 'to', 'by', 'about', 'or', 'and', 'like', 'as', 'than']);
const ADVERBS = new Set(['always', 'usually', 'often', 'also', 'just', 'still', 'really', 'never', 'sometimes', 'only', 'already', 'even', 'too']);
const MODALS = new Set(['will', 'would', 'can', 'could', 'should', 'may', 'might', 'must', 'shall']);
/** A word that reads as a verb: one of the common ones, a modal, a past (-ed) or a third person (-s) form. */
const isVerbLike = (t: string) =>
  STATING.has(t) || MODALS.has(t) || (t.length > 3 && t.endsWith('ed')) || (t.length > 3 && t.endsWith('s') && !t.endsWith('ss') && !t.endsWith('us'));
/** Verbs that make the words before them a subject ("my ex smokes", "the ad said"). */
const STATING = new Set([
  'is', 'are', 'was', 'were', 'be', 'been', 'has', 'have', 'had', 'does', 'do', 'did', 'said', 'says', 'say', 'got', 'gets',
  'get', 'wants', 'want', 'prefers', 'prefer', 'smokes', 'smoke', 'works', 'work', 'texted', 'paid', 'took', 'made', 'went',
  'came', 'drove', 'bought', 'gave', 'told', 'thought', 'knew', 'saw', 'left', 'sold', 'spent', 'needs', 'need', 'likes',
  'like', 'lives', 'live', 'earn', 'make', 'take', 'pay', 'use', 'drive', 'own', 'keep', 'run', 'runs', ...OPINION_VERBS,
]);
const DESCRIBING = new Set(['last', 'previous', 'first', 'next', 'new', 'old', 'current', 'other', 'second', 'latest', 'recent', 'best', 'older', 'younger', 'little', 'big']);

/**
 * The clause of the mention opens with someone or something else as its
 * subject, followed by what is said of them ("my ex smoked daily", "both my
 * parents are", "my brother makes 3000", "the ad showed a van"), and that is
 * not whom the question is about: the person ("my wife and I" includes them),
 * the question's own thing ("the order is"), the patient's family on a question
 * not put to "you", or the household on a question about anyone in it.
 */
export function saidOfAnother(tokens: string[], at: number, prompt: string | undefined): boolean {
  let start = at;
  while (start > 0 && tokens[start - 1] !== BREAK) start--;
  // "Sarah, my flatmate, is a student": a clause that opens with its verb has the subject of the clause before it.
  // ("My flatmate, Sarah, is": past a name or an apposition, up to two clauses back.)
  if (start > 0 && CLAUSE_VERBS.has(tokens[start]!)) {
    let before = start - 1;
    for (let clausesBack = 0; clausesBack < 2 && before > 0; clausesBack++) {
      before--;
      while (before > 0 && tokens[before - 1] !== BREAK) before--;
      const subject = tokens.slice(before, start).filter((t) => t !== BREAK);
      if (subject.length > 0 && saidOfAnother([...subject, ...tokens.slice(start)], at - start + subject.length, prompt)) return true;
    }
  }
  let i = start;
  while (i < at && (tokens[i] === 'both' || tokens[i] === 'and' || tokens[i] === 'also' || tokens[i] === 'well' || tokens[i] === 'oh' || tokens[i] === 'so')) i++;
  // "A friend of mine is retired", "someone in the building smokes", "everyone in my family is employed": someone
  // named by an indefinite word, followed by what is said of them.
  if (INDEFINITE.has(tokens[i] ?? '') || ((tokens[i] === 'a' || tokens[i] === 'an') && tokens[i + 2] === 'of' && (tokens[i + 3] === 'mine' || tokens[i + 3] === 'ours'))) {
    for (let k = i + 1; k < at && k <= i + 6; k++) if (STATING.has(tokens[k]!) || MODALS.has(tokens[k]!) || (tokens[k]!.length > 3 && tokens[k]!.endsWith('s') && !tokens[k]!.endsWith('ss') && !NOT_A_VERB.has(tokens[k]!))) return true;
    if (isVerbLike(tokens[at] ?? '')) return true;
  }
  // "He has one" asked whether you hold a licence: a third person is someone else on a question put to "you" alone.
  // (Not on a question about one other person, "Does your child have any allergies?": there "she" is that person,
  // and "I don't have any" is said of someone else.)
  if (speakerStatesOwn(tokens, i, prompt)) return true;
  if (THIRD_PERSON.has(tokens[i] ?? '') && i <= at && isVerbLike(tokens[i + 1] ?? '') && !asksOfAnotherPerson(prompt)) {
    const words = promptWords(prompt);
    if ([...words].some((w) => YOU.has(w)) && ![...words].some((w) => ABOUT_OTHERS.has(w))) return true;
  }
  const owner = tokens[i];
  // "my last order": the thing, past its describing words.
  let n = i + 1;
  while (n + 1 < at && DESCRIBING.has(tokens[n]!)) n++;
  const noun = tokens[n];
  if (owner === undefined || noun === undefined || n >= at || !OWNERS.has(owner) || /\d/u.test(noun)) return false;
  if (owner !== 'his' && owner !== 'her' && owner !== 'their' && owner !== 'your' && STILL_ME.has(noun)) return false;
  const between = tokens.slice(n + 1, at);
  if (between.some((t) => ME.has(t))) return false;
  // Only a statement: a verb follows the thing, before the answer ("my landlord is retired", "my brother makes",
  // "my ex boyfriend smokes"), not a place, a part or a longer name ("the bedroom of the house", "the living room").
  let verb = false;
  // The head of the subject: its last word before the verb ("my insurance agent says": the agent, not the insurance).
  let head = noun;
  let inPart = false;
  // "my friend's order was": the thing owned is theirs too.
  for (let k = between[0] === 's' ? 2 : 0, words = 0; k < between.length && words < 2 && !verb; k++) {
    const t = between[k]!;
    // "the offer on your site ends": past a place or a part named after the thing ("of the house"), to its verb.
    if (NOT_A_VERB.has(t)) {
      while (k + 1 < between.length && (DETERMINER_SET.has(between[k + 1]!) || DESCRIBING.has(between[k + 1]!))) k++;
      k++;
      inPart = true;
      continue;
    }
    if (ADVERBS.has(t)) continue;
    verb = isVerbLike(t);
    if (!verb && !inPart && k === 0) head = t;
    words++;
  }
  // "..., but my wife doesn't": the answer's own words are the verb said of them.
  // "my friend's order arrived broken": so are the answer's own words when they open with the verb.
  // ("..., but my son never does": past an adverb that is the answer's word.)
  if (!verb && between.length <= 3 && tokens[at] !== undefined && (isVerbLike(tokens[at]!) || (ADVERBS.has(tokens[at]!) && isVerbLike(tokens[at + 1] ?? '')))) verb = true;
  if (!verb) return false;
  const words = promptWords(prompt);
  // "the visit type is": a word of the question's thing ("type", "status") keeps it the question's own.
  if (words.has(head) || (words.has(noun) && (STILL_ME.has(head) || OF_A_THING.has(head)))) return false;
  const family = owner === 'my' || owner === 'our';
  // "My son is two and a half" asked how old the child is: the person asked about, named as the person's own.
  if (family && namesPersonAsked(noun, prompt)) return false;
  if (family && HOUSEHOLD.has(noun) && [...words].some((w) => ABOUT_OTHERS.has(w))) return false;
  // A question not put to "you" (nor to anyone) may be about a family member the person names as "my ...",
  // unless the person also speaks of themselves in another clause: then who the question is about is not
  // clear ("my husband had a gap in coverage, I have always been insured"), and nothing is read.
  const toYou = [...words].some((w) => YOU.has(w) || ABOUT_OTHERS.has(w));
  // Only a question about a person ("the patient"), not one about a thing ("How often is the property left empty?").
  const ofAPerson = [...words].some((w) => PERSON_NOUNS.has(w));
  if (family && FAMILY.has(noun) && !toYou && ofAPerson) return speaksOfSelfElsewhere(tokens, start, at);
  return true;
}

/** Whether a clause other than the one from `start` past `at` has the person as a subject ("I", "we", "me"). */
function speaksOfSelfElsewhere(tokens: string[], start: number, at: number): boolean {
  let end = at;
  while (end < tokens.length && tokens[end] !== BREAK) end++;
  return tokens.some((t, k) => (k < start || k >= end) && ME.has(t));
}

/** A hedge at some place, other than a soft one right before a count ("maybe one gap", "perhaps 2"). */
function hedgedAt(tokens: string[], hedge: string[], named?: Map<number, Phrase>): boolean {
  for (let i = 0; i + hedge.length <= tokens.length; i++) {
    if (!startsAt(tokens, i, hedge)) continue;
    const phrase = named?.get(i);
    if (phrase !== undefined && typeof phrase.means === 'object' && phrase.tokens.length > hedge.length) continue;
    const next = tokens[i + hedge.length];
    const beforeCount = hedge.length === 1 && APPROXIMATE.has(hedge[0]!) && next !== undefined && (COUNTS.has(next) || /^\d+$/.test(next));
    if (!beforeCount && !knowingHow(tokens, i + hedge.length, hedge)) return true;
  }
  return false;
}

/** Hedges that say what one does not know ("no idea", "not sure"). */
const KNOWING = new Set(['idea', 'clue', 'know', 'sure', 'certain']);
/** After "how", words that ask an amount or a time: "not sure how often" hedges an answer of how often. */
const HOW_MUCH = new Set(['often', 'many', 'much', 'long', 'old', 'far', 'soon', 'frequently', 'big', 'large', 'late', 'early']);
/** After "how to", the choosing or saying of the answer itself: "no idea how to answer that" hedges it. */
const ANSWERING = new Set(['answer', 'say', 'tell', 'put', 'describe', 'explain', 'choose', 'decide', 'pick', 'reply', 'respond', 'know']);
/**
 * "No idea how to use the machines", "not sure how the app works": not knowing how to do a thing is a reason, not
 * a hedge of the answer. ("Not sure how often", "no idea how many" and "not sure how to answer" still hedge: they
 * are the answer unknown.)
 */
function knowingHow(tokens: string[], after: number, hedge: string[]): boolean {
  if (!KNOWING.has(hedge.at(-1)!) || tokens[after] !== 'how') return false;
  const next = tokens[after + 1];
  if (next === undefined || next === BREAK || HOW_MUCH.has(next)) return false;
  return !(next === 'to' && ANSWERING.has(tokens[after + 2] ?? ''));
}

/** A clause after `from` of nothing but a negation ("not really", "no, not at all") that no phrase read. */
function deniesBefore(tokens: string[], from: number, consumedBy: Map<number, Phrase>): boolean {
  let start = tokens.indexOf(BREAK, from);
  while (start >= 0) {
    let end = tokens.indexOf(BREAK, start + 1);
    if (end < 0) end = tokens.length;
    const clause = tokens.slice(start + 1, end);
    const free = clause.every((t, k) => !consumedBy.has(start + 1 + k));
    if (free && clause.some((t) => NEGATOR_SET.has(t)) && clause.every((t) => NEGATOR_SET.has(t) || FILLER_SET.has(t) || t === 'at' || t === 'all'))
      return true;
    start = end < tokens.length ? end : -1;
  }
  return false;
}

/** The clause index of every token (breaks belong to no clause: -1). */
function clauses(tokens: string[]): number[] {
  let clause = 0;
  return tokens.map((t) => (t === BREAK ? (clause++, -1) : clause));
}

function clauseHas(tokens: string[], clause: number, phrase: string[]): boolean {
  const of = clauses(tokens);
  for (let i = 0; i + phrase.length <= tokens.length; i++) if (of[i] === clause && startsAt(tokens, i, phrase)) return true;
  return false;
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

/** Words that make a thing not what it names ("a dummy alarm", "a fake camera"). */
const FAKE = new Set(['fake', 'dummy', 'toy', 'pretend', 'imitation', 'replica', 'decoy', 'mock', 'fakes', 'dummies', 'imaginary', 'invisible', 'fictional', 'fictitious', 'nonexistent']);
function fakeOfAsked(tokens: string[], prompt: string | undefined): boolean {
  const asked = promptWords(prompt);
  return tokens.some((t, i) => FAKE.has(t) && [1, 2].some((k) => asked.has(tokens[i + k] ?? '')));
}

const ELLIPSIS_SUBJECTS = new Set(['it', 'they', 'that', 'he', 'she', 'someone', 'somebody']);
const AUXILIARIES = new Set(['did', 'does', 'do', 'has', 'have', 'had', 'was', 'were', 'is', 'are']);
/** What may follow an elliptic auxiliary that still ends it: a time ("it did in 2018", "it has twice"). */
const AFTER_ELLIPSIS = new Set(['in', 'once', 'twice', 'back', 'before', 'last', 'years', 'then', 'too', 'actually', 'apparently', 'though']);

/** A message opening with a bare no whose later clause says "it did" / "they have": the opposite, elliptic. */
function ellipticYesAfterNo(tokens: string[]): boolean {
  if (!BARE_NOES.has(tokens[0]!)) return false;
  for (let i = 2; i + 1 < tokens.length; i++) {
    if (!ELLIPSIS_SUBJECTS.has(tokens[i]!) || !AUXILIARIES.has(tokens[i + 1]!) || tokens.slice(0, i).every((t) => t !== BREAK)) continue;
    const next = tokens[i + 2];
    // (After a copula, a number or a word is what it is: "she is 3" says her age, not "she is".)
    const copula = ['is', 'are', 'was', 'were'].includes(tokens[i + 1]!);
    if (next === undefined || next === BREAK || (!copula && (AFTER_ELLIPSIS.has(next) || /^\d/u.test(next)))) return true;
  }
  return false;
}

const singular = (w: string) => w.replace(/(?<=[^s])s$/u, '');

/**
 * A yes or no followed by "a/an" and an animal or a person ("yes, a very loud parrot", "yeah, a grumpy neighbour")
 * at a question about neither: the yes is about that other thing, a joke or a stand-in, not what was asked.
 */
function namesAnotherThing(tokens: string[], prompt: string | undefined): boolean {
  if (prompt === undefined || !BARE_ANSWERS.has(tokens[0]!) || tokens[1] !== BREAK || (tokens[2] !== 'a' && tokens[2] !== 'an')) return false;
  const asked = [...promptWords(prompt)];
  let end = 3;
  while (end < tokens.length && tokens[end] !== BREAK && !['that', 'who', 'which', 'with'].includes(tokens[end]!)) end++;
  const thing = tokens.slice(3, end).map(singular);
  const aboutAnimals = asked.some((w) => ABOUT_ANIMALS.has(w) || ANIMALS.has(singular(w)));
  const aboutPeople = asked.some((w) => PEOPLE.has(singular(w)) || PERSON_NOUNS.has(w) || w === 'anyone' || w === 'anybody');
  return thing.some((w) => (ANIMALS.has(w) && !aboutAnimals) || (PEOPLE.has(w) && !aboutPeople));
}

/** A category naming an animal ("Dog walking") in a message that names another animal and not it. */
function otherAnimal(category: string, tokens: string[]): boolean {
  const named = tokenize(category).map(singular).filter((w) => ANIMALS.has(w) && w !== 'pet' && w !== 'animal');
  if (named.length === 0) return false;
  const said = tokens.map(singular).filter((w) => ANIMALS.has(w) && w !== 'pet' && w !== 'animal');
  const same = (w: string) => named.includes(w) || (w === 'puppy' && named.includes('dog')) || (w === 'kitten' && named.includes('cat'));
  // (The category's own word is said once by the answer itself: "dog walking".)
  return said.some((w) => !same(w)) && said.filter(same).length <= named.length;
}

/** Words that make "X or Y" in a category a bound or a range, not two names ("once a week or less", "3 or more"). */
const NOT_AN_ALTERNATIVE = new Set(['less', 'more', 'fewer', 'earlier', 'later', 'so', 'above', 'below', 'over', 'under', 'longer', 'shorter', 'older', 'younger', 'once', 'twice', 'times', 'a', 'the', 'not']);

const changes = new Map<string, string[][]>();
const CHANGE_WORDS = new Set(['worse', 'better']);
function otherChanges(prompt: string): string[][] {
  let words = changes.get(prompt);
  if (!words) {
    if (changes.size > 1000) changes.clear();
    changes.set(prompt, (words = otherChangesOf(tokenize(prompt)).map((w) => w.split(' '))));
  }
  return words;
}
const opposites = new Map<string, Set<string>>();
/** Words that may stand between a denial and the opposite it denies ("never had a gap", "not once did it lapse"). */
const DENIAL_FILLERS = new Set([...NEGATION_FILLERS, 'had', 'been', 'ever', 'single', 'was', 'were', 'there', 'once', 'did', 'even', 'one', 'gone', 'got', 'any', 'real', 'are', 'them', 'those', 'these', 'us', 'of']);
const DENIERS = new Set([...NEGATORS, 'zero', 'nothing', 'none']);
/** After the denied word: it held only until, or except for, something ("never a gap until 2023"). */
const BUT_FOR = new Set(['until', 'till', 'til', 'except', 'apart', 'besides', 'since', 'before', 'other', 'than', 'unless', 'but', 'only', 'just']);

/**
 * Rule (c) of issue 26: at a yes/no question whose prompt names a quality
 * ("continuous", "valid", "fenced"), a denied opposite of it ("no, never had
 * a gap", "not once did it lapse", "never been unfenced") is the question's
 * Yes. 'unsure' when the opposite is also said without a denial, or the
 * denial is limited ("never a gap until 2023"); undefined when the message
 * denies no opposite (the other rules read it: "no, there was a break").
 */
function deniedOpposite(tokens: string[], prompt: string | undefined): { start: number; end: number } | 'unsure' | undefined {
  if (prompt === undefined) return undefined;
  let words = opposites.get(prompt);
  if (!words) {
    if (opposites.size > 1000) opposites.clear();
    opposites.set(prompt, (words = oppositesOf(tokenize(prompt).filter((t) => t !== BREAK))));
  }
  if (words.size === 0) return undefined;
  let denied: { start: number; end: number } | undefined;
  let said = false;
  for (let i = 0; i < tokens.length; i++) {
    if (!words.has(tokens[i]!)) continue;
    let by = -1;
    for (let j = i - 1; j >= 0 && i - j <= 5 && tokens[j] !== BREAK; j--) {
      if (DENIERS.has(tokens[j]!)) {
        by = j;
        break;
      }
      if (!DENIAL_FILLERS.has(tokens[j]!)) break;
    }
    if (by < 0) {
      said = true;
      continue;
    }
    for (let k = i + 1; k < tokens.length && tokens[k] !== BREAK; k++) if (BUT_FOR.has(tokens[k]!)) return 'unsure';
    denied ??= { start: by, end: i + 1 };
  }
  return denied !== undefined && said ? 'unsure' : denied;
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
      (i === tokens.length - 1 || tokens[i + 1] === BREAK) &&
      ellipticDenialAt(tokens, i) === undefined,
  );
}

/**
 * "It has not", "we didn't", "it never did": a clause that is only a subject, an auxiliary and a denial denies
 * the question's own verb (its No). Returns the clause's start, when the clause ending at `notAt` is one.
 */
function ellipticDenialAt(tokens: string[], notAt: number): number | undefined {
  const start = notAt - 2;
  if (start < 0 || !AUXILIARIES.has(tokens[notAt - 1]!) || !(ELLIPSIS_SUBJECTS.has(tokens[start]!) || ME.has(tokens[start]!))) return undefined;
  return start === 0 || tokens[start - 1] === BREAK || (start === 1 && BARE_NOES.has(tokens[0]!)) ? start : undefined;
}
