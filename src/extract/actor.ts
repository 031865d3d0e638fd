import type { LanguageModel } from 'ai';
import { fromPromise } from 'xstate';
import type { ModelExtractionOptions } from './model.js';
import type { ObjectCallFailure } from './object-call.js';
import type { ExtractionInput, ExtractionOutput } from './types.js';

export interface ExtractActorOptions extends Omit<ModelExtractionOptions, 'model' | 'abortSignal'> {
  /** Any AI SDK language model; without one, text the offline matcher cannot read stays unread. */
  model?: LanguageModel | undefined;
  /**
   * Told of each model call that failed or answered outside the schema, with the provider's error as it came
   * (`detail`): for the operator's logs. The conversation is told only the kind of failure, never the detail.
   */
  onModelFailure?: ((failure: ObjectCallFailure) => void) | undefined;
}

/**
 * The `extract` actor a runtime provides to a compiled flow. The machine runs
 * the offline matcher itself (it is pure) and invokes this actor only where the
 * matcher abstained and a model may be asked (never on the first question).
 */
export function createExtractActor(options: ExtractActorOptions = {}) {
  const { model, onModelFailure, ...modelOptions } = options;
  return fromPromise<ExtractionOutput, ExtractionInput>(async ({ input, signal }) => {
    if (!model || !input.allowModel)
      return { values: {}, failure: { reason: 'abstained', message: model ? 'no model on this question' : 'no model configured' } };
    // Loaded on first use: a page that never calls a model never loads the AI SDK.
    const { extractWithModel } = await import('./model.js');
    const output = await extractWithModel(input, { ...modelOptions, model, abortSignal: signal });
    const failure = output.failure as (ExtractionOutput['failure'] & { detail?: string }) | undefined;
    if (failure?.detail === undefined) return output;
    // The provider's text goes to the operator, not into the machine (its events, snapshots and replies).
    if (failure.reason === 'model_error' || failure.reason === 'invalid_output') onModelFailure?.({ reason: failure.reason, message: failure.message, detail: failure.detail });
    return { values: output.values, failure: { reason: failure.reason, message: failure.message } };
  });
}
