import {
  createActor,
  fromPromise,
  type AnyEventObject,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type InspectionEvent,
  type StateValue,
} from 'xstate';
import { getAdjacencyMap, getShortestPaths } from 'xstate/graph';
import { BUSY_TAG, EXTRACT_ACTOR_ID, compileFlow, extractionInput, type FlowMachine } from '../flow/compile.js';
import type { FlowContext } from '../flow/context.js';
import { categoriesOf, flowGraph, type FlowGraph } from '../flow/graph.js';
import type { FlowDocument, QuestionNode } from '../flow/schema.js';
import type { ExtractionInput, ExtractionOutput } from '../extract/types.js';
import { nodeIdOf } from '../runtime/build-reply.js';

/**
 * Model-based testing of compiled flows with `xstate/graph`: events derived
 * from the flow, every (state, event) edge of the state graph turned into a
 * path, each path replayed on a live actor, and the state nodes and
 * transitions it really took counted.
 */

export const DONE_EXTRACT = `xstate.done.actor.${EXTRACT_ACTOR_ID}` as const;
export const ERROR_EXTRACT = `xstate.error.actor.${EXTRACT_ACTOR_ID}` as const;

/** A person's turn, or the extractor finishing or failing. */
export type FlowTestEvent =
  | { type: 'user.text'; text: string }
  | { type: 'user.button'; value: string }
  | { type: typeof DONE_EXTRACT; output: ExtractionOutput }
  | { type: typeof ERROR_EXTRACT; error: string };

interface TestSnapshot {
  value: StateValue;
  context: FlowContext;
  hasTag(tag: string): boolean;
}

export const UNCLEAR_TEXT = 'hmm, let me think about that';
export const UNKNOWN_BUTTON = 'not-one-of-the-options';

/**
 * The events worth trying in a state, from the flow: on a question every
 * category as a button and as text, an unknown button and an unclear text; while
 * extracting, each category, each limiting value of every question the
 * extraction may answer, answers to later questions only, nothing, and a
 * failure; on a confirmation, confirm and edit as buttons and as text.
 * Typed categories are read by the machine's own matcher; unclear text goes
 * to the extractor where a model may be asked.
 */
export function flowTestEvents(graph: FlowGraph, snapshot: TestSnapshot): FlowTestEvent[] {
  const node = graph.node(nodeIdOf(snapshot.value));
  if (!node || node.kind === 'terminal') return [];
  if (node.kind !== 'confirmation' && (node.kind !== 'question' || node.answer.type !== 'category')) return [];
  const answer = node.kind === 'question' && node.answer.type === 'category' ? node.answer : { categories: [] as string[] };
  if (node.kind === 'confirmation')
    return [
      { type: 'user.button', value: 'confirm' },
      { type: 'user.button', value: 'edit' },
      { type: 'user.button', value: UNKNOWN_BUTTON },
      { type: 'user.text', text: "Yes, that's correct" },
      { type: 'user.text', text: "That's wrong" },
    ];
  if (!snapshot.hasTag(BUSY_TAG))
    return [
      ...answer.categories.map((value) => ({ type: 'user.button' as const, value })),
      { type: 'user.button', value: UNKNOWN_BUTTON },
      // Each category typed (the offline matcher reads it), and text it cannot read.
      ...answer.categories.map((text) => ({ type: 'user.text' as const, text })),
      { type: 'user.text', text: UNCLEAR_TEXT },
    ];

  const input = extractionInput(graph, node.id, snapshot.context);
  const done = (values: Record<string, string>): FlowTestEvent => ({
    type: DONE_EXTRACT,
    output: {
      values: Object.fromEntries(
        Object.entries(values).map(([key, value]) => [key, { value, confidence: 0.9, source: 'llm' as const }]),
      ),
    },
  });
  const events: FlowTestEvent[] = [
    { type: DONE_EXTRACT, output: { values: {}, failure: { reason: 'abstained', message: 'nothing found' } } },
    { type: ERROR_EXTRACT, error: 'extractor failed' },
    ...answer.categories.map((value) => done({ [node.id]: value })),
  ];
  const own = answer.categories.find((c) => !((node as QuestionNode).limitingValues ?? []).includes(c)) ?? answer.categories[0]!;
  for (const gate of input.gates) {
    if (gate.key === node.id) continue;
    const q = graph.question(gate.key)!;
    const calm = categoriesOf(q).filter((c) => !(q.limitingValues ?? []).includes(c));
    if (calm[0] !== undefined) {
      events.push(done({ [gate.key]: calm[0] }));
      events.push(done({ [node.id]: own, [gate.key]: calm[0] }));
    }
    for (const limiting of q.limitingValues ?? []) events.push(done({ [node.id]: own, [gate.key]: limiting }));
  }
  return events;
}

/** What the graph search tells apart: the state and which questions have answers. */
function serializeForSearch(snapshot: TestSnapshot): string {
  return JSON.stringify([snapshot.value, Object.keys(snapshot.context.answers).sort()]);
}

