import { and, assign, emit, enqueueActions, sendTo, type AnyActorRef, type EventObject, type ParameterizedObject } from 'xstate';
import { BUSY_TAG } from '../../workflow/settle.js';
import { fallbackOf } from '../attempts.js';
import type { FlowLookups } from '../compile-lookups.js';
import { ELSE_GUARD, EXIT_TARGET, isElseGuard, type EdgeOutcome } from '../fields.js';
import type { Place } from '../places.js';
import type { FlowContext } from '../context.js';
import type { FlowDocument, FlowNode } from '../schema.js';
import type { FlowTraceEvent } from '../trace.js';
import type { CompileContext, EdgeCheckContext, FlowAction, FlowActions, FlowGuards, FlowMachineEvent, Leaving, NamedRef, NodeReply, StateConfig, Transition } from './kind.js';

/**
 * What the compiler shares between node kinds: the names of the machine's
 * actors and tags, the helpers that leave a node along its edges (route,
 * leave, go, routingChildren), the traces every state has, and the guards and
 * actions more than one kind (or the routing itself) names.
 */

/** The invoke id (and actor name) of extraction: `xstate.done.actor.extract`. */
export const EXTRACT_ACTOR_ID = 'extract';
/** The invoke id (and actor name) of path selection, when a flow has paths. */
export const PATHS_ACTOR_ID = 'paths';
/** Tag of states that wait for an invoked actor; a turn settles when none is active. */
export { BUSY_TAG };

/** Whether the place `place` is `ancestor` or inside it (a node within a subgraph call). */
export function isAtOrInside(place: string, ancestor: string): boolean {
  return place === ancestor || place.startsWith(`${ancestor}.`);
}

// ---------------------------------------------------------------- typed action creators

/*
 * xstate's `assign`, `enqueueActions` and `sendTo`, their type parameters
 * fixed to a flow's context, events and trace events, so that an action a
 * kind defines outside `setup()` is a {@link FlowAction}. Each returns what
 * the xstate creator returns: the compiled machine is the same.
 */
type Params = ParameterizedObject['params'] | undefined;
type Assignment<P extends Params> = Parameters<typeof assign<FlowContext, FlowMachineEvent, P, FlowMachineEvent, never>>[0];
type Collect<P extends Params> = Parameters<typeof enqueueActions<FlowContext, FlowMachineEvent, P, FlowMachineEvent, never, never, never, never, FlowTraceEvent>>[0];
type SendExpression<P extends Params> = (args: { context: FlowContext; event: FlowMachineEvent }, params: P) => EventObject;

/** `assign`: sets context fields. */
export const flowAssign = <P extends Params>(assignment: Assignment<P>): FlowAction =>
  assign<FlowContext, FlowMachineEvent, P, FlowMachineEvent, never>(assignment) as unknown as FlowAction;
/** `enqueueActions`: assigns and emits trace events. */
export const flowEnqueue = <P extends Params>(collect: Collect<P>): FlowAction =>
  enqueueActions<FlowContext, FlowMachineEvent, P, FlowMachineEvent, never, never, never, never, FlowTraceEvent>(collect) as unknown as FlowAction;
/** `emit`: one trace event, made from the action's params (cheaper than `enqueueActions` for an action that only emits). */
export const flowEmit = <P extends Params>(event: (args: { context: FlowContext; event: FlowMachineEvent }, params: P) => FlowTraceEvent): FlowAction =>
  emit<FlowContext, FlowMachineEvent, P, FlowMachineEvent, FlowTraceEvent>(event) as unknown as FlowAction;
/** `sendTo`: sends an event to an invoked actor, by its id. */
export const flowSendTo = <P extends Params>(actorId: string, event: SendExpression<P>): FlowAction =>
  sendTo<FlowContext, FlowMachineEvent, P, AnyActorRef, FlowMachineEvent>(actorId, event) as unknown as FlowAction;

/** The reply of a node the flow passes through or waits on without asking (a decision, an action, a subgraph call). */
export const working = (message: string): NodeReply => ({
  message,
  buttons: null,
  buttonContext: null,
  artifacts: [],
  completion: { isComplete: false, reason: 'working', readyForHandoff: false },
});

/** The completion of a node that waits for an answer. */
export const AWAITING_ANSWER = { isComplete: false, reason: 'awaiting_answer', readyForHandoff: false } as const;

/** A node that gives up after its failed answers needs somewhere to go: its `invalid` edge, or (in the main flow) the flow's fallback. */
export function checkGivingUp(node: { id: string; maxAttempts?: number | undefined }, c: EdgeCheckContext): void {
  if (node.maxAttempts !== undefined && !c.has('invalid') && (c.doc.fallback === undefined || c.inSubgraph))
    c.fail([...c.at, 'maxAttempts'], `"${node.id}" gives up after ${node.maxAttempts} failed answers but has no "invalid" edge${c.inSubgraph ? '' : ' and the flow no "fallback"'}`, {
      node: node.id,
    });
}

