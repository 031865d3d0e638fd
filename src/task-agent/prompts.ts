import type { ToolRegistry } from '../graph/tools/registry.js';
import type { AnswerInput, DiagnoseInput, ParseGoalInput, PlanStepInput } from '../../machines/task-agent.js';

/**
 * What each model step is told: progressive context disclosure (seed 004).
 * Each prompt holds only what its step needs: parse_goal the person's words
 * and the tool names; plan_step the goal spec, one line per call done and the
 * tools' argument schemas; diagnose the failure and the failing call; answer
 * the goal's summary and the calls with their outcomes. No step sees the
 * graph's contents or another step's prompt.
 */

export interface ModelRequest {
  instructions: string;
  prompt: string;
}

const ROLE = 'You are a graph agent. You change and read a property graph (nodes with a label and a key unique per label, typed edges, properties) only through tools.';

export function parseGoalRequest(input: ParseGoalInput, registry: ToolRegistry): ModelRequest {
  return {
    instructions: [
      ROLE,
      'Read the person\'s goal into a goal spec. Set complexity "simple" when one tool call does it, and then give that call as step; "complex" otherwise (step null).',
      'List in contradictions every property the goal asks to hold two values at once. Set intent "unsupported" when no tool can do what is asked (say what in unsupportedReason), "unclear" when the goal is too vague to act on. Never invent labels, keys or values the person did not give.',
      `The tools are: ${registry.names().join(', ')}.`,
    ].join('\n'),
    prompt: [...input.earlier.map((e) => `Earlier request: ${e}`), `Goal: ${input.goal}`].join('\n'),
  };
}

/** `tools`: the registry's tools, one line each (model-schemas.ts builds them once per registry). */
export function planStepRequest(input: PlanStepInput, tools: readonly string[]): ModelRequest {
  return {
    instructions: [
      ROLE,
      'Plan the next single tool call towards the goal. Set isFinalStep true when the goal is complete once this call succeeds.',
      'Tools:',
      ...tools,
    ].join('\n'),
    prompt: [
      `Goal: ${input.spec?.summary ?? input.goal}`,
      ...(input.spec ? [`Goal spec: ${JSON.stringify({ intent: input.spec.intent, entities: input.spec.entities, constraints: input.spec.constraints })}`] : []),
      input.done.length ? `Done so far:\n${input.done.join('\n')}` : 'Nothing done yet.',
      ...(input.avoid ? [`The last attempt failed: ${input.avoid}. Do not repeat the same call unchanged.`] : []),
    ].join('\n'),
  };
}

export function diagnoseRequest(input: DiagnoseInput): ModelRequest {
  return {
    instructions: [
      'Classify a failed step of a graph agent. systematic: the call or the goal is wrong, and the same call would fail again; random: a passing fault such as a timeout or an outage; identical: the same failing call was tried before.',
      'remedy: retry (the same call after a pause, for random faults only), replan (a different call), escalate (ask the person).',
    ].join('\n'),
    prompt: [
      `Failure at ${input.failure.stage}: ${input.failure.code}: ${input.failure.message}`,
      ...(input.failure.call ? [`Failing call: ${JSON.stringify(input.failure.call)}`] : []),
      `Retries used: ${input.retries} of ${input.retryBudget}`,
    ].join('\n'),
  };
}

export function answerRequest(input: AnswerInput, summary: string): ModelRequest {
  return {
    instructions:
      'Tell the person, in two or three plain sentences, what was done for their goal and what was not. Use only the facts given; never claim a change that is not listed as ok.',
    prompt: [`Goal: ${input.spec?.summary ?? input.goal ?? '(none)'}`, `Ending: ${input.ending}`, `Calls:\n${summary}`].join('\n'),
  };
}
