/**
 * The task agent under a chaos model (issue 27 §5): seeded runs through the
 * runtime on PGlite with AGE in memory, each a goal and a few answers of the
 * person's, the model answering at random (valid under each request's schema,
 * or broken in one of the ways real models break). After every turn and at the
 * end of every run the invariants hold:
 * - no turn throws (over HTTP: no 500);
 * - not stuck: unfinished means an open gate, or idle for a goal; a cancel word
 *   ("stop", "cancel", "never mind") typed at an open gate ends the goal, even
 *   when it is one of the values asked for;
 * - "completed" only when every step succeeded;
 * - the writes committed are exactly the run's successful write steps, in
 *   order, once each (a replayed turn commits nothing), and a run with none
 *   leaves the graph as it was;
 * - the model calls per goal stay under the bound.
 * GATEFLOW_CHAOS_RUNS sets the number of runs (40 in `npm test`; `npm run test:chaos` runs 1000).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgeGraph } from '../../src/graph/index.js';
import { createGraphToolRegistry } from '../../src/graph/tools/graph-tools.js';
import { ToolRegistry } from '../../src/graph/tools/registry.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { Store } from '../../src/store/types.js';
import { taskAgentActors } from '../../src/task-agent/actors.js';
import { taskAgentWorkflow } from '../../src/task-agent/workflow.js';
import { chaosModel } from '../../src/testing/chaos-model.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import { CHAOS_MODEL_TIMEOUT_MS, CHAOS_RUNS, CHAOS_SEED, CHAOS_WEIGHTS, expectNotStuck, FINISHED, sendTurn, Tally } from '../helpers/chaos.js';
import { emptyGraph, openGraphStore } from '../helpers/task-agent.js';

const GOALS = [
  'Create a Ticket node with key TICKET-1 and status open',
  'Create a User node U-1 and a Ticket node T-9, and an edge REPORTS from User U-1 to Ticket T-9',
  'Delete the Ticket node TICKET-1',
  'Set the status of Ticket TICKET-1 to closed',
  'How many tickets are open?',
  'My dashboard is broken. Fix it.',
  "What's the weather in Paris?",
  'Make ticket T-9 both open and closed',
  'Link every user to every ticket',
  'stop',
];
/** The words that end the goal at the end of a run (by the run's seed). */
const CANCEL_WORDS_TRIED = ['stop', 'cancel', 'never mind'];
const ANSWERS = ['stop', 'open', 'closed', 'Create a Ticket node with key TICKET-2', 'yes', 'never mind', 'Delete the User node U-1'];
/** A goal's model calls: parse, and per step a plan, a diagnosis, the answer; generous until per-goal limits are configurable. */
const MAX_MODEL_CALLS_PER_TURN = 60;
const IDLE = ['idle'];

interface StepView {
  tool: string;
  ok: boolean;
  write: boolean;
}
const stepsOf = (reply: ReplyEnvelope): StepView[] =>
  ((reply.artifacts.find((a) => a.type === 'TASK_STEPS') as { steps?: StepView[] } | undefined)?.steps ?? []);

/** The tools the workflow commits with: the same tools, each write recorded as it is committed. */
function committingRegistry(commits: string[]): ToolRegistry {
  return new ToolRegistry(
    createGraphToolRegistry()
      .list()
      .map((tool) => ({ ...tool, run: (graph: Parameters<typeof tool.run>[0], args: Parameters<typeof tool.run>[1]) => (commits.push(tool.name), tool.run(graph, args)) })),
  );
}

