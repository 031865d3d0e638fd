import {
  createActor,
  fromCallback,
  fromPromise,
  type AnyActorLogic,
  type AnyEventObject,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type InspectionEvent,
  type StateValue,
} from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import type { PathVoteEmitted } from '../../machines/path-selection.js';
import type { ExtractionOutput } from '../extract/types.js';
import { activeNode, type ActiveNode } from '../flow/active-node.js';
import { attemptBudget } from '../flow/attempts.js';
import { SKIP_VALUE } from '../flow/answer.js';
import { BUSY_TAG, EXTRACT_ACTOR_ID, compileFlow, extractionInput, type FlowMachine } from '../flow/compile.js';
import type { AnswerValue, FlowContext } from '../flow/context.js';
import { categoriesOf, flowGraph, type FlowGraph } from '../flow/graph.js';
import { placesOf } from '../flow/places.js';
import {
  ELSE_GUARD,
  answerKey,
  booleanLabels,
  isRequired,
  type ActionNode,
  type FlowDocument,
  type QuestionNode,
} from '../flow/schema.js';

/**
 * Model-based testing of compiled flows with `xstate/graph`: events derived
 * from the flow for every kind of node, every (state, event) edge of the
 * state graph turned into a path, each path replayed on a live actor whose
 * invoked actors the path drives, and the state nodes and transitions the
 * live actor really took counted.
 */

// ---------------------------------------------------------------- types

export const DONE_EXTRACT = `xstate.done.actor.${EXTRACT_ACTOR_ID}` as const;
export const ERROR_EXTRACT = `xstate.error.actor.${EXTRACT_ACTOR_ID}` as const;

/** An action node's actor finishing (`action.<place>` is its invoke id) or failing. */
export type ActionDoneEvent = { type: `xstate.done.actor.action.${string}`; output: unknown };
export type ActionErrorEvent = { type: `xstate.error.actor.action.${string}`; error: string };

/** A person's turn; the extractor or an action finishing or failing; path selection reporting a vote. */
export type FlowTestEvent =
  | { type: 'user.text'; text: string }
  | { type: 'user.button'; value: string }
  | { type: typeof DONE_EXTRACT; output: ExtractionOutput }
  | { type: typeof ERROR_EXTRACT; error: string }
  | ActionDoneEvent
  | ActionErrorEvent
  | { type: 'path.changed'; vote: PathVoteEmitted };

/** What the generator adds to what it derives from the flow. */
export interface FlowTestOptions {
  /** Today for date answers, in the search and the replay alike; {@link MODEL_TODAY} when absent. */
  today?: Date;
  /** Extra texts to try on a typed question, by answer key (a value only a validator refuses, a pattern's match). */
  samples?: Record<string, string[]>;
  /** Extra outputs to try for an action node, by actor name. */
  actionOutputs?: Record<string, unknown[]>;
}

export interface FlowTestPath {
  description: string;
  events: FlowTestEvent[];
  /** The state value after each event. */
  expected: StateValue[];
  /** The search's key of the state after each event (value, answers, attempts, locked path); checked when present. */
  keys?: string[];
}

export interface CoverageFigure {
  covered: number;
  total: number;
  percent: number;
  missing: string[];
}

export interface FlowCoverage {
  flowId: string;
  paths: number;
  steps: number;
  states: CoverageFigure;
  transitions: CoverageFigure;
}

interface TestSnapshot {
  value: StateValue;
  context: FlowContext;
  status: string;
  hasTag(tag: string): boolean;
}

/** Literals a CEL text compares answers with. */
type Literal = number | string;

/** What the generator reads from the flow once. */
interface FlowFacts {
  graph: FlowGraph;
  today: Date;
  options: FlowTestOptions;
  /** Answer keys some guard, `when`, validator or constraint reads: their values matter to the search. */
  readKeys: Set<string>;
  /** The literals of the CEL texts that read each answer key (boundary values to try). */
  literals: Map<string, Literal[]>;
  /** The failed-answer budget by place (every question and path node has one: see flow/attempts.ts). */
  maxAttempts: Map<string, number>;
}

