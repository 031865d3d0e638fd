import { ANSWER_FILLERS } from './lexicon.js';
import { MAX_MATCH_TEXT_LENGTH, ownWordsOf, phraseKeysOf, readCategory, type CategoryReading, type MatchableQuestion, type MentionAt } from './match-category.js';
import { BREAK, tokenize } from './normalize.js';
import { namesNoOne, namesTheOneAsked, personIsAnswer } from './who-asked.js';
import { byYearMade } from './year-made.js';
import { byNamedKind } from './named-kind.js';
import { byRestatement, byYesMeans, byYesMeansDenied } from './restated.js';
import { byTenure } from './tenure.js';
import { byDeniedCategory } from './denied-category.js';
import { byRegion } from './region.js';
import { answersAnotherQuestion } from './other-question.js';
import { withoutReported } from './reported.js';
import { byRate, byScaleEnd, byTimingWindow } from './dated-answers.js';
import { deniedInClause } from './assertion.js';
import { hadIsAnotherThing } from './had-thing.js';
import { anotherSubject, citedSubject, personAsSubject } from './subject.js';
import { onlyPartOfTheYear, structureOf, unreadClauseOfAskedThing } from './structure.js';
import type { ExtractionInput, ExtractionOutput, ExtractionQuestion } from './types.js';

/** Below this a later question's value is not committed offline (a typo, a flipped negation). */
const SURE = 0.85;
const FILLERS = new Set(ANSWER_FILLERS);

/**
 * Extraction with the offline matcher alone. It reads the current question
 * with every word the matcher knows, and the other questions offered (later
 * ones) with their own words only (the flow's categories and synonyms, never
 * a bare "yes" or "no").
 *
 * The current answer stands unless its words belong to another question's
 * answer: a bare yes/no in the same clause as another question's answer ("no
 * she's a new patient" asked about insurance), or words inside a longer
 * phrase of another question ("online portal" asked about the visit). Then
 * the message answers that question, not this one.
 *
 * Where the current question is not answered, a later question's value is
 * given when the matcher is sure of it (no typo, no flipped negation, read
 * from a category's name or a phrase of several words, in a clause that says
 * that answer and nothing more: "she's a new patient", not "we have his phone
 * number"): one message may answer a question before it is asked. When the
 * current question is answered, later ones are left to be asked: a word in
 * passing ("yes, her phone is on file") is not an answer to them.
 */
