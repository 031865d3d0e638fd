import { assign, fromPromise, setup } from 'xstate';
import { BUSY_TAG } from './tags.js';
import type { InputSpec } from '../src/inputs/spec.js';
import type { InputAnsweredEvent, InputTimedOutEvent } from '../src/inputs/events.js';
import { isCancelWord } from './cancel-words.js';
import type { Contradiction, Diagnosis, GoalSpec, StepPlan, ToolSignature } from '../src/task-agent/schemas.js';
import type { TimeLeft } from '../src/workflow/goal-time.js';

/**
 * The task agent of seed 004 as a statechart: parse the goal, plan a step,
 * route the call (is it a tool, do its arguments fit), call it, evaluate,
 * and on failure diagnose, retry or escalate to the person; answer at the end.
 * The seed's nodes are the states; its three routing functions are the named
 * guards `routeAfterParseGoal`, `routeAfterEvaluate`, `routeAfterDiagnose`.
 * Pure: every model call, the registry and the graph are actors the host
 * provides (src/task-agent/actors.ts); the defaults here refuse.
 *
 * One session is one goal. The graph changes of a step are previews until the
 * step is saved: `call_tool` replays this step's earlier writes in a
 * transaction it rolls back, and the workflow (src/task-agent/workflow.ts)
 * applies them for good in the transaction that saves the snapshot.
 */

/** A tool call tried, and how it went: what `answer` recounts and the demo shows. */
export interface TaskStep {
  call: ToolSignature;
  rationale: string | null;
  outcome: { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };
  /** Whether it changed the graph (a write, replayed when the step is saved). */
  write: boolean;
}

/** Where a goal went wrong: parsing, planning, routing (the registry refused) or the call. */
export interface TaskFailure {
  stage: 'parse' | 'plan' | 'route' | 'call';
  code: string;
  message: string;
  call: ToolSignature | null;
}

/** Why the agent turns to the person, what it asks, and the choices it offers. */
export interface Escalation {
  reason: 'unclear' | 'contradiction' | 'unknown_tool' | 'out_of_scope' | 'needs_command' | 'failed' | 'budget';
  /** What the person is told (and, when `asks`, asked). */
  message: string;
  /** Whether it waits for an answer (an input gate); otherwise it answers at once. */
  asks: boolean;
  contradiction: Contradiction | null;
}

/** How the goal ended, for the answer. */
export type TaskEnding = 'completed' | 'stopped' | 'timed_out' | 'informed' | 'gave_up' | 'limit';

/**
 * What one goal may spend; reaching a limit ends the goal with an honest
 * answer (what was done, what was not), the work done kept.
 */
export interface GoalLimits {
  /** Calls planned and tried (those the registry refused included). */
  maxSteps: number;
  maxModelCalls: number;
  /** Calls that reached a tool. */
  maxToolCalls: number;
  /** Bytes of the prompts sent to the model (instructions and prompt, UTF-8). */
  maxPromptBytes: number;
  /** Wall time of one step of the goal (from the person's message to the answer or a question; their waiting is not counted). */
  maxStepMs: number;
  /** Wall time of the whole goal: its steps' times added up (the person's waiting between them is not counted). */
  maxGoalMs: number;
}

/**
 * The limits checked as the goal moves from one actor to the next; the limits
 * of time hold during a call too: each actor is given the time left
 * (`timeLeft`) and stops its model or tool call when it runs out.
 */
export const DEFAULT_GOAL_LIMITS: Readonly<GoalLimits> = { maxSteps: 100, maxModelCalls: 100, maxToolCalls: 100, maxPromptBytes: 2_000_000, maxStepMs: 60_000, maxGoalMs: 180_000 };

/** What a goal has spent, besides its steps and model calls. */
export interface GoalUsage {
  toolCalls: number;
  promptBytes: number;
  /** When the present step's first actor finished, and the last one (ms since the epoch, as the actors report it). */
  startedAt: number | null;
  lastAt: number | null;
  /** The time the goal's earlier steps took, added up (absent in snapshots saved before it was kept). */
  workedMs?: number;
  /** A limit of time an actor reached during its call (it stopped the call), in words. */
  timeUp?: string;
}

/** A goal's usage (zero for a snapshot saved before usage was kept). */
export const usageOf = (context: Partial<Pick<TaskAgentContext, 'usage'>>): GoalUsage => context.usage ?? { toolCalls: 0, promptBytes: 0, startedAt: null, lastAt: null };

/** The usage after an actor reported what it spent. */
function spend(context: Partial<Pick<TaskAgentContext, 'usage'>>, spent: Spent): GoalUsage {
  const u = usageOf(context);
  return {
    ...u,
    promptBytes: u.promptBytes + (spent.promptBytes ?? 0),
    // The step's clock starts when its first actor began (its own call counts), or failing that when it finished.
    startedAt: u.startedAt ?? spent.began ?? spent.at ?? null,
    lastAt: spent.at ?? u.lastAt,
    ...(spent.timeUp && { timeUp: spent.timeUp }),
  };
}

