import {
  createActor,
  fromPromise,
  type AnyActorLogic,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type InspectionEvent,
  type StateValue,
} from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import { coerceInput, type InputValue } from '../inputs/coerce.js';
import { declaredInputs } from '../inputs/declared.js';
import type { InputAnsweredEvent, InputTimedOutEvent } from '../inputs/events.js';
import { inputOptions, type InputSpec } from '../inputs/spec.js';
import { EntryCounter } from '../workflow/entries.js';
import { SessionInvariants, violationsText, type InvariantOptions } from './invariants.js';
import type { CoverageFigure } from './model-based.js';
import { ALWAYS_EVENT, transitionName } from '../viz/model.js';

/**
 * Model-based testing of hand-written machines (the task agent, the document
 * agent) with `xstate/graph`, as model-based.ts does for compiled flows: the
 * test says which events are worth trying in a snapshot (its invoked actors'
 * possible outcomes as `xstate.done.actor.<id>` / `xstate.error.actor.<id>`
 * events, the person's events) and what the search tells apart (the state
 * value and the context facts the guards read); every edge of the state graph
 * becomes a path; each path is replayed on a live actor whose invoked actors
 * the path settles, and the state nodes and transitions the live actor really
 * took are counted from its inspection events.
 */

export interface MachinePath<TEvent extends AnyEventObject = AnyEventObject> {
  description: string;
  events: TEvent[];
  /** The state value after each event. */
  expected: StateValue[];
  /** The search's key of the state after each event. */
  keys: string[];
}

export interface MachinePathOptions<TEvent extends AnyEventObject> {
  /** The events worth trying in a snapshot (none: the search stops there). */
  events: (snapshot: AnyMachineSnapshot) => readonly TEvent[];
  /**
   * What the search tells apart: the state value and the context facts the
   * guards read. Anything more multiplies equal states; anything less merges
   * states that go different ways (the replay then fails on the key).
   */
  key: (snapshot: AnyMachineSnapshot) => string;
  /** The machine's input. */
  input?: unknown;
  /** A path's description, event by event (default: `describeEvent`). */
  describe?: (event: TEvent) => string;
}

export interface MachineCoverage {
  machineId: string;
  paths: number;
  steps: number;
  states: CoverageFigure;
  transitions: CoverageFigure;
}

/** An actor the machine invoked during a replay, with the input it was given. */
export interface StartedActor {
  id: string;
  input: unknown;
}

/** One step of a replayed path: the event, the live snapshot after it, and the actors it started. */
export interface ReplayedStep<TEvent extends AnyEventObject = AnyEventObject> {
  event: TEvent;
  /** The live snapshot before the event. */
  before: AnyMachineSnapshot;
  snapshot: AnyMachineSnapshot;
  started: StartedActor[];
}

export interface ReplayOptions<TEvent extends AnyEventObject> {
  key: (snapshot: AnyMachineSnapshot) => string;
  input?: unknown;
  /** Called with each path as the live actor took it (for checks along paths). */
  onPath?: (path: MachinePath<TEvent>, steps: ReplayedStep<TEvent>[]) => void;
  /**
   * The invariants every session keeps (src/testing/invariants.ts), checked at
   * every step of every path: a path that breaks one throws. On unless `false`.
   */
  invariants?: InvariantOptions | false;
}

const DONE_PREFIX = 'xstate.done.actor.';
const ERROR_PREFIX = 'xstate.error.actor.';

/** The done event of invoked actor `id`, as the machine receives it. */
export const doneEvent = <T>(id: string, output: T) => ({ type: `${DONE_PREFIX}${id}` as const, output });
/** The error event of invoked actor `id` (what its promise rejects with). */
export const errorEvent = (id: string, error: unknown) => ({ type: `${ERROR_PREFIX}${id}` as const, error });

const errorJson = (_key: string, value: unknown) =>
  value instanceof Error ? { name: value.name, message: value.message, ...(value as unknown as Record<string, unknown>) } : value;

/** An event as the search tells events apart (errors by name, message and own fields, which JSON drops). */
export const eventKey = (event: AnyEventObject): string => JSON.stringify(event, errorJson);

