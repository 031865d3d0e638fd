import type { ActionFunction, AnyActorLogic, ParameterizedObject, StateValue } from 'xstate';
import type { z } from 'zod';
import type { PathVoteEmitted } from '../../../machines/path-selection.js';
import type { ExtractionInput } from '../../extract/types.js';
import type { InputEvent } from '../../inputs/events.js';
import type * as ReplyWording from '../../flow/messages.js';
import type { Reply } from '../reply.js';
import type { FlowIssue, IssuePath } from '../check.js';
import type { FlowLookups } from '../compile-lookups.js';
import type { GuardAnswerType } from '../guards/types.js';
import type { FlowContext, FlowEvent } from '../context.js';
import type { EdgeOutcome } from '../fields.js';
import type { FlowGraph, ScopeGraph } from '../graph.js';
import type { GuardKind } from '../guards/cel.js';
import type { Place } from '../places.js';
import type { FlowDocument, FlowNode } from '../schema.js';
import type { FlowTraceEvent } from '../trace.js';
import type { FlowTestEvent, FlowTestOptions } from './test-events.js';

/**
 * What a node kind is: one object per kind (nodes/<kind>.ts) that says
 * everything the library knows about its nodes — the schema authors write,
 * the checks a schema cannot state, the state it compiles to with the guards
 * and actions that state names, the reply a person sees there, where a
 * migrated snapshot resumes in it, and the events the model-based harness
 * tries there. The registry (nodes/index.ts) lists them; the document schema,
 * the checker, the compiler, the reply, the snapshot migration and the
 * harness all read the registry. See nodes/README.md to add one.
 *
 * Every module that a kind imports for its values sits below the registry
 * (fields.ts, attempts.ts, answer.ts, context.ts, shared.ts, extraction,
 * xstate): what needs the flow graph or the places is handed to the kind in a
 * context object. (schema.ts, graph.ts, places.ts and the compiler import the
 * registry: a kind importing them would be an import cycle.)
 */

/** The schema of a node kind: a strict zod object with `kind: z.literal(...)` and the common `nodeFields`. */
export type NodeSchema = z.ZodObject<{ kind: z.ZodLiteral<string> } & z.ZodRawShape, z.core.$strict>;

/** The node type a schema describes (after parsing: defaults filled in). */
export type NodeOf<S extends NodeSchema> = z.output<S>;

/** A node where it sits in the compiled machine, typed by its kind. */
export type NodePlace<N> = Place & { node: N };

export interface NodeKind<S extends NodeSchema = NodeSchema> {
  /** The `kind` authors write; also the key of the kind in the registry. */
  readonly kind: z.output<S>['kind'];
  /** The node as authors write it. Part of the flow document's schema (and of its JSON Schema). */
  readonly schema: S;
  /**
   * The outcomes its edges may leave on, in the order `check` names them; an
   * edge that names none leaves on the first. Empty: nothing leaves it (a terminal).
   */
  readonly outcomes: readonly EdgeOutcome[];
  /**
   * Groups of edges whose last edge need not be unguarded (`else`)
   * (`optional`), or may not be (`forbidden`, with the message that says
   * why: a path node waits until one of its guards holds). Every other group
   * needs an unguarded edge, last.
   */
  readonly unguardedEdges?: Partial<Record<EdgeOutcome, 'optional' | { forbidden: string }>>;

  // ---------------------------------------------------------------- checks (check.ts)

  /** Checks of the node's own fields, run with the other nodes of its scope (before its edges are read). */
  check?(node: NodeOf<S>, c: NodeCheckContext): void;
  /** Checks of the edges it needs, once the edges of its scope are grouped by node and outcome. */
  checkEdges?(node: NodeOf<S>, c: EdgeCheckContext): void;
  /** Whether passing through it may ask nothing (loops of such nodes are refused or warned); `asks` when absent. */
  silence?(node: NodeOf<S>, subgraphs: ReadonlyMap<string, Silence>): Silence;
  /** The answer keys it sets, which guards may read (`answers.<key>`). */
  answerKeys?(node: NodeOf<S>): string[];
  /** The types of the answers it sets, for the guards that read them; keys absent here are read untyped. */
  answerTypes?(node: NodeOf<S>): Record<string, GuardAnswerType>;

  // ---------------------------------------------------------------- the compiled machine (compile.ts)

  /** The guards its states name, by name (put into `setup({ guards })`; names are unique across kinds). */
  guards?(c: CompileContext): FlowGuards;
  /** The actions its states name, by name (put into `setup({ actions })`). */
  actions?(c: CompileContext): FlowActions;
  /** The actors its states invoke by name (put into `setup({ actors })`). */
  actors?(c: CompileContext): Record<string, AnyActorLogic>;
  /** Its state: the state node config of the node at `place`. */
  state(place: NodePlace<NodeOf<S>>, c: CompileContext): StateConfig;

