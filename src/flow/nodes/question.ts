import { and } from 'xstate';
import { z } from 'zod';
import { KEEP_VALUE, SKIP_VALUE, asksToSkip } from '../answer.js';
import { BUTTONS_ONLY_STATE, givesUp, hasAnswerButtons } from '../attempts.js';
import type { FlowContext, Answer } from '../context.js';
import {
  AnswerKeySchema,
  AnswerSpecSchema,
  DEFAULT_MAX_LENGTH,
  GuardTextSchema,
  ValidatorSchema,
  answerKey,
  booleanLabels,
  categoryLabel,
  isRequired,
  type CategoryAnswer,
  nodeFields,
  text,
} from '../fields.js';
import type { IssuePath } from '../check.js';
import { didYouMean } from '../../extract/suggest.js';
import { readYesNo } from '../../extract/knowledge/yes-no.js';
import { unasserted } from '../../extract/assertion.js';
import { BREAK, tokenize } from '../../extract/normalize.js';
import type { Place } from '../places.js';
import type { CompileContext, Enqueue, FlowActions, FlowMachineEvent, FlowGuards, NodeCheckContext, NodeKind, StateConfig, TestEventInput, Transition } from './kind.js';
import { AWAITING_ANSWER, BUSY_TAG, EXTRACT_ACTOR_ID, checkGivingUp, flowAssign, flowEnqueue, isAtOrInside, summariesOf } from './shared.js';
import {
  DONE_EXTRACT,
  ERROR_EXTRACT,
  UNCLEAR_TEXT,
  UNKNOWN_BUTTON,
  aroundEach,
  button,
  numbersOf,
  patternSample,
  stringsOf,
  text as textEvent,
  type FlowTestEvent,
} from './test-events.js';

export const QuestionNodeSchema = z.strictObject({
  kind: z.literal('question').describe('"question": asks `prompt` and stores the answer under `key`.'),
  ...nodeFields,
  /** Where the answer is stored (`answers.<key>`); the node id when absent. */
  key: AnswerKeySchema.meta({ description: 'Where the answer is stored: guards read it as answers.<key>. The node id when absent.', examples: ['visit_type'] }).optional(),
  prompt: text.meta({ description: 'What the person is asked.', examples: ['What is your name?'] }),
  answer: AnswerSpecSchema.meta({
    description: 'The answer\'s type and rules: "category", "string", "number", "boolean", "date", "email" or "phone".',
    examples: [{ type: 'category', categories: ['Yes', 'No'] }, { type: 'number', min: 1, integer: true }],
  }),
  /** True when absent. An optional question can be skipped (a "Skip" button, or saying so). */
  required: z.boolean().describe('false: the question may be skipped (a Skip button, or saying so). true when absent.').optional(),
  /** Applicability: when this guard is false the question is passed over, unanswered. */
  when: GuardTextSchema.meta({ description: 'A CEL guard: when false, the question is passed over unanswered.', examples: ["answers.venue == 'sports_court'"] }).optional(),
  validators: z.array(ValidatorSchema).describe('Rules a typed answer must pass before it is stored, each with the message shown when it fails.').optional(),
  /**
   * Failed answers allowed (unreadable or refused turns in a row); the flow's
   * `maxAttempts` when absent, else `DEFAULT_MAX_ATTEMPTS` (3): no question
   * asks the same way forever. A question with answer buttons (category,
   * yes/no) then offers the buttons alone (state `buttonsOnly`: a button, or a
   * text the offline matcher reads surely, still answers); with an `invalid`
   * edge or a flow `fallback` it gives up at one more failure, else it keeps
   * offering them. Any other question gives up at the last allowed failure
   * where it has an `invalid` edge or the flow a `fallback`, and takes it;
   * else it keeps asking (a question asked again is cheap; see attempts.ts).
   */
  maxAttempts: z.number().int().min(1).max(100).describe('Failed answers in a row before the question gives up (its `invalid` edge, else the flow\'s fallback; with neither, it keeps asking); the flow\'s maxAttempts, else 3, when absent.').optional(),
  /** Categories that end the intake at once (through the `limiting` edge). */
  limitingValues: z.array(text).meta({ description: 'Categories that end the flow at once, through the `limiting` edge.', examples: [['No']] }).optional(),
  stopMessage: text.describe('What the person reads when a limiting value ends the flow.').optional(),
});

export type QuestionNode = z.infer<typeof QuestionNodeSchema>;

// ---------------------------------------------------------------- categories

/** Case-insensitive lookup of a category of a question: the canonical spelling, or undefined. */
export function findCategory(question: QuestionNode, value: string): string | undefined {
  if (question.answer.type !== 'category') return undefined;
  const wanted = value.trim().toLowerCase();
  return question.answer.categories.find((c) => c.toLowerCase() === wanted);
}

export function isLimitingValue(question: QuestionNode, value: string): boolean {
  const wanted = value.trim().toLowerCase();
  return (question.limitingValues ?? []).some((v) => v.toLowerCase() === wanted);
}

/** A question's categories; none for a typed answer. */
export function categoriesOf(question: QuestionNode): string[] {
  return question.answer.type === 'category' ? question.answer.categories : [];
}

const lower = (s: string) => s.toLowerCase();

/**
 * Categories are unique (ignoring case), limiting values and synonym keys are
 * categories, and no phrase means two categories. Shared by flow documents and
 * gate configs, each with its own paths.
 */
export function checkCategories(
  gate: { categories: string[]; limitingValues?: string[] | undefined; synonyms?: Record<string, string[]> | undefined; labels?: Record<string, string> | undefined },
  paths: { categories: IssuePath; limitingValues: IssuePath; synonyms: IssuePath; labels?: IssuePath },
  add: (path: IssuePath, message: string) => void,
): void {
  const { categories } = gate;
  const known = new Set<string>();
  categories.forEach((category, j) => {
    if (known.has(lower(category))) add([...paths.categories, j], `duplicate category "${category}"`);
    known.add(lower(category));
  });
  gate.limitingValues?.forEach((value, j) => {
    if (!known.has(lower(value)))
      add([...paths.limitingValues, j], `limiting value "${value}" is not one of the categories (${categories.join(', ')})${didYouMean(value, categories)}`);
  });
  const phraseOwner = new Map<string, string>();
  const synonymKeys = new Set<string>();
  for (const [category, phrases] of Object.entries(gate.synonyms ?? {})) {
    // The matcher finds a category's list ignoring case: two spellings would hide one list.
    if (synonymKeys.has(lower(category))) add([...paths.synonyms, category], `synonyms for "${category}" are given twice (keys differ only in case)`);
    synonymKeys.add(lower(category));
    if (!known.has(lower(category)))
      add([...paths.synonyms, category], `synonyms given for "${category}", which is not one of the categories (${categories.join(', ')})${didYouMean(category, categories)}`);
    phrases.forEach((phrase, j) => {
      const owner = phraseOwner.get(lower(phrase)) ?? categories.find((c) => lower(c) === lower(phrase));
      if (owner !== undefined && lower(owner) !== lower(category))
        add([...paths.synonyms, category, j], `"${phrase}" already means "${owner}"`);
      phraseOwner.set(lower(phrase), category);
    });
  }
  // A label is shown for its category and read as it: it must name a category, and mean no other one.
  const labelOwner = new Map<string, string>();
  for (const [category, label] of Object.entries(gate.labels ?? {})) {
    const at = [...(paths.labels ?? []), category];
    if (!known.has(lower(category))) {
      add(at, `a label is given for "${category}", which is not one of the categories (${categories.join(', ')})${didYouMean(category, categories)}`);
      continue;
    }
    const owner = labelOwner.get(lower(label)) ?? phraseOwner.get(lower(label)) ?? categories.find((c) => lower(c) === lower(label));
    if (owner !== undefined && lower(owner) !== lower(category)) add(at, `the label "${label}" already means "${owner}"`);
    labelOwner.set(lower(label), category);
  }
}