/** A short description: an actor's outcome by id, the person's events by payload. */
export function describeEvent(event: AnyEventObject): string {
  const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 77)}...` : s);
  if (event.type.startsWith(DONE_PREFIX)) return `${event.type.slice(DONE_PREFIX.length)} done ${clip(JSON.stringify(event.output) ?? 'undefined')}`;
  if (event.type.startsWith(ERROR_PREFIX)) return `${event.type.slice(ERROR_PREFIX.length)} failed (${clip(String((event.error as Error)?.message ?? event.error))})`;
  const { type, ...rest } = event;
  return Object.keys(rest).length > 0 ? `${type} ${clip(JSON.stringify(rest))}` : type;
}

// ---------------------------------------------------------------- the person's inputs

/**
 * The answers a gate may take by default: an enum's options, a boolean's two
 * values, the default; without one, a number (or integer) inside its bounds,
 * an email address, a date inside its bounds. Free text and JSON have no
 * sample: give them with `inputTestEvents(snapshot, answers)`.
 */
export function defaultAnswers(spec: InputSpec): InputValue[] {
  const options = inputOptions(spec);
  if (options) return options.map((o) => o.value);
  if (spec.default !== undefined) return [spec.default as InputValue];
  const sample = sampleAnswer(spec);
  // Only a value the gate takes, as the runtime would coerce it.
  return sample !== undefined && coerceInput(spec, sample).ok ? [sample] : [];
}

function sampleAnswer(spec: InputSpec): InputValue | undefined {
  switch (spec.type) {
    case 'number':
    case 'integer':
      return spec.min ?? (spec.max !== undefined ? Math.min(0, spec.max) : 0);
    case 'email':
      return 'person@example.com';
    case 'date': {
      const bound = (b: string | undefined) => (b === 'today' ? new Date().toISOString().slice(0, 10) : b);
      return bound(spec.min) ?? bound(spec.max) ?? '2026-01-15';
    }
    default:
      return undefined;
  }
}

/**
 * The events the runtime may send a snapshot that waits for inputs (its
 * states' `meta.inputs`, dynamic ones read from the context): each answer
 * `answers` gives for each gate still open, with the others still open as
 * `remaining` (so that answering them one after the other completes the
 * state, as the runtime does), and a timeout of the open ones.
 *
 * Which inputs are answered already is the machine's to know: `answered`
 * says it; by default an input is answered when the context holds a value
 * under its name (`context[name]`, or `context.answers[name]` as flows keep it).
 */
export function inputTestEvents(
  snapshot: AnyMachineSnapshot,
  answers: (spec: InputSpec) => readonly InputValue[] = defaultAnswers,
  answered: (snapshot: AnyMachineSnapshot, spec: InputSpec) => boolean = answeredInContext,
): (InputAnsweredEvent | InputTimedOutEvent)[] {
  const events: (InputAnsweredEvent | InputTimedOutEvent)[] = [];
  for (const { state, inputs } of declaredInputs(snapshot)) {
    const open = inputs.filter((spec) => !answered(snapshot, spec));
    if (open.length === 0) continue;
    for (const spec of open) {
      const remaining = open.filter((i) => i !== spec).map((i) => i.name);
      for (const value of answers(spec))
        events.push({ type: 'input.answered', gateId: `gate-${spec.name}`, state, name: spec.name, value, by: null, remaining });
    }
    events.push({ type: 'input.timedOut', state, names: open.map((i) => i.name) });
  }
  return events;
}

/** The default of `inputTestEvents`: the context holds a value under the input's name, at its top or in `answers`. */
export function answeredInContext(snapshot: AnyMachineSnapshot, spec: InputSpec): boolean {
  const context = snapshot.context as Record<string, unknown> | null | undefined;
  if (typeof context !== 'object' || context === null) return false;
  const answers = context.answers as Record<string, unknown> | null | undefined;
  return context[spec.name] !== undefined || (typeof answers === 'object' && answers !== null && answers[spec.name] !== undefined);
}

// ---------------------------------------------------------------- the search

type Step<TEvent> = { event: TEvent; state: AnyMachineSnapshot };

/**
 * One path per edge of the state graph: the shortest way to a state, then one
 * event from there; together they take every transition the events reach. The
 * search runs on the machine's pure transition function (`getAdjacencyMap`):
 * no invoked actor runs, the events supply their outcomes.
 */
export function generateMachinePaths<TEvent extends AnyEventObject>(machine: AnyStateMachine, options: MachinePathOptions<TEvent>): MachinePath<TEvent>[] {
  const { key } = options;
  const describe = options.describe ?? describeEvent;
  const adjacency = getAdjacencyMap(machine as never, {
    events: options.events,
    serializeState: key,
    serializeEvent: eventKey,
    ...(options.input !== undefined && { input: options.input }),
  } as never) as unknown as Record<string, { state: AnyMachineSnapshot; transitions: Record<string, Step<TEvent>> }>;

  // Breadth first from the start, in the order the adjacency map was built: the first way
  // found to a key ends in the very snapshot the map keeps for it (both queues are FIFO).
  const initial = Object.keys(adjacency)[0]!;
  const heads = new Map<string, Step<TEvent>[]>([[initial, []]]);
  for (const [from, head] of heads)
    for (const step of Object.values(adjacency[from]!.transitions)) if (!heads.has(key(step.state))) heads.set(key(step.state), [...head, step]);

  const paths: MachinePath<TEvent>[] = [];
  for (const [from, head] of heads)
    for (const step of Object.values(adjacency[from]!.transitions)) {
      const steps = [...head, step];
      paths.push({
        description: steps.map((s) => describe(s.event)).join(' → '),
        events: steps.map((s) => s.event),
        expected: steps.map((s) => s.state.value),
        keys: steps.map((s) => key(s.state)),
      });
    }
  return paths;
}

// ---------------------------------------------------------------- coverage

/** Every state node of a machine, the root included. */
export function machineStateNodes(machine: AnyStateMachine): AnyStateNode[] {
  const nodes: AnyStateNode[] = [];
  const walk = (node: AnyStateNode) => {
    nodes.push(node);
    Object.values(node.states).forEach(walk);
  };
  walk(machine.root);
  return nodes;
}

/** Every transition of a machine, named: each candidate of `on`, of invokes' `onDone`/`onError`, of `always`. */
export function machineTransitions(machine: AnyStateMachine): Map<AnyTransitionDefinition, string> {
  const all = new Map<AnyTransitionDefinition, string>();
  for (const node of machineStateNodes(machine)) {
    for (const [eventType, candidates] of node.transitions) candidates.forEach((t, i) => all.set(t, transitionName(node.id, eventType, i)));
    node.always?.forEach((t, i) => all.set(t, transitionName(node.id, ALWAYS_EVENT, i)));
  }
  return all;
}

/** Ids of the state nodes a state value makes active (the root included). */
export function activeIds(machineId: string, value: StateValue): string[] {
  const ids = [machineId];
  const walk = (prefix: string, v: StateValue) => {
    if (typeof v === 'string') {
      ids.push(`${prefix}.${v}`);
      return;
    }
    for (const [k, child] of Object.entries(v)) {
      ids.push(`${prefix}.${k}`);
      if (child !== undefined) walk(`${prefix}.${k}`, child as StateValue);
    }
  };
  walk(machineId, value);
  return ids;
}

/** A coverage figure: how many of `all` were covered, and which were not. */
export function figure(covered: string[], all: string[]): CoverageFigure {
  const seen = new Set(covered);
  return {
    covered: covered.length,
    total: all.length,
    percent: all.length === 0 ? 100 : Math.round((covered.length / all.length) * 10000) / 100,
    missing: all.filter((x) => !seen.has(x)),
  };
}

// ---------------------------------------------------------------- replay

/** An invoked actor running in the replay, settled when the path says. */
interface Pending {
  resolve: (output: unknown) => void;
  reject: (error: unknown) => void;
}

/** After the microtasks queued now (setImmediate where there is one: setTimeout waits a millisecond or more). */
export const nextMacrotask = () => new Promise<void>((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));

/** The names of the actors a machine invokes (string `src`s). */
function invokedSources(machine: AnyStateMachine): string[] {
  const names = machineStateNodes(machine).flatMap((node) => node.invoke.map((i) => i.src).filter((src): src is string => typeof src === 'string'));
  return [...new Set(names)];
}

/**
 * Replays paths on live actors (every invoked actor replaced by one whose
 * promise the path settles) and measures which state nodes were active and
 * which transitions were taken, as the machine reported them through
 * inspection. Throws when the live actor ends a step in another state or key
 * than the search said, or when a path settles an actor that is not running.
 */
export async function replayMachinePaths<TEvent extends AnyEventObject>(
  machine: AnyStateMachine,
  paths: MachinePath<TEvent>[],
  options: ReplayOptions<TEvent>,
): Promise<MachineCoverage> {
  const running = new Map<string, Pending>();
  let started: StartedActor[] = [];
  const controlled = fromPromise<unknown, unknown>(
    ({ self, input }) =>
      new Promise((resolve, reject) => {
        started.push({ id: self.id, input });
        running.set(self.id, { resolve, reject });
      }),
  );
  const actors: Record<string, AnyActorLogic> = Object.fromEntries(invokedSources(machine).map((name) => [name, controlled]));
  const live = machine.provide({ actors } as never) as AnyStateMachine;
  const transitions = machineTransitions(live);
  const stateIds = machineStateNodes(live).map((n) => n.id);
  const seenStates = new Set<string>();
  const taken = new Set<AnyTransitionDefinition>();
  let steps = 0;

  for (const path of paths) {
    running.clear();
    started = [];
    const entries = new EntryCounter();
    const actor = createActor(live, {
      ...(options.input !== undefined && { input: options.input }),
      inspect: (event: InspectionEvent) => {
        // The machine's own steps only (the root has no parent); not `actorRef !== actor`: the
        // initial state's eventless steps are reported while `actor` is still being created.
        if (event.type !== '@xstate.microstep' || (event.actorRef as unknown as { _parent?: unknown })._parent !== undefined) return;
        entries.observe(event);
        for (const t of (event as unknown as { _transitions: AnyTransitionDefinition[] })._transitions) {
          taken.add(t);
          // A transition taken means its source was active, even a transient state never seen at rest.
          seenStates.add(t.source.id);
        }
        for (const id of activeIds(live.id, (event.snapshot as AnyMachineSnapshot).value)) seenStates.add(id);
      },
    });
    actor.start();
    for (const id of activeIds(live.id, actor.getSnapshot().value)) seenStates.add(id);
    const invariants = options.invariants === false ? null : new SessionInvariants(live, actor.getSnapshot() as AnyMachineSnapshot, options.invariants);
    const replayed: ReplayedStep<TEvent>[] = [];
    const where = (i: number) => `path "${path.description}", step ${i + 1}`;
    for (const [i, event] of path.events.entries()) {
      const before = actor.getSnapshot() as AnyMachineSnapshot;
      const mark = entries.mark();
      started = [];
      const settles = event.type.startsWith(DONE_PREFIX) ? DONE_PREFIX : event.type.startsWith(ERROR_PREFIX) ? ERROR_PREFIX : null;
      if (settles) {
        const id = event.type.slice(settles.length);
        const pending = running.get(id);
        if (!pending) throw new Error(`${where(i)}: the path settles "${id}", but ${running.size > 0 ? `only ${[...running.keys()].join(', ')} run` : 'no actor runs'}`);
        running.delete(id);
        if (settles === DONE_PREFIX) pending.resolve(event.output);
        else pending.reject(event.error);
        // The promise settles, then the actor reports to the machine: a macrotask later all is done.
        await nextMacrotask();
      } else actor.send(event);
      steps++;
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
      if (snapshot.status === 'error') throw new Error(`${where(i)}: the actor failed: ${String((snapshot.error as Error)?.message ?? snapshot.error)}`);
      if (JSON.stringify(snapshot.value) !== JSON.stringify(path.expected[i]))
        throw new Error(`${where(i)}: the actor is in ${JSON.stringify(snapshot.value)}, the search said ${JSON.stringify(path.expected[i])}`);
      if (options.key(snapshot) !== path.keys[i]) throw new Error(`${where(i)}: the actor's key is ${options.key(snapshot)}, the search said ${path.keys[i]}`);
      replayed.push({ event, before, snapshot, started });
      invariants?.stepped(event, before, snapshot, entries.enteredSince(mark));
    }
    actor.stop();
    if (invariants && invariants.violations.length > 0) throw new Error(violationsText(path.description, invariants.violations));
    options.onPath?.(path, replayed);
  }

  return {
    machineId: live.id,
    paths: paths.length,
    steps,
    states: figure(stateIds.filter((id) => seenStates.has(id)), stateIds),
    transitions: figure(
      [...transitions].filter(([t]) => taken.has(t)).map(([, name]) => name),
      [...transitions.values()],
    ),
  };
}