  // ---------------------------------------------------------------- around the machine

  /** What a person sees while the flow is at this node (flow/build-reply.ts). */
  reply(node: NodeOf<S>, r: ReplyInput): NodeReply;
  /** The state value a migrated snapshot resumes in at this node (flow/migrate-snapshot.ts); the node id alone when absent. */
  resume?(node: NodeOf<S>, r: ResumeInput): StateValue;
  /** The events worth trying while the flow is at this node (testing/model-based.ts); none when absent. */
  testEvents?(node: NodeOf<S>, t: TestEventInput): FlowTestEvent[];
}

/** Any registered kind (the registry's entries). */
export type AnyNodeKind = NodeKind<NodeSchema>;

// ---------------------------------------------------------------- the machine

/** Events the machine takes: a person's turns, path selection reporting a vote, and the runtime's input gates (answered, timed out). */
export type FlowMachineEvent = FlowEvent | { type: 'path.changed'; vote: PathVoteEmitted } | InputEvent;

/** What a guard reads. */
export interface FlowGuardArgs {
  context: FlowContext;
  event: FlowMachineEvent;
}
/** What a state's `{ type, params }` reference gives a named action. */
export type NamedParams = ParameterizedObject['params'] | undefined;
/**
 * A named guard; `params` are what its `{ type, params }` reference in a state
 * gives it (each guard names the params it takes: `(args, params: { place: string })`).
 */
export type FlowGuard = (args: FlowGuardArgs, params: never) => boolean;
export type FlowGuards = Record<string, FlowGuard>;
/** A named action, made with xstate's `assign`, `enqueueActions` or `sendTo`; it may emit trace events. */
export type FlowAction = ActionFunction<FlowContext, FlowMachineEvent, FlowMachineEvent, NamedParams, never, never, never, never, FlowTraceEvent>;
export type FlowActions = Record<string, FlowAction>;

/** A guard or action as a state names it. */
export interface NamedRef {
  type: string;
  params?: unknown;
}

/** One transition of a state (as xstate's config takes it); `guard` is a named guard or a combination (`and([...])`). */
export interface Transition {
  guard?: unknown;
  target?: string;
  actions?: unknown[];
}

/** A state node config, as a kind builds it (the compiler hands it to xstate unchanged). */
export interface StateConfig {
  type?: 'final';
  tags?: string[];
  meta?: Record<string, unknown>;
  entry?: NamedRef[];
  exit?: NamedRef[];
  initial?: string;
  states?: Record<string, StateConfig>;
  on?: Record<string, Transition | Transition[]>;
  always?: Transition | Transition[];
  invoke?: InvokeConfig;
  onDone?: Transition | Transition[];
  output?: (args: { context: FlowContext }) => unknown;
}

export interface InvokeConfig {
  id: string;
  src: string;
  input?: (args: { context: FlowContext }) => unknown;
  onDone?: Transition | Transition[];
  onError?: Transition | Transition[];
}

/** How a transition that commits something leaves on an outcome (see `CompileContext.leave`). */
export interface Leaving {
  target: string;
  actions: unknown[];
  /** Through the transient child named after the outcome (a guarded group). */
  child: boolean;
}

/**
 * What a kind's state builder, guards and actions are given: the flow, what
 * guards read (compile-lookups.ts), and the compiler's shared helpers for
 * leaving a node along its edges (nodes/shared.ts).
 */
export interface CompileContext {
  readonly doc: FlowDocument;
  readonly graph: FlowGraph;
  /** Every place of the flow, by place id. */
  readonly places: ReadonlyMap<string, Place>;
  readonly lookups: FlowLookups;
  /** The actors the host gave `compileFlow(doc, { actors })`, by name. */
  readonly givenActors: Readonly<Record<string, AnyActorLogic>>;
  /** Today, for date bounds written "today" (`compileFlow(doc, { today })`; the clock when absent). */
  readonly today: () => Date;

  /**
   * The transitions of one group of edges (the node at `p` leaving on
   * `outcome`), in the order written, each also guarded by `condition`; an
   * edge into a review or a successful end first checks enforced constraints.
   */
  route(p: Place, outcome: EdgeOutcome, condition?: NamedRef): Transition[];
  /**
   * How a transition that first commits something leaves on `outcome`: a
   * single unguarded edge directly, a guarded group through a transient child
   * named after the outcome (guards must read what was just committed).
   */
  leave(p: Place, outcome: EdgeOutcome): Leaving;
  /** A transition that runs `actions`, then leaves on `outcome` (see `leave`). */
  go(p: Place, outcome: EdgeOutcome, guard: unknown, actions: unknown[]): Transition;
  /** The transient children a node needs for the outcomes it leaves on through guards. */
  routingChildren(p: Place, outcomes: EdgeOutcome[]): Record<string, StateConfig>;
  /** The meta (node, kind, place, label, ui) and the enter and exit traces every node's state has. */
  traced(p: Place): Required<Pick<StateConfig, 'meta' | 'entry' | 'exit'>>;
  /** With paths, every message is also a vote: `votePath` first on each transition. */
  withVote(transitions: Transition[]): Transition[];
  /** A state reference: `#<flow>.<path>.<node>`. */
  ref(path: string[], nodeId: string): string;

