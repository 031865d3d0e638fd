import type { LanguageModel } from 'ai';
import type { AnyActorLogic } from 'xstate';
import { createExtractActor } from '../extract/actor.js';
import { createRuntime, type Runtime, type RuntimeOptions } from '../runtime/runtime.js';
import type { Workflow } from '../workflow/types.js';
import type { Reply } from './reply.js';
import type { FlowDocument } from './schema.js';
import { flowWorkflow, type FlowWorkflowOptions } from './workflow.js';

export interface FlowRuntimeOptions extends Omit<RuntimeOptions<Reply>, 'workflows'>, FlowWorkflowOptions {
  /** The flow documents to serve (several versions of one id: the last is current). */
  flows: FlowDocument[];
  /** Other workflows served beside the flows. */
  workflows?: Workflow<Reply>[];
  /** A model for text the offline matcher cannot read (any AI SDK language model). */
  model?: LanguageModel;
  /** Or the whole `extract` actor (see `createExtractActor`); it wins over `model`. */
  extract?: AnyActorLogic;
}

/**
 * The runtime serving flow documents: each one a workflow (`flowWorkflow`),
 * its free text read by the extractor (`model`, or the offline matcher alone).
 */
export function createFlowRuntime(options: FlowRuntimeOptions): Runtime<Reply> {
  const { flows, workflows = [], model, extract: given, today, ...rest } = options;
  const extract = given ?? (model ? createExtractActor({ model }) : undefined);
  return createRuntime<Reply>({
    ...rest,
    workflows: [...flows.map((flow) => flowWorkflow(flow, today ? { today } : {})), ...workflows],
    actors: { ...(extract && { extract }), ...options.actors },
  });
}