/** The rules of a question's own fields: categories, answer bounds, and its `when` and validators type-check. */
function checkQuestion(node: QuestionNode, c: NodeCheckContext): void {
  const { answer } = node;
  const where = c.at;
  const extra = { node: node.id };
  if (answer.type === 'category') {
    checkCategories(
      { categories: answer.categories, limitingValues: node.limitingValues, synonyms: answer.synonyms, labels: answer.labels },
      { categories: [...where, 'answer', 'categories'], limitingValues: [...where, 'limitingValues'], synonyms: [...where, 'answer', 'synonyms'], labels: [...where, 'answer', 'labels'] },
      (path, message) => c.add(path, message, extra),
    );
    if (node.validators !== undefined)
      c.add([...where, 'validators'], 'a category question takes only its categories: validators apply to typed answers', extra);
  } else if (node.limitingValues !== undefined) {
    c.add([...where, 'limitingValues'], 'limiting values are categories: only a category question has them', extra);
  }
  if (answer.type === 'string') {
    if (answer.pattern !== undefined)
      try {
        new RegExp(answer.pattern, 'u');
      } catch (error) {
        c.add([...where, 'answer', 'pattern'], `not a regular expression: ${(error as Error).message}`, extra);
      }
    if (answer.minLength !== undefined && answer.minLength > (answer.maxLength ?? DEFAULT_MAX_LENGTH))
      c.add([...where, 'answer', 'minLength'], `minLength ${answer.minLength} is more than maxLength ${answer.maxLength ?? DEFAULT_MAX_LENGTH}`, extra);
  }
  if (answer.type === 'number' && answer.min !== undefined && answer.max !== undefined && answer.min > answer.max)
    c.add([...where, 'answer', 'min'], `min ${answer.min} is more than max ${answer.max}`, extra);
  if (answer.type === 'date' && answer.min !== undefined && answer.max !== undefined && answer.min !== 'today' && answer.max !== 'today' && answer.min > answer.max)
    c.add([...where, 'answer', 'min'], `min ${answer.min} is after max ${answer.max}`, extra);
  if (node.when !== undefined) c.guard([...where, 'when'], node.when, node.id);
  node.validators?.forEach((v, j) => c.guard([...where, 'validators', j, 'check'], v.check, node.id, 'validator'));
}

// ---------------------------------------------------------------- the machine

