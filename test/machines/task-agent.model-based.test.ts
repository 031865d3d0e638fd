/**
 * Model-based tests of the task agent (seed 004, machines/task-agent.ts):
 * paths generated with `xstate/graph` from the machine, with events derived
 * from each invoked actor's possible outcomes (real values of the step
 * schemas) and the person's answers to the escalation's dynamic inputs, each
 * replayed on a live actor whose actors the path settles, to 100% of the
 * state nodes and transitions the live actor really took. Facts of the seed
 * are then checked along every path that reaches them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import {
  MIN_CONFIDENCE,
  STOP_VALUE,
  sameCall,
  taskAgentMachine,
  type AnswerInput,
  type CallOutcome,
  type DiagnoseInput,
  type DiagnoseOutcome,
  type ParseOutcome,
  type PlanOutcome,
  type PlanStepInput,
  type TaskAgentContext,
  type TaskFailure,
} from '../../machines/task-agent.js';
import type { InputAnsweredEvent } from '../../src/inputs/events.js';
import { AnswerSchema, ContradictionSchema, DiagnosisSchema, GoalSpecSchema, StepPlanSchema, ToolSignatureSchema, type GoalSpec, type ToolSignature } from '../../src/task-agent/schemas.js';
import {
  defaultAnswers,
  describeEvent,
  doneEvent,
  errorEvent,
  generateMachinePaths,
  inputTestEvents,
  replayMachinePaths,
  type MachineCoverage,
  type MachinePath,
  type ReplayedStep,
} from '../../src/testing/index.js';

/** A small budget: one retry, so both sides of every budget guard are reached in few steps. */
const BUDGET = 1;
/** Three steps per goal at most: the limit's two transitions are reached too. */
const INPUT = { owner: 'alice', retryBudget: BUDGET, limits: { maxSteps: 3 } };

// ---------------------------------------------------------------- outcomes, as the schemas allow them

const call = (tool: string, args: Record<string, unknown>): ToolSignature => ToolSignatureSchema.parse({ tool, args });
const TICKET = call('add_node', { label: 'Ticket', key: 'TICKET-123', properties: { summary: 'Fix login button', status: 'open' } });
const USER = call('add_node', { label: 'User', key: 'john.doe', properties: { name: 'John Doe' } });
const EDGE = call('add_edge', { type: 'REPORTS', from: { label: 'User', key: 'john.doe' }, to: { label: 'Ticket', key: 'TICKET-123' } });
const QUERY = call('query_graph', { label: 'Ticket', where: { status: 'open' } });
const CONTRADICTING = call('add_node', { label: 'Ticket', key: 'TICKET-456', properties: { status: 'open' } });
const CONTRADICTION = ContradictionSchema.parse({ subject: 'Ticket TICKET-456', property: 'status', values: ['open', 'closed'] });

const spec = (fields: Partial<GoalSpec>): GoalSpec =>
  GoalSpecSchema.parse({ intent: 'create', summary: 'a goal', entities: [], constraints: [], complexity: 'simple', confidence: 0.9, contradictions: [], unsupportedReason: null, step: null, ...fields });

/** parse_goal: every route of route_after_parse_goal, and each way of failing. */
const PARSE_OUTCOMES: Record<string, ParseOutcome> = {
  simple: { ok: true, spec: spec({ intent: 'query', summary: 'Find all open tickets', step: QUERY }), planned: [], modelCalls: 1 },
  complex: { ok: true, spec: spec({ summary: 'Create a ticket and its reporter', complexity: 'complex' }), planned: [TICKET, USER], modelCalls: 0 },
  unclear: { ok: true, spec: spec({ intent: 'unclear', summary: 'Fix my dashboard', confidence: 0.2 }), planned: [], modelCalls: 1 },
  contradiction: {
    ok: true,
    spec: spec({
      summary: 'Create ticket TICKET-456, open and closed',
      constraints: [
        { subject: 'Ticket TICKET-456', property: 'status', value: 'open' },
        { subject: 'Ticket TICKET-456', property: 'status', value: 'closed' },
      ],
      contradictions: [CONTRADICTION],
      step: CONTRADICTING,
    }),
    planned: [],
    modelCalls: 1,
  },
  unsupported: {
    ok: true,
    spec: spec({ intent: 'unsupported', summary: "What's the weather like in London?", complexity: 'complex', unsupportedReason: 'there is no weather tool' }),
    planned: [],
    modelCalls: 1,
  },
  'not read': {
    ok: false,
    failure: { stage: 'parse', code: 'needs_explicit_command', message: 'I could not read that as a command.', call: null },
    modelCalls: 0,
  },
};

