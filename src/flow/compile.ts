import {
  and,
  assign,
  enqueueActions,
  fromPromise,
  sendTo,
  setup,
  type AnyActorLogic,
  type DoneStateEvent,
} from 'xstate';
import { pathSelectionMachine, type PathVoteEmitted } from '../../machines/path-selection.js';
import { classifyConfirmation } from '../extract/match-confirmation.js';
import type { ExtractionInput, ExtractionOutput } from '../extract/types.js';
import { createKeywordChooser } from '../paths/offline-chooser.js';
import { asksToSkip } from './answer.js';
import { BUTTONS_ONLY_STATE, fallbackOf, hasAnswerButtons } from './attempts.js';
import { initialFlowContext, type AnswerValue, type FlowContext, type FlowEvent, type FlowInput, type GateAnswer } from './context.js';
import { findCategory, flowGraph, isLimitingValue, type ScopeGraph } from './graph.js';
import { flowLookups } from './compile-lookups.js';
import { parseFlowValue } from './parse.js';
import { answersFrom, canBeAnsweredEarly, extractionInput, isAtOrInside, laterPlaces, type Place } from './places.js';
import {
  ELSE_GUARD,
  EXIT_TARGET,
  answerKey,
  isElseGuard,
  isRequired,
  type ActionNode,
  type ConfirmationNode,
  type EdgeOutcome,
  type FlowDocument,
  type FlowDocumentInput,
  type FlowNode,
  type QuestionNode,
  type SubgraphNode,
  type TerminalOutcome,
} from './schema.js';
import type { FlowTraceEvent } from './trace.js';

export { acceptedValues, extractionInput } from './places.js';

/** The invoke id (and actor name) of extraction: `xstate.done.actor.extract`. */
export const EXTRACT_ACTOR_ID = 'extract';
/** The invoke id (and actor name) of path selection, when a flow has paths. */
export const PATHS_ACTOR_ID = 'paths';
/** Tag of states that wait for an invoked actor; a turn settles when none is active. */
export const BUSY_TAG = 'busy';

/**
 * The default `extract` actor: no model, so nothing to add to what the
 * machine's offline matching already tried. Provide a real one with
 * `createExtractActor({ model })`.
 */
export const noModelExtractActor = fromPromise<ExtractionOutput, ExtractionInput>(async () => ({
  values: {},
  failure: { reason: 'abstained', message: 'no model configured' },
}));

/** What an action node's actor is given. */
export interface ActionInput {
  /** The node's place in the flow (see {@link FlowTraceEvent}). */
  node: string;
  actor: string;
  params: Record<string, unknown>;
  /** The answers so far, as plain values by key. */
  answers: Record<string, AnswerValue>;
  context: Record<string, unknown>;
}

/** An action node's actor when the host gave none under its name: it fails, and the `error` edge is taken. */
export const missingActionActor = (name: string) =>
  fromPromise<unknown, ActionInput>(async () => {
    throw new Error(`no actor named "${name}" was provided (compileFlow(doc, { actors: { ${name} } }))`);
  });

export interface CompileOptions {
  /** The actors action nodes name, by name: an HTTP call, a tool, a lookup. */
  actors?: Record<string, AnyActorLogic>;
  /** The path chooser (`choose` of machines/path-selection.ts); the keyword chooser when absent. */
  choosePath?: AnyActorLogic;
  /** Today's date for date answers (`min: "today"`, "tomorrow"); the clock when absent. */
  today?: () => Date;
}

/**
 * The output of a finished flow: how it ended. The answers stay in the
 * snapshot's context (not copied here, so a finished snapshot stays small).
 */
export interface FlowOutput {
  outcome: TerminalOutcome;
  /** The terminal node that ended the flow. */
  terminal: string;
  stoppedBy: string | null;
}

/** Events the machine takes: a person's turns, and path selection reporting a vote. */
export type FlowMachineEvent = FlowEvent | { type: 'path.changed'; vote: PathVoteEmitted };




/**
 * Compiles a checked flow document to an XState machine: one state per node
 * (subgraph calls nest), named guards with params (CEL guards are
 * `{ type: 'cel', params: { expr } }`), the `extract` actor and action actors
 * invoked by name, final states for terminals, and trace events emitted on
 * the way. Replace actors with `machine.provide({ actors })`.
 */