export const UNCLEAR_TEXT = 'hmm, let me think about that';
export const UNKNOWN_BUTTON = 'not-one-of-the-options';
/** Today in the model and on replay unless the caller says otherwise: dates relative to "today" stay fixed. */
export const MODEL_TODAY = new Date('2026-11-21T12:00:00Z');

// ---------------------------------------------------------------- what the flow reads

const ANSWER_READ = /\banswers\.([A-Za-z_]\w*)|\banswers\[\s*['"]([^'"]+)['"]\s*\]/g;
const NUMBER_LITERAL = /(?<![\w.])\d+(?:\.\d+)?(?![\w.])/g;
const STRING_LITERAL = /'([^'\\]*)'|"([^"\\]*)"/g;

/** Each CEL text of the flow, with the answer keys it reads (a validator's `value` is its own question's key). */
function celTexts(doc: FlowDocument): { text: string; keys: string[] }[] {
  const reads = (text: string, own?: string) => {
    const keys = [...text.matchAll(ANSWER_READ)].map((m) => (m[1] ?? m[2])!);
    return own !== undefined && /\bvalue\b/.test(text) ? [...keys, own] : keys;
  };
  const texts: { text: string; keys: string[] }[] = [];
  const scopes = [{ nodes: doc.nodes, edges: doc.edges }, ...Object.values(doc.subgraphs ?? {})];
  for (const { nodes, edges } of scopes) {
    for (const e of edges) if (e.guard !== undefined && e.guard !== ELSE_GUARD) texts.push({ text: e.guard, keys: reads(e.guard) });
    for (const n of nodes) {
      if (n.kind !== 'question') continue;
      if (n.when !== undefined) texts.push({ text: n.when, keys: reads(n.when) });
      for (const v of n.validators ?? []) texts.push({ text: v.check, keys: reads(v.check, answerKey(n)) });
    }
  }
  for (const c of doc.constraints ?? []) if (c.check !== undefined) texts.push({ text: c.check, keys: reads(c.check) });
  return texts;
}

function flowFacts(graph: FlowGraph, options: FlowTestOptions): FlowFacts {
  const readKeys = new Set<string>();
  const literals = new Map<string, Literal[]>();
  for (const { text, keys } of celTexts(graph.doc)) {
    const found: Literal[] = [
      ...[...text.matchAll(NUMBER_LITERAL)].map((m) => Number(m[0])),
      ...[...text.matchAll(STRING_LITERAL)].map((m) => (m[1] ?? m[2])!),
    ];
    for (const key of keys) {
      readKeys.add(key);
      literals.set(key, [...new Set([...(literals.get(key) ?? []), ...found])]);
    }
  }
  const maxAttempts = new Map<string, number>();
  for (const { id, node } of placesOf(graph).values())
    if (node.kind === 'question' || node.kind === 'path') maxAttempts.set(id, attemptBudget(graph.doc, node));
  return { graph, today: options.today ?? MODEL_TODAY, options, readKeys, literals, maxAttempts };
}

const factsCache = new WeakMap<FlowGraph, { options: FlowTestOptions; facts: FlowFacts }>();
function factsOf(graph: FlowGraph, options: FlowTestOptions): FlowFacts {
  const cached = factsCache.get(graph);
  if (cached?.options === options) return cached.facts;
  const facts = flowFacts(graph, options);
  factsCache.set(graph, { options, facts });
  return facts;
}

// ---------------------------------------------------------------- sample values

const numbersOf = (literals: Literal[] | undefined) => (literals ?? []).filter((l): l is number => typeof l === 'number');
const stringsOf = (literals: Literal[] | undefined) => (literals ?? []).filter((l): l is string => typeof l === 'string');
/** Each literal and its neighbours: both sides of `>`, `>=`, `==`, `!=`. */
const aroundEach = (values: number[]) => values.flatMap((v) => [v - 1, v, v + 1]);

const DAY_MS = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (iso: string, days: number) => isoDay(new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS));