/** An actor's rejection as the task agent's actors throw it: an Error carrying the failure. */
const failing = (failure: TaskFailure) => Object.assign(new Error(failure.message), { failure });

const plan = (next: ToolSignature, isFinalStep: boolean): PlanOutcome => ({
  ok: true,
  plan: StepPlanSchema.parse({ rationale: `do ${next.tool}`, call: next, isFinalStep }),
  modelCalls: next === EDGE ? 1 : 0,
});

/** An actor stopped its model call: the goal's time ran out (issue 27 §3). */
const TIME_UP = 'the time limit of 180 s per goal';
const timeUpFailure = (stage: 'parse' | 'plan') => ({ stage, code: 'goal_time_limit', message: `not finished: the goal reached ${TIME_UP}`, call: null });

const DIAGNOSES: Record<string, DiagnoseOutcome> = {
  retry: { diagnosis: DiagnosisSchema.parse({ kind: 'random', remedy: 'retry', explanation: 'a passing fault' }), modelCalls: 0 },
  replan: { diagnosis: DiagnosisSchema.parse({ kind: 'systematic', remedy: 'replan', explanation: 'that node exists already' }), modelCalls: 1 },
  escalate: { diagnosis: DiagnosisSchema.parse({ kind: 'systematic', remedy: 'escalate', explanation: 'only the person can settle this' }), modelCalls: 0 },
};

const FREE_TEXT = 'Create a Ticket node with key TICKET-9 and status open';

/** Each event's description in the paths. */
const labels = new WeakMap<object, string>();
const labelled = <E extends AnyEventObject>(label: string, event: E): E => (labels.set(event, label), event);
const describe_ = (event: AnyEventObject) => labels.get(event) ?? describeEvent(event);

/**
 * The events worth trying in a snapshot: the goal in `idle`; in a state that
 * invokes an actor, each outcome that actor can have given its input (the
 * registry refuses a plan that failed, or no plan, as actors.ts does); in
 * `escalate`, each answer its dynamic inputs take, and their deadline.
 */
