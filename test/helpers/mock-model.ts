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

/** The person's message inside an extraction prompt (between the `"""` lines, see src/extract/model.ts). */
export function messageOfPrompt(prompt: string): string {
  return /"""\n([\s\S]*)\n"""/.exec(prompt)?.[1] ?? '';
}

/**
 * Intake answers as a model that quotes its evidence: every answer other than
 * "unknown" without `evidence` gets the whole message as its evidence (it
 * occurs in the message; the runtime still checks it is not negated there and
 * not contradicted). Tests of the evidence itself give their own.
 */
export function withEvidence<A extends { value: string; evidence?: string }>(answers: Record<string, A>, message: string): Record<string, A & { evidence: string }> {
  return Object.fromEntries(
    Object.entries(answers).map(([key, a]) => [key, { ...a, evidence: a.evidence ?? (a.value === 'unknown' ? '' : message) }]),
  );
}