export function extractOffline(given: ExtractionInput): ExtractionOutput {
  // What the message quotes from a sign, a page or someone else is not the person's (reported.ts).
  const input = { ...given, text: withoutReported(given.text) };
  const gate = input.questions.find((g) => g.key === input.key);
  if (!gate) return { values: {}, failure: { reason: 'abstained', message: `no question "${input.key}" offered` } };
  const current = readCategory(input.text, gate);
  // Only the later questions whose words the message holds are read (indexed once per list of questions).
  const maybe = candidates(input.questions, input.text);
  const others = input.questions
    .filter((g) => g !== gate && maybe.has(g))
    .map((g) => ({ key: g.key, reading: readCategory(input.text, g, { ownWordsOnly: true }) }));

  const { result } = current;
  // No category's words but denied ones ("not today, but tomorrow's fine"), at a timing question: a date the person
  // names, read into the window that holds it.
  const unnamed = current.mentions.every((m) => deniedInClause(current.tokens, m.start));
  if (result.status !== 'match' && unnamed && input.today !== undefined) {
    const dated = byTimingWindow(input.text, gate, input.today);
    if (dated !== undefined) return { values: { [gate.key]: { value: dated, confidence: 0.85, source: 'match' } } };
  }
  // ... at a frequency question: a rate the person states, read into the band that holds it.
  if (result.status !== 'match' && unnamed) {
    const rated = byRate(input.text, gate);
    if (rated !== undefined) return { values: { [gate.key]: { value: rated, confidence: 0.85, source: 'match' } } };
  }
  // ... at a question whose categories are ordered: "the cheapest one", "the fastest you've got".
  if (result.status !== 'match' && unnamed) {
    const end = byScaleEnd(input.text, gate);
    if (end !== undefined) return { values: { [gate.key]: { value: end, confidence: 0.85, source: 'match' } } };
  }
  // ... at a question of how old a thing is, in spans of years: the year it was made ("fitted in 2013").
  if (result.status !== 'match' && unnamed && input.today !== undefined) {
    const aged = byYearMade(input.text, gate, input.today);
    if (aged !== undefined) return { values: { [gate.key]: { value: aged, confidence: 0.85, source: 'match' } } };
  }
  // ... at a Yes/No question about pets: the pet named ("two cats", "we have a dog").
  if (result.status !== 'match' && unnamed) {
    const named = byNamedKind(input.text, gate);
    if (named !== undefined) return { values: { [gate.key]: { value: named, confidence: 0.85, source: 'match' } } };
  }
  // ... at a Yes/No question: the question said back ("she's allergic to nuts", "I can smell gas"), what it says
  // its Yes means ("automatic please" where "Yes means lessons in an automatic only"), or whether one owns one's
  // home said by its tenure ("it's ours", "we rent": tenure.ts).
  if (result.status !== 'match' && current.mentions.length === 0) {
    const said = byRestatement(input.text, gate) ?? byYesMeans(input.text, gate) ?? byTenure(input.text, gate);
    if (said !== undefined) return { values: { [gate.key]: { value: said, confidence: 0.85, source: 'match' } } };
  }
  // ... a category that is a denial ("No packing", "Never serviced"), said by denying its thing ("we don't need packing");
  // a region ("Europe", "Worldwide"), said by the places a trip goes to ("Norway and Sweden": region.ts).
  if (result.status !== 'match' && current.mentions.length === 0) {
    const denied = byDeniedCategory(input.text, gate) ?? byRegion(input.text, gate);
    if (denied !== undefined) return { values: { [gate.key]: { value: denied, confidence: 0.85, source: 'match' } } };
  }
  // ... at a question worded in the negative, what every alternative of its "(Yes means …)" shares, plainly denied
  // ("no, it's not shaded"), with a bare no at most (restated.ts).
  if (result.status !== 'match' && current.mentions.every((m) => m.generic)) {
    const denied = byYesMeansDenied(input.text, gate);
    if (denied !== undefined) return { values: { [gate.key]: { value: denied, confidence: 0.85, source: 'match' } } };
  }
  // A bare yes/no beside a sure answer to another question ("well no, she's a new patient") is that
  // answer's yes/no, or a take-back: not an answer to this question, which is asked again.
  const generic = current.mentions.length > 0 && current.mentions.every((m) => m.generic);
  // "We do have a dog" asked whether an alarm is fitted: a bare "have" of another thing answers nothing (had-thing.ts).
  // (Unless the thing had is this question's by what it is: "we've got a mortgage on it" asked whether you own the home.)
  if (
    result.status === 'match' &&
    generic &&
    current.mentions.every((m) => hadIsAnotherThing(current.tokens, m, gate.prompt, gate.categories)) &&
    byTenure(input.text, gate) !== result.value
  )
    return { values: {}, failure: { reason: 'abstained', message: 'offline matcher abstained: had_another_thing' } };
  // (Never one of this question's categories typed as written: "Never", asked how often the pressure is topped up.)
  const taken =
    result.status === 'match' &&
    !typedAsWritten(current.tokens, gate) &&
    (belongsElsewhere(current, others.map((o) => o.reading)) ||
      (generic && others.some((o) => isSure(o.reading))) ||
      // A bare yes/no or "never" in a message about another question of the flow ("no, it's about my bill").
      (generic && answersAnotherQuestion(input.text, gate, [...input.questions.filter((g) => g !== gate), ...(input.elsewhere ?? [])], current.mentions[0]?.start, holding(input))));
  // A clause whose subject is someone else, or another instance of the thing asked ("the neighbours go away every
  // month", "my last sitter started within a week"): not the person's answer (subject.ts).
  const another =
    result.status === 'match' &&
    gate.prompt !== undefined &&
    current.mentions.some(
      (m) =>
        // ("My son needs a check-up" asked whom the appointment is for: the person is the answer, not someone else;
        // "my husband had his done here" says something else of him.)
        citedSubject(current.tokens, m.start, m.end) || saidOfAnother(current.tokens, m, gate.prompt!),
    );
  // The message's structure around the answer: a take-back, a contrast to now, a denied "only", another kind (structure.ts).
  let shaped: string | undefined = result.status === 'match' && onlyPartOfTheYear(input.text, gate.prompt) ? 'restricted' : undefined;
  if (result.status === 'match' && !taken && !another && shaped === undefined) {
    const from = Math.min(...current.mentions.map((m) => m.start));
    const to = Math.max(...current.mentions.map((m) => m.end));
    const structure =
      current.mentions.length === 0
        ? { kind: 'keep' as const }
        : generic && unreadClauseOfAskedThing(current.tokens, current.mentions, gate.prompt)
          ? { kind: 'abstain' as const, why: 'unread_clause' }
          : structureOf(current.tokens, from, to, gate.prompt);
    if (structure.kind === 'keep') return { values: { [gate.key]: { value: result.value, confidence: result.confidence, source: 'match' } } };
    if (structure.kind === 'reread') {
      const again = readCategory(structure.text, gate).result;
      if (again.status === 'match') return { values: { [gate.key]: { value: again.value, confidence: Math.min(again.confidence, 0.9), source: 'match' } } };
      // ("Next week, sorry no, mid-january": what replaces it may be a date or a rate, read as they are read alone.)
      const replaced = (input.today !== undefined ? byTimingWindow(structure.text, gate, input.today) : undefined) ?? byRate(structure.text, gate);
      if (replaced !== undefined) return { values: { [gate.key]: { value: replaced, confidence: 0.85, source: 'match' } } };
      if (structure.keepOtherwise) return { values: { [gate.key]: { value: result.value, confidence: result.confidence, source: 'match' } } };
      shaped = 'taken_back';
    } else shaped = structure.why;
  }

  const values: ExtractionOutput['values'] = {};
  for (const { key, reading } of others) {
    const r = reading.result;
    if (r.status === 'match' && isSure(reading)) values[key] = { value: r.value, confidence: r.confidence, source: 'match' };
  }
  const why = taken ? 'other_question' : another ? 'another_subject' : shaped !== undefined ? shaped : result.status === 'abstain' ? result.reason : 'no_match';
  return { values, failure: { reason: 'abstained', message: `offline matcher abstained: ${why}` } };
}

