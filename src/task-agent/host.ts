import type { LanguageModel } from 'ai';
import type { AnyActorLogic } from 'xstate';
import { createGraphToolRegistry } from '../graph/tools/graph-tools.js';
import type { GraphTool } from '../graph/tools/tool.js';
import type { SqlDatabase } from '../store/types.js';
import type { Workflow } from '../workflow/types.js';
import { taskAgentActors, type TaskAgentActorOptions } from './actors.js';
import { taskAgentWorkflow, type TaskAgentWorkflowOptions } from './workflow.js';

export interface TaskAgentHostOptions extends Partial<Omit<TaskAgentActorOptions, 'database' | 'registry' | 'model'>>, Omit<TaskAgentWorkflowOptions, 'registry'> {
  /** The store's database (`store.sql`), where the graph lives beside the sessions. */
  database: SqlDatabase;
  model?: LanguageModel | undefined;
  /** The host's own tools, beside the graph tools (see `defineTool`). */
  tools?: GraphTool[];
}

/**
 * The task agent ready to serve: its workflow and its actors, sharing one
 * tool registry (the actors call the tools; the workflow replays their writes
 * when a step is saved). Give both to `createRuntime`.
 */
export function taskAgentHost(options: TaskAgentHostOptions): { workflow: Workflow; actors: Record<string, AnyActorLogic> } {
  const { database, model, tools = [], retryBudget, answerWithin, cypherLimits, graphLimits, limits, ...actorOptions } = options;
  const registry = createGraphToolRegistry(...tools);
  return {
    workflow: taskAgentWorkflow({ registry, ...(retryBudget !== undefined && { retryBudget }), ...(answerWithin && { answerWithin }), ...(cypherLimits && { cypherLimits }), ...(graphLimits && { graphLimits }), ...(limits && { limits }) }),
    actors: taskAgentActors({ database, registry, ...actorOptions, ...(cypherLimits && { cypherLimits }), ...(graphLimits && { graphLimits }), ...(model && { model }) }),
  };
}