/** "50 s", "1.5 s", "300 ms": a limit of time as the answer says it. */
export const formatMs = (ms: number): string => (ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${Math.max(0, Math.round(ms))} ms`);

const stepLimitWords = (l: GoalLimits) => `the time limit of ${formatMs(l.maxStepMs)} for one step`;
const goalLimitWords = (l: GoalLimits) => `the time limit of ${formatMs(l.maxGoalMs)} per goal`;

/**
 * The time the next actor has, and the limit that sets it: the step's and the
 * goal's, whichever runs out first. An actor stops its model or tool call when
 * it runs out and reports it (`Spent.timeUp`), so a limit of time holds during
 * a call, not only between calls.
 */
export function timeLeft(context: Partial<Pick<TaskAgentContext, 'limits' | 'usage'>>): TimeLeft {
  const l = { ...DEFAULT_GOAL_LIMITS, ...context.limits };
  const u = usageOf(context);
  const stepMs = u.startedAt != null && u.lastAt != null ? u.lastAt - u.startedAt : 0;
  const stepLeft = l.maxStepMs - stepMs;
  const goalLeft = l.maxGoalMs - (u.workedMs ?? 0) - stepMs;
  return goalLeft <= stepLeft ? { ms: Math.max(0, goalLeft), limit: goalLimitWords(l) } : { ms: Math.max(0, stepLeft), limit: stepLimitWords(l) };
}

/** What an actor is told of the goal's time: how much is left (ms from when it starts) and the limit's words. */
export type { TimeLeft };

/** The limit the goal has reached, in words, or null. Tolerates snapshots saved before limits were kept. */
export function limitReached(context: Pick<TaskAgentContext, 'steps' | 'modelCalls'> & Partial<Pick<TaskAgentContext, 'limits' | 'usage'>>): string | null {
  const l = { ...DEFAULT_GOAL_LIMITS, ...context.limits };
  const u = context.usage;
  if (u?.timeUp) return u.timeUp;
  if (context.steps.length >= l.maxSteps) return `the limit of ${l.maxSteps} steps per goal`;
  if (context.modelCalls >= l.maxModelCalls) return `the limit of ${l.maxModelCalls} model calls per goal`;
  if (u && u.toolCalls >= l.maxToolCalls) return `the limit of ${l.maxToolCalls} tool calls per goal`;
  if (u && u.promptBytes >= l.maxPromptBytes) return `the limit of ${l.maxPromptBytes} bytes of prompts per goal`;
  const stepMs = u?.startedAt != null && u.lastAt != null ? u.lastAt - u.startedAt : 0;
  if (u?.startedAt != null && stepMs >= l.maxStepMs) return stepLimitWords(l);
  if (u && (u.workedMs ?? 0) + stepMs >= l.maxGoalMs) return goalLimitWords(l);
  return null;
}

export interface TaskAgentContext {
  /** Whose graph: the session's owner (null without auth). */
  owner: string | null;
  /** The goal as the person last put it, and what they said before a clarification. */
  goal: string | null;
  earlier: string[];
  spec: GoalSpec | null;
  /** Calls known ahead (the offline reader's, a simple goal's one call): taken in order, no model needed. */
  planned: ToolSignature[];
  current: StepPlan | null;
  steps: TaskStep[];
  /** The index in `steps` where the present step (one event from outside) began: its writes are not saved yet. */
  stepStart: number;
  failure: TaskFailure | null;
  diagnosis: Diagnosis | null;
  /** Failures retried so far, and how many the goal may have. */
  retries: number;
  retryBudget: number;
  escalation: Escalation | null;
  /** How long the person has to answer an escalation (ISO 8601 duration). */
  answerWithin: string;
  ending: TaskEnding | null;
  answer: string | null;
  /** Model calls made for this goal (the offline reader makes none). */
  modelCalls: number;
  limits: GoalLimits;
  usage: GoalUsage;
  /** The limit that ended the goal, in words. */
  limitHit: string | null;
}

export interface TaskAgentInput {
  owner?: string | null;
  limits?: Partial<GoalLimits>;
  retryBudget?: number;
  answerWithin?: string;
}

export type TaskAgentEvent = { type: 'user.text'; text: string } | { type: 'user.button'; value: string } | InputAnsweredEvent | InputTimedOutEvent;

/** parse_goal's outcome: a goal spec (and calls known ahead), or why it could not be read. */
/** What an actor spent, reported with its outcome: the prompt bytes it sent and when it finished. */
export interface Spent {
  promptBytes?: number;
  /** When the actor began and finished (ms since the epoch, by the actors' clock). */
  began?: number;
  at?: number;
  /** The limit of time it reached during its call, in words (see `timeLeft`). */
  timeUp?: string;
}
export type ParseOutcome = ({ ok: true; spec: GoalSpec; planned: ToolSignature[]; modelCalls: number } | { ok: false; failure: TaskFailure; modelCalls: number }) & Spent;
/** plan_step's outcome: the next call, or why none could be planned. */
export type PlanOutcome = ({ ok: true; plan: StepPlan; modelCalls: number } | { ok: false; failure: TaskFailure; modelCalls: number }) & Spent;
export type CallOutcome = { outcome: TaskStep['outcome']; write: boolean } & Spent;
export type DiagnoseOutcome = { diagnosis: Diagnosis; modelCalls: number } & Spent;
export type AnswerOutcome = { message: string; modelCalls: number } & Spent;

export interface ParseGoalInput {
  /** The goal's time left when the actor starts (absent: unbounded, as for actors a test provides). */
  timeLeft?: TimeLeft;
  goal: string;
  earlier: string[];
}
export interface PlanStepInput {
  /** The goal's time left when the actor starts (absent: unbounded, as for actors a test provides). */
  timeLeft?: TimeLeft;
  goal: string;
  spec: GoalSpec | null;
  planned: ToolSignature[];
  /** What was done so far, one line per call. */
  done: string[];
  /** Why the last attempt failed, when re-planning after a diagnosis. */
  avoid: string | null;
  /** The step that failed by a passing fault, to be tried again as it was planned (its `isFinalStep` too). */
  retry: StepPlan | null;
}
export interface RouteToolInput {
  plan: StepPlan | null;
  failure: TaskFailure | null;
}
export interface CallToolInput {
  /** The goal's time left when the actor starts (absent: unbounded, as for actors a test provides). */
  timeLeft?: TimeLeft;
  owner: string | null;
  call: ToolSignature;
  /** This step's earlier writes, replayed first (the graph as this step left it). */
  replay: ToolSignature[];
}
export interface DiagnoseInput {
  /** The goal's time left when the actor starts (absent: unbounded, as for actors a test provides). */
  timeLeft?: TimeLeft;
  failure: TaskFailure;
  /** The person's words (the goal and what they said before it): a tool they named is theirs to settle, one the model made up is not. */
  said: string;
  /** Calls that failed before in this goal. */
  failedBefore: ToolSignature[];
  retries: number;
  retryBudget: number;
}
export interface AnswerInput {
  /** The goal's time left when the actor starts (absent: unbounded, as for actors a test provides). */
  timeLeft?: TimeLeft;
  /** Model calls the goal needed so far: none means it was read offline, and the facts alone answer it. */
  modelCalls: number;
  goal: string | null;
  spec: GoalSpec | null;
  steps: TaskStep[];
  ending: TaskEnding;
  escalation: Escalation | null;
  /** The limit that ended the goal, in words (ending `limit`). */
  limit?: string | null;
}

/** The retry budget per goal unless the session's input says otherwise. */
export const DEFAULT_RETRY_BUDGET = 3;
/** How long an escalation waits for the person unless said. */
export const DEFAULT_ANSWER_WITHIN = 'PT1H';
/** The value of the escalation's choice that ends the run. */
export const STOP_VALUE = 'stop';
/** Its value when "stop" is itself one of the contradicting values (a cancel word too). */
export const DO_NOTHING_VALUE = 'do nothing';

/** The value of the "Do nothing" button beside the contradicting values (null: every cancel word is taken). */
function doNothingValue(values: readonly string[]): string | null {
  const taken = new Set(values.map((v) => v.toLowerCase()));
  return [STOP_VALUE, DO_NOTHING_VALUE].find((v) => !taken.has(v)) ?? null;
}

/** Below this, a parsed goal is too unsure to act on: the person is asked. */
export const MIN_CONFIDENCE = 0.5;

// ── The seed's three routing functions ────────────────────────────────────────

export type ParseRoute = 'simple' | 'complex' | 'error';
/** route_after_parse_goal: a goal read well and done in one call is simple; several calls, complex; anything unsure, an error. */
export function routeAfterParseGoal(outcome: ParseOutcome): ParseRoute {
  if (!outcome.ok) return 'error';
  const { spec, planned } = outcome;
  if (spec.contradictions.length > 0 || spec.confidence < MIN_CONFIDENCE || spec.intent === 'unclear') return 'error';
  const oneCall = spec.step !== null || planned.length === 1;
  if (spec.complexity === 'simple' && oneCall) return 'simple';
  if (spec.intent === 'unsupported' && !oneCall) return 'error';
  return 'complex';
}

export type EvaluateRoute = 'continue' | 'complete' | 'retry' | 'escalate';
/** route_after_evaluate: success goes on or finishes; an error goes to diagnose while retries are left, else to escalate. */
export function routeAfterEvaluate(context: Pick<TaskAgentContext, 'steps' | 'current' | 'planned' | 'retries' | 'retryBudget'>): EvaluateRoute {
  const last = context.steps.at(-1);
  if (last?.outcome.ok) return context.current?.isFinalStep && context.planned.length === 0 ? 'complete' : 'continue';
  return context.retries < context.retryBudget ? 'retry' : 'escalate';
}

export type DiagnoseRoute = 'retry' | 'escalate';
/** route_after_diagnose: a remedy the budget allows goes back to planning; anything else to the person. */
export function routeAfterDiagnose(diagnosis: Diagnosis, context: Pick<TaskAgentContext, 'retries' | 'retryBudget'>): DiagnoseRoute {
  return diagnosis.remedy !== 'escalate' && context.retries < context.retryBudget ? 'retry' : 'escalate';
}

// ── What the escalation says ─────────────────────────────────────────────────

/** The escalation a failure leads to: what the person is told, and whether they are asked. */
export function escalationFor(
  context: Pick<TaskAgentContext, 'failure' | 'spec' | 'diagnosis' | 'retries' | 'retryBudget'> & Partial<Pick<TaskAgentContext, 'goal' | 'earlier'>>,
): Escalation {
  const { failure, spec } = context;
  const contradiction = spec?.contradictions[0] ?? null;
  // A failure while acting speaks for itself; what the goal said matters only when it could not be acted on.
  const acting = failure !== null && failure.stage !== 'parse';
  if (contradiction && !acting) {
    const values = contradiction.values.map((v) => `'${v}'`);
    return {
      reason: 'contradiction',
      message: `I see a contradiction in your request: you asked for the ${contradiction.property} of ${contradiction.subject} to be both ${values.slice(0, -1).join(', ')} and ${values.at(-1)}. Which should it be?`,
      asks: true,
      contradiction,
    };
  }
  // Asked only when the person named the tool; a tool the model made up is its own mistake, not theirs to explain.
  if (failure?.code === 'tool_not_found' && failure.call && namedBy(personSaid(context), failure.call.tool))
    return { reason: 'unknown_tool', message: `${failure.message} What should I do instead? (Or answer "${STOP_VALUE}".)`, asks: true, contradiction: null };
  if (failure?.code === 'needs_explicit_command')
    return {
      reason: 'needs_command',
      message: `${failure.message} Please say it as an explicit command, for example: Create a Ticket node with key TICKET-1 and status open. (Or answer "${STOP_VALUE}".)`,
      asks: true,
      contradiction: null,
    };
  if (!acting && (spec?.intent === 'unsupported' || failure?.code === 'out_of_scope'))
    return {
      reason: 'out_of_scope',
      message: `I'm sorry, I am a graph agent: I create, change, delete and find nodes and edges, and ${spec?.unsupportedReason ?? failure?.message ?? 'this is not something my tools do'}.`,
      asks: false,
      contradiction: null,
    };
  if (!acting && failure?.stage === 'parse' && (failure.code === 'model_error' || failure.code === 'invalid_output'))
    return {
      reason: 'failed',
      message: `I could not read your request: ${failure.message.replace(/[.\s]*$/, '')}. Send it again, or put it as an explicit command such as: Create a Ticket node with key TICKET-1 and status open. (Or answer "${STOP_VALUE}".)`,
      asks: true,
      contradiction: null,
    };
  if (!acting && (failure?.stage === 'parse' || spec?.intent === 'unclear' || (spec && spec.confidence < MIN_CONFIDENCE)))
    return {
      reason: 'unclear',
      message: `I need more information to help${spec?.summary ? ` with "${spec.summary}"` : ''}: which nodes or edges should I create, change, delete or find, with which labels, keys and properties? (Or answer "${STOP_VALUE}".)`,
      asks: true,
      contradiction: null,
    };
  const why = context.diagnosis?.explanation ?? failure?.message ?? 'the step failed';
  const spent = context.retries >= context.retryBudget;
  return {
    reason: spent ? 'budget' : 'failed',
    // Attempts: the first, and each retry.
    message: `${spent ? `I tried ${context.retries + 1} time${context.retries === 0 ? '' : 's'} and could not finish: ` : 'I could not finish: '}${why.replace(/[.\s]*$/, '')}. How should I go on? (Or answer "${STOP_VALUE}".)`,
    asks: true,
    contradiction: null,
  };
}