describe('task agent under a chaos model', () => {
  let store: Store;
  /** A digest of every vertex and edge of the shared graph (ids and properties): one query, cheaper than a snapshot. */
  const graphDigest = async () => {
    await store.sql!.transaction(async (tx) => void (await openAgeGraph(tx, { owner: null })));
    const { rows } = await store.sql!.query<{ digest: string | null }>(
      `SELECT md5(coalesce((SELECT string_agg(id::text || properties::text, ',' ORDER BY id) FROM gateflow_graph._ag_label_vertex), '')
               || '|' || coalesce((SELECT string_agg(id::text || start_id::text || end_id::text || properties::text, ',' ORDER BY id) FROM gateflow_graph._ag_label_edge), '')) AS digest`,
    );
    return rows[0]?.digest ?? null;
  };
  const tally = new Tally();

  beforeAll(async () => {
    store = await openGraphStore();
  });
  afterAll(async () => {
    console.log(`[chaos task-agent] ${CHAOS_RUNS} runs, seed ${CHAOS_SEED}: ${tally}`);
    await store?.close();
  });

  it(`keeps its invariants over ${CHAOS_RUNS} seeded runs`, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(...GOALS),
        fc.boolean(),
        fc.array(fc.constantFrom(...ANSWERS), { maxLength: 3 }),
        fc.boolean(),
        async (seed, goal, offlineReader, answers, replayFirst) => {
          if (++run % 100 === 0) await emptyGraph(store);
          const where = `seed ${seed}, goal ${JSON.stringify(goal)}, offline ${offlineReader}, answers ${JSON.stringify(answers)}`;
          const model = chaosModel({ seed, weights: CHAOS_WEIGHTS, hugeChars: 20_000 });
          const commits: string[] = [];
          const registry = createGraphToolRegistry();
          const runtime = createRuntime({
            workflows: [taskAgentWorkflow({ registry: committingRegistry(commits) })],
            store,
            actors: taskAgentActors({ database: store.sql!, registry, model, offlineReader, modelTimeoutMs: CHAOS_MODEL_TIMEOUT_MS, backoffMs: 1, maxBackoffMs: 2 }),
          });
          try {
            const before = await graphDigest();
            const { sessionId } = await runtime.start('task-agent');
            const check = (reply: ReplyEnvelope, turn: string) => {
              expectNotStuck(reply, IDLE, `${where}, after ${turn}`);
              const steps = stepsOf(reply);
              if (reply.completion.reason === 'completed') expect(steps.every((s) => s.ok), `${where}: completed with a failed step`).toBe(true);
            };
            let calls = model.calls.length;
            let reply = await runtime.turn(sessionId, { text: goal, turnId: 'goal' });
            check(reply, 'the goal');
            expect(model.calls.length - calls, `${where}: model calls for one turn`).toBeLessThanOrEqual(MAX_MODEL_CALLS_PER_TURN);
            if (replayFirst) {
              const committed = commits.length;
              const again = await runtime.turn(sessionId, { text: goal, turnId: 'goal' });
              expect(again.message, `${where}: a replayed turn answers as before`).toBe(reply.message);
              expect(commits.length, `${where}: a replayed turn commits nothing`).toBe(committed);
            }
            for (const [i, text] of answers.entries()) {
              if (FINISHED.has(reply.status)) break;
              calls = model.calls.length;
              reply = await sendTurn(() => runtime.turn(sessionId, { text, turnId: `answer-${i}` }), reply, tally);
              check(reply, `answer ${i} ${JSON.stringify(text)}`);
              expect(model.calls.length - calls, `${where}: model calls for one turn`).toBeLessThanOrEqual(MAX_MODEL_CALLS_PER_TURN);
            }
            // A cancel word typed at an open gate always ends the goal, even when it is one of the values
            // the person is asked to choose between (a contradiction whose values the model took from the goal "stop").
            const cancelWord = CANCEL_WORDS_TRIED[seed % CANCEL_WORDS_TRIED.length]!;
            if ((reply.inputs ?? []).some((g) => (g.options ?? []).some((o) => String(o.value).toLowerCase() === cancelWord))) tally.add('the cancel word was one of the values to choose');
            if (!FINISHED.has(reply.status) && (reply.inputs ?? []).length > 0) {
              reply = await runtime.turn(sessionId, { text: cancelWord, turnId: 'stop' });
              expect(FINISHED.has(reply.status), `${where}: "${cancelWord}" did not end the goal (${reply.status}, ${JSON.stringify(reply.state)})`).toBe(true);
              expect(reply.completion.reason, `${where}: "${cancelWord}" ended the goal as ${reply.completion.reason}`).toBe('stopped');
            }
            tally.add(`ended:${reply.status}/${reply.completion.reason}`);
            tally.add('model calls', model.calls.length);
            for (const [outcome, n] of Object.entries(model.counts())) tally.add(`answers:${outcome}`, n);
            // Exactly the successful writes, once each, in order; none means the graph did not change.
            const writes = stepsOf(reply).filter((s) => s.ok && s.write).map((s) => s.tool);
            expect(commits, `${where}: committed writes`).toEqual(writes);
            tally.add('writes committed', commits.length);
            if (commits.length === 0) expect(await graphDigest(), `${where}: the graph changed with no write committed`).toEqual(before);
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
