import type { Snapshot } from 'xstate';
import type { CypherLimits } from '../graph/cypher-query.js';
import type { GraphLimits } from '../graph/age-graph.js';
import type { ToolRegistry } from '../graph/tools/registry.js';
import { defineWorkflow, type StateReply } from '../workflow/define.js';
import type { Workflow } from '../workflow/types.js';
import { goalOutcome, taskAgentMachine, type GoalLimits, type TaskAgentContext, type TaskStep } from '../../machines/task-agent.js';
import { commitWrites } from './graph-steps.js';
import { GoalLimitsSchema } from './goal-limits.js';
import type { ToolSignature } from './schemas.js';
import { describeStep } from './summary.js';

export const TASK_AGENT_ID = 'task-agent';

/** What the first reply says: what the agent does, by example. */
export const TASK_AGENT_GREETING =
  "I work on a property graph: I create, change, delete and find nodes and edges. Tell me what to do, for example: Create a Ticket node with key TICKET-1 and status open.";

const WORKING: Record<string, string> = {
  parse_goal: 'Reading your request…',
  plan_step: 'Planning the next step…',
  route_tool: 'Checking the step…',
  call_tool: 'Working on the graph…',
  diagnose: 'Something went wrong; working out why…',
  answer: 'Writing the answer…',
};

/** The steps taken, as the reply's `TASK_STEPS` artifact: what the demo page lists. */
const stepsArtifact = (steps: readonly TaskStep[], outcome: string | null) => ({
  type: 'TASK_STEPS',
  // How the goal came out (completed, partial, failed), once it ended.
  ...(outcome && { outcome }),
  steps: steps.map((s) => ({ tool: s.call.tool, args: s.call.args, ok: s.outcome.ok, write: s.write, text: describeStep(s), ...(s.outcome.ok ? {} : { error: s.outcome.error }) })),
});

/** The graph changes a goal made, as the `GRAPH_CHANGES` artifact of its answer. */
const changesArtifact = (steps: readonly TaskStep[]) => ({
  type: 'GRAPH_CHANGES',
  changes: steps.filter((s) => s.write && s.outcome.ok).map((s) => ({ tool: s.call.tool, args: s.call.args, result: s.outcome.ok ? s.outcome.result : null })),
});

const writesOf = (steps: readonly TaskStep[] | undefined): ToolSignature[] => (steps ?? []).filter((s) => s.write && s.outcome.ok).map((s) => s.call);

export interface TaskAgentWorkflowOptions {
  /** The tools the writes are replayed with when a step is saved: the same registry the actors call. */
  registry: ToolRegistry;
  cypherLimits?: Partial<CypherLimits>;
  /** How many nodes and edges one owner's graph may hold (checked again as the step's writes commit). */
  graphLimits?: Partial<GraphLimits>;
  retryBudget?: number;
  /** How long an escalation waits for the person (ISO 8601 duration, default PT1H). */
  answerWithin?: string;
  /** What one goal may spend (DEFAULT_GOAL_LIMITS for what is not given). */
  limits?: Partial<GoalLimits>;
}

/**
 * The task agent (seed 004) as a workflow: one session per goal; a text turn
 * is the goal (or, while it escalates, the answer to its question); each
 * step's graph writes are saved with the step's snapshot (`effects`).
 */
export function taskAgentWorkflow(options: TaskAgentWorkflowOptions): Workflow {
  // A limit it could not keep (a step past the runtime's wait for a turn, a negative count) is refused here, named.
  const limits = GoalLimitsSchema.safeParse(options.limits ?? {});
  if (!limits.success) throw new RangeError(`taskAgentWorkflow: ${limits.error.issues.map((i) => `limits.${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return defineWorkflow({
    id: TASK_AGENT_ID,
    version: 1,
    title: 'Task agent (property graph)',
    machine: taskAgentMachine,
    input: (_context, session) => ({
      owner: session.owner,
      ...(options.retryBudget !== undefined && { retryBudget: options.retryBudget }),
      ...(options.answerWithin !== undefined && { answerWithin: options.answerWithin }),
      ...(options.limits && { limits: options.limits }),
    }),
    reply: (snapshot): StateReply => {
      const c = snapshot.context as TaskAgentContext;
      const state = String(snapshot.value);
      const outcome = state === 'done' ? goalOutcome(c.steps, c.ending) : null;
      const artifacts = [stepsArtifact(c.steps, outcome)];
      if (state === 'idle') return { message: TASK_AGENT_GREETING, reason: 'awaiting_goal', artifacts: [] };
      if (state === 'escalate') return { message: c.escalation?.message ?? 'I need your help to go on.', reason: 'awaiting_clarification', artifacts };
      if (state === 'done')
        return {
          message: c.answer ?? 'Done.',
          // A goal that ran to its end says how it came out: completed only when every call planned succeeded.
          reason: c.ending === 'completed' || c.ending === null ? (outcome ?? 'completed') : c.ending,
          readyForHandoff: outcome === 'completed' && c.ending === 'completed',
          artifacts: [...artifacts, changesArtifact(c.steps)],
        };
      return { message: WORKING[state] ?? 'Working…', reason: 'working', artifacts };
    },
    effects: ({ before, after, session }) => {
      // The writes made since the stored snapshot: this step's, applied with it.
      const saved = writesOf((before as Snapshot<unknown> & { context?: TaskAgentContext }).context?.steps).length;
      const writes = writesOf((after.context as TaskAgentContext).steps).slice(saved);
      if (writes.length === 0) return null;
      return commitWrites(
        { registry: options.registry, ...(options.cypherLimits && { cypherLimits: options.cypherLimits }), ...(options.graphLimits && { graphLimits: options.graphLimits }) },
        session.owner,
        writes,
      );
    },
  });
}