function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  if (snapshot.status !== 'active') return [];
  const c = snapshot.context as TaskAgentContext;
  switch (snapshot.value) {
    case 'idle':
      return [labelled('goal', { type: 'user.text', text: 'Create a ticket for the login button' })];
    case 'parse_goal':
      return [
        ...Object.entries(PARSE_OUTCOMES).map(([name, output]) => labelled(`parsed ${name}`, doneEvent('parseGoal', output))),
        labelled('parse threw', errorEvent('parseGoal', new Error('the model call failed'))),
        labelled('parse: time ran out', doneEvent('parseGoal', { ok: false, failure: timeUpFailure('parse'), modelCalls: 1, timeUp: TIME_UP } satisfies ParseOutcome)),
      ];
    case 'plan_step': {
      const next = c.planned[0] ?? EDGE;
      return [
        labelled('planned final', doneEvent('planStep', plan(next, true))),
        labelled('planned not final', doneEvent('planStep', plan(next, false))),
        labelled('plan failed', doneEvent('planStep', { ok: false, failure: { stage: 'plan', code: 'invalid_output', message: 'the model answered outside the form', call: null }, modelCalls: 1 } satisfies PlanOutcome)),
        labelled('plan threw', errorEvent('planStep', new Error('the planner timed out'))),
        labelled('plan: time ran out', doneEvent('planStep', { ok: false, failure: timeUpFailure('plan'), modelCalls: 1, timeUp: TIME_UP } satisfies PlanOutcome)),
      ];
    }
    case 'route_tool': {
      if (c.failure) return [labelled('route refused the failure', errorEvent('routeTool', failing(c.failure)))];
      if (!c.current) return [labelled('route refused: no plan', errorEvent('routeTool', failing({ stage: 'plan', code: 'no_plan', message: 'no step was planned', call: null })))];
      const { call: planned } = c.current;
      return [
        labelled('routed', doneEvent('routeTool', ToolSignatureSchema.parse(planned))),
        labelled('route: tool_not_found', errorEvent('routeTool', failing({ stage: 'route', code: 'tool_not_found', message: `I don't have a \`${planned.tool}\` tool.`, call: planned }))),
        labelled('route: tool_invalid_input', errorEvent('routeTool', failing({ stage: 'route', code: 'tool_invalid_input', message: 'key: required', call: planned }))),
      ];
    }
    case 'call_tool': {
      const calling = c.current!.call;
      return [
        labelled('called: ok write', doneEvent('callTool', { outcome: { ok: true, result: { id: 'n1', created: true } }, write: true } satisfies CallOutcome)),
        labelled('called: ok read', doneEvent('callTool', { outcome: { ok: true, result: { rows: [] } }, write: false } satisfies CallOutcome)),
        labelled(
          'called: graph_duplicate_node',
          doneEvent('callTool', { outcome: { ok: false, error: { code: 'graph_duplicate_node', message: 'Ticket TICKET-123 exists' } }, write: false } satisfies CallOutcome),
        ),
        labelled('call threw tool_timeout', errorEvent('callTool', failing({ stage: 'call', code: 'tool_timeout', message: 'the tool took too long', call: calling }))),
      ];
    }
    case 'diagnose':
      return [
        ...Object.entries(DIAGNOSES).map(([remedy, output]) => labelled(`diagnosed ${remedy}`, doneEvent('diagnose', output))),
        labelled('diagnose threw', errorEvent('diagnose', new Error('the diagnosis failed'))),
        labelled('diagnose: time ran out', doneEvent('diagnose', { ...DIAGNOSES.escalate!, modelCalls: 1, timeUp: TIME_UP })),
      ];
    case 'escalate':
      return [
        ...inputTestEvents(snapshot, (input) => (input.type === 'string' ? [STOP_VALUE, FREE_TEXT] : defaultAnswers(input))).map((e) =>
          labelled(e.type === 'input.answered' ? `answered ${JSON.stringify(e.value)}` : 'timed out', e),
        ),
        // The contradiction's choice passes other words on: a cancel word ends the goal, anything else is the clarified goal.
        ...(c.escalation?.contradiction
          ? [labelled('typed "cancel"', { type: 'user.text', text: 'cancel' }), labelled('typed other words', { type: 'user.text', text: FREE_TEXT })]
          : []),
      ];
    case 'answer':
      return [
        labelled('answered', doneEvent('answer', { message: AnswerSchema.parse({ message: 'Done.' }).message, modelCalls: 0 })),
        labelled('answer threw', errorEvent('answer', new Error('the model call failed'))),
      ];
    default:
      return [];
  }
}

/**
 * What the search tells apart: the state, and the facts the guards read
 * (retries against the budget, the last step's outcome, whether the current
 * plan is final, calls planned ahead, the escalation's asking and
 * contradiction) or that decide them later and the actors' outcomes
 * (the failure, which the registry refuses and the escalation is built from;
 * what the spec says about contradictions, intent and confidence).
 */