export function compileFlow(input: FlowDocumentInput, options: CompileOptions = {}) {
  // Checked again here, so that a document built in code is refused as clearly as a file.
  const doc = parseFlowValue(input, typeof input.id === 'string' ? input.id : 'flow');
  const graph = flowGraph(doc);

  const {
    places,
    routes,
    cel,
    place,
    question,
    keyOf,
    ref,
    constraints,
    enforced,
    scopeOf,
    pressed,
    matched,
    typed,
    accepted,
    maxAttemptsOf,
    outOfAttempts,
    withoutAttempt,
    actionOutput,
  } = flowLookups(doc, graph, options.today ?? (() => new Date()));

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
      ...actionActors(doc, options.actors ?? {}),
    },
    guards: {
      /** A CEL guard of the document, by its text. */
      cel: ({ context }, params: { expr: string }) => cel(params.expr).evaluate(scopeOf(context)),
      /** A question's `when` is false: it does not apply. */
      notApplicable: ({ context }, params: { gate: string; expr: string }) => !cel(params.expr).evaluate(scopeOf(context)),
      /** Another question of an exclusive one-of group has an answer. */
      excludedByGroup: ({ context }, params: { gate: string; keys: string[] }) =>
        params.keys.some((key) => context.answers[key] !== undefined),
      /** An optional category question the person asks to skip. */
      skipRequested: ({ event }) =>
        event.type === 'user.button' ? asksToSkip({ button: event.value }) : event.type === 'user.text' && asksToSkip({ text: event.text }),
      /**
       * The flow was sent back to this question (or into the subgraph call
       * holding it) by an unmet constraint: it is asked, whatever would pass it over.
       */
      sentBackHere: ({ context }, params: { gate: string }) => {
        const to = context.invalid?.node;
        return to !== undefined && isAtOrInside(params.gate, to);
      },
      /** The vote just recorded left every path unlocked ... */
      voteLeavesUnlocked: ({ event }) => event.type === 'path.changed' && event.vote.locked === null,
      /** ... and the messages allowed are used up. */
      attemptsUsed: ({ context }, params: { gate: string }) => (context.attempts[params.gate] ?? 0) >= maxAttemptsOf(params.gate),
      /** The question already has a value (another message answered it early). */
      isAnswered: ({ context }, params: { gate: string }) => context.answers[keyOf(params.gate)] !== undefined,
      constraintFails: ({ context }, params: { name: string }) => scopeOf(context).constraints?.[params.name] === false,
      buttonIsCategory: ({ event }, params: { gate: string }) => {
        const value = pressed(event);
        return value !== null && findCategory(question(params.gate), value) !== undefined;
      },
      buttonIsLimiting: ({ event }, params: { gate: string }) => {
        const value = pressed(event);
        return value !== null && isLimitingValue(question(params.gate), value);
      },
      /** The offline matcher reads one of the question's categories in the text. */
      textMatches: ({ event }, params: { gate: string }) => matched(event, params.gate) !== undefined,
      /** ... and it is one of the question's limiting values. */
      textIsLimiting: ({ event }, params: { gate: string }) => {
        const found = matched(event, params.gate);
        return found !== undefined && isLimitingValue(question(params.gate), String(found.value));
      },
      /** Extraction produced no value the flow allows. */
      extractedNothing: ({ context, event }, params: { gate: string }) =>
        Object.keys(accepted(context, params.gate, event)).length === 0,
      /** Extraction gave `limitingGate` one of its limiting values. */
      extractedLimiting: ({ context, event }, params: { gate: string; limitingGate: string }) => {
        const found = accepted(context, params.gate, event)[keyOf(params.limitingGate)];
        return found !== undefined && isLimitingValue(question(params.limitingGate), String(found.value));
      },
      /** Extraction answered the question being asked. */
      extractedAnswer: ({ context, event }, params: { gate: string }) =>
        accepted(context, params.gate, event)[keyOf(params.gate)] !== undefined,
      /** A typed answer that passed its schema and validators. */
      answerValid: ({ context, event }, params: { gate: string }) => typed(context, event, params.gate)?.kind === 'valid',
      answerSkipped: ({ context, event }, params: { gate: string }) => typed(context, event, params.gate)?.kind === 'skip',
      answerInvalid: ({ context, event }, params: { gate: string }) => typed(context, event, params.gate)?.kind === 'invalid',
      /** This failure is the last one the question's budget (`maxAttempts`, the flow's, or the default) allows. */
      outOfAttempts: ({ context }, params: { gate: string }) => outOfAttempts(context, params.gate),
      buttonIsConfirm: ({ event }, params: { node: string }) => {
        const value = pressed(event);
        return value !== null && buttonMeans(place(params.node).node as ConfirmationNode, value) === 'confirm';
      },
      buttonIsEdit: ({ event }, params: { node: string }) => {
        const value = pressed(event);
        return value !== null && buttonMeans(place(params.node).node as ConfirmationNode, value) === 'edit';
      },
      textConfirms: ({ event }, params: { node: string }) =>
        event.type === 'user.text' && classifyConfirmation(event.text, place(params.node).node as ConfirmationNode) === 'confirm',
      /** The action's output has every field its `assign` names. */
      outputUsable: ({ event }, params: { node: string }) =>
        typeof actionOutput(place(params.node).node as ActionNode, (event as { output?: unknown }).output) !== 'string',
      /** A button naming one of the flow's paths. */
      buttonIsPath: ({ event }) => {
        const value = pressed(event);
        return value !== null && (doc.paths?.options ?? []).some((p) => p.id === value || p.label === value);
      },
    },
    actions: {
      commitButton: enqueueActions(({ context, event, enqueue }, params: { gate: string }) => {
        const q = question(params.gate);
        const value = findCategory(q, pressed(event) ?? '');
        if (value === undefined) return;
        commit(enqueue, context, params.gate, { value, confidence: 1, source: 'button', raw: pressed(event)! });
      }),
      commitMatched: enqueueActions(({ context, event, enqueue }, params: { gate: string }) => {
        const found = matched(event, params.gate);
        if (!found || event.type !== 'user.text') return;
        commit(enqueue, context, params.gate, { ...found, raw: event.text });
      }),
      commitTyped: enqueueActions(({ context, event, enqueue }, params: { gate: string }) => {
        const read = typed(context, event, params.gate);
        if (read?.kind !== 'valid') return;
        const raw = event.type === 'user.button' ? event.value : event.type === 'user.text' ? event.text : '';
        commit(enqueue, context, params.gate, {
          value: read.value,
          confidence: read.confidence,
          source: event.type === 'user.button' ? 'button' : 'match',
          raw,
        });
      }),
      rememberText: assign(({ event }) => ({ pendingText: event.type === 'user.text' ? event.text : null })),
      commitExtracted: enqueueActions(({ context, event, enqueue }, params: { gate: string }) => {
        const raw = context.pendingText ?? '';
        const values = accepted(context, params.gate, event);
        const answers = { ...context.answers };
        for (const [key, found] of Object.entries(values)) answers[key] = { ...found, raw };
        enqueue.assign({ answers, notice: null, invalid: null, pendingText: null, attempts: withoutAttempt(context, params.gate) });
        for (const [key, found] of Object.entries(values))
          enqueue.emit({ type: 'answer.committed', node: params.gate, key, value: found.value, source: found.source });
      }),
      recordStop: assign((_, params: { gate: string }) => ({ stoppedBy: keyOf(params.gate) })),
      /** Not understood: say so, and count a failed answer. */
      noteNotUnderstood: assign(({ context }, params: { gate: string | null }) => ({
        notice: 'not_understood' as const,
        invalid: null,
        pendingText: null,
        ...(params.gate !== null && { attempts: { ...context.attempts, [params.gate]: (context.attempts[params.gate] ?? 0) + 1 } }),
      })),
      /** A typed answer was refused: keep the reason to say, count the failure, trace it. */
      recordInvalid: enqueueActions(({ context, event, enqueue }, params: { gate: string }) => {
        const read = typed(context, event, params.gate);
        const message = read?.kind === 'invalid' ? read.message : 'That answer could not be used.';
        const attempt = (context.attempts[params.gate] ?? 0) + 1;
        enqueue.assign({
          invalid: { node: params.gate, message },
          notice: null,
          attempts: { ...context.attempts, [params.gate]: attempt },
        });
        enqueue.emit({
          type: 'validation.failed',
          node: params.gate,
          key: keyOf(params.gate),
          message,
          attempt,
          maxAttempts: maxAttemptsOf(params.gate),
        });
      }),
      recordSkip: enqueueActions(({ context, enqueue }, params: { gate: string; reason: 'not_applicable' | 'optional' | 'answered' | 'exclusive' }) => {
        if (params.reason === 'optional')
          enqueue.assign({ notice: null, invalid: null, attempts: withoutAttempt(context, params.gate) });
        enqueue.emit({ type: 'answer.skipped', node: params.gate, key: keyOf(params.gate), reason: params.reason });
      }),
      /** Editing: the answers the flow will ask again (those after the edit edge's target) are kept aside as previous ones. */
      startEditing: assign(({ context }, params: { keys: string[] }) => {
        const again = new Set(params.keys);
        const kept = Object.fromEntries(Object.entries(context.answers).filter(([key]) => !again.has(key)));
        const asked = Object.fromEntries(Object.entries(context.answers).filter(([key]) => again.has(key)));
        return { previousAnswers: { ...context.previousAnswers, ...asked }, answers: kept, notice: null, invalid: null };
      }),
      traceNode: enqueueActions(({ enqueue }, params: { node: string; kind: FlowNode['kind']; phase: 'enter' | 'exit' }) => {
        enqueue.emit({ type: params.phase === 'enter' ? 'node.enter' : 'node.exit', node: params.node, kind: params.kind });
      }),
      /** The guards tried before the edge taken, and any later one that also held. */
      traceRoute: enqueueActions(({ context, enqueue }, params: { route: number; taken: number; redirectedTo?: string }) => {
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
      recordConstraint: enqueueActions(({ enqueue }, params: { name: string }) => {
        const c = constraints.find((x) => x.name === params.name)!;
        enqueue.assign({ invalid: { node: c.fallback!, message: c.message }, notice: null });
        enqueue.emit({ type: 'constraint.failed', name: c.name, message: c.message, fallback: c.fallback! });
      }),
      assignOutput: enqueueActions(({ context, event, enqueue }, params: { node: string }) => {
        const node = place(params.node).node as ActionNode;
        const values = actionOutput(node, (event as { output?: unknown }).output);
        if (typeof values === 'string') return;
        const answers = { ...context.answers };
        for (const [key, value] of Object.entries(values)) answers[key] = { value, confidence: 1, source: 'action', raw: node.actor };
        enqueue.assign({ answers, actionError: null });
        enqueue.emit({ type: 'action.done', node: params.node, actor: node.actor, assigned: Object.keys(values) });
      }),
      recordActionError: enqueueActions(({ event, enqueue }, params: { node: string }) => {
        const node = place(params.node).node as ActionNode;
        const e = event as { error?: unknown; output?: unknown };
        const message =
          'error' in e
            ? e.error instanceof Error
              ? e.error.message
              : String(e.error)
            : (actionOutput(node, e.output) as string);
        enqueue.assign({ actionError: { node: params.node, message } });
        enqueue.emit({ type: 'action.failed', node: params.node, actor: node.actor, message });
      }),
      /** Every message is also a vote for a path. */
      votePath: sendTo(PATHS_ACTOR_ID, ({ event }) => ({ type: 'message' as const, text: event.type === 'user.text' ? event.text : '' })),
      votePathButton: sendTo(PATHS_ACTOR_ID, ({ event }) => {
        const value = pressed(event) ?? '';
        const option = (doc.paths?.options ?? []).find((p) => p.id === value || p.label === value);
        return { type: 'vote' as const, path: option?.id ?? null, confidence: 1, rationale: `button "${value}"` };
      }),
      countAttempt: assign(({ context }, params: { gate: string }) => ({
        attempts: { ...context.attempts, [params.gate]: (context.attempts[params.gate] ?? 0) + 1 },
      })),
      /**
       * The question (or path node) gave up: its count starts again should the
       * flow come back to it, and the node it goes to asks its own question
       * (not "not understood", not this question's refusal).
       */
      forgetAttempts: assign(({ context }, params: { gate: string }) => ({ attempts: withoutAttempt(context, params.gate), notice: null, invalid: null })),
      assignPath: enqueueActions(({ event, enqueue }) => {
        if (event.type !== 'path.changed') return;
        const { vote } = event;
        enqueue.assign({ path: { tentative: vote.tentative, locked: vote.locked, votes: vote.votes } });
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
    },
  });

  /** Store an answer, clear what the last failure said, trace it. */
  function commit(
    enqueue: { assign: (a: Partial<FlowContext>) => void; emit: (e: FlowTraceEvent) => void },
    context: FlowContext,
    gate: string,
    answer: GateAnswer,
  ) {
    const key = keyOf(gate);
    enqueue.assign({
      answers: { ...context.answers, [key]: answer },
      notice: null,
      invalid: null,
      attempts: withoutAttempt(context, gate),
    });
    enqueue.emit({ type: 'answer.committed', node: gate, key, value: answer.value, source: answer.source });
  }

  type MachineConfig = Parameters<typeof machineSetup.createMachine>[0];
  type StatesConfig = NonNullable<MachineConfig['states']>;
  type StateConfig = StatesConfig[string];
  type Transition = { guard?: unknown; target?: string; actions?: unknown[] };

  // ---------------------------------------------------------------- edges

  /**
   * The transitions of one group of edges (a node leaving on an outcome), in
   * the order written: CEL guards as named guards, `else` last. An edge into a
   * completed or handoff terminal first checks the enforced constraints.
   */
  const routeIndex = new Map<string, number>();
  const route = (p: Place, outcome: EdgeOutcome, condition?: { type: string; params: unknown }): Transition[] => {
    const edges = p.scope.edgesFrom(p.node.id, outcome);
    const index = routeIndex.get(`${p.id} ${outcome}`) ?? routes.push({
      node: p.id,
      outcome,
      guards: edges.map((e) => (isElseGuard(e.guard) ? null : e.guard!)),
      targets: edges.map((e) => [...p.path, e.to].join('.')),
    }) - 1;
    routeIndex.set(`${p.id} ${outcome}`, index);
    const guardOf = (...parts: ({ type: string; params: unknown } | undefined)[]) => {
      const present = parts.filter((g) => g !== undefined);
      return present.length === 0 ? undefined : present.length === 1 ? present[0] : and(present as never);
    };
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
  const routing = (p: Place, outcome: EdgeOutcome): StateConfig => ({ always: route(p, outcome) as never });
  /**
   * How a transition that first commits something leaves on `outcome`: a
   * single unguarded edge is taken directly; guards must read what was just
   * committed, so a guarded group goes through a transient child named after
   * the outcome (see `routing`).
   */
  const leave = (p: Place, outcome: EdgeOutcome): { target: string; actions: unknown[]; child: boolean } => {
    const edges = p.scope.edgesFrom(p.node.id, outcome);
    // No invalid edge: the flow's fallback, or the implicit stop terminal the flow graph adds for it.
    if (outcome === 'invalid' && edges.length === 0) return { target: ref([], fallbackOf(doc)), actions: [], child: false };
    const direct = route(p, outcome);
    if (edges.length === 1 && isElseGuard(edges[0]!.guard) && direct.length === 1)
      return { target: direct[0]!.target!, actions: direct[0]!.actions ?? [], child: false };
    return { target: outcome, actions: [], child: true };
  };
  /** A transition that runs `actions`, then leaves on `outcome`. */
  const go = (p: Place, outcome: EdgeOutcome, guard: unknown, actions: unknown[]): Transition => {
    const to = leave(p, outcome);
    return { ...(guard !== undefined && { guard }), target: to.target, actions: [...actions, ...to.actions] };
  };
  /** The transient children a node needs for the outcomes it leaves on through guards. */
  const routingChildren = (p: Place, outcomes: EdgeOutcome[]): StatesConfig =>
    Object.fromEntries(outcomes.filter((o) => leave(p, o).child).map((o) => [o, routing(p, o)]));

  const traced = (p: Place) => ({
    meta: { node: p.node.id, kind: p.node.kind, place: p.id, ...(p.node.label && { label: p.node.label }), ...(p.node.ui && { ui: p.node.ui }) },
    entry: [{ type: 'traceNode' as const, params: { node: p.id, kind: p.node.kind, phase: 'enter' as const } }],
    exit: [{ type: 'traceNode' as const, params: { node: p.id, kind: p.node.kind, phase: 'exit' as const } }],
  });
  const withVote = (transitions: Transition[]): Transition[] =>
    doc.paths ? transitions.map((t) => ({ ...t, actions: [{ type: 'votePath' }, ...(t.actions ?? [])] })) : transitions;

  // ---------------------------------------------------------------- nodes

  const questionState = (p: Place, q: QuestionNode): StateConfig => {
    const params = { gate: p.id };
    const limited = (q.limitingValues ?? []).length > 0;
    // Its answers are buttons: once its failed answers use up the budget it offers them alone, then gives up.
    const buttons = hasAnswerButtons(q);
    // Passed over once another key of an exclusive group is answered: only keys asked before it can be.
    const askedBefore = new Set(graph.questions.slice(0, graph.questions.indexOf(q)).map(answerKey));
    const exclusive = constraints
      .filter((c) => c.exclusive && c.oneOf?.includes(answerKey(q)))
      .map((c) => c.oneOf!.filter((k) => k !== answerKey(q) && askedBefore.has(k)))
      .filter((keys) => keys.length > 0);
    // Sent back here by an unmet constraint: asked, whatever would pass it over.
    const fallbackHere = enforced.some((c) => isAtOrInside(p.id, c.fallback!));
    const skip = (reason: string) => [{ type: 'recordSkip', params: { ...params, reason } }];
    const skips: Transition[] = [
      ...(q.when !== undefined ? [go(p, 'answered', { type: 'notApplicable', params: { gate: p.id, expr: q.when } }, skip('not_applicable'))] : []),
      ...exclusive.map((keys) => go(p, 'answered', { type: 'excludedByGroup', params: { gate: p.id, keys } }, skip('exclusive'))),
      ...(canBeAnsweredEarly(graph, p, places) ? [go(p, 'answered', { type: 'isAnswered', params }, skip('answered'))] : []),
    ];
    const record = (notUnderstood: boolean) => (notUnderstood ? { type: 'noteNotUnderstood', params } : { type: 'recordInvalid', params });
    /** Giving up: the failure is counted and traced, then the count starts again (should the flow come back here). */
    const giveUp = (guard: unknown, notUnderstood: boolean) => go(p, 'invalid', guard, [record(notUnderstood), { type: 'forgetAttempts', params }]);
    /** The budget's last failure: the buttons alone, or giving up. */
    const lastFailure = (guard: unknown, notUnderstood: boolean): Transition =>
      buttons ? { guard, target: BUTTONS_ONLY_STATE, actions: [record(notUnderstood)] } : giveUp(guard, notUnderstood);
    /** A failed answer while asking: counted, and asked again, up to the budget. */
    const failed = (notUnderstood: boolean): Transition[] => [
      lastFailure({ type: 'outOfAttempts', params }, notUnderstood),
      { actions: [record(notUnderstood)] },
    ];
    let asking: StateConfig;
    let buttonsOnly: StateConfig | undefined;
    let extracting: StateConfig | undefined;
    if (q.answer.type === 'category') {
      const modelAllowed = !(p.path.length === 0 && q.id === graph.start.id);
      const direct = (isLimiting: string, matches: string, commitAction: string): Transition[] => [
        ...(limited ? [go(p, 'limiting', { type: isLimiting, params }, [{ type: commitAction, params }, { type: 'recordStop', params }])] : []),
        go(p, 'answered', { type: matches, params }, [{ type: commitAction, params }]),
        ...(!isRequired(q) ? [go(p, 'answered', { type: 'skipRequested' }, skip('optional'))] : []),
      ];
      asking = {
        on: {
          'user.button': [...direct('buttonIsLimiting', 'buttonIsCategory', 'commitButton'), ...failed(true)],
          // The offline matcher first (pure, here in the machine); the model only where it abstains.
          'user.text': withVote([
            ...direct('textIsLimiting', 'textMatches', 'commitMatched'),
            // The first question never calls a model (the seed's rule).
            ...(modelAllowed ? [{ target: 'extracting', actions: [{ type: 'rememberText' }] }] : failed(true)),
          ]),
        } as never,
      };
      // The buttons alone: a button or a text the offline matcher reads surely answers (no model); anything else gives up.
      buttonsOnly = {
        on: {
          'user.button': [...direct('buttonIsLimiting', 'buttonIsCategory', 'commitButton'), giveUp(undefined, true)],
          'user.text': withVote([...direct('textIsLimiting', 'textMatches', 'commitMatched'), giveUp(undefined, true)]),
        } as never,
      };
      if (modelAllowed) extracting = extractingState(p, lastFailure);
    } else {
      const answer = (fail: Transition[]): Transition[] => [
        go(p, 'answered', { type: 'answerValid', params }, [{ type: 'commitTyped', params }]),
        ...(!isRequired(q) ? [go(p, 'answered', { type: 'answerSkipped', params }, skip('optional'))] : []),
        ...fail,
      ];
      asking = { on: { 'user.button': answer(failed(false)), 'user.text': withVote(answer(failed(false))) } as never };
      if (buttons) buttonsOnly = { on: { 'user.button': answer([giveUp(undefined, false)]), 'user.text': withVote(answer([giveUp(undefined, false)])) } as never };
    }
    return {
      tags: ['question'],
      ...traced(p),
      initial: skips.length > 0 ? 'entering' : 'asking',
      states: {
        ...(skips.length > 0 && {
          entering: { always: [...(fallbackHere ? [{ guard: { type: 'sentBackHere', params }, target: 'asking' }] : []), ...skips, { target: 'asking' }] as never },
        }),
        asking,
        ...(buttonsOnly && { [BUTTONS_ONLY_STATE]: buttonsOnly }),
        ...(extracting && { extracting }),
        ...routingChildren(p, ['answered', ...(limited ? (['limiting'] as const) : []), 'invalid']),
      } as StatesConfig,
    };
  };

  /** Where the matcher abstained: the `extract` actor (a model) reads the text, for this and later questions. */
  const extractingState = (p: Place, lastFailure: (guard: unknown, notUnderstood: boolean) => Transition): StateConfig => {
    const params = { gate: p.id };
    const reachable = laterQuestions(p);
    const limitingTransitions = reachable
      .filter((g) => ((g.node as QuestionNode).limitingValues ?? []).length > 0)
      .map((g) => ({
        guard: { type: 'extractedLimiting', params: { gate: p.id, limitingGate: g.id } },
        // A limiting value leaves through that question's own limiting edges (a later
        // question's guarded group through its transient child, entering it).
        ...(() => {
          const to = leave(g, 'limiting');
          const target = to.child && g !== p ? `${ref(g.path, g.node.id)}.limiting` : to.target;
          return { target, actions: [{ type: 'commitExtracted', params }, { type: 'recordStop', params: { gate: g.id } }, ...to.actions] };
        })(),
      }));
    const nothing = { type: 'extractedNothing', params };
    return {
      tags: [BUSY_TAG],
      invoke: {
        id: EXTRACT_ACTOR_ID,
        src: 'extract',
        input: ({ context }: { context: FlowContext }) => extractionInput(graph, p.id, context),
        onDone: [
          // Nothing read, and the budget is used up: the buttons alone.
          lastFailure(and([nothing, { type: 'outOfAttempts', params }] as never), true),
          { guard: nothing, target: 'asking', actions: [{ type: 'noteNotUnderstood', params }] },
          ...limitingTransitions,
          go(p, 'answered', { type: 'extractedAnswer', params }, [{ type: 'commitExtracted', params }]),
          // Only later questions were answered: keep them, ask this one again.
          ...(reachable.length > 1 ? [{ target: 'asking', actions: [{ type: 'commitExtracted', params }] }] : []),
        ],
        // A failing extractor never ends the conversation: ask again.
        onError: { target: 'asking', actions: [{ type: 'noteNotUnderstood', params: { gate: null } }] },
      } as never,
    };
  };

  /** The question at `p` and the category questions after it along `answered` edges, in its scope. */
  function laterQuestions(p: Place): Place[] {
    return laterPlaces(p, places);
  }

  const confirmationState = (p: Place): StateConfig => {
    const params = { node: p.id };
    // What editing clears: the answers of every question (and action) reachable from where the edit edge goes.
    const editing = (t: Transition) => {
      const target = (t.target ?? '').replace(`#${doc.id}.`, '');
      return { type: 'startEditing', params: { keys: answersFrom(graph, target) } };
    };
    const on = (guard: string) => ({ type: guard, params });
    return {
      tags: ['confirmation'],
      ...traced(p),
      on: {
        'user.button': [
          ...route(p, 'confirmed', on('buttonIsConfirm')),
          ...route(p, 'edit', on('buttonIsEdit')).map((t) => ({ ...t, actions: [editing(t), ...(t.actions ?? [])] })),
          { actions: [{ type: 'noteNotUnderstood', params: { gate: null } }] },
        ],
        // The seed's rule: anything that is not a confirmation is a wish to edit.
        'user.text': [
          ...route(p, 'confirmed', on('textConfirms')),
          ...route(p, 'edit').map((t) => ({ ...t, actions: [editing(t), ...(t.actions ?? [])] })),
        ],
      } as never,
    };
  };

  const decisionState = (p: Place): StateConfig => ({ ...traced(p), always: route(p, 'next') as never });

  const actionState = (p: Place, a: ActionNode): StateConfig => {
    const params = { node: p.id };
    return {
      ...traced(p),
      initial: 'running',
      states: {
        running: {
          tags: [BUSY_TAG],
          invoke: {
            id: `action.${p.id}`,
            src: a.actor,
            input: ({ context }: { context: FlowContext }): ActionInput => {
              const scope = scopeOf(context);
              return { node: p.id, actor: a.actor, params: a.params ?? {}, answers: scope.answers as Record<string, AnswerValue>, context: { ...context.host } };
            },
            onDone: [
              go(p, 'done', { type: 'outputUsable', params }, [{ type: 'assignOutput', params }]),
              go(p, 'error', undefined, [{ type: 'recordActionError', params }]),
            ],
            onError: go(p, 'error', undefined, [{ type: 'recordActionError', params }]),
          } as never,
        },
        ...routingChildren(p, ['done', 'error']),
      } as StatesConfig,
    };
  };

  const subgraphState = (p: Place, s: SubgraphNode): StateConfig => {
    const sub = graph.scope(s.ref)!;
    const path = [...p.path, s.id];
    return {
      ...traced(p),
      initial: sub.entry.id,
      states: { ...scopeStates(sub, path), [EXIT_TARGET]: { type: 'final' } } as StatesConfig,
      onDone: route(p, 'done') as never,
    };
  };

  const pathState = (p: Place): StateConfig => {
    const params = { gate: p.id };
    return {
      tags: ['question'],
      ...traced(p),
      // Re-checked after every event: a vote that locks a path moves on at once.
      always: route(p, 'next') as never,
      initial: 'waiting',
      states: {
        waiting: {
          on: {
            'user.text': { actions: [{ type: 'votePath' }, { type: 'countAttempt', params }] },
            // The message's vote comes back from path selection: only a vote that
            // locks nothing can use up the last attempt (the budget: see attempts.ts).
            'path.changed': [
              go(p, 'invalid', and([{ type: 'voteLeavesUnlocked' }, { type: 'attemptsUsed', params }] as never), [{ type: 'assignPath' }, { type: 'forgetAttempts', params }]),
              { actions: [{ type: 'assignPath' }] },
            ],
            'user.button': [
              { guard: { type: 'buttonIsPath' }, actions: [{ type: 'votePathButton' }] },
              { actions: [{ type: 'noteNotUnderstood', params: { gate: null } }] },
            ],
          },
        },
        ...routingChildren(p, ['invalid']),
      } as StatesConfig,
    };
  };

  function scopeStates(scope: ScopeGraph, path: string[]): StatesConfig {
    const states: StatesConfig = {};
    for (const node of scope.nodes) {
      const p = places.get([...path, node.id].join('.'))!;
      switch (node.kind) {
        case 'question':
          states[node.id] = questionState(p, node);
          break;
        case 'confirmation':
          states[node.id] = confirmationState(p);
          break;
        case 'decision':
          states[node.id] = decisionState(p);
          break;
        case 'action':
          states[node.id] = actionState(p, node);
          break;
        case 'subgraph':
          states[node.id] = subgraphState(p, node);
          break;
        case 'path':
          states[node.id] = pathState(p);
          break;
        case 'terminal':
          states[node.id] = {
            type: 'final',
            tags: ['terminal'],
            ...traced(p),
            meta: { ...traced(p).meta, outcome: node.outcome },
            // Passed to the root's `output` in the done-state event.
            output: ({ context }: { context: FlowContext }): FlowOutput => ({
              outcome: node.outcome,
              terminal: node.id,
              stoppedBy: context.stoppedBy,
            }),
          } as StateConfig;
          break;
      }
    }
    return states;
  }

  // Every place is known (placesOf) before any state is built: extraction looks ahead, also into subgraphs.
  const states = scopeStates(graph.main, []);

  return machineSetup.createMachine({
    id: doc.id,
    // Input is optional (`createActor(machine)`): `{ context }` gives the facts guards read.
    context: ({ input }) => ({
      ...initialFlowContext((input ?? {}) as FlowInput),
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
    states,
    output: ({ event }) => (event as unknown as DoneStateEvent<FlowOutput>).output,
  });
}

export type FlowMachine = ReturnType<typeof compileFlow>;


/** The registry of action actors: the host's, and a failing stand-in for any name it did not give. */
function actionActors(doc: FlowDocument, given: Record<string, AnyActorLogic>): Record<string, AnyActorLogic> {
  const names = new Set<string>();
  const visit = (nodes: FlowNode[]) => nodes.forEach((n) => n.kind === 'action' && names.add(n.actor));
  visit(doc.nodes);
  for (const sub of Object.values(doc.subgraphs ?? {})) visit(sub.nodes);
  const actors: Record<string, AnyActorLogic> = {};
  for (const name of names) actors[name] = given[name] ?? missingActionActor(name);
  return actors;
}

/** Which confirmation button a pressed value means: its value or its label, any case. */
function buttonMeans(node: ConfirmationNode, pressed: string): 'confirm' | 'edit' | null {
  const v = pressed.trim().toLowerCase();
  if (v === 'confirm' || v === node.confirmLabel.toLowerCase()) return 'confirm';
  if (v === 'edit' || v === node.editLabel.toLowerCase()) return 'edit';
  return null;
}
