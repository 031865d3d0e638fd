import type { LanguageModel } from 'ai';
import { fromPromise } from 'xstate';
import type { ModelExtractionOptions } from './model.js';
import type { ExtractionInput, ExtractionOutput } from './types.js';

export interface ExtractActorOptions extends Omit<ModelExtractionOptions, 'model' | 'abortSignal'> {
  /** Any AI SDK language model; without one, text the offline matcher cannot read stays unread. */
  model?: LanguageModel | undefined;
}

/**
 * The `extract` actor a runtime provides to a compiled flow. The machine runs
 * the offline matcher itself (it is pure) and invokes this actor only where the
 * matcher abstained and a model may be asked (never on the first question).
 */
export function createExtractActor(options: ExtractActorOptions = {}) {
  const { model, ...modelOptions } = options;
  return fromPromise<ExtractionOutput, ExtractionInput>(async ({ input, signal }) => {
    if (!model || !input.allowModel)
      return { values: {}, failure: { reason: 'abstained', message: model ? 'no model on this question' : 'no model configured' } };
    // Loaded on first use: a page that never calls a model never loads the AI SDK.
    const { extractWithModel } = await import('./model.js');
    return extractWithModel(input, { ...modelOptions, model, abortSignal: signal });
  });
}