/** What the escalation reads of the spec: a contradiction, out of scope, too unclear, or none of these. */
const specKind = (spec: GoalSpec | null) =>
  !spec
    ? null
    : spec.contradictions.length > 0
      ? 'contradiction'
      : spec.intent === 'unsupported'
        ? 'unsupported'
        : spec.intent === 'unclear' || spec.confidence < MIN_CONFIDENCE
          ? 'unclear'
          : 'clear';

function key(snapshot: AnyMachineSnapshot): string {
  const c = snapshot.context as TaskAgentContext;
  return JSON.stringify([
    snapshot.value,
    c.retries,
    c.steps.at(-1)?.outcome.ok ?? null,
    c.current ? c.current.isFinalStep : null,
    c.planned.length > 0,
    c.failure !== null,
    specKind(c.spec),
    c.escalation && [c.escalation.asks, c.escalation.contradiction !== null],
    // Escalated and clarified once already: a second escalation is a path of its own (it once opened no gate).
    c.earlier.length > 0,
    // The steps against the limit (INPUT's maxSteps).
    Math.min(c.steps.length, 3),
    // The goal's time ran out during a call.
    c.usage.timeUp !== undefined,
  ]);
}

// ---------------------------------------------------------------- the run

type Trace = { path: MachinePath; steps: ReplayedStep[] };
const ctx = (s: AnyMachineSnapshot) => s.context as TaskAgentContext;
const startedInput = <T>(step: ReplayedStep, id: string) => step.started.find((a) => a.id === id)?.input as T | undefined;
const isDone = (step: ReplayedStep, id: string) => step.event.type === `xstate.done.actor.${id}`;
const isError = (step: ReplayedStep, id: string) => step.event.type === `xstate.error.actor.${id}`;
/** A step where the goal reached a limit and ended: the routes below are about the others. */
const limited = (step: ReplayedStep) => ctx(step.snapshot).ending === 'limit';
const answered = (step: ReplayedStep) => (step.event.type === 'input.answered' ? (step.event as unknown as InputAnsweredEvent) : null);

