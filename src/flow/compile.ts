import { fromPromise, setup, type AnyActorLogic, type DoneStateEvent } from 'xstate';
import { pathSelectionMachine } from '../../machines/path-selection.js';
import type { ExtractionInput, ExtractionOutput } from '../extract/types.js';
import { createKeywordChooser } from '../paths/offline-chooser.js';
import { flowLookups } from './compile-lookups.js';
import { initialFlowContext, type FlowContext, type FlowInput } from './context.js';
import { flowGraph, type ScopeGraph } from './graph.js';
import { kindOf, NODE_KINDS } from './nodes/index.js';
import type { AnyNodeKind, CompileContext, FlowActions, FlowGuards, FlowMachineEvent, StateConfig } from './nodes/kind.js';
import { PATHS_ACTOR_ID, createRouting, sharedActions, sharedGuards } from './nodes/shared.js';
import type { FlowOutput } from './nodes/terminal.js';
import { parseFlowValue } from './parse.js';
import { extractionInput } from './extraction.js';
import { inputAnswers } from './inputs.js';
import { answersFrom, canBeAnsweredEarly, changeableAt, laterPlaces, nodesFrom } from './places.js';
import type { FlowDocumentInput } from './schema.js';
import type { FlowTraceEvent } from './trace.js';

export { acceptedValues, extractionInput } from './extraction.js';
export { BUSY_TAG, EXTRACT_ACTOR_ID, PATHS_ACTOR_ID } from './nodes/shared.js';
export { missingActionActor, type ActionInput } from './nodes/action.js';
export type { FlowMachineEvent } from './nodes/kind.js';
export type { FlowOutput } from './nodes/terminal.js';

/**
 * The default `extract` actor: no model, so nothing to add to what the
 * machine's offline matching already tried. Provide a real one with
 * `createExtractActor({ model })`.
 */
export const noModelExtractActor = fromPromise<ExtractionOutput, ExtractionInput>(async () => ({
  values: {},
  failure: { reason: 'abstained', message: 'no model configured' },
}));

export interface CompileOptions {
  /** The actors action nodes name, by name: an HTTP call, a tool, a lookup. */
  actors?: Record<string, AnyActorLogic>;
  /** The path chooser (`choose` of machines/path-selection.ts); the keyword chooser when absent. */
  choosePath?: AnyActorLogic;
  /** Today's date for date answers (`min: "today"`, "tomorrow"); the clock when absent. */
  today?: () => Date;
}

/** Every kind's actors, merged by name. */
const merged = <T>(parts: (Record<string, T> | undefined)[]): Record<string, T> => Object.assign({}, ...parts) as Record<string, T>;

/**
 * The guards (or actions) of the shared helpers and of every kind, by name.
 * A name given twice would silently replace the other: refused, naming both.
 */
function uniqueByName<T>(what: 'guard' | 'action', parts: (readonly [owner: string, named: Record<string, T> | undefined])[]): Record<string, T> {
  const all: Record<string, T> = {};
  const owners = new Map<string, string>();
  for (const [owner, named] of parts)
    for (const [name, value] of Object.entries(named ?? {})) {
      const other = owners.get(name);
      if (other !== undefined) throw new Error(`the ${what} "${name}" is defined twice: by ${other} and by ${owner} (src/flow/nodes)`);
      owners.set(name, owner);
      all[name] = value;
    }
  return all;
}

/**
 * Compiles a checked flow document to an XState machine: one state per node
 * (subgraph calls nest), named guards with params (CEL guards are
 * `{ type: 'cel', params: { expr } }`), the `extract` actor and action actors
 * invoked by name, final states for terminals, and trace events emitted on
 * the way. Replace actors with `machine.provide({ actors })`.
 *
 * Each node's state, and the guards, actions and actors it names, come from
 * its kind (nodes/<kind>.ts, listed in nodes/index.ts); this function
 * assembles them.
 */
