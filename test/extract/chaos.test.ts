/**
 * The intake's model reader under a chaos model (issue 27 §5): seeded runs of
 * the example flows through the runtime on the in-memory store, each a few
 * free-text answers the offline matcher may abstain on, so that the model
 * reads them, the model answering at random (valid under the extraction
 * schema, or broken). Invariants after every turn:
 * - no turn throws (a refusal below 500 is allowed);
 * - not stuck: unfinished means an open gate, or a question the person is
 *   asked (completion awaiting an answer or a confirmation), with a message;
 * - a value the model gave is one of the question's categories (never the
 *   model's invention), and a failed model call records no answer;
 * - a turn replayed by its id changes nothing and answers as before.
 * GATEFLOW_CHAOS_RUNS sets the number of runs (40 in `npm test`; `npm run test:chaos` runs 1000).
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createExtractActor } from '../../src/extract/actor.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { chaosModel } from '../../src/testing/chaos-model.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import { CHAOS_MODEL_TIMEOUT_MS, CHAOS_RUNS, CHAOS_SEED, CHAOS_WEIGHTS, FINISHED, sendTurn, Tally } from '../helpers/chaos.js';
import { exampleFlows } from '../helpers/http.js';

const FLOWS = exampleFlows();
const TEXTS = [
  'well, sort of, I think so maybe',
  'we have some of it but not all',
  'no idea honestly',
  'the patient said something about insurance last year',
  'yes',
  'nope',
  'tomorrow at 3pm',
  'ana@example.com',
  'I would rather not say',
  'partially, the old card expired',
  'confirm',
  'edit',
];
const ASKING = new Set(['awaiting_answer', 'awaiting_user_confirmation', 'awaiting_input', 'working']);

type Answers = Record<string, { value: unknown; source: string }>;

describe('the intake model reader under a chaos model', () => {
  const tally = new Tally();
  const store = createMemoryStore();
  afterAll(() => console.log(`[chaos intake] ${CHAOS_RUNS} runs, seed ${CHAOS_SEED}: ${tally}`));

  it(`keeps its invariants over ${CHAOS_RUNS} seeded runs`, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(...FLOWS.map((f) => f.id)),
        fc.array(fc.oneof(fc.constantFrom(...TEXTS), fc.nat({ max: 3 }).map((pick) => ({ pick }))), { minLength: 1, maxLength: 5 }),
        async (seed, flowId, turns: (string | { pick: number })[]) => {
          run++;
          const where = `seed ${seed}, flow ${flowId}, turns ${JSON.stringify(turns)}`;
          const model = chaosModel({ seed, weights: CHAOS_WEIGHTS, hugeChars: 20_000 });
          const runtime = createRuntime({
            workflows: FLOWS.map((f) => flowWorkflow(f)),
            store,
            actors: { extract: createExtractActor({ model, timeoutMs: CHAOS_MODEL_TIMEOUT_MS, maxRetries: 0 }) },
          });
          try {
            const started = await runtime.start(flowId);
            const { sessionId } = started;
            let reply: ReplyEnvelope = started.reply;
            for (const [i, turn] of turns.entries()) {
              if (FINISHED.has(reply.status)) break;
              const text = typeof turn === 'string' ? turn : (reply.buttons?.[turn.pick % Math.max(1, reply.buttons.length)]?.value ?? 'yes');
              const before = reply as ReplyEnvelope & { answers?: Answers };
              const calls = model.calls.length;
              const next = (await sendTurn(() => runtime.turn(sessionId, { text, turnId: `t${i}` }), reply, tally)) as ReplyEnvelope & { answers?: Answers };
              const at = `${where}, after turn ${i} ${JSON.stringify(text)}`;
              // Not stuck: finished, an open gate, or a question put to the person.
              if (!FINISHED.has(next.status))
                expect((next.inputs ?? []).length > 0 || (ASKING.has(next.completion.reason) && next.message.trim().length > 0), `${at}: stuck (${next.completion.reason}): ${next.message.slice(0, 200)}`).toBe(true);
              // What the model said is kept only from an answer that parsed, and only as a category of the flow.
              const answered = model.calls.slice(calls);
              const modelFailed = answered.length > 0 && answered.every((c) => c.outcome !== 'valid' && c.outcome !== 'huge');
              for (const [key, answer] of Object.entries(next.answers ?? {})) {
                if (answer.source !== 'llm' || before.answers?.[key]?.value === answer.value) continue;
                expect(modelFailed, `${at}: ${key} recorded from a failed model call`).toBe(false);
                tally.add('answers read by the model');
              }
              // Replayed by its id: the same reply, nothing applied again.
              if (i === 0) {
                const length = (await runtime.session(sessionId)).history.length;
                const again = await sendTurn(() => runtime.turn(sessionId, { text, turnId: `t${i}` }), next, tally);
                expect(again.message, `${at}: a replayed turn answers as before`).toBe(next.message);
                expect((await runtime.session(sessionId)).history.length, `${at}: a replayed turn adds nothing`).toBe(length);
              }
              reply = next;
            }
            tally.add(`ended:${reply.status}/${reply.completion.reason}`);
            tally.add('model calls', model.calls.length);
            for (const [outcome, n] of Object.entries(model.counts())) tally.add(`answers:${outcome}`, n);
          } finally {
            runtime.close();
          }
        },
      ),
      { numRuns: CHAOS_RUNS, seed: CHAOS_SEED, endOnFailure: true },
    );
    tally.add('runs', run);
  }, 3_600_000);
});
