import { generateText, Output } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chaosModel, CHAOS_OUTCOMES, ChaosModelError } from '../../src/testing/chaos-model.js';
import { seededRandom } from '../../src/testing/random.js';
import { sampleSchema } from '../../src/testing/schema-sample.js';
import { GoalSpecSchema, StepPlanSchema } from '../../src/task-agent/schemas.js';
import { AgentDecisionSchema } from '../../src/document-agent/schemas.js';

const call = (model: ReturnType<typeof chaosModel>, schema: z.ZodType, abortSignal?: AbortSignal) =>
  generateText({ model, prompt: 'Create a Ticket node TICKET-1 with status open', output: Output.object({ schema, name: 'Thing' }), maxRetries: 0, ...(abortSignal && { abortSignal }) }).then(
    (r) => ({ ok: true as const, output: r.output as unknown }),
    (error: unknown) => ({ ok: false as const, error }),
  );

describe('schema samples', () => {
  it.each([
    ['GoalSpec', GoalSpecSchema],
    ['StepPlan', StepPlanSchema],
    ['AgentDecision', AgentDecisionSchema],
  ] as const)('every sample of %s fits its zod schema', (_name, schema) => {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Parameters<typeof sampleSchema>[0];
    const random = seededRandom(7);
    const misfits: unknown[] = [];
    for (let i = 0; i < 300; i++) {
      const value = sampleSchema(json, { random, words: ['Ticket', 'TICKET-1', 'status', 'open'] });
      if (!schema.safeParse(value).success) misfits.push(value);
    }
    expect(misfits.slice(0, 2)).toEqual([]);
  });
});

describe('chaosModel', () => {
  it('answers the same requests the same way for one seed, and otherwise for another', async () => {
    const run = async (seed: number) => {
      const model = chaosModel({ seed, weights: { timeout: 0 } });
      for (let i = 0; i < 20; i++) await call(model, StepPlanSchema);
      return model.calls.map((c) => [c.outcome, c.text]);
    };
    expect(await run(1)).toEqual(await run(1));
    expect(await run(1)).not.toEqual(await run(2));
  });

  it('gives every outcome, and valid answers parse under the request schema', async () => {
    const model = chaosModel({ seed: 3, hugeChars: 5000 });
    const results = [];
    for (let i = 0; i < 200; i++) {
      const controller = new AbortController();
      const pending = call(model, GoalSpecSchema, controller.signal);
      controller.abort(new Error('deadline')); // ends a hang at once; answered calls have settled their answer already
      results.push({ result: await pending, outcome: model.calls[i]!.outcome });
    }
    expect(Object.values(model.counts()).every((n) => n > 0)).toBe(true);
    expect(CHAOS_OUTCOMES.length).toBe(8);
    for (const { result, outcome } of results) {
      if (outcome === 'error' || outcome === 'timeout' || outcome === 'invalid_json' || outcome === 'empty') expect(result.ok, outcome).toBe(false);
    }
    // An answer is valid only when it parses: aborting right after the call may still have ended some.
    const valid = results.filter((r) => r.outcome === 'valid');
    expect(valid.filter((r) => r.result.ok).length).toBeGreaterThan(0);
    for (const r of valid.filter((r) => r.result.ok)) expect(GoalSpecSchema.safeParse((r.result as { output: unknown }).output).success).toBe(true);
  });

  it('hangs until the abort signal fires, and refuses to hang without one', async () => {
    const model = chaosModel({ seed: 1, script: ['timeout', 'timeout'] });
    const controller = new AbortController();
    const pending = model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], abortSignal: controller.signal });
    let settled = false;
    void Promise.resolve(pending).catch(() => undefined).finally(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    controller.abort(new Error('deadline passed'));
    await expect(pending).rejects.toThrow('deadline passed');
    await expect(model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })).rejects.toBeInstanceOf(ChaosModelError);
  });

  it('calls a tool with arguments from its input schema', async () => {
    const model = chaosModel({ seed: 5, weights: { valid: 1, off_schema: 0, invalid_json: 0, truncated: 0, empty: 0, huge: 0, error: 0, timeout: 0 } });
    const result = await model.doGenerate({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'add' }] }],
      tools: [{ type: 'function', name: 'add', inputSchema: { type: 'object', properties: { a: { type: 'integer', minimum: 1, maximum: 3 } }, required: ['a'], additionalProperties: false } }],
      toolChoice: { type: 'required' },
    });
    const part = result.content[0];
    expect(part?.type).toBe('tool-call');
    const a = JSON.parse((part as { input: string }).input).a;
    expect([1, 2, 3]).toContain(a);
  });
});
