import {
  createActor,
  fromCallback,
  fromPromise,
  type AnyActorLogic,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type InspectionEvent,
  type StateValue,
} from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import { activeNode } from '../flow/active-node.js';
import { buildReply } from '../flow/build-reply.js';
import { attemptBudget } from '../flow/attempts.js';
import { compileFlow, extractionInput, type FlowMachine } from '../flow/compile.js';
import type { AnswerValue, FlowContext } from '../flow/context.js';
import { flowGraph, type FlowGraph } from '../flow/graph.js';
import { kindOf } from '../flow/nodes/index.js';
import { DONE_EXTRACT, ERROR_EXTRACT, MODEL_TODAY, vote, type FlowTestEvent, type FlowTestOptions } from '../flow/nodes/test-events.js';
import { placesOf } from '../flow/places.js';
import { ELSE_GUARD, answerKey, type FlowDocument } from '../flow/schema.js';

/**
 * Model-based testing of compiled flows with `xstate/graph`: events derived
 * from the flow for every kind of node, every (state, event) edge of the
 * state graph turned into a path, each path replayed on a live actor whose
 * invoked actors the path drives, and the state nodes and transitions the
 * live actor really took counted.
 */

// ---------------------------------------------------------------- types

export {
  DONE_EXTRACT,
  ERROR_EXTRACT,
  MODEL_TODAY,
  UNCLEAR_TEXT,
  UNKNOWN_BUTTON,
  type ActionDoneEvent,
  type ActionErrorEvent,
  type FlowTestEvent,
  type FlowTestOptions,
} from '../flow/nodes/test-events.js';
import { activeIds, figure, machineStateNodes, machineTransitions, nextMacrotask } from './machine-paths.js';
import { EntryCounter } from '../workflow/entries.js';
import { SessionInvariants, violationsText } from './invariants.js';

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

// ---------------------------------------------------------------- events per node kind

/**
 * The events worth trying in a state: those the active node's kind derives
 * (its `testEvents`, through subgraph calls), and with paths a vote that
 * changes nothing. Nothing on a terminal or a finished flow.
 */
export function flowTestEvents(graph: FlowGraph, snapshot: TestSnapshot, options: FlowTestOptions = {}): FlowTestEvent[] {
  const active = snapshot.status === 'active' ? activeNode(graph, snapshot.value) : undefined;
  if (!active) return [];
  const facts = factsOf(graph, options);
  let events =
    kindOf(active.node).testEvents?.(active.node, {
      graph,
      place: active.place,
      snapshot,
      today: facts.today,
      options: facts.options,
      literals: (key) => facts.literals.get(key),
      extractionInput: (place, context) => extractionInput(graph, place, context),
    }) ?? [];
  if (options.offeredButtonsOnly && events.some((e) => e.type === 'user.button')) {
    const offered = new Set((buildReply(graph, snapshot, 'test').buttons ?? []).map((b) => b.value));
    events = events.filter((e) => e.type !== 'user.button' || offered.has(e.value));
  }
  // Path selection reports every later message too: a vote that changes nothing (the flow-wide `path.changed`),
  // unless the node's own events are votes already (a path node).
  const path = snapshot.context.path;
  if (path && events.length > 0 && !events.some((e) => e.type === 'path.changed'))
    events.push({ type: 'path.changed', vote: vote(path.tentative, path.locked, path.votes) });
  return events;
}

// ---------------------------------------------------------------- the search

const valueOf = (v: AnswerValue) => JSON.stringify(v);