function serializeEvent(event: AnyEventObject): string {
  return JSON.stringify(event);
}

export interface FlowTestPath {
  description: string;
  events: FlowTestEvent[];
  /** The state value after each event. */
  expected: StateValue[];
}

/**
 * One path per edge of the state graph: the shortest way to a state, then one
 * event from there. Together they take every transition the events can reach.
 */
export function generateFlowPaths(doc: FlowDocument, machine: FlowMachine = compileFlow(doc)): FlowTestPath[] {
  const graph = flowGraph(doc);
  const options = {
    events: (s: TestSnapshot) => flowTestEvents(graph, s),
    serializeState: (s: TestSnapshot) => serializeForSearch(s),
    serializeEvent,
  };
  // The search runs on the machine's pure transition function with a mock
  // scope: the extractor never runs, its done and error events are supplied.
  const logic = machine as unknown as Parameters<typeof getShortestPaths>[0];
  const shortest = new Map<string, { events: FlowTestEvent[]; expected: StateValue[] }>();
  for (const path of getShortestPaths(logic, options as never)) {
    const steps = path.steps.slice(1) as { event: FlowTestEvent; state: TestSnapshot }[];
    shortest.set(serializeForSearch(path.state as TestSnapshot), {
      events: steps.map((s) => s.event),
      expected: steps.map((s) => s.state.value),
    });
  }
  const paths: FlowTestPath[] = [];
  const adjacency = getAdjacencyMap(logic, options as never);
  for (const [key, { transitions }] of Object.entries(adjacency)) {
    const head = shortest.get(key);
    if (!head) continue;
    for (const { event, state } of Object.values(transitions) as { event: FlowTestEvent; state: TestSnapshot }[]) {
      paths.push({
        description: [...head.events, event].map(describeEvent).join(' → '),
        events: [...head.events, event],
        expected: [...head.expected, state.value],
      });
    }
  }
  return paths;
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
  }
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

/** Every state node of a machine, by id. */
export function allStateNodes(machine: FlowMachine): AnyStateNode[] {
  const nodes: AnyStateNode[] = [];
  const walk = (node: AnyStateNode) => {
    nodes.push(node);
    Object.values(node.states).forEach(walk);
  };
  walk(machine.root);
  return nodes;
}

/** Every transition of a machine: each candidate of `on`, `always`, `onDone` and `onError`. */
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

/**
 * Replays paths on live actors (the `extract` actor replaced by one the path
 * resolves or rejects) and measures which state nodes were active and which
 * transitions were taken, as the actor reported them through inspection.
 * Throws when a live actor ends a step in another state than the graph said.
 */
export async function replayFlowPaths(doc: FlowDocument, paths: FlowTestPath[]): Promise<FlowCoverage> {
  let settle: { resolve: (o: ExtractionOutput) => void; reject: (e: Error) => void } | undefined;
  const controlled = fromPromise<ExtractionOutput, ExtractionInput>(
    () =>
      new Promise<ExtractionOutput>((resolve, reject) => {
        settle = { resolve, reject };
      }),
  );
  const machine = compileFlow(doc).provide({ actors: { extract: controlled } }) as FlowMachine;
  const transitions = allTransitions(machine);
  const stateIds = allStateNodes(machine).map((n) => n.id);
  const seenStates = new Set<string>();
  const taken = new Set<AnyTransitionDefinition>();
  let steps = 0;

  for (const path of paths) {
    const inspect = (event: InspectionEvent) => {
      if (event.type !== '@xstate.microstep') return;
      for (const t of (event as unknown as { _transitions: AnyTransitionDefinition[] })._transitions) taken.add(t);
      for (const id of activeIds(machine.id, (event.snapshot as unknown as TestSnapshot).value)) seenStates.add(id);
    };
    const actor = createActor(machine, { inspect });
    actor.start();
    for (const id of activeIds(machine.id, actor.getSnapshot().value)) seenStates.add(id);
    for (const [i, event] of path.events.entries()) {
      settle = event.type === DONE_EXTRACT || event.type === ERROR_EXTRACT ? settle : undefined;
      if (event.type === DONE_EXTRACT) settle?.resolve(event.output);
      else if (event.type === ERROR_EXTRACT) settle?.reject(new Error(event.error));
      else actor.send(event);
      if (event.type === DONE_EXTRACT || event.type === ERROR_EXTRACT) await new Promise((r) => setTimeout(r, 0));
      steps++;
      const actual = actor.getSnapshot().value;
      if (JSON.stringify(actual) !== JSON.stringify(path.expected[i]))
        throw new Error(
          `path "${path.description}", step ${i + 1}: the actor is in ${JSON.stringify(actual)}, the graph said ${JSON.stringify(path.expected[i])}`,
        );
    }
    actor.stop();
  }

  const figure = (covered: string[], all: string[]): CoverageFigure => ({
    covered: covered.length,
    total: all.length,
    percent: all.length === 0 ? 100 : Math.round((covered.length / all.length) * 10000) / 100,
    missing: all.filter((x) => !covered.includes(x)),
  });
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
