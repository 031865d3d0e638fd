/**
 * The document agent under a chaos model (issue 27 §5): seeded runs through
 * the runtime on PGlite in memory, each a chat on a project with one document,
 * a message and a few answers, the model answering at random (valid under the
 * decision's schema, or broken). Invariants, after every turn and every run:
 * - no turn throws (a refusal below 500 is allowed: the person sent something
 *   the gate does not take);
 * - not stuck: unfinished means an open gate, or idle for the next message;
 * - every document change is one the replies report (created: a document at
 *   version 1; updated: one version more), none twice: a replayed turn
 *   changes nothing;
 * - limits: a document's content stays within its bound; model calls per
 *   message stay under the bound;
 * - a model that hangs (half the runs begin with one, the model call's own
 *   limit a minute away) is stopped by the message's time limit: every hang
 *   ends its message as `time_limit`, which writes no document.
 * GATEFLOW_CHAOS_RUNS sets the number of runs (40 in `npm test`; `npm run test:chaos` runs 1000).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentAgentHost } from '../../src/document-agent/host.js';
import { DOCUMENT_AGENT_ID } from '../../src/document-agent/workflow.js';
import { documentRepository } from '../../src/documents/repository.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { Store } from '../../src/store/types.js';
import { chaosModel } from '../../src/testing/chaos-model.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import { CHAOS_MODEL_TIMEOUT_MS, CHAOS_RUNS, CHAOS_SEED, CHAOS_WEIGHTS, expectNotStuck, FINISHED, sendTurn, Tally } from '../helpers/chaos.js';
import { openDocumentStore } from '../helpers/document-agent.js';

const MESSAGES = [
  'Create a document called Menu with a list of three dishes',
  'Add a section about desserts to Notes',
  'Append "Opening hours: 9 to 5" to Notes',
  'Delete the section Prices from Notes',
  'Rewrite Notes in a friendlier tone',
  'What does Notes say about prices?',
  'Create a document called Notes',
  'Make it shorter',
  'hello',
  'Research the best pizza in Naples and write it up as Pizza',
];
const ANSWERS = ['yes', 'confirm', 'no', 'cancel', 'Notes', 'Use another name', 'Menu 2'];
const MAX_MODEL_CALLS_PER_MESSAGE = 6;
/** The bound a document's content is kept within (DocumentContentSchema). */
const MAX_CONTENT = 200_000;
const IDLE = ['idle'];
/**
 * The message's time limit in the act-limited runs: what ends their first
 * model call, which hangs. Every such run waits it out once (half the runs:
 * at 200 ms, 70% of the suite's wall time was this wait); its length is not
 * what is checked, only that the limit ends the hang. Acts with no hang take
 * a few milliseconds; one that outlasts the limit under load ends at it,
 * which the invariants must survive as well.
 */
const ACT_LIMIT_MS = 50;

/** An answer: one of the words above, or the n-th choice the open gate offers (a button). */
type Answer = string | { pick: number };