/** Whether the message is one of the question's categories as written, with nothing else but fillers ("Never.", "never please"). */
function typedAsWritten(tokens: readonly string[], gate: MatchableQuestion): boolean {
  const said = tokens.filter((t) => t !== BREAK && !FILLERS.has(t)).join(' ');
  return said !== '' && gate.categories.some((c) => tokenize(c).filter((t) => t !== BREAK).join(' ') === said);
}

/** The other questions whose own words (or a small typo of one) occur in the text: looked up in the indexes built once per list. */
function holding(input: ExtractionInput): (q: MatchableQuestion) => boolean {
  const found = new Set<MatchableQuestion>(candidates(input.questions, input.text));
  if (input.elsewhere && input.elsewhere.length > 0) for (const q of lookUp(input.elsewhere, input.text, true)) found.add(q);
  return (q) => found.has(q);
}

type QuestionIndex = Map<string, ExtractionQuestion[]>;
// Keyed by the list a caller keeps for a flow place (src/flow/extraction.ts memoises it): built once per flow,
// one index of the questions' own words and one of a word of each phrase their full reading knows.
const indexes = { own: new WeakMap<readonly ExtractionQuestion[], QuestionIndex>(), full: new WeakMap<readonly ExtractionQuestion[], QuestionIndex>() };
const NUMBER_KEY = '#';  // (no word has it: tokens are letters and digits)
const SPELLED = new Set(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']);
/**
 * A word and its deletions (one letter, two from eight letters): a word and a small typo of it (one edit,
 * two swapped letters; two edits in long words, as match-category.ts allows) share one of these keys.
 */
function keysOf(w: string): string[] {
  const keys = new Set([w]);
  const deletions = (x: string) => Array.from({ length: x.length }, (_, i) => x.slice(0, i) + x.slice(i + 1));
  for (const d of deletions(w)) {
    keys.add(d);
    if (w.length >= 8) for (const dd of deletions(d)) keys.add(dd);
  }
  return [...keys];
}

/**
 * The keys of a word of the full index: a typo the full reading allows of a short word (under five
 * letters) is two swapped letters after the first, looked up as written; a longer word's typo shares a deletion key.
 */
function fullKeysOf(w: string): string[] {
  if (w.length >= 5) return keysOf(w);
  const keys = [w];
  for (let i = 1; i + 1 < w.length; i++) keys.push(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2));
  return keys;
}