/**
 * Texts for a typed question: `valid` ones the parser reads (the bounds, and
 * values around each literal the flow compares the answer with; a validator
 * may still refuse some, which is the point), `invalid` ones it refuses or
 * the schema does (out of range, unparseable).
 */
function typedSamples(q: QuestionNode, facts: FlowFacts): { valid: string[]; invalid: string[] } {
  const key = answerKey(q);
  const literals = facts.literals.get(key);
  const extra = facts.options.samples?.[key] ?? [];
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
      const bound = (b: string | undefined) => (b === 'today' ? isoDay(facts.today) : b);
      const min = bound(spec.min);
      const max = bound(spec.max);
      const first = min ?? (max !== undefined ? addDays(max, -30) : isoDay(facts.today));
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
      return {
        valid: [sample, ...stringsOf(literals), ...extra],
        invalid: ['', ...(min > 1 ? ['x'.repeat(min - 1)] : []), ...(max !== undefined ? ['x'.repeat(max + 1)] : [])],
      };
    }
  }
}

/** Sets a dotted field (`""` is the whole output) of an action output. */
function withField(output: unknown, field: string, value: unknown): unknown {
  if (field === '') return value;
  const root = (typeof output === 'object' && output !== null ? output : {}) as Record<string, unknown>;
  const [head, ...rest] = field.split('.') as [string, ...string[]];
  return { ...root, [head]: rest.length === 0 ? value : withField(root[head], rest.join('.'), value) };
}

/**
 * Outputs for an action with every `assign` field: one per step of a sweep
 * through each field's candidate values (0, and around each literal the flow
 * compares the answer with), so guards reading them go both ways; then the
 * caller's. The field's value stays a number or a string, what assign takes.
 */
function actionOutputs(node: ActionNode, facts: FlowFacts): { usable: unknown[]; missing: unknown | undefined } {
  const fields = Object.entries(node.assign ?? {});
  const candidates = fields.map(([key]) => {
    const literals = facts.literals.get(key);
    const numbers = [...new Set([0, ...aroundEach(numbersOf(literals))])].sort((a, b) => a - b);
    return [...numbers, ...stringsOf(literals)];
  });
  const sweep = Math.max(1, ...candidates.map((c) => c.length));
  const usable: unknown[] = [];
  for (let i = 0; i < sweep; i++)
    usable.push(fields.reduce<unknown>((out, [, field], f) => withField(out, field, candidates[f]![Math.min(i, candidates[f]!.length - 1)]), {}));
  // Without its first field the output is not usable: the `error` outcome, not an exception.
  const missing = fields.length === 0 ? undefined : fields.slice(1).reduce<unknown>((out, [, field]) => withField(out, field, 0), {});
  return { usable: [...usable, ...(facts.options.actionOutputs?.[node.actor] ?? [])], missing };
}

// ---------------------------------------------------------------- events per node kind

const button = (value: string): FlowTestEvent => ({ type: 'user.button', value });
const text = (t: string): FlowTestEvent => ({ type: 'user.text', text: t });

/**
 * The events worth trying in a state, from the flow and the node that is
 * active (through subgraph calls): see each kind's function. Nothing on a
 * terminal or a finished flow.
 */
export function flowTestEvents(graph: FlowGraph, snapshot: TestSnapshot, options: FlowTestOptions = {}): FlowTestEvent[] {
  const active = snapshot.status === 'active' ? activeNode(graph, snapshot.value) : undefined;
  if (!active) return [];
  const facts = factsOf(graph, options);
  const events = nodeEvents(active, snapshot, facts);
  // Path selection reports every later message too: a vote that changes nothing (the flow-wide `path.changed`).
  const path = snapshot.context.path;
  if (path && active.node.kind !== 'path' && events.length > 0)
    events.push({ type: 'path.changed', vote: vote(path.tentative, path.locked, path.votes) });
  return events;
}