describe('document agent under a chaos model', () => {
  let store: Store;
  const tally = new Tally();
  beforeAll(async () => {
    store = await openDocumentStore();
  });
  afterAll(async () => {
    console.log(`[chaos document-agent] ${CHAOS_RUNS} runs, seed ${CHAOS_SEED}: ${tally}`);
    await store?.close();
  });

  it(`keeps its invariants over ${CHAOS_RUNS} seeded runs`, async () => {
    const repo = documentRepository(store.sql!);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(...MESSAGES),
        fc.array(fc.oneof(fc.constantFrom(...ANSWERS), fc.nat({ max: 3 }).map((pick) => ({ pick }))), { maxLength: 3 }),
        fc.boolean(),
        fc.boolean(),
        async (seed, message, answers: Answer[], replayFirst, actLimited) => {
          run++;
          const where = `seed ${seed}, message ${JSON.stringify(message)}, answers ${JSON.stringify(answers)}${actLimited ? ', act-limited' : ''}`;
          // Act-limited: the first model call hangs, and only the message's time limit can end it.
          const model = chaosModel({ seed, weights: CHAOS_WEIGHTS, hugeChars: 50_000, ...(actLimited && { script: ['timeout' as const] }) });
          const host = documentAgentHost({
            database: store.sql!,
            model,
            ...(actLimited ? { modelTimeoutMs: 60_000, actLimits: { maxActMs: ACT_LIMIT_MS } } : { modelTimeoutMs: CHAOS_MODEL_TIMEOUT_MS }),
          });
          const runtime = createRuntime({ workflows: [host.workflow], store, actors: host.actors });
          try {
            const project = await repo.createProject(null, { name: `Chaos ${run}`, description: null });
            await repo.createDocument(null, project.id, { name: 'Notes', content: '# Notes\n\n## Prices\n\nCheap.\n', standingInstruction: '' });
            const { sessionId } = await runtime.start(DOCUMENT_AGENT_ID, undefined, { context: { projectId: project.id } });
            const outcomes: string[] = [];
            const check = (reply: ReplyEnvelope, turn: string) => {
              expectNotStuck(reply, IDLE, `${where}, after ${turn}`);
              const artifact = reply.artifacts.find((a) => a.type === 'DOCUMENT_AGENT') as { outcome?: { kind: string } | null; modelCalls?: number } | undefined;
              if (artifact?.outcome) outcomes.push(artifact.outcome.kind);
              expect(artifact?.modelCalls ?? 0, `${where}: model calls for one message`).toBeLessThanOrEqual(MAX_MODEL_CALLS_PER_MESSAGE);
            };
            let reply = await sendTurn(() => runtime.turn(sessionId, { text: message, turnId: 'first' }), {} as ReplyEnvelope, tally);
            check(reply, 'the message');
            if (replayFirst) {
              const before = JSON.stringify(await repo.listDocuments(project.id));
              const again = await runtime.turn(sessionId, { text: message, turnId: 'first' });
              expect(again.message, `${where}: a replayed turn answers as before`).toBe(reply.message);
              expect(JSON.stringify(await repo.listDocuments(project.id)), `${where}: a replayed turn changes nothing`).toBe(before);
            }
            for (const [i, answer] of answers.entries()) {
              if (FINISHED.has(reply.status)) break;
              const options = (reply.inputs ?? []).flatMap((g) => g.options ?? []);
              const text = typeof answer === 'string' ? answer : String(options[answer.pick % Math.max(1, options.length)]?.value ?? 'yes');
              reply = await sendTurn(() => runtime.turn(sessionId, { text, turnId: `answer-${i}` }), reply, tally);
              check(reply, `answer ${i} ${JSON.stringify(text)}`);
            }
            for (const kind of outcomes) tally.add(`outcome:${kind}`);
            if (actLimited) {
              const hangs = model.counts().timeout;
              tally.add('hangs ended by the act limit', hangs);
              expect(outcomes.filter((k) => k === 'time_limit').length, `${where}: every hang ends its message at the time limit (${outcomes.join(', ')})`).toBeGreaterThanOrEqual(hangs);
            }
            tally.add('model calls', model.calls.length);
            for (const [outcome, n] of Object.entries(model.counts())) tally.add(`answers:${outcome}`, n);
            // Every change is one a reply reported, once: the versions add up to what was reported.
            const documents = await repo.listDocuments(project.id);
            const created = outcomes.filter((k) => k === 'created').length;
            const updated = outcomes.filter((k) => k === 'updated').length;
            expect(documents.length, `${where}: documents (created ${created})`).toBe(1 + created);
            expect(documents.reduce((n, d) => n + d.version, 0), `${where}: versions (created ${created}, updated ${updated})`).toBe(1 + created + updated);
            for (const d of documents) expect(d.content.length, `${where}: ${d.name}'s content`).toBeLessThanOrEqual(MAX_CONTENT);
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
