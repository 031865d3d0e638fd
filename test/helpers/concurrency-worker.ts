/**
 * A child process for the cross-process concurrency test (test/runtime/concurrency.test.ts):
 *
 *   node --import tsx test/helpers/concurrency-worker.ts <connectionString> <sessionId> <workerIndex> <count>
 *
 * Opens its own PostgreSQL store and runtime, prints `ready` once connected
 * (migrations applied), waits for a line on stdin (the parent's "go", so that
 * every worker starts at once), sends `count` turns together (`hmm w<index> <i>`,
 * turnId `w<index>-<i>`), then prints one JSON line with every reply (or error)
 * and how many commits lost the version race, and exits 0 (1 on a setup failure).
 */
import { createInterface } from 'node:readline';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import type { Reply } from '../../src/flow/reply.js';
import { createPostgresStore } from '../../src/store/postgres.js';
import { patientFlow } from './patient-intake.js';
import { countingConflicts } from './counting-store.js';

export interface WorkerResult {
  index: number;
  conflicts: number;
  results: ({ turnId: string; reply: Reply } | { turnId: string; error: string })[];
}

const [connectionString, sessionId, indexText, countText] = process.argv.slice(2);
if (!connectionString || !sessionId || !indexText || !countText) {
  process.stderr.write('usage: concurrency-worker.ts <connectionString> <sessionId> <workerIndex> <count>\n');
  process.exit(1);
}
const index = Number(indexText);
const count = Number(countText);

const inner = await createPostgresStore({ connectionString });
const store = countingConflicts(inner);
const runtime = createFlowRuntime({ flows: [patientFlow], store });

process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once('line', () => resolve()));
lines.close();

const results = await Promise.all(
  Array.from({ length: count }, async (_, i) => {
    const turnId = `w${index}-${i}`;
    try {
      return { turnId, reply: await runtime.turn(sessionId, { text: `hmm w${index} ${i}`, turnId }) };
    } catch (error) {
      return { turnId, error: `${(error as Error).name}: ${(error as Error).message}` };
    }
  }),
);
await inner.close();
const out: WorkerResult = { index, conflicts: store.conflicts(), results };
process.stdout.write(`${JSON.stringify(out)}\n`);