function indexOf(questions: readonly ExtractionQuestion[], ownWordsOnly: boolean): QuestionIndex {
  const cache = ownWordsOnly ? indexes.own : indexes.full;
  let index = cache.get(questions);
  if (index) return index;
  index = new Map();
  const add = (key: string, q: ExtractionQuestion) => {
    const list = index!.get(key) ?? [];
    if (list.at(-1) !== q) list.push(q);
    index!.set(key, list);
  };
  for (const q of questions) {
    const { words, numbers } = ownWordsOnly ? ownWordsOf(q) : phraseKeysOf(q);
    for (const w of words) for (const key of ownWordsOnly ? (w.length >= 3 ? keysOf(w) : [w]) : fullKeysOf(w)) add(key, q);
    if (numbers) add(NUMBER_KEY, q);
  }
  cache.set(questions, index);
  return index;
}

/** The keys of a text's words (each word and its small typos, a number), kept for the text read last: one message is looked up many times. */
let lastKeys: { text: string; keys: string[] } = { text: '', keys: [] };
function textKeys(text: string): string[] {
  if (text === lastKeys.text) return lastKeys.keys;
  const keys = new Set<string>();
  for (const t of tokenize(text.slice(0, MAX_MATCH_TEXT_LENGTH))) {
    if (t === BREAK) continue;
    for (const key of t.length >= 3 ? keysOf(t) : [t]) keys.add(key);
    if (/\d/.test(t) || SPELLED.has(t)) keys.add(NUMBER_KEY);
  }
  lastKeys = { text, keys: [...keys] };
  return lastKeys.keys;
}

function lookUp(questions: readonly ExtractionQuestion[], text: string, ownWordsOnly: boolean): Set<ExtractionQuestion> {
  const index = indexOf(questions, ownWordsOnly);
  const found = new Set<ExtractionQuestion>();
  for (const key of textKeys(text)) for (const q of index.get(key) ?? []) found.add(q);
  return found;
}

/** The questions whose own words (or a small typo of one, or a number where a category names a range) occur in the text. */
function candidates(questions: readonly ExtractionQuestion[], text: string): Set<ExtractionQuestion> {
  if (questions.length <= 2) return new Set(questions);
  return lookUp(questions, text, true);
}

/**
 * The questions the text may answer when each is read with every word the
 * matcher knows (as the question asked is read): those whose words, a small
 * typo of one, or a number where a category names a range, occur in it. A
 * question not in the set reads no value from the text: a message read
 * against many questions (a correction at a summary) is looked up once and
 * read only for these. Pass the same list each time (the index is built once per list).
 */
export function mayAnswer(questions: readonly ExtractionQuestion[], text: string): Set<ExtractionQuestion> {
  return lookUp(questions, text, false);
}

