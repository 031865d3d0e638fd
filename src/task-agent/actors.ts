import type { LanguageModel } from 'ai';
import { fromPromise } from 'xstate';
import { generateObjectSafely, type ModelSchema, type ObjectCallFailure } from '../extract/object-call.js';
import { GateflowError } from '../error/gateflow-error.js';
import type { CypherLimits } from '../graph/cypher-query.js';
import type { GraphLimits } from '../graph/age-graph.js';
import type { ToolRegistry } from '../graph/tools/registry.js';
import type { SqlDatabase } from '../store/types.js';
import type {
  AnswerInput,
  AnswerOutcome,
  CallOutcome,
  CallToolInput,
  DiagnoseInput,
  DiagnoseOutcome,
  ParseGoalInput,
  ParseOutcome,
  PlanOutcome,
  PlanStepInput,
  RouteToolInput,
  Spent,
  TaskFailure,
} from '../../machines/task-agent.js';
import { backoffMs, diagnoseByRule } from './diagnose.js';
import { previewCall } from './graph-steps.js';
import { goalTimer, pause, type GoalTimer } from '../workflow/goal-time.js';
import { readGoalOffline } from './offline-reader.js';
import { answerRequest, diagnoseRequest, parseGoalRequest, planStepRequest, type ModelRequest } from './prompts.js';
import { taskAgentModelSchemas } from './model-schemas.js';
import type { ToolSignature } from './schemas.js';
import { answerHead, summarizeSteps } from './summary.js';
import { goalOutcome } from '../../machines/task-agent.js';

export interface TaskAgentActorOptions {
  /** The database the graph lives in (the store's `sql`). */
  database: SqlDatabase;
  registry: ToolRegistry;
  /** Without one, the offline reader works alone and the agent asks for explicit commands. */
  model?: LanguageModel;
  /** Read explicit commands without a model first (default true); false sends every goal to the model. */
  offlineReader?: boolean;
  /** Per model call (default 20 s) and per tool call (default 10 s). */
  modelTimeoutMs?: number;
  toolTimeoutMs?: number;
  /** The first retry's pause, doubled each time up to `maxBackoffMs` (defaults 200 ms, 5 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
  cypherLimits?: Partial<CypherLimits>;
  /** How many nodes and edges one owner's graph may hold (DEFAULT_GRAPH_LIMITS unless said). */
  graphLimits?: Partial<GraphLimits>;
  /** The clock the goal's time limits read, in ms since the epoch (default Date.now). */
  now?: () => number;
  /**
   * Told of a tool's failure in its own words (a host service's error with its
   * URL, a driver's, a stack), which the person never sees: the server's log.
   */
  onError?: (error: unknown, tool: string) => void;
}

/** A failure carried by a rejection, as the machine reads it (`thrown` in machines/task-agent.ts). */
class StepFailure extends Error {
  constructor(readonly failure: TaskFailure) {
    super(failure.message);
  }
}

const modelFailure = (stage: TaskFailure['stage'], f: ObjectCallFailure): TaskFailure => ({
  stage,
  code: f.reason === 'invalid_output' ? 'invalid_output' : 'model_error',
  // The SDK's error class names (AI_RetryError: …) mean nothing to the person.
  message: `the model ${f.reason === 'invalid_output' ? 'answered outside the expected form' : 'call failed'}: ${f.message.replace(/\bAI_\w+Error:\s*/g, '')}`,
  call: null,
});

/**
 * The task agent's actors, by the names machines/task-agent.ts gives them:
 * the offline reader and the model for parse_goal, the planner, the
 * registry's check, the graph call (previewed, see graph-steps.ts), the
 * diagnosis and the answer. Every model call goes through the AI SDK with the
 * step's zod schema, and is counted.
 */