/**
 * What the search tells apart, what guards read: the state; which questions
 * have answers, and the value of those some CEL text reads; failed attempts
 * (up to the budget); where the last refusal sent the flow (`invalid.node`);
 * the locked path, the path the last message sounded like, the question whose
 * limiting value is held for its check; the optional questions skipped. Anything else (unread values,
 * notices, messages) would only multiply equal states.
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
  // A correction from the summary: which answer is being changed, and which previous answers it may keep.
  const { correction, previousAnswers } = snapshot.context;
  const correcting = correction ? [correction.key, correction.text !== null, Object.keys(previousAnswers).sort(), [...(correction.skipped ?? [])].sort()] : null;
  // The optional questions skipped (a summary offers them; a correction passes them over again).
  const skipped = [...(snapshot.context.skipped ?? [])].sort();
  // What guards read besides: the path the last message sounded like ("Is that right?" answered yes),
  // and the question whose limiting value is held for its check.
  const sounded = path?.last?.outcome === 'voted' ? (path.last.path ?? null) : null;
  const held = snapshot.context.pendingStop?.place ?? null;
  return JSON.stringify([snapshot.value, answered, counted, invalid?.node ?? null, path?.locked ?? null, correcting, sounded, held, ...(skipped.length > 0 ? [skipped] : [])]);
}

/** One step of a path, as people read it: `text "yes"`, `button "No"`, `extracted {"size":650}`. */
export function describeEvent(event: FlowTestEvent): string {
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
    case 'input.answered':
      return `input ${event.name} = ${JSON.stringify(event.value)}`;
    case 'input.timedOut':
      return `input timed out (${event.names.join(', ')})`;
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

/** Every state node of a machine (see machine-paths.ts, shared with hand-written machines). */
export const allStateNodes = (machine: FlowMachine): AnyStateNode[] => machineStateNodes(machine);

/**
 * Every transition of a machine: each candidate of `on`, of `onDone` of a
 * compound state and of an invoke's `onDone` and `onError` (all in
 * `node.transitions`, by event type), and of `always`.
 */
export const allTransitions = (machine: FlowMachine): Map<AnyTransitionDefinition, string> => machineTransitions(machine);


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
 * The paths that need running: a path whose events begin another path (most
 * do: each is the shortest way to a state, then one more event) is run as
 * part of the longer one. The replay is deterministic, so every step of the
 * shorter path is taken and checked there, in the same states.
 */
export function pathsToReplay<P extends { events: readonly unknown[] }>(paths: readonly P[]): P[] {
  const keys = paths.map((p) => p.events.map((e) => JSON.stringify(e)));
  const starts = new Set<string>();
  for (const key of keys) for (let i = 1; i < key.length; i++) starts.add(key.slice(0, i).join('\n'));
  const kept = new Set<string>();
  return paths.filter((_, n) => {
    const whole = keys[n]!.join('\n');
    if (starts.has(whole) || kept.has(whole)) return false;
    kept.add(whole);
    return true;
  });
}

/**
 * The paths in an order that reaches every state and transition soon, as far
 * as the graph tells: first those that take a step no earlier path took (from
 * a state, on an event kind or button, to a state), then those that take a
 * step with an event no earlier path sent in that state (another text, another
 * reading: another guard met), then the rest, each group in its order. A
 * replay that stops once everything is reached gets there after far fewer
 * paths; the order changes nothing else.
 */
export function newStepsFirst<P extends Pick<FlowTestPath, 'events' | 'expected'>>(paths: readonly P[]): P[] {
  const tiers: ((event: FlowTestEvent) => string)[] = [(event) => `${event.type} ${'value' in event ? String(event.value) : ''}`, (event) => JSON.stringify(event)];
  const ordered: P[] = [];
  let rest = [...paths];
  for (const eventKey of tiers) {
    const seen = new Set<string>();
    const later: P[] = [];
    for (const path of rest) {
      let novel = false;
      let from = 'start';
      for (const [i, event] of path.events.entries()) {
        const to = JSON.stringify(path.expected[i]);
        const step = `${from} ${eventKey(event)} ${to}`;
        if (!seen.has(step)) {
          seen.add(step);
          novel = true;
        }
        from = to;
      }
      (novel ? ordered : later).push(path);
    }
    rest = later;
  }
  return [...ordered, ...rest];
}

/** How `replayFlowPaths` replays: the search's options, and whether to stop once all is reached. */
export interface FlowReplayOptions extends FlowTestOptions {
  /**
   * Stop at the first path after which every state node and transition has
   * been reached. The coverage figures are the same as with every path
   * replayed (coverage only grows, and a run that never reaches all replays
   * them all); what is left out is the per-path check of the later paths (the
   * state the graph predicted, the session invariants). For a quick run; the
   * full replay checks every path.
   */
  untilCovered?: boolean;
}

/**
 * Replays paths on live actors and measures which state nodes were active and
 * which transitions were taken, as the flow's actor reported them through
 * inspection. Throws when a live actor ends a step in another state than the
 * graph said, or when a path settles an actor that is not running. A path that
 * begins another is checked as part of it (`pathsToReplay`); `steps` counts
 * the steps of every path.
 */
export async function replayFlowPaths(doc: FlowDocument, paths: FlowTestPath[], options: FlowReplayOptions = {}): Promise<FlowCoverage> {
  const graph = flowGraph(doc);
  const facts = factsOf(graph, options);
  const slot: { pending?: Pending | undefined } = {};
  const machine = replayMachine(doc, facts.today, slot);
  const transitions = allTransitions(machine);
  const stateIds = allStateNodes(machine).map((n) => n.id);
  const seenStates = new Set<string>();
  const taken = new Set<AnyTransitionDefinition>();

  const replayed = pathsToReplay(paths);
  for (const path of options.untilCovered ? newStepsFirst(replayed) : replayed) {
    slot.pending = undefined;
    const entries = new EntryCounter();
    const actor = createActor(machine, {
      inspect: (event: InspectionEvent) => {
        // Only the flow's own steps (invoked actors report theirs too): the root, the one without a parent.
        // Not `actorRef !== actor`: the initial state's eventless steps are reported while `actor` is still being created.
        if (event.type !== '@xstate.microstep' || (event.actorRef as unknown as { _parent?: unknown })._parent !== undefined) return;
        entries.observe(event);
        // A transition taken means its source was active, even a transient one never seen at rest (an initial `entering`).
        for (const t of (event as unknown as { _transitions: AnyTransitionDefinition[] })._transitions) {
          taken.add(t);
          seenStates.add(t.source.id);
        }
        for (const id of activeIds(machine.id, (event.snapshot as unknown as TestSnapshot).value)) seenStates.add(id);
      },
    });
    actor.start();
    for (const id of activeIds(machine.id, actor.getSnapshot().value)) seenStates.add(id);
    // Never stuck, and answers only to open gates (src/testing/invariants.ts), along every path.
    const invariants = new SessionInvariants(machine, actor.getSnapshot() as unknown as AnyMachineSnapshot);
    const where = (i: number) => `path "${path.description}", step ${i + 1}`;
    for (const [i, event] of path.events.entries()) {
      const before = actor.getSnapshot() as unknown as AnyMachineSnapshot;
      const mark = entries.mark();
      if (isActorEvent(event)) {
        // Set by the controlled actor when the flow started it (the compiler cannot see that).
        const pending = slot.pending as Pending | undefined;
        const id = event.type.slice((event.type.startsWith(DONE_PREFIX) ? DONE_PREFIX : ERROR_PREFIX).length);
        if (pending?.id !== id) throw new Error(`${where(i)}: the path settles "${id}", but ${pending ? `"${pending.id}"` : 'no actor'} is running`);
        slot.pending = undefined;
        if ('output' in event) pending.resolve(event.output);
        else pending.reject(new Error(event.error));
        // The promise settles, then the actor reports to the flow: a macrotask later all is done.
        await nextMacrotask();
      } else actor.send(event);
      const snapshot = actor.getSnapshot() as unknown as TestSnapshot;
      if (JSON.stringify(snapshot.value) !== JSON.stringify(path.expected[i]))
        throw new Error(`${where(i)}: the actor is in ${JSON.stringify(snapshot.value)}, the graph said ${JSON.stringify(path.expected[i])}`);
      const expectedKey = path.keys?.[i];
      if (expectedKey !== undefined && searchKey(facts, snapshot) !== expectedKey)
        throw new Error(`${where(i)}: the actor's state is ${searchKey(facts, snapshot)}, the graph said ${expectedKey}`);
      invariants.stepped(event, before, actor.getSnapshot() as unknown as AnyMachineSnapshot, entries.enteredSince(mark));
    }
    actor.stop();
    if (invariants.violations.length > 0) throw new Error(violationsText(path.description, invariants.violations));
    if (options.untilCovered && stateIds.every((id) => seenStates.has(id)) && [...transitions.keys()].every((t) => taken.has(t))) break;
  }

  return {
    flowId: doc.id,
    paths: paths.length,
    steps: paths.reduce((sum, path) => sum + path.events.length, 0),
    states: figure(stateIds.filter((id) => seenStates.has(id)), stateIds),
    transitions: figure(
      [...transitions].filter(([t]) => taken.has(t)).map(([, name]) => name),
      [...transitions.values()],
    ),
  };
}