function nodeEvents(active: ActiveNode, snapshot: TestSnapshot, facts: FlowFacts): FlowTestEvent[] {
  const { node } = active;
  switch (node.kind) {
    case 'question':
      if (node.answer.type !== 'category') return typedQuestionEvents(node, facts);
      return snapshot.hasTag(BUSY_TAG) ? extractionEvents(active, node, facts.graph, snapshot.context) : categoryQuestionEvents(node);
    case 'confirmation':
      return confirmationEvents();
    case 'action':
      return actionEvents(active, node, facts);
    case 'path':
      return pathEvents(facts.graph);
    default:
      // Decisions and subgraph exits are transient; terminals take nothing.
      return [];
  }
}

/**
 * Every category as a button and as text (the offline matcher reads it), an
 * unknown button and an unclear text (a model is asked, except on the first
 * question), and "skip" when the question is optional.
 */
function categoryQuestionEvents(q: QuestionNode): FlowTestEvent[] {
  const categories = categoriesOf(q);
  return [...categories.map(button), button(UNKNOWN_BUTTON), ...categories.map(text), text(UNCLEAR_TEXT), ...skipEvents(q)];
}

const skipEvents = (q: QuestionNode): FlowTestEvent[] => (isRequired(q) ? [] : [button(SKIP_VALUE), text(SKIP_VALUE)]);

/**
 * While extracting: each category, each limiting value of every question the
 * extraction may answer, answers to later questions only, nothing, and a
 * failure.
 */
function extractionEvents(active: ActiveNode, q: QuestionNode, graph: FlowGraph, context: FlowContext): FlowTestEvent[] {
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
    { type: ERROR_EXTRACT, error: 'extractor failed' },
    ...categories.map((value) => done({ [own]: value })),
  ];
  const ownCalm = categories.find((c) => !(q.limitingValues ?? []).includes(c)) ?? categories[0]!;
  for (const gate of extractionInput(graph, active.place, context).gates) {
    if (gate.key === own) continue;
    const later = graph.question(gate.key)!;
    const calm = categoriesOf(later).find((c) => !(later.limitingValues ?? []).includes(c));
    if (calm !== undefined) events.push(done({ [gate.key]: calm }), done({ [own]: ownCalm, [gate.key]: calm }));
    for (const limiting of later.limitingValues ?? []) events.push(done({ [own]: ownCalm, [gate.key]: limiting }));
  }
  return events;
}

/**
 * A typed question: valid and invalid texts (see {@link typedSamples}); as
 * buttons (read like text) the boolean labels, or else the first valid and
 * the first invalid sample; "skip" when the question is optional.
 */
function typedQuestionEvents(q: QuestionNode, facts: FlowFacts): FlowTestEvent[] {
  const { valid, invalid } = typedSamples(q, facts);
  const buttons = q.answer.type === 'boolean' ? [...valid.slice(0, 2), invalid[0]] : [valid[0], invalid[0]];
  return [...buttons.filter((b) => b !== undefined).map(button), ...valid.map(text), ...invalid.map(text), ...skipEvents(q)];
}

/** Confirm and edit, as buttons and as text, and an unknown button. */
function confirmationEvents(): FlowTestEvent[] {
  return [button('confirm'), button('edit'), button(UNKNOWN_BUTTON), text("Yes, that's correct"), text("That's wrong")];
}

/** A running action: each usable output, one missing a field, and a failure. */
function actionEvents(active: ActiveNode, node: ActionNode, facts: FlowFacts): FlowTestEvent[] {
  const id = `action.${active.place}`;
  const { usable, missing } = actionOutputs(node, facts);
  return [
    ...usable.map((output): FlowTestEvent => ({ type: `xstate.done.actor.${id}` as ActionDoneEvent['type'], output })),
    ...(missing !== undefined ? [{ type: `xstate.done.actor.${id}` as ActionDoneEvent['type'], output: missing }] : []),
    { type: `xstate.error.actor.${id}` as ActionErrorEvent['type'], error: `${node.actor} failed` },
  ];
}