/** The person's words in this goal: what they said before a clarification, and the goal. */
export const personSaid = (context: Partial<Pick<TaskAgentContext, 'goal' | 'earlier'>>): string => [...(context.earlier ?? []), context.goal ?? ''].join('\n');

/** Whether the person's words name the tool (as a word, in any case). */
export const namedBy = (said: string, tool: string): boolean => tool.length > 0 && said.toLowerCase().split(/[^a-z0-9_]+/).includes(tool.toLowerCase());

/** The gate an escalation opens: a choice between the contradicting values, or the person's words. */
export function escalationInputs(context: TaskAgentContext): InputSpec[] {
  const e = context.escalation;
  if (!e?.asks) return [];
  const description = e.message.slice(0, 500);
  if (e.contradiction) {
    const stop = doNothingValue(e.contradiction.values);
    return [
      {
        name: 'choice',
        type: 'enum',
        description,
        options: [...e.contradiction.values.map((v) => ({ label: v, value: v })), ...(stop ? [{ label: 'Do nothing', value: stop }] : [])],
        // Other words reach the machine: a cancel word ends the goal, anything else is read as the clarified goal.
        passOtherText: true,
        deadline: context.answerWithin,
      },
    ];
  }
  return [{ name: 'clarification', type: 'string', minLength: 1, maxLength: 2000, description, deadline: context.answerWithin }];
}

