import type { LanguageModel } from 'ai';
import { fromPromise } from 'xstate';
import { extractWithModel, type ModelExtractionOptions } from './model.js';
import { extractOffline } from './offline.js';
import type { ExtractionInput, ExtractionOutput } from './types.js';

export interface ExtractActorOptions extends Omit<ModelExtractionOptions, 'model' | 'abortSignal'> {
  /** Any AI SDK language model; without one the offline matcher is the whole extractor. */
  model?: LanguageModel | undefined;
}

/**
 * The `extract` actor a runtime provides to a compiled flow: the offline
 * matcher first; when it abstains, a model may be called, and is, when
 * configured (never on the first question: `input.allowModel`).
 */
export function createExtractActor(options: ExtractActorOptions = {}) {
  const { model, ...modelOptions } = options;
  return fromPromise<ExtractionOutput, ExtractionInput>(async ({ input, signal }) => {
    const offline = extractOffline(input);
    if (Object.keys(offline.values).length > 0 || !input.allowModel || !model) return offline;
    return extractWithModel(input, { ...modelOptions, model, abortSignal: signal });
  });
}