describe('task agent: model-based paths', () => {
  let paths: MachinePath[];
  let coverage: MachineCoverage;
  const traces: Trace[] = [];
  const allSteps = () => traces.flatMap((t) => t.steps);

  beforeAll(async () => {
    paths = generateMachinePaths(taskAgentMachine, { events, key, input: INPUT, describe: describe_ });
    coverage = await replayMachinePaths(taskAgentMachine, paths, {
      key,
      input: INPUT,
      onPath: (path, steps) => traces.push({ path, steps }),
      // Never stuck, answers only to open gates, and "stop" wherever it waits for the person ends the goal.
      invariants: { stop: { text: STOP_VALUE, ends: (s) => s.status === 'done' || s.value === 'answer' } },
    });
    const pct = (f: MachineCoverage['states']) => `${f.covered}/${f.total} (${f.percent}%)`;
    console.log(`task-agent: ${coverage.paths} paths, ${coverage.steps} steps, states ${pct(coverage.states)}, transitions ${pct(coverage.transitions)}`);
  });

  it('replays every generated path and covers 100% of the states and transitions', () => {
    expect(traces).toHaveLength(paths.length);
    expect(coverage.states.missing).toEqual([]);
    expect(coverage.transitions.missing).toEqual([]);
    expect(coverage.states.percent).toBe(100);
    expect(coverage.transitions.percent).toBe(100);
    // Every state of the seed (and START/END) and the three routing guards' every route, counted on the machine itself.
    expect(coverage.states.total).toBe(11);
    // 27, the words typed at a contradiction (a cancel word, or the clarified goal), and the goal's time running out during parse, plan and diagnose
    expect(coverage.transitions.total).toBe(32);
  });

  it('takes every outcome of every actor and every answer somewhere', () => {
    const used = new Set(paths.flatMap((p) => p.events.map((e) => labels.get(e))));
    const expected = [
      'goal',
      ...Object.keys(PARSE_OUTCOMES).map((n) => `parsed ${n}`),
      'parse threw',
      'planned final',
      'planned not final',
      'plan failed',
      'plan threw',
      'routed',
      'route: tool_not_found',
      'route: tool_invalid_input',
      'route refused the failure',
      'called: ok write',
      'called: ok read',
      'called: graph_duplicate_node',
      'call threw tool_timeout',
      ...Object.keys(DIAGNOSES).map((r) => `diagnosed ${r}`),
      'diagnose threw',
      'parse: time ran out',
      'plan: time ran out',
      'diagnose: time ran out',
      'answered "stop"',
      'answered "open"',
      'answered "closed"',
      `answered ${JSON.stringify(FREE_TEXT)}`,
      'timed out',
      'answered',
      'answer threw',
    ];
    expect(expected.filter((l) => !used.has(l))).toEqual([]);
  });

  it('routes each parse outcome as route_after_parse_goal says', () => {
    const after: Record<string, Set<string>> = {};
    for (const step of allSteps())
      if (isDone(step, 'parseGoal')) {
        const name = labels.get(step.event)!;
        (after[name] ??= new Set()).add(String(step.snapshot.value));
      }
    expect(Object.fromEntries(Object.entries(after).map(([k, v]) => [k, [...v]]))).toEqual({
      'parsed simple': ['route_tool'],
      'parsed complex': ['plan_step'],
      'parsed unclear': ['diagnose'],
      'parsed contradiction': ['diagnose'],
      'parsed unsupported': ['diagnose'],
      'parsed not read': ['diagnose'],
      // Not a route of the seed's function: the goal's time ran out during the call, and the goal ends.
      'parse: time ran out': ['answer'],
    });
  });

  it('settles a contradiction: the chosen value goes back into planning, in the planned call', () => {
    const settled = allSteps().filter((s) => ctx(s.before).escalation?.contradiction && answered(s) && answered(s)!.value !== STOP_VALUE);
    expect(new Set(settled.map((s) => answered(s)!.value))).toEqual(new Set(CONTRADICTION.values));
    for (const step of settled) {
      const chosen = answered(step)!.value;
      expect(step.snapshot.value).toBe('plan_step');
      const input = startedInput<PlanStepInput>(step, 'planStep')!;
      expect(input.planned[0]!.args.properties).toMatchObject({ [CONTRADICTION.property]: chosen });
      expect(input.spec!.contradictions).toEqual([]);
      expect(input.spec!.constraints.filter((k) => k.property === CONTRADICTION.property)).toEqual([{ subject: CONTRADICTION.subject, property: CONTRADICTION.property, value: chosen }]);
      expect(ctx(step.snapshot).escalation).toBeNull();
    }
  });

  it('offers the contradicting values and "stop" as the escalation\'s choice, and free text otherwise', () => {
    const escalated = allSteps().filter((s) => s.snapshot.value === 'escalate');
    expect(escalated.some((s) => ctx(s.snapshot).escalation!.contradiction)).toBe(true);
    expect(escalated.some((s) => !ctx(s.snapshot).escalation!.contradiction)).toBe(true);
    for (const { snapshot } of escalated) {
      const offered = inputTestEvents(snapshot, (i) => (i.type === 'string' ? ['text'] : defaultAnswers(i)))
        .filter((e) => e.type === 'input.answered')
        .map((e) => (e as InputAnsweredEvent).value);
      expect(offered).toEqual(ctx(snapshot).escalation!.contradiction ? [...CONTRADICTION.values, STOP_VALUE] : ['text']);
    }
  });

  it('ends with "stopped" when the person answers stop, from any escalation', () => {
    const stops = allSteps().filter((s) => answered(s)?.value === STOP_VALUE);
    expect(stops.some((s) => ctx(s.before).escalation!.contradiction)).toBe(true);
    expect(stops.some((s) => !ctx(s.before).escalation!.contradiction)).toBe(true);
    for (const step of stops) {
      expect(step.snapshot.value).toBe('answer');
      expect(ctx(step.snapshot).ending).toBe('stopped');
      expect(startedInput<AnswerInput>(step, 'answer')!.ending).toBe('stopped');
    }
  });

  it('ends with "timed_out" when the escalation\'s deadline passes', () => {
    const timeouts = allSteps().filter((s) => s.event.type === 'input.timedOut');
    expect(timeouts.length).toBeGreaterThan(0);
    for (const step of timeouts) {
      expect(step.snapshot.value).toBe('answer');
      expect(ctx(step.snapshot).ending).toBe('timed_out');
      expect(startedInput<AnswerInput>(step, 'answer')!.ending).toBe('timed_out');
    }
  });

  it('reads free text at an escalation as the clarified goal, from the start', () => {
    const clarified = allSteps().filter((s) => answered(s)?.value === FREE_TEXT);
    expect(clarified.length).toBeGreaterThan(0);
    for (const step of clarified) {
      expect(step.snapshot.value).toBe('parse_goal');
      const before = ctx(step.before);
      expect(startedInput(step, 'parseGoal')).toEqual({ goal: FREE_TEXT, earlier: [...before.earlier, before.goal], timeLeft: { ms: 60_000, limit: 'the time limit of 60 s for one step' } });
    }
  });

  it('retries the same failed call after a "retry" diagnosis, and re-plans around it after "replan"', () => {
    const diagnosed = allSteps().filter((s) => isDone(s, 'diagnose') && ctx(s.before).retries < BUDGET && !limited(s));
    const retried = diagnosed.filter((s) => (s.event as unknown as { output: DiagnoseOutcome }).output.diagnosis.remedy === 'retry' && ctx(s.before).failure?.call);
    const replanned = diagnosed.filter((s) => (s.event as unknown as { output: DiagnoseOutcome }).output.diagnosis.remedy === 'replan' && ctx(s.before).failure?.call);
    expect(retried.length).toBeGreaterThan(0);
    expect(replanned.length).toBeGreaterThan(0);
    for (const step of retried) {
      const input = startedInput<PlanStepInput>(step, 'planStep')!;
      expect(step.snapshot.value).toBe('plan_step');
      // The failed step itself, as planned (so a step that was not the last stays not the last).
      expect(input.retry).toEqual(ctx(step.before).current);
      expect(input.retry!.call).toEqual(ctx(step.before).failure!.call);
      expect(input.avoid).toBeNull();
    }
    for (const step of replanned) {
      const input = startedInput<PlanStepInput>(step, 'planStep')!;
      const failed = ctx(step.before).failure!.call!;
      expect(step.snapshot.value).toBe('plan_step');
      expect(input.avoid).toBe(DIAGNOSES.replan!.diagnosis.explanation);
      expect(input.retry).toBeNull();
      expect(input.planned.some((c) => sameCall(c, failed))).toBe(false);
    }
  });

  it('tells diagnose which calls failed before, so an identical failure is seen as one', () => {
    let identical = 0;
    for (const step of allSteps()) {
      const input = startedInput<DiagnoseInput>(step, 'diagnose');
      if (!input?.failure.call) continue;
      const earlier = ctx(step.snapshot).steps.slice(0, -1).filter((s) => !s.outcome.ok);
      const again = earlier.some((s) => sameCall(s.call, input.failure.call!));
      expect(input.failedBefore.some((c) => sameCall(c, input.failure.call!))).toBe(again);
      if (again) identical++;
    }
    expect(identical).toBeGreaterThan(0);
  });

  it('bounds retries by the budget: a failure once it is spent escalates instead of diagnosing', () => {
    for (const step of allSteps()) expect(ctx(step.snapshot).retries).toBeLessThanOrEqual(BUDGET);
    const failures = allSteps().filter(
      (s) => !limited(s) && (isError(s, 'callTool') || (isDone(s, 'callTool') && !(s.event as unknown as { output: CallOutcome }).output.outcome.ok)),
    );
    const left = failures.filter((s) => ctx(s.before).retries < BUDGET);
    const spent = failures.filter((s) => ctx(s.before).retries >= BUDGET);
    expect(left.length).toBeGreaterThan(0);
    expect(spent.length).toBeGreaterThan(0);
    for (const step of left) expect(step.snapshot.value).toBe('diagnose');
    for (const step of spent) {
      // The escalation: the person is asked, or (a goal read as out of scope) told and answered at once.
      expect(ctx(step.snapshot).escalation).not.toBeNull();
      expect(step.snapshot.value).toBe(ctx(step.snapshot).escalation!.asks ? 'escalate' : 'answer');
      // What the person is told: the spent budget, unless the goal itself needs them (unclear, contradicting, out of scope).
      if (specKind(ctx(step.snapshot).spec) === 'clear') expect(ctx(step.snapshot).escalation).toMatchObject({ reason: 'budget', asks: true });
      expect(step.started.map((a) => a.id)).not.toContain('diagnose');
    }
    // A diagnosis that would retry once the budget is spent goes to the person too.
    const late = allSteps().filter((s) => isDone(s, 'diagnose') && ctx(s.before).retries >= BUDGET && !limited(s));
    expect(late.length).toBeGreaterThan(0);
    for (const step of late) {
      expect(ctx(step.snapshot).retries).toBe(ctx(step.before).retries);
      expect(step.snapshot.value).toBe(ctx(step.snapshot).escalation!.asks ? 'escalate' : 'answer');
    }
  });

  it('answers at once, without asking, when the goal is out of scope', () => {
    const toPerson = (s: ReplayedStep) =>
      isError(s, 'diagnose') || (isDone(s, 'diagnose') && ((s.event as unknown as { output: DiagnoseOutcome }).output.diagnosis.remedy === 'escalate' || ctx(s.before).retries >= BUDGET));
    const informed = allSteps().filter((s) => toPerson(s) && !limited(s) && ctx(s.before).failure?.code === 'out_of_scope');
    expect(informed.length).toBeGreaterThan(0);
    for (const step of informed) {
      expect(step.snapshot.value).toBe('answer');
      expect(ctx(step.snapshot).ending).toBe('informed');
      expect(ctx(step.snapshot).escalation).toMatchObject({ reason: 'out_of_scope', asks: false });
    }
  });

  it('ends a goal that reached its limit of steps at once, with the answer, after a call or a diagnosis', () => {
    const ended = allSteps().filter((s) => limited(s) && ctx(s.before).ending !== 'limit' && !ctx(s.snapshot).usage.timeUp);
    expect(ended.some((s) => s.event.type === 'xstate.done.actor.callTool')).toBe(true);
    expect(ended.some((s) => isDone(s, 'diagnose'))).toBe(true);
    for (const step of ended) {
      expect(ctx(step.snapshot).steps.length).toBeGreaterThanOrEqual(3);
      expect(step.snapshot.value).toBe('answer');
      expect(startedInput<AnswerInput>(step, 'answer')!).toMatchObject({ ending: 'limit', limit: 'the limit of 3 steps per goal' });
    }
  });

  it('ends a goal whose time ran out during a call at once, with the answer naming the limit', () => {
    const ended = allSteps().filter((s) => ctx(s.snapshot).usage.timeUp && !ctx(s.before).usage.timeUp);
    expect(new Set(ended.map((s) => s.event.type))).toEqual(new Set(['xstate.done.actor.parseGoal', 'xstate.done.actor.planStep', 'xstate.done.actor.diagnose']));
    for (const step of ended) {
      expect(step.snapshot.value).toBe('answer');
      expect(startedInput<AnswerInput>(step, 'answer')!).toMatchObject({ ending: 'limit', limit: TIME_UP });
    }
  });
});