/** What the routing helpers need to know of the flow. */
type RoutingLookups = Pick<FlowLookups, 'routes' | 'ref' | 'enforced'>;

/** The routing helpers of one compiled flow (see {@link CompileContext} for what each does). */
export function createRouting(doc: FlowDocument, lookups: RoutingLookups): Pick<CompileContext, 'route' | 'leave' | 'go' | 'routingChildren' | 'traced' | 'withVote' | 'ref'> {
  const { routes, ref, enforced } = lookups;
  // One route (for traces) per node place and outcome, however often its transitions are built.
  const routeIndex = new Map<string, number>();
  const guardOf = (...parts: (NamedRef | undefined)[]) => {
    const present = parts.filter((g) => g !== undefined);
    return present.length === 0 ? undefined : present.length === 1 ? present[0] : and(present as never);
  };

  const route = (p: Place, outcome: EdgeOutcome, condition?: NamedRef): Transition[] => {
    const edges = p.scope.edgesFrom(p.node.id, outcome);
    const index =
      routeIndex.get(`${p.id} ${outcome}`) ??
      routes.push({
        node: p.id,
        outcome,
        guards: edges.map((e) => (isElseGuard(e.guard) ? null : e.guard!)),
        targets: edges.map((e) => [...p.path, e.to].join('.')),
      }) - 1;
    routeIndex.set(`${p.id} ${outcome}`, index);
    return edges.flatMap((edge, i) => {
      const celGuard = isElseGuard(edge.guard) ? undefined : { type: 'cel', params: { expr: edge.guard! } };
      const target = edge.to === EXIT_TARGET ? ref(p.path, EXIT_TARGET) : ref(p.path, edge.to);
      const trace = { type: 'traceRoute', params: { route: index, taken: i } };
      const main: Transition = { target, actions: [trace] };
      const g = guardOf(condition, celGuard);
      if (g) main.guard = g;
      // Enforced constraints guard the way to a review or a successful end (not a stop).
      const to = p.scope.node(edge.to);
      const guarded = to?.kind === 'confirmation' || (to?.kind === 'terminal' && to.outcome !== 'stopped');
      // Leaving a review changes no answer: every way into it was checked already.
      if (p.scope.ref !== null || !guarded || p.node.kind === 'confirmation') return [main];
      const checks: Transition[] = enforced.map((c) => {
        const guard = guardOf(condition, celGuard, { type: 'constraintFails', params: { name: c.name } });
        const redirected = { type: 'traceRoute', params: { route: index, taken: i, redirectedTo: c.fallback! } };
        return { ...(guard && { guard }), target: ref([], c.fallback!), actions: [redirected, { type: 'recordConstraint', params: { name: c.name } }] };
      });
      return [...checks, main];
    });
  };
  /** The transient state that takes a group of edges once the transition into it has run its actions. */
  const routing = (p: Place, outcome: EdgeOutcome): StateConfig => ({ always: route(p, outcome) });
  const leave = (p: Place, outcome: EdgeOutcome): Leaving => {
    const edges = p.scope.edgesFrom(p.node.id, outcome);
    // No invalid edge: the flow's fallback, or the implicit stop terminal the flow graph adds for it.
    if (outcome === 'invalid' && edges.length === 0) return { target: ref([], fallbackOf(doc)), actions: [], child: false };
    const direct = route(p, outcome);
    if (edges.length === 1 && isElseGuard(edges[0]!.guard) && direct.length === 1)
      return { target: direct[0]!.target!, actions: direct[0]!.actions ?? [], child: false };
    return { target: outcome, actions: [], child: true };
  };
  const go = (p: Place, outcome: EdgeOutcome, guard: unknown, actions: unknown[]): Transition => {
    const to = leave(p, outcome);
    return { ...(guard !== undefined && { guard }), target: to.target, actions: [...actions, ...to.actions] };
  };
  const routingChildren = (p: Place, outcomes: EdgeOutcome[]): Record<string, StateConfig> =>
    Object.fromEntries(outcomes.filter((o) => leave(p, o).child).map((o) => [o, routing(p, o)]));
  const traced = (p: Place) => ({
    meta: { node: p.node.id, kind: p.node.kind, place: p.id, ...(p.node.label && { label: p.node.label }), ...(p.node.ui && { ui: p.node.ui }) },
    entry: [{ type: 'traceNode' as const, params: { node: p.id, kind: p.node.kind, phase: 'enter' as const } }],
    exit: [{ type: 'traceNode' as const, params: { node: p.id, kind: p.node.kind, phase: 'exit' as const } }],
  });
  const withVote = (transitions: Transition[]): Transition[] =>
    doc.paths ? transitions.map((t) => ({ ...t, actions: [{ type: 'votePath' }, ...(t.actions ?? [])] })) : transitions;
  return { route, leave, go, routingChildren, traced, withVote, ref };
}

