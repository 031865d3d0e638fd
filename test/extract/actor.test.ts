/**
 * The `extract` actor tells the operator what the provider said and the machine only the kind of failure (issue 26:
 * "a model that is down is the program's failure"; s37model found that nothing told an operator the model was down,
 * the provider's detail being dropped). Scripted models (the AI SDK's MockLanguageModelV4); nothing is called.
 */
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { createExtractActor } from '../../src/extract/actor.js';
import type { ObjectCallFailure } from '../../src/extract/object-call.js';

const input = { text: 'whenever suits', key: 'q', allowModel: true, questions: [{ key: 'q', prompt: 'When should we call?', categories: ['Morning', 'Evening'] }] };

describe('a failed model call', () => {
  it('reaches the operator with the provider text, and the machine without it', async () => {
    const told: ObjectCallFailure[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error('connect ECONNREFUSED 10.0.0.7:8080 (AI_RetryError upstream)');
      },
    });
    const actor = createActor(createExtractActor({ model, maxRetries: 0, onModelFailure: (f) => told.push(f) }), { input });
    actor.start();
    const output = await toPromise(actor);
    expect(output.values).toEqual({});
    expect(output.failure).toEqual({ reason: 'model_error', message: 'the model service could not be reached' });
    expect(JSON.stringify(output)).not.toMatch(/ECONNREFUSED|10\.0\.0\.7|AI_RetryError/);
    expect(told).toHaveLength(1);
    expect(told[0]!.reason).toBe('model_error');
    expect(told[0]!.detail).toMatch(/ECONNREFUSED 10\.0\.0\.7:8080/);
  });

  it('an answer outside the schema is told too; an abstention without a model is not a failure to report', async () => {
    const told: ObjectCallFailure[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'not json at all' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
        warnings: [],
      }),
    });
    const run = async (options: Parameters<typeof createExtractActor>[0]) => {
      const actor = createActor(createExtractActor(options), { input });
      actor.start();
      return toPromise(actor);
    };
    const output = await run({ model, maxRetries: 0, onModelFailure: (f) => told.push(f) });
    expect(output.failure?.reason).toBe('invalid_output');
    expect(told.map((f) => f.reason)).toEqual(['invalid_output']);
    await run({ onModelFailure: (f) => told.push(f) });
    expect(told).toHaveLength(1);
  });
});