/** Words that keep a previous answer when a question is asked again. */
const KEEP_WORDS =
  /^\s*(keep( it| that| the same| as is)?|(the )?same( as before)?|still the same|no change( needed)?|unchanged|leave it( as is)?|looks (good|right|fine)|all good|(that|it)(['’]s| is) (still )?(fine|right|correct|ok|okay)|still (right|correct))\s*[.!]?\s*$/i;

/**
 * The child state where a limiting value read from free text waits to be
 * confirmed before the flow stops (issue 26 §2); tagged so tests and replies find it.
 */
export const CONFIRMING_STOP_STATE = 'confirmingStop';
export const CONFIRMING_STOP_TAG = 'confirming-stop';
/** The buttons of that check: the values every confirmation uses. */
const STOP_CONFIRM = 'confirm';
const STOP_DENY = 'edit';

/** A text's words, normalized (case, accents, punctuation), to compare with a category. */
const words = (text: string) => tokenize(text).filter((t) => t !== BREAK).join(' ');

/** Letters, digits, spaces and quiet punctuation ("Daily.", "NO!"): what words() may drop without changing what was said. */
const QUIET = /[\p{L}\p{M}\p{N}\s.,!'’\-]/u;
/**
 * The text says nothing the category's own words do not: no laugh or eye-roll
 * ("Daily 😂"), question ("Daily?") or emphasis ("*Daily*"), which words()
 * drops but which may say the opposite. Characters of the category itself are fine.
 */
const saysNothingMore = (text: string, category: string) => [...text].every((ch) => QUIET.test(ch) || category.includes(ch));

/** Yes or no to the check of a held limiting value: the button, or saying so in words (in any major language). */
function stopAnswer(event: FlowMachineEvent): 'yes' | 'no' | undefined {
  if (event.type === 'user.button') return event.value === STOP_CONFIRM ? 'yes' : event.value === STOP_DENY ? 'no' : undefined;
  if (event.type !== 'user.text') return undefined;
  const said = readYesNo(event.text);
  // A yes with an eye-roll or a laugh ("yes 🙄") does not end the flow: it is read again as an answer. A no stands.
  return said === 'yes' && unasserted(event.text) !== undefined ? undefined : said;
}

function questionGuards({ lookups }: CompileContext): FlowGuards {
  const { cel, scopeOf, keyOf, question, pressed, matched, accepted, typed, isLastAttempt } = lookups;
  return {
    /** A question's `when` is false: it does not apply. */
    notApplicable: ({ context }, params: { place: string; expr: string }) => !cel(params.expr).evaluate(scopeOf(context)),
    /** Another question of an exclusive one-of group has an answer. */
    excludedByGroup: ({ context }, params: { place: string; keys: string[] }) => params.keys.some((key) => context.answers[key] !== undefined),
    /** An optional category question the person asks to skip. */
    skipRequested: ({ event }) =>
      event.type === 'user.button' ? asksToSkip({ button: event.value }) : event.type === 'user.text' && asksToSkip({ text: event.text }),
    /**
     * The flow was sent back to this question (or into the subgraph call
     * holding it) by an unmet constraint: it is asked, whatever would pass it over.
     */
    sentBackHere: ({ context }, params: { place: string }) => {
      const to = context.invalid?.node;
      return to !== undefined && isAtOrInside(params.place, to);
    },
    /** The question already has a value (another message answered it early). */
    isAnswered: ({ context }, params: { place: string }) => context.answers[keyOf(params.place)] !== undefined,
    buttonIsCategory: ({ event }, params: { place: string }) => {
      const value = pressed(event);
      return value !== null && findCategory(question(params.place), value) !== undefined;
    },
    buttonIsLimiting: ({ event }, params: { place: string }) => {
      const value = pressed(event);
      return value !== null && isLimitingValue(question(params.place), value);
    },
    /** The offline matcher reads one of the question's categories in the text. */
    textMatches: ({ event }, params: { place: string }) => matched(event, params.place) !== undefined,
    /** ... and it is one of the question's limiting values. */
    textIsLimiting: ({ event }, params: { place: string }) => {
      const found = matched(event, params.place);
      return found !== undefined && isLimitingValue(question(params.place), String(found.value));
    },
    /**
     * ... typed as the category itself ("No", "daily."), as its button says it:
     * nothing was interpreted, so it is taken as the button is, without a check.
     */
    textIsStatedLimiting: ({ event }, params: { place: string }) => {
      const found = matched(event, params.place);
      if (found === undefined || event.type !== 'user.text') return false;
      const q = question(params.place);
      const value = String(found.value);
      if (!isLimitingValue(q, value) || q.answer.type !== 'category') return false;
      const label = categoryLabel(q.answer, value);
      const said = words(event.text);
      return (said === words(value) || said === words(label)) && saysNothingMore(event.text, `${value}${label}`);
    },
    /** The extractor could not ask its model (an error, a timeout, output outside the schema): the program failed, not the person. */
    extractorDown: ({ event }) => {
      const failure = (event as { output?: { failure?: { reason?: string }; values?: object } }).output;
      const reason = failure?.failure?.reason;
      return (reason === 'model_error' || reason === 'invalid_output') && Object.keys(failure?.values ?? {}).length === 0;
    },
    /** The person confirms the limiting value held for `limitingPlace`. */
    stopConfirmed: ({ context, event }, params: { limitingPlace: string }) =>
      context.pendingStop?.place === params.limitingPlace && stopAnswer(event) === 'yes',
    /** The person says the held limiting value is wrong. */
    stopDenied: ({ event }) => stopAnswer(event) === 'no',
    /** Extraction produced no value the flow allows. */
    extractedNothing: ({ context, event }, params: { place: string }) => Object.keys(accepted(context, params.place, event)).length === 0,
    /** Extraction gave `limitingPlace` one of its limiting values. */
    extractedLimiting: ({ context, event }, params: { place: string; limitingPlace: string }) => {
      const found = accepted(context, params.place, event)[keyOf(params.limitingPlace)];
      return found !== undefined && isLimitingValue(question(params.limitingPlace), String(found.value));
    },
    /** Extraction answered the question being asked. */
    extractedAnswer: ({ context, event }, params: { place: string }) => accepted(context, params.place, event)[keyOf(params.place)] !== undefined,
    /** A typed answer that passed its schema and validators. */
    answerValid: ({ context, event }, params: { place: string }) => typed(context, event, params.place)?.kind === 'valid',
    answerSkipped: ({ context, event }, params: { place: string }) => typed(context, event, params.place)?.kind === 'skip',
    answerInvalid: ({ context, event }, params: { place: string }) => typed(context, event, params.place)?.kind === 'invalid',
    /** Going back through the flow to correct another answer: this one is kept as it was. */
    keptInCorrection: ({ context }, params: { place: string }) => {
      const key = keyOf(params.place);
      return !!context.correction && context.correction.key !== key && context.previousAnswers[key] !== undefined;
    },
    /** Going back through the flow to correct another answer: this optional question was skipped, and is passed over again. */
    skippedInCorrection: ({ context }, params: { place: string }) => {
      const key = keyOf(params.place);
      return !!context.correction && context.correction.key !== key && (context.correction.skipped ?? []).includes(key);
    },
    /**
     * Going back through the flow to correct an answer: this question had no answer because a later one of
     * its exclusive group had (and has) one, so it is passed over again.
     */
    excludedInCorrection: ({ context }, params: { place: string; keys: string[] }) =>
      !!context.correction &&
      context.previousAnswers[keyOf(params.place)] === undefined &&
      params.keys.some((key) => context.previousAnswers[key] !== undefined || context.answers[key] !== undefined),
    /** The answer being corrected, with the message that corrects it. */
    correctedByText: ({ context }, params: { place: string }) =>
      !!context.correction && context.correction.key === keyOf(params.place) && context.correction.text !== null,
    /** "Keep" (the button, or saying so) when the question is asked again with its previous answer. */
    keepsPrevious: ({ context, event }, params: { place: string }) => {
      if (context.previousAnswers[keyOf(params.place)] === undefined) return false;
      const said = event.type === 'user.button' ? event.value : event.type === 'user.text' ? event.text : '';
      return KEEP_WORDS.test(said) || said.trim().toLowerCase() === KEEP_VALUE;
    },
    /** This failure is the last one the question's budget (`maxAttempts`, the flow's, or the default) allows. */
    isLastAttempt: ({ context }, params: { place: string }) => isLastAttempt(context, params.place),
    /**
     * A text this question cannot read that reads as the answer to `key`, an
     * unanswered member of its exclusive one-of group of another type (a phone
     * number given at "email, or skip this and give a phone number").
     */
    answersSibling: ({ context, event }, params: { place: string; key: string }) =>
      event.type === 'user.text' &&
      context.answers[params.key] === undefined &&
      typed(context, event, params.place)?.kind === 'invalid' &&
      typed(context, event, params.key)?.kind === 'valid',
  };
}

/**
 * The other typed members of the question's exclusive one-of groups, of
 * another type (email and phone): a text that reads as one of them answers
 * it, and one that is nearly one of them (a phone number missing digits) is
 * refused with that member's reason.
 */
function groupSiblings(
  q: QuestionNode,
  constraints: readonly { oneOf?: string[] | undefined; exclusive?: boolean | undefined }[],
  questionOf: (key: string) => QuestionNode | undefined,
): string[] {
  if (q.answer.type === 'category') return [];
  return constraints
    .filter((k) => k.exclusive && k.oneOf?.includes(answerKey(q)))
    .flatMap((k) => k.oneOf!.filter((key) => key !== answerKey(q)))
    .filter((key) => {
      const other = questionOf(key);
      return other !== undefined && other.answer.type !== 'category' && other.answer.type !== q.answer.type;
    });
}

function questionActions(c: CompileContext): FlowActions {
  const { lookups } = c;
  const { question, keyOf, pressed, matched, guessed, typed, accepted, withoutAttempt, maxAttemptsOf } = lookups;
  /** Store an answer, clear what the last failure said, trace it. */
  const commit = (enqueue: Enqueue, context: FlowContext, at: string, answer: Answer) => {
    const key = keyOf(at);
    enqueue.assign({
      answers: { ...context.answers, [key]: answer },
      notice: null,
      invalid: null,
      noted: [],
      attempts: withoutAttempt(context, at),
      // (What an earlier hedged answer meant is answered now: not offered again should the flow come back here.)
      ...(context.guess ? { guess: null } : {}),
    });
    enqueue.emit({ type: 'answer.committed', node: at, key, value: answer.value, source: answer.source });
  };
  return {
    commitButton: flowEnqueue(({ context, event, enqueue }, params: { place: string }) => {
      const q = question(params.place);
      const value = findCategory(q, pressed(event) ?? '');
      if (value === undefined) return;
      commit(enqueue, context, params.place, { value, confidence: 1, source: 'button', raw: pressed(event)! });
    }),
    commitMatched: flowEnqueue(({ context, event, enqueue }, params: { place: string }) => {
      const found = matched(event, params.place);
      if (!found || event.type !== 'user.text') return;
      commit(enqueue, context, params.place, { ...found, raw: event.text });
    }),
    commitTyped: flowEnqueue(({ context, event, enqueue }, params: { place: string }) => {
      const read = typed(context, event, params.place);
      if (read?.kind !== 'valid') return;
      const raw = event.type === 'user.button' ? event.value : event.type === 'user.text' ? event.text : '';
      commit(enqueue, context, params.place, {
        value: read.value,
        confidence: read.confidence,
        source: event.type === 'user.button' ? 'button' : 'match',
        raw,
      });
    }),
    rememberText: flowAssign(({ event }) => ({ pendingText: event.type === 'user.text' ? event.text : null })),
    commitExtracted: flowEnqueue(({ context, event, enqueue }, params: { place: string }) => {
      const raw = context.pendingText ?? '';
      const values = accepted(context, params.place, event);
      const answers = { ...context.answers };
      for (const [key, found] of Object.entries(values)) answers[key] = { ...found, raw };
      // Answers to questions not asked yet are said back in the reply ("Noted: ..."), never kept silently.
      const noted = Object.keys(values).filter((key) => key !== keyOf(params.place));
      enqueue.assign({ answers, notice: null, invalid: null, noted, pendingText: null, attempts: withoutAttempt(context, params.place) });
      for (const [key, found] of Object.entries(values))
        enqueue.emit({ type: 'answer.committed', node: params.place, key, value: found.value, source: found.source });
    }),
    /**
     * Not understood: said, and a failed answer counted (as noteNotUnderstood does), with what a hedged text most
     * likely meant kept to offer back ("Did you mean ...?"); the text is the turn's, or the one the model just read.
     */
    noteUnread: flowAssign(({ context, event }, params: { place: string }) => {
      const text = event.type === 'user.text' ? event.text : context.pendingText;
      const value = text ? guessed(text, params.place) : undefined;
      return {
        notice: 'not_understood' as const,
        invalid: null,
        pendingText: null,
        noted: [],
        attempts: { ...context.attempts, [params.place]: (context.attempts[params.place] ?? 0) + 1 },
        // (Kept out of the snapshot unless there is one to offer, or one to forget.)
        ...(value !== undefined ? { guess: { node: params.place, value } } : context.guess ? { guess: null } : {}),
      };
    }),
    recordStop: flowAssign((_, params: { place: string }) => ({ stoppedBy: keyOf(params.place) })),
    /** A limiting value the offline matcher read in free text: held, to be confirmed before the flow stops. */
    holdMatchedStop: flowAssign(({ event }, params: { place: string }) => {
      const found = matched(event, params.place);
      if (!found || event.type !== 'user.text') return {};
      return { pendingStop: { place: params.place, key: keyOf(params.place), answer: { ...found, raw: event.text } }, notice: null, invalid: null, noted: [] };
    }),
    /**
     * A limiting value the model read (for this question or a later one): the
     * other values are committed as usual (and said back), the limiting one is held.
     */
    holdExtractedStop: flowEnqueue(({ context, event, enqueue }, params: { place: string; limitingPlace: string }) => {
      const raw = context.pendingText ?? '';
      const held = keyOf(params.limitingPlace);
      const values = accepted(context, params.place, event);
      const found = values[held];
      if (!found) return;
      const answers = { ...context.answers };
      const others = Object.entries(values).filter(([key]) => key !== held);
      for (const [key, value] of others) answers[key] = { ...value, raw };
      const noted = others.map(([key]) => key).filter((key) => key !== keyOf(params.place));
      enqueue.assign({
        answers,
        notice: null,
        invalid: null,
        noted,
        pendingText: null,
        pendingStop: { place: params.limitingPlace, key: held, answer: { ...found, raw } },
      });
      for (const [key, value] of others) enqueue.emit({ type: 'answer.committed', node: params.place, key, value: value.value, source: value.source });
    }),
    /** The held limiting value, confirmed: committed. */
    commitHeldStop: flowEnqueue(({ context, enqueue }, params: { place: string }) => {
      const held = context.pendingStop;
      if (!held) return;
      enqueue.assign({ answers: { ...context.answers, [held.key]: held.answer }, pendingStop: null, notice: null, invalid: null, noted: [] });
      enqueue.emit({ type: 'answer.committed', node: params.place, key: held.key, value: held.answer.value, source: held.answer.source });
    }),
    /** The held limiting value is dropped ("No, that's wrong", or another answer instead). */
    dropStop: flowAssign(() => ({ pendingStop: null, noted: [] })),
    /** Neither yes nor no to the check: the turn is read again as an answer to the question. */
    readAgain: flowEnqueue(({ event, enqueue }) => {
      if (event.type === 'user.text') enqueue.raise({ type: 'user.text', text: event.text });
      else if (event.type === 'user.button') enqueue.raise({ type: 'user.button', value: event.value });
    }),
    /** The text answered `key`, another member of the question's exclusive group (see `answersSibling`). */
    commitSibling: flowEnqueue(({ context, event, enqueue }, params: { place: string; key: string }) => {
      const read = typed(context, event, params.key);
      if (read?.kind !== 'valid' || event.type !== 'user.text') return;
      const answer: Answer = { value: read.value, confidence: read.confidence, source: 'match', raw: event.text };
      enqueue.assign({ answers: { ...context.answers, [params.key]: answer }, notice: null, invalid: null, attempts: withoutAttempt(context, params.place) });
      enqueue.emit({ type: 'answer.committed', node: params.place, key: params.key, value: answer.value, source: answer.source });
    }),
    /** The previous answer again, as it was given (kept in a correction, or "Keep"). */
    restorePrevious: flowEnqueue(({ context, enqueue }, params: { place: string }) => {
      const previous = context.previousAnswers[keyOf(params.place)];
      if (previous) commit(enqueue, context, params.place, previous);
    }),
    /** The correction's message answers this question, read as any answer to it is. */
    answerCorrection: flowEnqueue(({ context, enqueue }) => {
      const correction = context.correction;
      if (!correction?.text) return;
      enqueue.assign({ correction: { ...correction, text: null } });
      enqueue.raise({ type: 'user.text', text: correction.text });
    }),
    /** A typed answer was refused: keep the reason to say, count the failure, trace it. */
    recordInvalid: flowEnqueue(({ context, event, enqueue }, params: { place: string }) => {
      const own = typed(context, event, params.place);
      // Nothing of this question's kind in it, but nearly an answer to a group member: that member's reason.
      const nearly =
        own?.kind === 'invalid' && !own.found
          ? groupSiblings(question(params.place), c.lookups.constraints, c.graph.question)
              .filter((key) => context.answers[key] === undefined)
              .map((key) => typed(context, event, key))
              .find((r) => r?.kind === 'invalid' && r.found)
          : undefined;
      const read = nearly ?? own;
      const message = read?.kind === 'invalid' ? read.message : 'That answer could not be used.';
      const choices = read?.kind === 'invalid' ? read.choices : undefined;
      const guess = read === own && own?.kind === 'invalid' ? own.guess : undefined;
      const attempt = (context.attempts[params.place] ?? 0) + 1;
      enqueue.assign({
        invalid: { node: params.place, message, ...(choices && { choices }) },
        notice: null,
        noted: [],
        attempts: { ...context.attempts, [params.place]: attempt },
        ...(guess !== undefined ? { guess: { node: params.place, value: guess } } : context.guess ? { guess: null } : {}),
      });
      enqueue.emit({
        type: 'validation.failed',
        node: params.place,
        key: keyOf(params.place),
        message,
        attempt,
        maxAttempts: maxAttemptsOf(params.place),
      });
    }),
    recordSkip: flowEnqueue(({ context, enqueue }, params: { place: string; reason: 'not_applicable' | 'optional' | 'answered' | 'exclusive' }) => {
      if (params.reason === 'optional') {
        // Kept so that a summary can offer it to answer later (and a correction of another answer passes it over).
        const key = keyOf(params.place);
        const skipped = (context.skipped ?? []).includes(key) ? {} : { skipped: [...(context.skipped ?? []), key] };
        enqueue.assign({ notice: null, invalid: null, attempts: withoutAttempt(context, params.place), ...skipped });
      }
      enqueue.emit({ type: 'answer.skipped', node: params.place, key: keyOf(params.place), reason: params.reason });
    }),
  };
}

/**
 * A question's state: `entering` (passed over when its `when` is false, an
 * exclusive one-of group is answered, or an earlier message answered it),
 * `asking`, `buttonsOnly` once its failed answers used up the budget (a
 * question with answer buttons), `extracting` while the model reads a text
 * the offline matcher abstained on, and a transient child per guarded outcome.
 */
function questionState(p: Place & { node: QuestionNode }, c: CompileContext): StateConfig {
  const { graph, go, withVote } = c;
  const { constraints, enforced } = c.lookups;
  const q = p.node;
  const params = { place: p.id };
  const limited = (q.limitingValues ?? []).length > 0;
  // A summary's edit edge leads back through this question, and it leads on to that summary:
  // a correction there may come here, with this question answered before.
  const onTheWay = c.nodesFrom(p.id);
  const correctable = summariesOf(c)
    .filter((s) => onTheWay.includes(s.place.node) && s.keys.includes(answerKey(q)))
    .map((s) => s.keys);
  const reviewed = correctable.length > 0;
  // Kept while another answer is corrected: only if another answer it can stand beside may be (not one of its exclusive group).
  const exclusiveWith = new Set(constraints.filter((k) => k.exclusive && k.oneOf?.includes(answerKey(q))).flatMap((k) => k.oneOf ?? []));
  const keepable = correctable.some((keys) => keys.some((key) => key !== answerKey(q) && !exclusiveWith.has(key)));
  // Free text is never read out of a correction's message (it is asked again instead).
  const readable = q.answer.type !== 'string';
  const keep: Transition[] = reviewed ? [go(p, 'answered', { type: 'keepsPrevious', params }, [{ type: 'restorePrevious', params }])] : [];
  // Its answers are buttons: once its failed answers use up the budget it offers them alone (then gives up, if it has somewhere to go).
  const buttons = hasAnswerButtons(q);
  // Passed over once another key of an exclusive group is answered: only keys asked before it can be.
  const askedBefore = new Set(graph.questions.slice(0, graph.questions.indexOf(q)).map(answerKey));
  const exclusive = constraints
    .filter((k) => k.exclusive && k.oneOf?.includes(answerKey(q)))
    .map((k) => k.oneOf!.filter((key) => key !== answerKey(q) && askedBefore.has(key)))
    .filter((keys) => keys.length > 0);
  // The members of its exclusive groups asked after it that a summary can change: one answered, this one was passed over.
  const laterInGroup = [...exclusiveWith].filter((key) => key !== answerKey(q) && !askedBefore.has(key) && correctable.some((keys) => keys.includes(key)));
  // The other typed members of its exclusive groups, of another type: a text that reads as one of them answers it.
  const siblings = groupSiblings(q, constraints, graph.question);
  // Sent back here by an unmet constraint: asked, whatever would pass it over.
  const fallbackHere = enforced.some((k) => isAtOrInside(p.id, k.fallback!));
  const skip = (reason: string) => [{ type: 'recordSkip', params: { ...params, reason } }];
  const skips: Transition[] = [
    ...(q.when !== undefined ? [go(p, 'answered', { type: 'notApplicable', params: { place: p.id, expr: q.when } }, skip('not_applicable'))] : []),
    ...exclusive.map((keys) => go(p, 'answered', { type: 'excludedByGroup', params: { place: p.id, keys } }, skip('exclusive'))),
    ...(c.canBeAnsweredEarly(p) || siblings.some((key) => askedBefore.has(key)) ? [go(p, 'answered', { type: 'isAnswered', params }, skip('answered'))] : []),
    // A correction from a summary: answers it passes are kept, the corrected one is answered by the message.
    ...(reviewed
      ? [
          ...(keepable ? [go(p, 'answered', { type: 'keptInCorrection', params }, [{ type: 'restorePrevious', params }])] : []),
          ...(keepable && !isRequired(q) ? [go(p, 'answered', { type: 'skippedInCorrection', params }, skip('optional'))] : []),
          ...(laterInGroup.length > 0 ? [go(p, 'answered', { type: 'excludedInCorrection', params: { ...params, keys: laterInGroup } }, skip('exclusive'))] : []),
          ...(readable ? [{ guard: { type: 'correctedByText', params }, target: 'asking', actions: [{ type: 'answerCorrection' }] }] : []),
        ]
      : []),
  ];
  const record = (notUnderstood: boolean) => (notUnderstood ? { type: 'noteUnread', params } : { type: 'recordInvalid', params });
  /** Giving up: the failure is counted and traced, then the count starts again (should the flow come back here). */
  const giveUp = (guard: unknown, notUnderstood: boolean) => go(p, 'invalid', guard, [record(notUnderstood), { type: 'forgetAttempts', params }]);
  /** The budget's last failure: the buttons alone; without buttons, giving up where the author said where to go, else asking again (attempts.ts). */
  const lastFailure = (guard: unknown, notUnderstood: boolean): Transition =>
    buttons
      ? { guard, target: BUTTONS_ONLY_STATE, actions: [record(notUnderstood)] }
      : givesUp(c.doc, q, p.scope.edges)
        ? giveUp(guard, notUnderstood)
        : { guard, actions: [record(notUnderstood)] };
  /** A failed answer with the buttons alone: giving up where the author said where to go, else offering them again (attempts.ts). */
  const buttonsOnlyFailure = (notUnderstood: boolean): Transition =>
    givesUp(c.doc, q, p.scope.edges) ? giveUp(undefined, notUnderstood) : { actions: [record(notUnderstood)] };
  /** A failed answer while asking: counted, and asked again, up to the budget. */
  const failed = (notUnderstood: boolean): Transition[] => [lastFailure({ type: 'isLastAttempt', params }, notUnderstood), { actions: [record(notUnderstood)] }];
  let asking: StateConfig;
  let buttonsOnly: StateConfig | undefined;
  let extracting: StateConfig | undefined;
  let confirmingStop: StateConfig | undefined;
  if (q.answer.type === 'category') {
    const modelAllowed = !(p.path.length === 0 && q.id === graph.start.id);
    const direct = (isLimiting: string, matches: string, commitAction: string): Transition[] => [
      ...(limited
        ? [
            ...(isLimiting === 'textIsLimiting'
              ? [
                  // The category typed as it is: as its button.
                  go(p, 'limiting', { type: 'textIsStatedLimiting', params }, [{ type: commitAction, params }, { type: 'recordStop', params }]),
                  // Read out of free text: held and confirmed before the flow stops.
                  { guard: { type: isLimiting, params }, target: CONFIRMING_STOP_STATE, actions: [{ type: 'holdMatchedStop', params }] },
                ]
              : [go(p, 'limiting', { type: isLimiting, params }, [{ type: commitAction, params }, { type: 'recordStop', params }])]),
          ]
        : []),
      go(p, 'answered', { type: matches, params }, [{ type: commitAction, params }]),
      ...(!isRequired(q) ? [go(p, 'answered', { type: 'skipRequested' }, skip('optional'))] : []),
    ];
    asking = {
      on: {
        'user.button': [...keep, ...direct('buttonIsLimiting', 'buttonIsCategory', 'commitButton'), ...failed(true)],
        // The offline matcher first (pure, here in the machine); the model only where it abstains.
        'user.text': withVote([
          ...keep,
          ...direct('textIsLimiting', 'textMatches', 'commitMatched'),
          // The first question never calls a model (the seed's rule).
          ...(modelAllowed ? [{ target: 'extracting', actions: [{ type: 'rememberText' }] }] : failed(true)),
        ]),
      },
    };
    // The buttons alone: a button or a text the offline matcher reads surely answers (no model); anything else gives up or asks again.
    buttonsOnly = {
      on: {
        'user.button': [...direct('buttonIsLimiting', 'buttonIsCategory', 'commitButton'), buttonsOnlyFailure(true)],
        'user.text': withVote([...direct('textIsLimiting', 'textMatches', 'commitMatched'), buttonsOnlyFailure(true)]),
      },
    };
    if (modelAllowed) extracting = extractingState(p, c, lastFailure);
    // The limiting values free text may give here: this question's, and (through the model) later ones'.
    const stops = (modelAllowed ? c.laterPlaces(p) : [p]).filter((g) => ((g.node as QuestionNode).limitingValues ?? []).length > 0);
    if (stops.length > 0) confirmingStop = confirmingStopState(p, c, stops);
  } else {
    const answer = (fail: Transition[], text = false): Transition[] => [
      go(p, 'answered', { type: 'answerValid', params }, [{ type: 'commitTyped', params }]),
      ...(!isRequired(q) ? [go(p, 'answered', { type: 'answerSkipped', params }, skip('optional'))] : []),
      // A text that answers another member of its exclusive group (a phone number at "email, or give a phone number").
      ...(text ? siblings : []).map((key) =>
        go(p, 'answered', { type: 'answersSibling', params: { ...params, key } }, [{ type: 'commitSibling', params: { ...params, key } }, ...skip('exclusive')]),
      ),
      ...fail,
    ];
    asking = { on: { 'user.button': [...keep, ...answer(failed(false))], 'user.text': withVote([...keep, ...answer(failed(false), true)]) } };
    if (buttons) buttonsOnly = { on: { 'user.button': answer([buttonsOnlyFailure(false)]), 'user.text': withVote(answer([buttonsOnlyFailure(false)])) } };
  }
  return {
    tags: ['question'],
    ...c.traced(p),
    initial: skips.length > 0 ? 'entering' : 'asking',
    states: {
      ...(skips.length > 0 && {
        entering: { always: [...(fallbackHere ? [{ guard: { type: 'sentBackHere', params }, target: 'asking' }] : []), ...skips, { target: 'asking' }] },
      }),
      asking,
      ...(buttonsOnly && { [BUTTONS_ONLY_STATE]: buttonsOnly }),
      ...(extracting && { extracting }),
      ...(confirmingStop && { [CONFIRMING_STOP_STATE]: confirmingStop }),
      ...c.routingChildren(p, ['answered', ...(limited ? (['limiting'] as const) : []), 'invalid']),
    },
  };
}

/** Where the matcher abstained: the `extract` actor (a model) reads the text, for this and later questions. */
function extractingState(p: Place, c: CompileContext, lastFailure: (guard: unknown, notUnderstood: boolean) => Transition): StateConfig {
  const { go } = c;
  const params = { place: p.id };
  const reachable = c.laterPlaces(p);
  // A limiting value the model read is held and confirmed first (confirmingStopState), as one read offline.
  const limitingTransitions = reachable
    .filter((g) => ((g.node as QuestionNode).limitingValues ?? []).length > 0)
    .map((g) => ({
      guard: { type: 'extractedLimiting', params: { place: p.id, limitingPlace: g.id } },
      target: CONFIRMING_STOP_STATE,
      actions: [{ type: 'holdExtractedStop', params: { place: p.id, limitingPlace: g.id } }],
    }));
  const nothing = { type: 'extractedNothing', params };
  return {
    tags: [BUSY_TAG],
    invoke: {
      id: EXTRACT_ACTOR_ID,
      src: 'extract',
      input: ({ context }) => c.extractionInput(p.id, context),
      onDone: [
        // The model is down: said plainly, the buttons offered, no attempt counted (the flow never ends for it).
        { guard: { type: 'extractorDown' }, target: 'asking', actions: [{ type: 'noteModelDown' }] },
        // Nothing read, and the budget is used up: the buttons alone.
        lastFailure(and([nothing, { type: 'isLastAttempt', params }] as never), true),
        { guard: nothing, target: 'asking', actions: [{ type: 'noteUnread', params }] },
        ...limitingTransitions,
        go(p, 'answered', { type: 'extractedAnswer', params }, [{ type: 'commitExtracted', params }]),
        // Only later questions were answered: keep them, ask this one again.
        ...(reachable.length > 1 ? [{ target: 'asking', actions: [{ type: 'commitExtracted', params }] }] : []),
      ],
      // A failing extractor never ends the conversation, nor counts against the person: ask again, with the buttons.
      onError: { target: 'asking', actions: [{ type: 'noteModelDown' }] },
    },
  };
}

/**
 * A limiting value read from free text, held: "Just to check: ...? Then we
 * cannot continue." Yes (the button or in words) commits it and the flow stops
 * through that question's limiting edges (a later question's through its
 * transient child); no asks the question again; anything else is read again
 * as an answer to the question (to the next one when the same message answered this one).
 */
function confirmingStopState(p: Place, c: CompileContext, stops: Place[]): StateConfig {
  const { leave, ref } = c;
  const params = { place: p.id };
  const confirmed = stops.map((g): Transition => {
    const to = leave(g, 'limiting');
    const target = to.child && g !== p ? `${ref(g.path, g.node.id)}.limiting` : to.target;
    return {
      guard: { type: 'stopConfirmed', params: { limitingPlace: g.id } },
      target,
      actions: [{ type: 'commitHeldStop', params }, { type: 'recordStop', params: { place: g.id } }, ...to.actions],
    };
  });
  // The message that gave a later question's limiting value may have answered this one too (kept, not held):
  // then "no" goes on to the next question, and another answer is read there, instead of asking this one again.
  // (Only a model reads a later question's value, so only a later question's stop comes with this one answered.)
  const answered = { type: 'isAnswered', params };
  const later = stops.some((g) => g !== p);
  const turn: Transition[] = [
    ...confirmed,
    ...(later ? [c.go(p, 'answered', and([{ type: 'stopDenied' }, answered] as never), [{ type: 'dropStop' }])] : []),
    { guard: { type: 'stopDenied' }, target: 'asking', actions: [{ type: 'dropStop' }] },
    ...(later ? [c.go(p, 'answered', answered, [{ type: 'dropStop' }, { type: 'readAgain' }])] : []),
    { target: 'asking', actions: [{ type: 'dropStop' }, { type: 'readAgain' }] },
  ];
  return { tags: [CONFIRMING_STOP_TAG], on: { 'user.button': turn, 'user.text': turn } };
}

// ---------------------------------------------------------------- test events

const skipEvents = (q: QuestionNode): FlowTestEvent[] => (isRequired(q) ? [] : [button(SKIP_VALUE), textEvent(SKIP_VALUE)]);

/**
 * Every category as a button and as text (the offline matcher reads it), each
 * limiting value in other words (checked before the flow stops), an unknown button and an unclear text (a model is asked, except on the first
 * question), and "skip" when the question is optional.
 */
function categoryQuestionEvents(q: QuestionNode): FlowTestEvent[] {
  const categories = categoriesOf(q);
  // A limiting value in other words than its own: read, then checked before the flow stops.
  const reworded = (q.limitingValues ?? []).map((value) => textEvent(`my answer is ${value}`));
  return [...categories.map(button), button(UNKNOWN_BUTTON), ...categories.map(textEvent), ...reworded, textEvent(UNCLEAR_TEXT), ...skipEvents(q)];
}

/**
 * While extracting: each category, each limiting value of every question the
 * extraction may answer, answers to later questions only, nothing, and a
 * failure.
 */
function extractionEvents(q: QuestionNode, t: TestEventInput): FlowTestEvent[] {
  const own = answerKey(q);
  const done = (values: Record<string, string>): FlowTestEvent => ({
    type: DONE_EXTRACT,
    output: {
      values: Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value, confidence: 0.9, source: 'llm' as const }])),
    },
  });
  const categories = categoriesOf(q);
  const events: FlowTestEvent[] = [
    { type: DONE_EXTRACT, output: { values: {}, failure: { reason: 'abstained', message: 'nothing found' } } },
    // The model was down: not the person's failure.
    { type: DONE_EXTRACT, output: { values: {}, failure: { reason: 'model_error', message: 'model down' } } },
    { type: ERROR_EXTRACT, error: 'extractor failed' },
    ...categories.map((value) => done({ [own]: value })),
  ];
  const ownCalm = categories.find((c) => !(q.limitingValues ?? []).includes(c)) ?? categories[0]!;
  for (const gate of t.extractionInput(t.place, t.snapshot.context).questions) {
    if (gate.key === own) continue;
    const later = t.graph.question(gate.key)!;
    const calm = categoriesOf(later).find((c) => !(later.limitingValues ?? []).includes(c));
    if (calm !== undefined) events.push(done({ [gate.key]: calm }), done({ [own]: ownCalm, [gate.key]: calm }));
    // A later limiting value with this question's answer (kept) or alone (this question asked again if it is denied).
    for (const limiting of later.limitingValues ?? []) events.push(done({ [own]: ownCalm, [gate.key]: limiting }), done({ [gate.key]: limiting }));
  }
  return events;
}