/** Guards the routing names: CEL guards of the document, and enforced constraints. */
export function sharedGuards({ lookups: { cel, scopeOf } }: CompileContext): FlowGuards {
  return {
    /** A CEL guard of the document, by its text. */
    cel: ({ context }, params: { expr: string }) => cel(params.expr).evaluate(scopeOf(context)),
    constraintFails: ({ context }, params: { name: string }) => scopeOf(context).constraints?.[params.name] === false,
  };
}

/** Actions the routing and the traces name, and those several kinds name (not understood, giving up, path votes). */
export function sharedActions({ lookups }: CompileContext): FlowActions {
  const { routes, cel, scopeOf, constraints, withoutAttempt } = lookups;
  return {
    // Two per step (a node left, a node entered): a plain emit.
    traceNode: flowEmit((_, params: { node: string; kind: FlowNode['kind']; phase: 'enter' | 'exit' }) => ({
      type: params.phase === 'enter' ? 'node.enter' : 'node.exit',
      node: params.node,
      kind: params.kind,
    })),
    /** The guards tried before the edge taken, and any later one that also held. */
    traceRoute: flowEnqueue(({ context, enqueue }, params: { route: number; taken: number; redirectedTo?: string }) => {
      const route = routes[params.route]!;
      const tried = route.guards.slice(0, params.taken + 1).map((guard, i) => ({
        guard: guard ?? ELSE_GUARD,
        result: i === params.taken,
      }));
      enqueue.emit({
        type: 'guard.evaluated',
        node: route.node,
        outcome: route.outcome,
        guards: tried,
        target: params.redirectedTo ?? route.targets[params.taken]!,
      });
      const takenGuard = route.guards[params.taken];
      if (takenGuard === null || takenGuard === undefined) return;
      const alsoTrue = route.guards
        .slice(params.taken + 1)
        .filter((g): g is string => g !== null && cel(g).evaluate(scopeOf(context)));
      if (alsoTrue.length > 0)
        enqueue.emit({ type: 'guard.ambiguous', node: route.node, outcome: route.outcome, taken: takenGuard, alsoTrue });
    }),
    recordConstraint: flowEnqueue(({ enqueue }, params: { name: string }) => {
      const c = constraints.find((x) => x.name === params.name)!;
      enqueue.assign({ invalid: { node: c.fallback!, message: c.message }, notice: null });
      enqueue.emit({ type: 'constraint.failed', name: c.name, message: c.message, fallback: c.fallback! });
    }),
    /** Not understood: say so, and count a failed answer. */
    noteNotUnderstood: flowAssign(({ context }, params: { place: string | null }) => ({
      notice: 'not_understood' as const,
      invalid: null,
      pendingText: null,
      noted: [],
      ...(params.place !== null && { attempts: { ...context.attempts, [params.place]: (context.attempts[params.place] ?? 0) + 1 } }),
    })),
    /** The model could not be asked (down, late, nonsense): said, and not counted as the person's failed answer. */
    noteModelDown: flowAssign(() => ({ notice: 'model_unavailable' as const, invalid: null, pendingText: null, noted: [] })),
    /**
     * The question (or path node) gave up: its count starts again should the
     * flow come back to it, and the node it goes to asks its own question
     * (not "not understood", not this question's refusal).
     */
    forgetAttempts: flowAssign(({ context }, params: { place: string }) => ({ attempts: withoutAttempt(context, params.place), notice: null, invalid: null })),
    /** Every message is also a vote for a path. */
    votePath: flowSendTo(PATHS_ACTOR_ID, ({ event }) => ({ type: 'message' as const, text: event.type === 'user.text' ? event.text : '' })),
    /** Path selection reported a vote: keep where it stands, trace it. */
    assignPath: flowEnqueue(({ event, enqueue }) => {
      if (event.type !== 'path.changed') return;
      const { vote } = event;
      enqueue.assign({ path: { tentative: vote.tentative, locked: vote.locked, votes: vote.votes, last: { path: vote.path, outcome: vote.outcome } } });
      enqueue.emit({
        type: 'path.vote',
        turn: vote.turn,
        path: vote.path,
        confidence: vote.confidence,
        outcome: vote.outcome,
        votes: vote.votes,
        tentative: vote.tentative,
        locked: vote.locked,
        rationale: vote.rationale,
      });
    }),
  };
}

/** The flow's summaries (confirmation nodes where they sit) with the answers a person may change at each. */
export function summariesOf(c: Pick<CompileContext, 'places' | 'changeableAt'>): { place: Place; keys: readonly string[] }[] {
  return [...c.places.values()].filter((p) => p.node.kind === 'confirmation').map((p) => ({ place: p, keys: c.changeableAt(p.id) }));
}