/** What path selection reports after a vote. */
function vote(tentative: string | null, locked: string | null, votes: Record<string, number>): PathVoteEmitted {
  return { type: 'path.vote', turn: 1, path: tentative, confidence: 1, outcome: locked ? 'locked' : 'voted', votes, tentative, locked, rationale: 'model-based test' };
}

/**
 * A path node: a vote that locks each path and one that does not (sent as
 * path selection would report them), a text (a vote, and a counted attempt),
 * each path as a button and an unknown button.
 */
function pathEvents(graph: FlowGraph): FlowTestEvent[] {
  const options = graph.doc.paths?.options ?? [];
  const first = options[0]?.id ?? null;
  const threshold = graph.doc.paths?.policy?.lockThreshold ?? 3;
  return [
    ...options.map((o): FlowTestEvent => ({ type: 'path.changed', vote: vote(o.id, o.id, { [o.id]: threshold }) })),
    { type: 'path.changed', vote: vote(first, null, first === null ? {} : { [first]: 1 }) },
    text(UNCLEAR_TEXT),
    ...options.map((o) => button(o.id)),
    button(UNKNOWN_BUTTON),
  ];
}

// ---------------------------------------------------------------- the search

const valueOf = (v: AnswerValue) => JSON.stringify(v);

/**
 * What the search tells apart, what guards read: the state; which questions
 * have answers, and the value of those some CEL text reads; failed attempts
 * (up to the budget); where the last refusal sent the flow (`invalid.node`);
 * the locked path. Anything else (unread values, notices, messages) would
 * only multiply equal states.
 */
export function flowSearchKey(graph: FlowGraph, snapshot: TestSnapshot, options: FlowTestOptions = {}): string {
  return searchKey(factsOf(graph, options), snapshot);
}

function searchKey(facts: FlowFacts, snapshot: TestSnapshot): string {
  const { answers, attempts, invalid, path } = snapshot.context;
  const answered = Object.keys(answers)
    .sort()
    .map((k) => (facts.readKeys.has(k) ? `${k}=${valueOf(answers[k]!.value)}` : k));
  const counted = Object.entries(attempts)
    .filter(([place, n]) => facts.maxAttempts.has(place) && n > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([place, n]) => `${place}:${Math.min(n, facts.maxAttempts.get(place)!)}`);
  return JSON.stringify([snapshot.value, answered, counted, invalid?.node ?? null, path?.locked ?? null]);
}

function describeEvent(event: FlowTestEvent): string {
  switch (event.type) {
    case 'user.button':
      return `button ${JSON.stringify(event.value)}`;
    case 'user.text':
      return `text ${JSON.stringify(event.text)}`;
    case DONE_EXTRACT:
      return `extracted ${JSON.stringify(Object.fromEntries(Object.entries(event.output.values).map(([k, v]) => [k, v.value])))}`;
    case ERROR_EXTRACT:
      return 'extraction failed';
    case 'path.changed':
      return `path vote (tentative ${event.vote.tentative}, locked ${event.vote.locked})`;
    default:
      return 'output' in event
        ? `${event.type.slice('xstate.done.actor.'.length)} done ${JSON.stringify(event.output)}`
        : `${event.type.slice('xstate.error.actor.'.length)} failed`;
  }
}

type Step = { event: FlowTestEvent; state: TestSnapshot };

/**
 * One path per edge of the state graph: the shortest way to a state, then one
 * event from there. Together they take every transition the events can reach.
 * The search runs on the machine's pure transition function: no invoked actor
 * runs, their done and error events (and path votes) are supplied.
 */
