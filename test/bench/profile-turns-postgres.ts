/**
 * profile-turns.ts on PostgreSQL: whole intakes of the bench's flow through the runtime on a
 * PostgreSQL store (a schema of its own, dropped at the end), to see the client's CPU around
 * each commit (the pg driver's protocol work, statement text, parameters):
 *
 *   GATEFLOW_TEST_DATABASE_URL=postgres://… node --import tsx --cpu-prof --cpu-prof-dir=/tmp/prof test/bench/profile-turns-postgres.ts
 *
 * PROFILE_WARMUP (default 200) and PROFILE_CONVERSATIONS (default 600) size it.
 */
import { createFlowRuntime } from '../../src/flow/runtime.js';
import { createPostgresStore } from '../../src/store/postgres.js';
import { createTestSchema } from '../helpers/postgres.js';
import { profileFlow, profileIntakes } from './profile-intake.js';

const WARMUP = Number(process.env.PROFILE_WARMUP ?? 200);
const CONVERSATIONS = Number(process.env.PROFILE_CONVERSATIONS ?? 600);

const schema = await createTestSchema('gf_prof');
const store = await createPostgresStore({ connectionString: schema.url });
const runtime = createFlowRuntime({ flows: [profileFlow], store });
try {
  const { cpuPerConversation, msPerStep } = await profileIntakes(runtime, WARMUP, CONVERSATIONS);
  console.log(`CPU ${cpuPerConversation.toFixed(3)} ms per conversation, ${msPerStep.toFixed(3)} ms per step (${CONVERSATIONS} after ${WARMUP} unmeasured; PostgreSQL store, offline matcher)`);
} finally {
  await runtime.close();
  await store.close();
  await schema.drop();
}
