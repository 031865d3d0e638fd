import type { AnyActorLogic } from 'xstate';
import type { Workflow } from '../workflow/types.js';
import { documentAgentActors, type DocumentAgentActorOptions } from './actors.js';
import { documentAgentWorkflow, type DocumentAgentWorkflowOptions } from './workflow.js';

export interface DocumentAgentHostOptions extends DocumentAgentActorOptions, DocumentAgentWorkflowOptions {}

/** The document agent ready to serve: its workflow and its actors, on the store's database. Give both to `createRuntime`. */
export function documentAgentHost(options: DocumentAgentHostOptions): { workflow: Workflow; actors: Record<string, AnyActorLogic> } {
  const { answerWithin, actLimits, ...actorOptions } = options;
  const workflow = documentAgentWorkflow({ ...(answerWithin && { answerWithin }), ...(options.limits && { limits: options.limits }), ...(actLimits && { actLimits }) });
  return { workflow, actors: documentAgentActors(actorOptions) };
}