/**
 * A later question's reading sure enough to commit: no typo, no flipped
 * negation, its own specific words, a clause that says only that. A bare
 * number is never one: "2" typed at the insurance question says nothing of
 * the age group, whose range it happens to fall in.
 */
function isSure(reading: CategoryReading): boolean {
  return (
    reading.result.status === 'match' &&
    reading.result.confidence >= SURE &&
    reading.mentions.every((m) => m.specific && !m.number && saysOnly(reading.tokens, m) && !wholeMessage(reading.tokens, m))
  );
}

/**
 * The mention is the whole message ("text me" typed at the age question), give or take words that
 * name no subject nor thing ("today please", "no, basic is fine"): a bare answer answers the question
 * asked, or nothing. One said of someone or named ("she's a new patient", "I'm retired", "by phone") is an assertion.
 */
function wholeMessage(tokens: readonly string[], m: MentionAt): boolean {
  const bare = (t: string) => t === BREAK || (FILLERS.has(t) && !NAMING.has(t));
  return tokens.slice(0, m.start).every(bare) && tokens.slice(m.end).every(bare);
}
/** Fillers that name a subject or a thing ("she's", "the online portal", "by phone"): the fragment says what it is about. */
const NAMING = new Set(['i', 'we', 'he', 'she', 'they', 'my', 'our', 'his', 'her', 'their', 'the', 'a', 'an', 'by', 'via', 'through', 'over']);

/** The mention's clause says that answer and nothing else ("she's a new patient", not "we have his phone number"). */
function saysOnly(tokens: readonly string[], m: MentionAt): boolean {
  let start = m.start;
  while (start > 0 && tokens[start - 1] !== BREAK) start--;
  let end = m.end;
  while (end < tokens.length && tokens[end] !== BREAK) end++;
  return [...tokens.slice(start, m.start), ...tokens.slice(m.end, end)].every((t) => FILLERS.has(t));
}

/** The current reading's words belong to what the message says of another question. */
function belongsElsewhere(current: CategoryReading, others: CategoryReading[]): boolean {
  const elsewhere = others.filter((o) => o.result.status === 'match').flatMap((o) => o.mentions);
  if (elsewhere.length === 0) return false;
  const { tokens, mentions } = current;
  const inside = (m: MentionAt, o: MentionAt) => o.start <= m.start && m.end <= o.end && o.end - o.start > m.end - m.start;
  if (mentions.every((m) => elsewhere.some((o) => inside(m, o)))) return true;
  const sameClause = (a: MentionAt, b: MentionAt) => {
    const [from, to] = a.start < b.start ? [a.end, b.start] : [b.end, a.start];
    return !tokens.slice(from, to).includes(BREAK);
  };
  // A bare yes/no, or a single word of the flow's (not the category's name), in the same clause as another
  // question's answer is read as part of that answer ("text me the results" asked about the visit).
  return mentions.every((m) => m.generic || !m.specific) && mentions.some((m) => elsewhere.some((o) => sameClause(m, o)));
}

/**
 * Whether the clause of a mention is about someone or something else than the person's answer. Where the mention
 * names a person who is the answer (asked who, or "My child" / "Someone else"), it is, unless the clause says only
 * that they do what is asked ("my neighbour will let him in"; not "my neighbour hates plumbers"). Otherwise, where
 * its subject is someone else ("my brother is a student") or a person ("my mum smokes").
 */
function saidOfAnother(tokens: readonly string[], m: MentionAt, prompt: string): boolean {
  const person = personIsAnswer(m.category, prompt);
  const theOneAsked = person && namesTheOneAsked(tokens, m.start, m.end, prompt);
  if (person && !namesNoOne(m.category)) return !theOneAsked;
  return !theOneAsked && (anotherSubject(tokens, m.start, prompt, { peopleOnly: true }) || personAsSubject(tokens, m.start, m.end));
}
