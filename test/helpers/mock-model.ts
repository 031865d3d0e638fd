/** Shapes for `MockLanguageModelV4` (from 'ai/test') shared by the model suites. */
import type { MockLanguageModelV4 } from 'ai/test';

export type CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];
export type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;

/** A model answer made of one text part, with fixed usage. */
export function textResult(text: string): GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 20, text: 20, reasoning: undefined },
    },
    warnings: [],
  };
}