export function generateFlowPaths(doc: FlowDocument, options: FlowTestOptions = {}): FlowTestPath[] {
  const graph = flowGraph(doc);
  const facts = factsOf(graph, options);
  const machine = compileFlow(doc, { today: () => facts.today });
  const key = (s: TestSnapshot) => searchKey(facts, s);
  const adjacency = getAdjacencyMap(machine as never, {
    events: (s: TestSnapshot) => flowTestEvents(graph, s, options),
    serializeState: key,
    serializeEvent: (e: AnyEventObject) => JSON.stringify(e),
  } as never) as unknown as Record<string, { state: TestSnapshot; transitions: Record<string, Step> }>;

  // Breadth first from the start: the first way found to a state is a shortest one.
  const initial = Object.keys(adjacency)[0]!;
  const heads = new Map<string, Step[]>([[initial, []]]);
  for (const [from, head] of heads)
    for (const step of Object.values(adjacency[from]!.transitions)) if (!heads.has(key(step.state))) heads.set(key(step.state), [...head, step]);

  const paths: FlowTestPath[] = [];
  for (const [from, head] of heads)
    for (const step of Object.values(adjacency[from]!.transitions)) {
      const steps = [...head, step];
      paths.push({
        description: steps.map((s) => describeEvent(s.event)).join(' → '),
        events: steps.map((s) => s.event),
        expected: steps.map((s) => s.state.value),
        keys: steps.map((s) => key(s.state)),
      });
    }
  return paths;
}

// ---------------------------------------------------------------- coverage

/** Every state node of a machine. */
export function allStateNodes(machine: FlowMachine): AnyStateNode[] {
  const nodes: AnyStateNode[] = [];
  const walk = (node: AnyStateNode) => {
    nodes.push(node);
    Object.values(node.states).forEach(walk);
  };
  walk(machine.root);
  return nodes;
}

/**
 * Every transition of a machine: each candidate of `on`, of `onDone` of a
 * compound state and of an invoke's `onDone` and `onError` (all in
 * `node.transitions`, by event type), and of `always`.
 */
export function allTransitions(machine: FlowMachine): Map<AnyTransitionDefinition, string> {
  const all = new Map<AnyTransitionDefinition, string>();
  for (const node of allStateNodes(machine)) {
    for (const [eventType, candidates] of node.transitions)
      candidates.forEach((t, i) => all.set(t, `${node.id} on ${eventType} #${i + 1}`));
    node.always?.forEach((t, i) => all.set(t, `${node.id} always #${i + 1}`));
  }
  return all;
}

/** Ids of the state nodes a state value makes active (the root included). */
function activeIds(machineId: string, value: StateValue): string[] {
  const ids = [machineId];
  const walk = (prefix: string, v: StateValue) => {
    if (typeof v === 'string') {
      ids.push(`${prefix}.${v}`);
      return;
    }
    for (const [key, child] of Object.entries(v)) {
      ids.push(`${prefix}.${key}`);
      if (child !== undefined) walk(`${prefix}.${key}`, child as StateValue);
    }
  };
  walk(machineId, value);
  return ids;
}

function figure(covered: string[], all: string[]): CoverageFigure {
  const seen = new Set(covered);
  return {
    covered: covered.length,
    total: all.length,
    percent: all.length === 0 ? 100 : Math.round((covered.length / all.length) * 10000) / 100,
    missing: all.filter((x) => !seen.has(x)),
  };
}

// ---------------------------------------------------------------- replay

const DONE_PREFIX = 'xstate.done.actor.';
const ERROR_PREFIX = 'xstate.error.actor.';
const isActorEvent = (e: FlowTestEvent): e is Extract<FlowTestEvent, { type: `xstate.${string}` }> =>
  e.type.startsWith(DONE_PREFIX) || e.type.startsWith(ERROR_PREFIX);

/** The invoked actor a path drives: the one running now, settled when the path says. */
interface Pending {
  id: string;
  resolve: (output: unknown) => void;
  reject: (error: Error) => void;
}

/** Names of the actors the flow's action nodes call. */
function actionActorNames(doc: FlowDocument): string[] {
  const names = [...placesOf(flowGraph(doc)).values()].flatMap(({ node }) => (node.kind === 'action' ? [node.actor] : []));
  return [...new Set(names)];
}

/**
 * The machine the replay runs: `extract` and every action actor replaced by
 * one whose promise the path settles, and path selection by an actor that
 * ignores what it is sent. A real selection machine would report its own
 * turns as `path.changed` (a busy turn reports "nothing locked"), overwriting
 * the votes the path sends; the chooser never settling is not enough.
 */