/** A contradiction settled: the chosen value replaces the others in every call planned. */
export function settleContradiction(context: TaskAgentContext, chosen: string): Pick<TaskAgentContext, 'spec' | 'planned'> {
  const c = context.escalation?.contradiction;
  const spec = context.spec;
  if (!c || !spec) return { spec, planned: context.planned };
  const replace = (call: ToolSignature): ToolSignature => {
    const args = { ...call.args };
    for (const field of ['properties', 'set'] as const) {
      const props = args[field];
      if (props && typeof props === 'object' && !Array.isArray(props) && c.property in props)
        args[field] = { ...(props as Record<string, unknown>), [c.property]: chosen };
    }
    return { tool: call.tool, args };
  };
  const planned = (spec.step ? [spec.step] : context.planned).map(replace);
  const constraints = spec.constraints.filter((k) => k.property !== c.property).concat({ subject: c.subject, property: c.property, value: chosen });
  return {
    spec: { ...spec, contradictions: spec.contradictions.slice(1), constraints, step: spec.step ? replace(spec.step) : null },
    planned,
  };
}

/** How a goal came out, from the facts (never from the model): see {@link goalOutcome}. */
export type GoalOutcome = 'completed' | 'partial' | 'failed';

/**
 * `completed` only when the goal ran to its end and every call planned
 * succeeded (a failed call counts as done when the same call succeeded later,
 * after a passing fault); otherwise `partial` when some call succeeded, and
 * `failed` when none did.
 */