export function compileFlow(input: FlowDocumentInput, options: CompileOptions = {}) {
  // Checked again here, so that a document built in code is refused as clearly as a file.
  const doc = parseFlowValue(input, typeof input.id === 'string' ? input.id : 'flow');
  const graph = flowGraph(doc);
  const lookups = flowLookups(doc, graph, options.today ?? (() => new Date()));
  const { places } = lookups;

  const c: CompileContext = {
    doc,
    graph,
    places,
    lookups,
    givenActors: options.actors ?? {},
    today: options.today ?? (() => new Date()),
    ...createRouting(doc, lookups),
    laterPlaces: (p) => laterPlaces(p, places),
    canBeAnsweredEarly: (p) => canBeAnsweredEarly(graph, p, places),
    answersFrom: (at) => answersFrom(graph, at),
    nodesFrom: (at) => nodesFrom(graph, at),
    changeableAt: (at) => changeableAt(graph, at),
    extractionInput: (place, context) => extractionInput(graph, place, context),
    scopeStates,
  };
  const kinds: AnyNodeKind[] = Object.values(NODE_KINDS);
  const guards: FlowGuards = uniqueByName('guard', [['shared.ts', sharedGuards(c)], ...kinds.map((k) => [`the ${k.kind} kind`, k.guards?.(c)] as const)]);
  const actions: FlowActions = uniqueByName('action', [['shared.ts', sharedActions(c)], ...kinds.map((k) => [`the ${k.kind} kind`, k.actions?.(c)] as const)]);

  const machineSetup = setup({
    types: {
      context: {} as FlowContext,
      events: {} as FlowMachineEvent,
      output: {} as FlowOutput,
      emitted: {} as FlowTraceEvent,
    },
    actors: {
      extract: noModelExtractActor as AnyActorLogic,
      pathSelection: pathSelectionMachine.provide({ actors: { choose: options.choosePath ?? createKeywordChooser() } }) as AnyActorLogic,
      ...merged(kinds.map((k) => k.actors?.(c))),
    },
    guards,
    actions,
  });
  type StatesConfig = NonNullable<Parameters<typeof machineSetup.createMachine>[0]['states']>;

  /** The states of a scope's nodes, each built by its kind (a subgraph call nests its scope's through `c.scopeStates`). */
  function scopeStates(scope: ScopeGraph, path: string[]): Record<string, StateConfig> {
    const states: Record<string, StateConfig> = {};
    for (const node of scope.nodes) states[node.id] = kindOf(node).state(places.get([...path, node.id].join('.'))!, c);
    return states;
  }

  // Every place is known (placesOf) before any state is built: extraction looks ahead, also into subgraphs.
  const states = scopeStates(graph.main, []);

  return machineSetup.createMachine({
    id: doc.id,
    // Input is optional (`createActor(machine)`): `{ context }` gives the facts guards read.
    context: ({ input }) => ({
      ...initialFlowContext((input ?? {}) as FlowInput),
      // Declared inputs the host gave as start facts are answers from the start (inputs.ts).
      answers: inputAnswers(doc.inputs, ((input ?? {}) as FlowInput).context ?? {}, (options.today ?? (() => new Date()))()),
      ...(doc.paths && { path: { tentative: null, locked: null, votes: {} } }),
    }),
    ...(doc.paths && {
      invoke: {
        id: PATHS_ACTOR_ID,
        src: 'pathSelection',
        input: { paths: doc.paths.options, ...(doc.paths.policy && { policy: doc.paths.policy }), reportToParent: true },
      } as never,
    }),
    ...(doc.paths && { on: { 'path.changed': { actions: [{ type: 'assignPath' }] } } as never }),
    initial: graph.start.id,
    // The kinds' configs are xstate state configs (see nodes/kind.ts); xstate's own type is tied to this setup.
    states: states as StatesConfig,
    output: ({ event }) => (event as unknown as DoneStateEvent<FlowOutput>).output,
  });
}

export type FlowMachine = ReturnType<typeof compileFlow>;