const DAY_MS = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (iso: string, days: number) => isoDay(new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS));

/**
 * Texts for a typed question: `valid` ones the parser reads (the bounds, and
 * values around each literal the flow compares the answer with; a validator
 * may still refuse some, which is the point), `invalid` ones it refuses or
 * the schema does (out of range, unparseable).
 */
function typedSamples(q: QuestionNode, t: TestEventInput): { valid: string[]; invalid: string[] } {
  const key = answerKey(q);
  const literals = t.literals(key);
  const extra = t.options.samples?.[key] ?? [];
  const spec = q.answer;
  switch (spec.type) {
    case 'category':
      return { valid: [], invalid: [] };
    case 'number': {
      const low = spec.min ?? 0;
      const high = spec.max ?? low + 100;
      const fits = (n: number) => n >= low && n <= high && (!spec.integer || Number.isInteger(n));
      const valid = [...new Set([low, high, ...aroundEach(numbersOf(literals))])].filter(fits).sort((a, b) => a - b);
      const invalid = ['no idea', ...(spec.min !== undefined ? [String(spec.min - 1)] : []), ...(spec.max !== undefined ? [String(spec.max + 1)] : [])];
      if (spec.integer && fits(Math.floor(low) + 1)) invalid.push(`${Math.floor(low)}.5`);
      return { valid: [...valid.map(String), ...extra], invalid };
    }
    case 'date': {
      const bound = (b: string | undefined) => (b === 'today' ? isoDay(t.today) : b);
      const min = bound(spec.min);
      const max = bound(spec.max);
      const first = min ?? (max !== undefined ? addDays(max, -30) : isoDay(t.today));
      const last = max ?? addDays(first, 30);
      const dates = stringsOf(literals).filter((s) => /^\d{4}-\d{2}-\d{2}$/.test(s));
      const valid = [...new Set([first, last, ...dates.flatMap((d) => [addDays(d, -1), d, addDays(d, 1)])])].filter((d) => d >= first && d <= last);
      const invalid = ['sometime soon', ...(min !== undefined ? [addDays(min, -1)] : []), ...(max !== undefined ? [addDays(max, 1)] : [])];
      return { valid: [...valid.sort(), ...extra], invalid };
    }
    case 'boolean': {
      const { trueLabel, falseLabel } = booleanLabels(spec);
      return { valid: [trueLabel, falseLabel, ...extra], invalid: ['maybe'] };
    }
    case 'email':
      return { valid: ['name@example.com', ...extra], invalid: ['name at example'] };
    case 'phone':
      return { valid: ['+15550102233', ...extra], invalid: ['12345'] };
    case 'string': {
      const min = spec.minLength ?? 1;
      const max = spec.maxLength;
      const plain = 'Sam Example';
      const sample = plain.length >= min && (max === undefined || plain.length <= max) ? plain : 'x'.repeat(Math.max(1, min));
      // A text its pattern takes, first (the first sample is also pressed as a button); the plain one is still tried.
      const matching = spec.pattern !== undefined ? patternSample(spec.pattern) : undefined;
      return {
        valid: [...(matching !== undefined ? [matching] : []), sample, ...stringsOf(literals), ...extra],
        invalid: ['', ...(min > 1 ? ['x'.repeat(min - 1)] : []), ...(max !== undefined ? ['x'.repeat(max + 1)] : [])],
      };
    }
  }
}