  /** The category question at `p` and those after it along first `answered` edges (one message may answer several). */
  laterPlaces(p: Place): Place[];
  /** Whether an earlier question's extraction may answer the question at `p` before it is asked. */
  canBeAnsweredEarly(p: Place): boolean;
  /** The answer keys the flow may set again from `place` on (what editing from there clears). */
  answersFrom(place: string): string[];
  /** The nodes the flow may pass through from `place` on, that node included. */
  nodesFrom(place: string): FlowNode[];
  /** The answers a person may change at the summary at `place` (the questions its `edit` edges lead back through). */
  changeableAt(place: string): readonly string[];
  /** What the extractor is asked at the question at `place` (a place id). */
  extractionInput(place: string, context: FlowContext): ExtractionInput;
  /** The states of a scope's nodes (a subgraph call nests its scope's states). */
  scopeStates(scope: ScopeGraph, path: string[]): Record<string, StateConfig>;
}

/** Where an enqueueing action (`flowEnqueue`) stores and traces: the `enqueue` of xstate's `enqueueActions`. */
export interface Enqueue {
  assign(values: Partial<FlowContext>): void;
  emit(event: FlowTraceEvent): void;
}

// ---------------------------------------------------------------- checks

/** Whether passing through a node may ask nothing: `instant` (no event between: a loop would hang), `silent` (its result is an event), or `asks`. */
export type Silence = 'instant' | 'silent' | 'asks';

export type AddIssue = (path: IssuePath, message: string, extra?: Omit<FlowIssue, 'path' | 'message'>) => void;

export interface NodeCheckContext {
  readonly doc: FlowDocument;
  /** Where the node is in the document (`[..., 'nodes', index]`). */
  readonly at: IssuePath;
  /** In a subgraph (not the main flow). */
  readonly inSubgraph: boolean;
  /** Reports a problem (an error unless `extra.severity` says otherwise). */
  add: AddIssue;
  /** Checks a CEL text written at `path`. */
  guard(path: IssuePath, source: string, node: string | undefined, kind?: GuardKind): void;
}

export interface EdgeCheckContext extends NodeCheckContext {
  /** Whether the node has edges on `outcome`. */
  has(outcome: EdgeOutcome): boolean;
  /** An error unless the node has edges on `outcome`: `<kind> "<id>" has no "<outcome>" edge <what>`. */
  need(outcome: EdgeOutcome, what: string): void;
  /** A structural error: the graph analyses (reachability, loops) are skipped. */
  fail: AddIssue;
}

// ---------------------------------------------------------------- reply, resume, test events

/** The wording of replies (flow/messages.ts), handed in by the reply builder. */
export type ReplyMessages = typeof ReplyWording;

/** The part of a Reply a node decides. */
export type NodeReply = Pick<Reply, 'message' | 'buttons' | 'buttonContext' | 'artifacts' | 'completion'>;

export interface ReplyInput {
  readonly graph: FlowGraph;
  readonly context: FlowContext;
  /** The node's place (`led.court_size`). */
  readonly place: string;
  /** The child state the node is in (`asking`, `buttonsOnly`, ...), if it has one. */
  readonly phase: string | undefined;
  /** The last turn could not be understood. */
  readonly notUnderstood: boolean;
  /** Why the flow is back here (a refused answer, an unmet constraint) and a blank line; empty otherwise. */
  readonly because: string;
  readonly messages: ReplyMessages;
  /**
   * An author's text with the answers it names (`{answers.<key>}`) filled in.
   * The node handed to `reply` has its own texts filled already; this is for
   * texts of other nodes (the stop message of the question that stopped the flow).
   */
  readonly fill: (text: string) => string;
  /** The answers a person may change at the summary at `place` (the questions its `edit` edges lead back through). */
  readonly changeableAt: (place: string) => readonly string[];
}

export interface ResumeInput {
  readonly graph: FlowGraph;
  /** Where a snapshot resumes when it enters the scope `ref` (a subgraph call): undefined past the nesting limit. */
  resumeIn(ref: string): StateValue | undefined;
}

export interface TestEventInput {
  readonly graph: FlowGraph;
  /** The node's place. */
  readonly place: string;
  readonly snapshot: { context: FlowContext; hasTag(tag: string): boolean };
  readonly today: Date;
  readonly options: FlowTestOptions;
  /** The literals of the CEL texts that read an answer key (boundary values to try). */
  literals(key: string): readonly (number | string)[] | undefined;
  /** What the extractor is asked at the question at `place`. */
  extractionInput(place: string, context: FlowContext): ExtractionInput;
}