export function goalOutcome(steps: readonly TaskStep[], ending: TaskEnding | null): GoalOutcome {
  const unrecovered = steps.filter((s, i) => !s.outcome.ok && !steps.slice(i + 1).some((later) => later.outcome.ok && sameCall(later.call, s.call)));
  if (ending === 'completed' && unrecovered.length === 0 && steps.some((s) => s.outcome.ok)) return 'completed';
  return steps.some((s) => s.outcome.ok) ? 'partial' : 'failed';
}

/** One line per call: what `plan_step` is told was done (no results: it needs only what happened). */
export const doneLines = (steps: readonly TaskStep[]): string[] =>
  steps.map((s, i) => `${i + 1}. ${s.call.tool} ${JSON.stringify(s.call.args)}: ${s.outcome.ok ? 'ok' : `failed (${s.outcome.error.code})`}`);

const sameCall = (a: ToolSignature, b: ToolSignature) => a.tool === b.tool && JSON.stringify(a.args) === JSON.stringify(b.args);
export const failedCalls = (steps: readonly TaskStep[]): ToolSignature[] => steps.filter((s) => !s.outcome.ok).map((s) => s.call);
export { sameCall };

const refuse = (what: string) =>
  fromPromise<never, unknown>(async () => {
    throw new Error(`task-agent: no ${what} was provided (the host provides the task agent's actors)`);
  });