/**
 * A typed question: valid and invalid texts (see {@link typedSamples}); as
 * buttons (read like text) the boolean labels, or else the first valid and
 * the first invalid sample; "skip" when the question is optional.
 */
function typedQuestionEvents(q: QuestionNode, t: TestEventInput): FlowTestEvent[] {
  const { valid, invalid } = typedSamples(q, t);
  const buttons = q.answer.type === 'boolean' ? [...valid.slice(0, 2), invalid[0]] : [valid[0], invalid[0]];
  // An answer to another member of its exclusive group (a phone number at the email question).
  const siblings = groupSiblings(q, t.graph.doc.constraints ?? [], t.graph.question).flatMap((key) => {
    const other = t.graph.question(key);
    return other ? typedSamples(other, t).valid.slice(0, 1) : [];
  });
  return [...buttons.filter((b) => b !== undefined).map(button), ...valid.map(textEvent), ...invalid.map(textEvent), ...siblings.map(textEvent), ...skipEvents(q)];
}

// ---------------------------------------------------------------- the kind

/** The buttons of a question: its categories, or its yes/no labels; "Skip" when it is optional. */
/** Whether pressing the question's button `value` gives the answer `answer` (a category, or a yes/no by its label). */
function buttonGives(q: QuestionNode, value: string, answer: unknown): boolean {
  if (q.answer.type === 'category') return value === answer;
  if (q.answer.type === 'boolean') return value === booleanLabels(q.answer)[answer === true ? 'trueLabel' : 'falseLabel'];
  return false;
}

