/**
 * A driver to profile: whole intakes of the bench's flow through the runtime
 * on the memory store, in one process, after a warm-up; prints the CPU one
 * conversation costs in the steady state. For a CPU profile (self and total
 * time by function; compiled JavaScript gives exact lines, `npm run build` first
 * and import from dist/ if lines matter):
 *
 *   node --import tsx --cpu-prof --cpu-prof-dir=/tmp/prof test/bench/profile-turns.ts
 *
 * PROFILE_WARMUP (default 1000) and PROFILE_CONVERSATIONS (default 3000) size it.
 */
import { readFileSync } from 'node:fs';
import { parseFlowText } from '../../src/flow/parse.js';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { Turn } from '../../src/workflow/turn.js';

const flow = parseFlowText(readFileSync(new URL('../../machines/flows/patient-intake.json', import.meta.url), 'utf8'), 'patient-intake.json');
/** The bench's intake (test/bench/turns.ts): five gates, buttons and free text, then confirm. */
const INTAKE: Turn[] = [{ button: 'Yes' }, { text: 'no, always covered' }, { button: 'Follow-up' }, { text: 'an adult' }, { button: 'Email' }, { button: 'confirm' }];
const WARMUP = Number(process.env.PROFILE_WARMUP ?? 1000);
const CONVERSATIONS = Number(process.env.PROFILE_CONVERSATIONS ?? 3000);

const runtime = createFlowRuntime({ flows: [flow], store: createMemoryStore() });
const conversation = async () => {
  const { sessionId } = await runtime.start(flow.id);
  for (const turn of INTAKE) await runtime.turn(sessionId, turn);
};
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
for (let i = 0; i < WARMUP; i++) await conversation();
const c0 = cpuMs();
for (let i = 0; i < CONVERSATIONS; i++) await conversation();
console.log(`CPU ${((cpuMs() - c0) / CONVERSATIONS).toFixed(3)} ms per conversation (${CONVERSATIONS} after ${WARMUP} unmeasured; memory store, offline matcher)`);
runtime.close();