export const taskAgentMachine = setup({
  types: {
    context: {} as TaskAgentContext,
    events: {} as TaskAgentEvent,
    input: {} as TaskAgentInput | undefined,
  },
  actors: {
    parseGoal: refuse('parseGoal') as unknown as ReturnType<typeof fromPromise<ParseOutcome, ParseGoalInput>>,
    planStep: refuse('planStep') as unknown as ReturnType<typeof fromPromise<PlanOutcome, PlanStepInput>>,
    routeTool: refuse('routeTool') as unknown as ReturnType<typeof fromPromise<ToolSignature, RouteToolInput>>,
    callTool: refuse('callTool') as unknown as ReturnType<typeof fromPromise<CallOutcome, CallToolInput>>,
    diagnose: refuse('diagnose') as unknown as ReturnType<typeof fromPromise<DiagnoseOutcome, DiagnoseInput>>,
    answer: refuse('answer') as unknown as ReturnType<typeof fromPromise<AnswerOutcome, AnswerInput>>,
  },
  guards: {
    routeAfterParseGoal: ({ event }, params: { route: ParseRoute }) => routeAfterParseGoal((event as unknown as { output: ParseOutcome }).output) === params.route,
    routeAfterEvaluate: ({ context }, params: { route: EvaluateRoute }) => routeAfterEvaluate(context) === params.route,
    routeAfterDiagnose: ({ context, event }, params: { route: DiagnoseRoute }) =>
      routeAfterDiagnose((event as unknown as { output: DiagnoseOutcome }).output.diagnosis, context) === params.route,
    /** The goal has spent one of its limits: it ends. */
    limitReached: ({ context }) => limitReached(context) !== null,
    /**
     * The goal's time ran out during this actor (it stopped its call, or finished past the limit):
     * the goal ends there, no further call begun.
     */
    timeRanOut: ({ context, event }) => {
      const output = (event as unknown as { output?: Spent }).output ?? {};
      return Boolean(output.timeUp) || timeLeft({ ...context, usage: spend(context, output) }).ms <= 0;
    },
    /** The escalation only informs: nothing to wait for. */
    nothingToAsk: ({ context }) => !context.escalation?.asks,
    /**
     * The person chose to end the run: a cancel word typed ("stop", "cancel", "never mind") always;
     * picked, unless it is one of the contradicting values the buttons offer.
     */
    stopAsked: ({ context, event }) => {
      if (event.type === 'user.text') return isCancelWord(event.text);
      if (event.type !== 'input.answered' || !isCancelWord(String(event.value))) return false;
      const value = String(event.value).toLowerCase();
      return event.typed === true || !(context.escalation?.contradiction?.values.some((v) => v.toLowerCase() === value) ?? false);
    },
    /** The person chose one of the contradicting values. */
    contradictionSettled: ({ context, event }) => event.type === 'input.answered' && context.escalation?.contradiction != null,
  },
  actions: {
    /** An event from outside begins a new step: the writes before it are saved. */
    beginStep: assign({
      stepStart: ({ context }) => context.steps.length,
      // The step that ended adds its time to the goal's; the person's waiting since is not counted.
      usage: ({ context }) => {
        const u = usageOf(context);
        const stepMs = u.startedAt != null && u.lastAt != null ? u.lastAt - u.startedAt : 0;
        return { ...u, workedMs: (u.workedMs ?? 0) + stepMs, startedAt: null, lastAt: null };
      },
    }),
    /** What an actor reported it spent: prompt bytes, and the time it finished (the step's clock). */
    countSpent: assign({ usage: ({ context, event }) => spend(context, (event as unknown as { output?: Spent }).output ?? {}) }),
    countToolCall: assign({ usage: ({ context }) => ({ ...usageOf(context), toolCalls: usageOf(context).toolCalls + 1 }) }),
    endByLimit: assign({ ending: 'limit' as const, limitHit: ({ context }) => limitReached(context) }),
    takeGoal: assign(({ event }) => (event.type === 'user.text' ? { goal: event.text.trim() } : {})),
    /** The person's words (typed, or a clarification's answer) are the clarified goal, read again from the start. */
    clarify: assign(({ context, event }) => ({
      earlier: context.goal ? [...context.earlier, context.goal] : context.earlier,
      goal: (event.type === 'user.text' ? event.text : event.type === 'input.answered' ? String(event.value) : '').trim(),
      spec: null,
      planned: [],
      current: null,
      escalation: null,
      failure: null,
      diagnosis: null,
    })),
    countModelCalls: assign(({ context, event }) => {
      const output = (event as unknown as { output?: { modelCalls?: number } & Spent }).output ?? {};
      return { modelCalls: context.modelCalls + (output.modelCalls ?? 0), usage: spend(context, output) };
    }),
  },
}).createMachine({
  id: 'task-agent',
  initial: 'idle',
  context: ({ input }) => ({
    owner: input?.owner ?? null,
    goal: null,
    earlier: [],
    spec: null,
    planned: [],
    current: null,
    steps: [],
    stepStart: 0,
    failure: null,
    diagnosis: null,
    retries: 0,
    retryBudget: input?.retryBudget ?? DEFAULT_RETRY_BUDGET,
    escalation: null,
    answerWithin: input?.answerWithin ?? DEFAULT_ANSWER_WITHIN,
    ending: null,
    answer: null,
    modelCalls: 0,
    limits: { ...DEFAULT_GOAL_LIMITS, ...input?.limits },
    usage: { toolCalls: 0, promptBytes: 0, startedAt: null, lastAt: null },
    limitHit: null,
  }),
  states: {
    /** START: waiting for the goal. */
    idle: {
      on: {
        'user.text': { target: 'parse_goal', actions: ['beginStep', 'takeGoal'] },
      },
    },
    parse_goal: {
      tags: [BUSY_TAG],
      invoke: {
        id: 'parseGoal',
        src: 'parseGoal',
        input: ({ context }) => ({ goal: context.goal ?? '', earlier: context.earlier, timeLeft: timeLeft(context) }),
        onDone: [
          { guard: 'timeRanOut', target: 'answer', actions: ['countModelCalls', 'endByLimit'] },
          {
            guard: { type: 'routeAfterParseGoal', params: { route: 'simple' } },
            target: 'route_tool',
            actions: [
              'countModelCalls',
              assign(({ event }) => {
                const o = event.output as Extract<ParseOutcome, { ok: true }>;
                const call = o.spec.step ?? o.planned[0]!;
                return { spec: o.spec, planned: [], failure: null, current: { rationale: o.spec.summary, call, isFinalStep: true } };
              }),
            ],
          },
          {
            guard: { type: 'routeAfterParseGoal', params: { route: 'complex' } },
            target: 'plan_step',
            actions: ['countModelCalls', assign(({ event }) => ({ spec: (event.output as Extract<ParseOutcome, { ok: true }>).spec, planned: (event.output as Extract<ParseOutcome, { ok: true }>).planned, failure: null }))],
          },
          {
            guard: { type: 'routeAfterParseGoal', params: { route: 'error' } },
            target: 'diagnose',
            actions: [
              'countModelCalls',
              assign(({ event }) =>
                event.output.ok
                  ? { spec: event.output.spec, planned: event.output.planned, failure: goalFailure(event.output.spec) }
                  : { spec: null, planned: [], failure: event.output.failure },
              ),
            ],
          },
        ],
        onError: { target: 'diagnose', actions: assign(({ event }) => ({ failure: thrown('parse', event.error, null) })) },
      },
    },
    plan_step: {
      tags: [BUSY_TAG],
      invoke: {
        id: 'planStep',
        src: 'planStep',
        input: ({ context }) => ({
          timeLeft: timeLeft(context),
          goal: context.goal ?? '',
          spec: context.spec,
          planned: context.planned,
          done: doneLines(context.steps),
          avoid: context.diagnosis && context.diagnosis.remedy === 'replan' ? context.diagnosis.explanation : null,
          retry: context.diagnosis?.remedy === 'retry' ? context.current : null,
        }),
        onDone: [
          { guard: 'timeRanOut', target: 'answer', actions: ['countModelCalls', 'endByLimit'] },
          {
            target: 'route_tool',
            actions: [
              'countModelCalls',
              assign(({ context, event }) =>
                event.output.ok
                  ? {
                      current: event.output.plan,
                      failure: null,
                      // A call taken from those planned ahead leaves the list (a retried step was taken from it before).
                      planned:
                        context.diagnosis?.remedy !== 'retry' && context.planned.length > 0 && sameCall(context.planned[0]!, event.output.plan.call)
                          ? context.planned.slice(1)
                          : context.planned,
                    }
                  : { current: null, failure: event.output.failure },
              ),
            ],
          },
        ],
        onError: { target: 'route_tool', actions: assign(({ event }) => ({ current: null, failure: thrown('plan', event.error, null) })) },
      },
    },
    route_tool: {
      tags: [BUSY_TAG],
      invoke: {
        id: 'routeTool',
        src: 'routeTool',
        input: ({ context }) => ({ plan: context.current, failure: context.failure }),
        onDone: {
          target: 'call_tool',
          // The arguments as the tool's schema parsed them (defaults filled in).
          actions: assign(({ context, event }) => ({ current: context.current && { ...context.current, call: event.output } })),
        },
        // The seed's text: "If validation fails, it routes to diagnose".
        onError: {
          target: 'diagnose',
          actions: assign(({ context, event }) => {
            const failure = context.failure ?? thrown('route', event.error, context.current?.call ?? null);
            // A call the registry refused is a step tried: the answer recounts it.
            const steps = context.current
              ? [...context.steps, { call: context.current.call, rationale: context.current.rationale, outcome: { ok: false as const, error: { code: failure.code, message: failure.message } }, write: false }]
              : context.steps;
            return { failure, steps };
          }),
        },
      },
    },
    call_tool: {
      tags: [BUSY_TAG],
      invoke: {
        id: 'callTool',
        src: 'callTool',
        input: ({ context }) => ({
          timeLeft: timeLeft(context),
          owner: context.owner,
          call: context.current!.call,
          replay: context.steps.slice(context.stepStart).filter((s) => s.write && s.outcome.ok).map((s) => s.call),
        }),
        onDone: {
          target: 'evaluate',
          actions: ['countToolCall', 'countSpent', assign(({ context, event }) => {
            const step: TaskStep = { call: context.current!.call, rationale: context.current!.rationale, outcome: event.output.outcome, write: event.output.write };
            return {
              steps: [...context.steps, step],
              failure: step.outcome.ok ? null : { stage: 'call' as const, code: step.outcome.error.code, message: step.outcome.error.message, call: step.call },
            };
          })],
        },
        onError: {
          target: 'evaluate',
          actions: ['countToolCall', assign(({ context, event }) => {
            const failure = thrown('call', event.error, context.current!.call);
            const step: TaskStep = { call: failure.call!, rationale: context.current!.rationale, outcome: { ok: false, error: { code: failure.code, message: failure.message } }, write: false };
            return { steps: [...context.steps, step], failure };
          })],
        },
      },
    },
    evaluate: {
      always: [
        { guard: { type: 'routeAfterEvaluate', params: { route: 'complete' } }, target: 'answer', actions: assign({ ending: 'completed' as const }) },
        // A goal that spent a limit ends here, with what it did (issue 27: a planner that never stops).
        { guard: 'limitReached', target: 'answer', actions: 'endByLimit' },
        { guard: { type: 'routeAfterEvaluate', params: { route: 'continue' } }, target: 'plan_step', actions: assign({ diagnosis: null }) },
        { guard: { type: 'routeAfterEvaluate', params: { route: 'retry' } }, target: 'diagnose' },
        { guard: { type: 'routeAfterEvaluate', params: { route: 'escalate' } }, target: 'escalate' },
      ],
    },
    diagnose: {
      tags: [BUSY_TAG],
      invoke: {
        id: 'diagnose',
        src: 'diagnose',
        input: ({ context }) => ({
          timeLeft: timeLeft(context),
          failure: context.failure ?? { stage: 'call', code: 'unknown', message: 'the step failed', call: null },
          said: personSaid(context),
          failedBefore: failedCalls(context.steps.slice(0, -1)),
          retries: context.retries,
          retryBudget: context.retryBudget,
        }),
        onDone: [
          { guard: 'timeRanOut', target: 'answer', actions: ['countModelCalls', 'endByLimit'] },
          { guard: 'limitReached', target: 'answer', actions: ['countModelCalls', 'endByLimit'] },
          {
            guard: { type: 'routeAfterDiagnose', params: { route: 'retry' } },
            target: 'plan_step',
            actions: [
              'countModelCalls',
              // retry: the failed step again as planned (a passing fault); replan: the planner is told what to avoid.
              assign(({ context, event }) => ({
                diagnosis: event.output.diagnosis,
                retries: context.retries + 1,
                current: event.output.diagnosis.remedy === 'retry' ? context.current : null,
              })),
            ],
          },
          {
            guard: { type: 'routeAfterDiagnose', params: { route: 'escalate' } },
            target: 'escalate',
            actions: ['countModelCalls', assign({ diagnosis: ({ event }) => event.output.diagnosis })],
          },
        ],
        onError: {
          target: 'escalate',
          actions: assign(({ event }) => ({ diagnosis: { kind: 'systematic' as const, remedy: 'escalate' as const, explanation: messageOf(event.error) } })),
        },
      },
    },
    escalate: {
      entry: assign(({ context }) => ({ escalation: escalationFor(context) })),
      meta: { inputs: (context: TaskAgentContext) => escalationInputs(context) },
      always: { guard: 'nothingToAsk', target: 'answer', actions: assign({ ending: 'informed' as const }) },
      on: {
        'input.answered': [
          { guard: 'stopAsked', target: 'answer', actions: ['beginStep', assign({ ending: 'stopped' as const })] },
          {
            // The issue's addition to the seed: a settled contradiction goes back into planning.
            guard: 'contradictionSettled',
            target: 'plan_step',
            actions: ['beginStep', assign(({ context, event }) => ({ ...settleContradiction(context, String(event.value)), escalation: null, failure: null, diagnosis: null }))],
          },
          // The person's words are the clarified goal, read again from the start.
          { target: 'parse_goal', actions: ['beginStep', 'clarify'] },
        ],
        // Words that are not one of the contradiction's buttons: a cancel word, or the clarified goal.
        'user.text': [
          { guard: 'stopAsked', target: 'answer', actions: ['beginStep', assign({ ending: 'stopped' as const })] },
          { target: 'parse_goal', actions: ['beginStep', 'clarify'] },
        ],
        'input.timedOut': { target: 'answer', actions: ['beginStep', assign({ ending: 'timed_out' as const })] },
      },
    },
    answer: {
      tags: [BUSY_TAG],
      invoke: {
        id: 'answer',
        src: 'answer',
        input: ({ context }) => ({
          timeLeft: timeLeft(context),
          modelCalls: context.modelCalls,
          goal: context.goal,
          spec: context.spec,
          steps: context.steps,
          ending: context.ending ?? 'gave_up',
          escalation: context.escalation,
          limit: context.limitHit,
        }),
        onDone: { target: 'done', actions: ['countModelCalls', assign({ answer: ({ event }) => event.output.message })] },
        onError: { target: 'done', actions: assign({ answer: ({ event }) => `I could not write the answer: ${messageOf(event.error)}` }) },
      },
    },
    /** END. */
    done: { type: 'final' },
  },
});

/** Why a goal that was read cannot be acted on as it stands. */
function goalFailure(spec: GoalSpec): TaskFailure {
  if (spec.contradictions.length > 0) return { stage: 'parse', code: 'contradiction', message: 'the goal asks for contradicting values', call: null };
  if (spec.intent === 'unsupported') return { stage: 'parse', code: 'out_of_scope', message: spec.unsupportedReason ?? 'no tool does this', call: null };
  return { stage: 'parse', code: 'unclear_goal', message: 'the goal is too unclear to act on', call: null };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A thrown error as a failure: its `code` when it has one (gateflow's errors do). */
function thrown(stage: TaskFailure['stage'], error: unknown, call: ToolSignature | null): TaskFailure {
  const e = error as { code?: unknown; failure?: TaskFailure };
  if (e && typeof e === 'object' && e.failure) return e.failure;
  return { stage, code: typeof e?.code === 'string' ? e.code : 'error', message: messageOf(error), call };
}
