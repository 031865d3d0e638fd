/**
 * profile-turns.ts on PostgreSQL: whole intakes of the bench's flow through the runtime on a
 * PostgreSQL store (a schema of its own, dropped at the end), to see the client's CPU around
 * each commit (the pg driver's protocol work, statement text, parameters):
 *
 *   GATEFLOW_TEST_DATABASE_URL=postgres://… node --import tsx --cpu-prof --cpu-prof-dir=/tmp/prof test/bench/profile-turns-postgres.ts
 *
 * PROFILE_WARMUP (default 200) and PROFILE_CONVERSATIONS (default 600) size it.
 */
import { readFileSync } from 'node:fs';
import { parseFlowText } from '../../src/flow/parse.js';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import { createPostgresStore } from '../../src/store/postgres.js';
import type { Turn } from '../../src/workflow/turn.js';
import { createTestSchema } from '../helpers/postgres.js';

const flow = parseFlowText(readFileSync(new URL('../../machines/flows/patient-intake.json', import.meta.url), 'utf8'), 'patient-intake.json');
/** The bench's intake (test/bench/turns.ts): five gates, buttons and free text, then confirm. */
const INTAKE: Turn[] = [{ button: 'Yes' }, { text: 'no, always covered' }, { button: 'Follow-up' }, { text: 'an adult' }, { button: 'Email' }, { button: 'confirm' }];
const WARMUP = Number(process.env.PROFILE_WARMUP ?? 200);
const CONVERSATIONS = Number(process.env.PROFILE_CONVERSATIONS ?? 600);

const schema = await createTestSchema('gf_prof');
const store = await createPostgresStore({ connectionString: schema.url });
const runtime = createFlowRuntime({ flows: [flow], store });
const conversation = async () => {
  const { sessionId } = await runtime.start(flow.id);
  for (const turn of INTAKE) await runtime.turn(sessionId, turn);
};
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
try {
  for (let i = 0; i < WARMUP; i++) await conversation();
  const c0 = cpuMs();
  const t0 = performance.now();
  for (let i = 0; i < CONVERSATIONS; i++) await conversation();
  const per = (performance.now() - t0) / CONVERSATIONS / (INTAKE.length + 1);
  console.log(`CPU ${((cpuMs() - c0) / CONVERSATIONS).toFixed(3)} ms per conversation, ${per.toFixed(3)} ms per step (${CONVERSATIONS} after ${WARMUP} unmeasured; PostgreSQL store, offline matcher)`);
} finally {
  await runtime.close();
  await store.close();
  await schema.drop();
}