export function taskAgentActors(options: TaskAgentActorOptions) {
  const { registry, model } = options;
  const now = options.now ?? Date.now;
  /**
   * An outcome with when its actor began and finished (the clock the machine bounds a step and the goal by:
   * GoalLimits.maxStepMs, maxGoalMs), and the limit of time that stopped its call, if one did.
   */
  const stamp = <T extends object>(began: number, timer: GoalTimer, outcome: T): T & Spent => {
    const up = timer.timeUp();
    timer.clear();
    return { ...outcome, began, at: now(), ...(up && { timeUp: up }) };
  };
  /** The failure of a call the goal's time stopped. */
  const timeUpFailure = (stage: TaskFailure['stage'], limit: string, call: ToolSignature | null): TaskFailure => ({
    stage,
    code: 'goal_time_limit',
    message: `not finished: the goal reached ${limit}`,
    call,
  });
  // Built once per registry (and again only if tools are added to it).
  const schemas = () => taskAgentModelSchemas(registry);
  const ask = async <T>(request: ModelRequest, schema: ModelSchema<T>, name: string, signal: AbortSignal) => {
    const result = await generateObjectSafely(
      { ...request, schema, name },
      // A tool's arguments may hold free-form objects (properties), which OpenAI's strict structured outputs refuse.
      // The call's own timeout, and the goal's time left (the signal): whichever comes first stops it.
      { model: model!, timeoutMs: options.modelTimeoutMs ?? 20_000, abortSignal: signal, providerOptions: { openai: { strictJsonSchema: false } } },
    );
    return Object.assign(result, { promptBytes: utf8Bytes(request.instructions) + utf8Bytes(request.prompt) });
  };

  return {
    parseGoal: fromPromise<ParseOutcome, ParseGoalInput>(async ({ input, signal }) => {
      const began = now();
      const timer = goalTimer(input.timeLeft, signal);
      return stamp(began, timer, await (async (): Promise<ParseOutcome> => {
      const offline = options.offlineReader === false ? { kind: 'abstain' as const, reason: 'the offline reader is off' } : readGoalOffline(input.goal);
      if (offline.kind === 'sure') return { ok: true, spec: offline.spec, planned: offline.calls, modelCalls: 0 };
      if (!model)
        return {
          ok: false,
          failure: { stage: 'parse', code: 'needs_explicit_command', message: `I could not read that as a command (${offline.reason}), and no model is configured to read it.`, call: null },
          modelCalls: 0,
        };
      const result = await ask(parseGoalRequest(input, registry), schemas().goalSpec, 'GoalSpec', timer.signal);
      const up = timer.timeUp();
      if (up) return { ok: false, failure: timeUpFailure('parse', up, null), modelCalls: 1, promptBytes: result.promptBytes };
      if (!result.ok) return { ok: false, failure: modelFailure('parse', result.failure), modelCalls: 1, promptBytes: result.promptBytes };
      const oversized = result.output.step && oversizedCall(result.output.step);
      if (oversized) return { ok: false, failure: { stage: 'parse', code: 'invalid_output', message: oversized, call: null }, modelCalls: 1, promptBytes: result.promptBytes };
      return { ok: true, spec: result.output, planned: [], modelCalls: 1, promptBytes: result.promptBytes };
    })());
    }),

    planStep: fromPromise<PlanOutcome, PlanStepInput>(async ({ input, signal }) => {
      const began = now();
      const timer = goalTimer(input.timeLeft, signal);
      return stamp(began, timer, await (async (): Promise<PlanOutcome> => {
      // A passing fault: the same step again, as it was planned.
      if (input.retry) return { ok: true, plan: input.retry, modelCalls: 0 };
      const next = input.planned[0];
      // Calls known ahead need no model: the last of them finishes the goal.
      if (next && !input.avoid) return { ok: true, plan: { rationale: `step ${input.done.length + 1} of the request`, call: next, isFinalStep: input.planned.length === 1 }, modelCalls: 0 };
      if (!model)
        return {
          ok: false,
          failure: { stage: 'plan', code: 'needs_explicit_command', message: 'I cannot plan another step without a model.', call: null },
          modelCalls: 0,
        };
      const result = await ask(planStepRequest(input, schemas().toolLines), schemas().stepPlan, 'StepPlan', timer.signal);
      const up = timer.timeUp();
      if (up) return { ok: false, failure: timeUpFailure('plan', up, null), modelCalls: 1, promptBytes: result.promptBytes };
      if (!result.ok) return { ok: false, failure: modelFailure('plan', result.failure), modelCalls: 1, promptBytes: result.promptBytes };
      // Refused before it enters the session: a megabyte label is never echoed into the reply or the journal.
      const oversized = oversizedCall(result.output.call);
      if (oversized) return { ok: false, failure: { stage: 'plan', code: 'invalid_output', message: oversized, call: null }, modelCalls: 1, promptBytes: result.promptBytes };
      return { ok: true, plan: result.output, modelCalls: 1, promptBytes: result.promptBytes };
    })());
    }),

    routeTool: fromPromise<ToolSignature, RouteToolInput>(async ({ input }) => {
      if (input.failure) throw new StepFailure(input.failure);
      if (!input.plan) throw new StepFailure({ stage: 'plan', code: 'no_plan', message: 'no step was planned', call: null });
      const { call } = input.plan;
      if (!registry.get(call.tool))
        throw new StepFailure({
          stage: 'route',
          code: 'tool_not_found',
          message: `I'm sorry, I don't have a \`${call.tool.slice(0, 64)}\` tool. What I can do: ${registry
            .list()
            .map((t) => t.name)
            .join(', ')}.`,
          call,
        });
      try {
        return { tool: call.tool, args: registry.resolve(call.tool, call.args).args as Record<string, unknown> };
      } catch (error) {
        if (error instanceof GateflowError) throw new StepFailure({ stage: 'route', code: error.code, message: error.message, call });
        throw error;
      }
    }),

    callTool: fromPromise<CallOutcome, CallToolInput>(async ({ input, signal }) => {
      const began = now();
      const timer = goalTimer(input.timeLeft, signal);
      try {
        return stamp(began, timer, await previewCall(
          { database: options.database, registry, ...(options.cypherLimits && { cypherLimits: options.cypherLimits }), ...(options.graphLimits && { graphLimits: options.graphLimits }) },
          { owner: input.owner, call: input.call, replay: input.replay, timeoutMs: options.toolTimeoutMs ?? 10_000, signal: timer.signal },
        ));
      } catch (error) {
        // The goal's time ran out during the call: an outcome, not a fault of the tool (nothing of it is kept: the preview rolls back).
        const up = timer.timeUp();
        if (up) return stamp(began, timer, { outcome: { ok: false, error: { code: 'goal_time_limit', message: timeUpFailure('call', up, input.call).message } }, write: false });
        timer.clear();
        // Outages and timeouts keep their code (diagnose reads it); anything else a tool threw is the tool's error.
        const code = error instanceof GateflowError ? error.code : 'tool_error';
        // What the tool said in its own words (hosts, URLs, stacks) goes to the log; the person, the journal and the diagnosis get plain words.
        const message = error instanceof GateflowError ? error.publicMessage : `the ${input.call.tool.slice(0, 64)} tool failed`;
        if (!(error instanceof GateflowError) || message !== error.message) options.onError?.(error, input.call.tool);
        throw new StepFailure({ stage: 'call', code, message, call: input.call });
      }
    }),

    diagnose: fromPromise<DiagnoseOutcome, DiagnoseInput>(async ({ input, signal }) => {
      const began = now();
      const timer = goalTimer(input.timeLeft, signal);
      const ruled = diagnoseByRule(input, { canReplan: Boolean(model) });
      let diagnosis = ruled;
      let modelCalls = 0;
      let promptBytes = 0;
      if (!diagnosis && model) {
        const result = await ask(diagnoseRequest(input), schemas().diagnosis, 'Diagnosis', timer.signal);
        modelCalls = 1;
        promptBytes = result.promptBytes;
        if (result.ok) diagnosis = result.output;
      }
      diagnosis ??= { kind: 'systematic', remedy: 'escalate', explanation: input.failure.message };
      // A failed call never goes again unchanged unless the fault was passing.
      if (diagnosis.remedy === 'retry' && diagnosis.kind !== 'random') diagnosis = { ...diagnosis, remedy: model ? 'replan' : 'escalate' };
      // A passing fault is given time to pass, whether the same call follows or another plan.
      if (diagnosis.kind === 'random' && diagnosis.remedy !== 'escalate') await pause(backoffMs(input.retries, options.backoffMs ?? 200, options.maxBackoffMs ?? 5000), timer.signal);
      return stamp(began, timer, { diagnosis, modelCalls, promptBytes });
    }),

    answer: fromPromise<AnswerOutcome, AnswerInput>(async ({ input, signal }) => {
      const facts = summarizeSteps(input);
      // A goal read without the model is answered without it too: the facts say all there is.
      // A goal that reached a limit is answered from the facts: no further model call.
      if (!model || input.steps.length === 0 || input.modelCalls === 0 || input.ending === 'limit') return { message: facts, modelCalls: 0 };
      // Past the goal's time the facts answer alone.
      const timer = goalTimer(input.timeLeft, signal);
      const result = await ask(answerRequest(input, facts), schemas().answer, 'Answer', timer.signal).finally(() => timer.clear());
      if (!result.ok) return { message: facts, modelCalls: 1 };
      const lead = result.output.message.trim();
      // The model's sentences lead, the facts follow, so nothing claimed goes unlisted; but over a step
      // that failed, the facts' first line leads when the goal ran to its end or the model claims it is done.
      const overFailure = goalOutcome(input.steps, input.ending) !== 'completed' && (input.ending === 'completed' || CLAIMS_DONE.test(lead));
      if (!overFailure) return { message: `${lead}\n\n${facts}`, modelCalls: 1 };
      const head = answerHead(input);
      return { message: `${head}\n\n${lead}\n\n${facts.slice(head.length).trim()}`.trim(), modelCalls: 1 };
    }),
  };
}

/** The most bytes of one call's arguments a model may send (labels, keys, property values: their schemas bound each one further). */
export const MAX_CALL_ARGS_BYTES = 64 * 1024;

/** Why a call the model planned is too large, without repeating it; null when it fits. */
function oversizedCall(call: ToolSignature): string | null {
  const bytes = utf8Bytes(JSON.stringify(call.args));
  if (bytes <= MAX_CALL_ARGS_BYTES) return null;
  const size = bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
  return `the model planned ${call.tool.slice(0, 64)} with arguments of ${size}; at most ${MAX_CALL_ARGS_BYTES / 1024} KB (labels at most 63 characters, keys 200, values 10,000)`;
}

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/** A lead sentence that claims the goal is done. */
const CLAIMS_DONE = /^\W*(done|completed?|finished|fixed|success)/i;