function questionButtons(q: QuestionNode, skipLabel: string) {
  const buttons =
    q.answer.type === 'category'
      ? q.answer.categories.map((c) => ({ label: categoryLabel(q.answer as CategoryAnswer, c), value: c }))
      : q.answer.type === 'boolean'
        ? Object.values(booleanLabels(q.answer)).map((label) => ({ label, value: label }))
        : [];
  if (!isRequired(q)) buttons.push({ label: skipLabel, value: SKIP_VALUE });
  return buttons;
}

/**
 * A question: asks its prompt and stores the answer under its key. A category
 * question reads buttons and, through the offline matcher and then the model,
 * text; a typed question parses and validates the text. It leaves on
 * `answered`, on `limiting` for a limiting value, on `invalid` when it gives up.
 */
export const question: NodeKind<typeof QuestionNodeSchema> = {
  kind: 'question',
  schema: QuestionNodeSchema,
  outcomes: ['answered', 'limiting', 'invalid'],
  check: checkQuestion,
  checkEdges(node, c) {
    c.need('answered', 'to continue on');
    const limiting = (node.limitingValues ?? []).length > 0;
    if (limiting && !c.has('limiting'))
      c.fail([...c.at, 'limitingValues'], `question "${node.id}" has limiting values but no "limiting" edge to stop on`, { node: node.id });
    if (!limiting && c.has('limiting')) c.fail(c.at, `question "${node.id}" has a "limiting" edge but no limiting values`, { node: node.id });
    checkGivingUp(node, c);
  },
  // Passed over by its `when` within the turn that reaches it: a loop of such questions may never stop.
  silence: (node) => (node.when !== undefined ? 'instant' : 'asks'),
  answerKeys: (node) => [answerKey(node)],

  guards: questionGuards,
  actions: questionActions,
  state: questionState,

  reply(node, { graph, context, place, phase, notUnderstood, because, messages }) {
    const held = context.pendingStop;
    if (phase === CONFIRMING_STOP_STATE && held) {
      const asked = graph.question(held.key) ?? node;
      return {
        message: messages.stopCheckMessage(asked, held.answer),
        buttons: [
          { label: messages.STOP_CHECK_YES_LABEL, value: STOP_CONFIRM },
          { label: messages.STOP_CHECK_NO_LABEL, value: STOP_DENY },
        ],
        buttonContext: 'gate_confirmation',
        artifacts: [],
        completion: { isComplete: false, reason: 'awaiting_user_confirmation', readyForHandoff: false },
      };
    }
    const previous = context.previousAnswers[answerKey(node)];
    // An answer that read two ways ("next friday"): what it may have meant, as buttons (pressing one answers).
    const choices = phase === 'asking' && context.invalid?.node === place ? (context.invalid.choices ?? []) : [];
    // Asked again with what was answered before: "Keep" first, unless one of its own buttons already gives that
    // answer ("Keep: Yes" beside "Yes" would be two buttons for one thing; the message names the previous answer).
    const own = questionButtons(node, messages.SKIP_LABEL);
    const keep = previous && !own.some((b) => buttonGives(node, b.value, previous.value));
    const buttons = [...(keep ? [{ label: messages.keepLabel(node, previous), value: KEEP_VALUE }] : []), ...choices, ...own];
    // Its failed answers used up the budget: the buttons alone, said plainly (not the usual asking again).
    const buttonsOnly = phase === BUTTONS_ONLY_STATE && buttons.length > 0;
    // A hedged answer not taken: what it most likely meant, offered; its button answers (a category's own, or one
    // of its own for a typed value).
    const guessed = context.guess?.node === place && (notUnderstood || because !== '') ? context.guess.value : undefined;
    const guess = guessed !== undefined ? `${messages.guessMessage(node, guessed)}\n\n` : '';
    if (guessed !== undefined && node.answer.type !== 'category' && !buttons.some((b) => b.value === String(guessed)))
      buttons.unshift({ label: messages.formatValue(node, guessed), value: String(guessed) });
    return {
      message: buttonsOnly
        ? `${messages.BUTTONS_ONLY_MESSAGE}\n\n${guess}${node.prompt}`
        : guess !== '' && phase === 'asking'
          ? `${guess}${messages.questionMessage(node, previous)}`
        : context.notice === 'model_unavailable' && phase === 'asking'
          ? `${messages.MODEL_UNAVAILABLE_MESSAGE}\n\n${messages.questionMessage(node, previous)}`
          : notUnderstood
          ? // Not understood: said, and the question asked again in full.
            `${messages.NOT_UNDERSTOOD_MESSAGE}\n\n${messages.questionMessage(node, previous)}`
          : because + messages.questionMessage(node, previous),
      buttons: buttons.length > 0 ? buttons : null,
      buttonContext: buttons.length > 0 ? 'gate_question' : null,
      artifacts: [],
      completion: AWAITING_ANSWER,
    };
  },
  // Resumed waiting for an answer (an extraction in flight is asked again).
  resume: (node) => ({ [node.id]: 'asking' }),

  testEvents(node, t) {
    // A held limiting value: yes and no as buttons and in words, and another answer instead.
    if (t.snapshot.hasTag(CONFIRMING_STOP_TAG))
      return [button(STOP_CONFIRM), button(STOP_DENY), textEvent('yes'), textEvent('nein'), textEvent(UNCLEAR_TEXT), ...categoriesOf(node).slice(0, 1).map(button)];
    // Asked again in a correction: "Keep", as the button and in words.
    const keep = t.snapshot.context.previousAnswers[answerKey(node)] && !t.snapshot.hasTag(BUSY_TAG) ? [button(KEEP_VALUE), textEvent('keep it')] : [];
    if (node.answer.type !== 'category') return [...keep, ...typedQuestionEvents(node, t)];
    return t.snapshot.hasTag(BUSY_TAG) ? extractionEvents(node, t) : [...keep, ...categoryQuestionEvents(node)];
  },
};