function replayMachine(doc: FlowDocument, today: Date, slot: { pending?: Pending | undefined }): FlowMachine {
  const controlled = fromPromise<unknown, unknown>(
    ({ self }) =>
      new Promise((resolve, reject) => {
        slot.pending = { id: self.id, resolve, reject };
      }),
  );
  const never = fromPromise<never>(() => new Promise<never>(() => {}));
  const silent = fromCallback(() => {});
  const actors: Record<string, AnyActorLogic> = Object.fromEntries(actionActorNames(doc).map((name) => [name, controlled]));
  return compileFlow(doc, { today: () => today, actors, choosePath: never }).provide({
    actors: { extract: controlled, pathSelection: silent },
  } as never) as FlowMachine;
}

/**
 * Replays paths on live actors and measures which state nodes were active and
 * which transitions were taken, as the flow's actor reported them through
 * inspection. Throws when a live actor ends a step in another state than the
 * graph said, or when a path settles an actor that is not running.
 */
export async function replayFlowPaths(doc: FlowDocument, paths: FlowTestPath[], options: FlowTestOptions = {}): Promise<FlowCoverage> {
  const graph = flowGraph(doc);
  const facts = factsOf(graph, options);
  const slot: { pending?: Pending | undefined } = {};
  const machine = replayMachine(doc, facts.today, slot);
  const transitions = allTransitions(machine);
  const stateIds = allStateNodes(machine).map((n) => n.id);
  const seenStates = new Set<string>();
  const taken = new Set<AnyTransitionDefinition>();
  let steps = 0;

  for (const path of paths) {
    slot.pending = undefined;
    const actor = createActor(machine, {
      inspect: (event: InspectionEvent) => {
        // Only the flow's own steps: invoked actors report theirs too.
        if (event.type !== '@xstate.microstep' || event.actorRef !== actor) return;
        for (const t of (event as unknown as { _transitions: AnyTransitionDefinition[] })._transitions) taken.add(t);
        for (const id of activeIds(machine.id, (event.snapshot as unknown as TestSnapshot).value)) seenStates.add(id);
      },
    });
    actor.start();
    for (const id of activeIds(machine.id, actor.getSnapshot().value)) seenStates.add(id);
    const where = (i: number) => `path "${path.description}", step ${i + 1}`;
    for (const [i, event] of path.events.entries()) {
      if (isActorEvent(event)) {
        // Set by the controlled actor when the flow started it (the compiler cannot see that).
        const pending = slot.pending as Pending | undefined;
        const id = event.type.slice((event.type.startsWith(DONE_PREFIX) ? DONE_PREFIX : ERROR_PREFIX).length);
        if (pending?.id !== id) throw new Error(`${where(i)}: the path settles "${id}", but ${pending ? `"${pending.id}"` : 'no actor'} is running`);
        slot.pending = undefined;
        if ('output' in event) pending.resolve(event.output);
        else pending.reject(new Error(event.error));
        // The promise settles, then the actor reports to the flow: a macrotask later all is done.
        await new Promise((r) => setTimeout(r, 0));
      } else actor.send(event);
      steps++;
      const snapshot = actor.getSnapshot() as unknown as TestSnapshot;
      if (JSON.stringify(snapshot.value) !== JSON.stringify(path.expected[i]))
        throw new Error(`${where(i)}: the actor is in ${JSON.stringify(snapshot.value)}, the graph said ${JSON.stringify(path.expected[i])}`);
      const expectedKey = path.keys?.[i];
      if (expectedKey !== undefined && searchKey(facts, snapshot) !== expectedKey)
        throw new Error(`${where(i)}: the actor's state is ${searchKey(facts, snapshot)}, the graph said ${expectedKey}`);
    }
    actor.stop();
  }

  return {
    flowId: doc.id,
    paths: paths.length,
    steps,
    states: figure(stateIds.filter((id) => seenStates.has(id)), stateIds),
    transitions: figure(
      [...transitions].filter(([t]) => taken.has(t)).map(([, name]) => name),
      [...transitions.values()],
    ),
  };
}
