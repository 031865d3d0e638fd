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
import { createFlowRuntime } from '../../src/flow/runtime.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { profileFlow, profileIntakes } from './profile-intake.js';

const WARMUP = Number(process.env.PROFILE_WARMUP ?? 1000);
const CONVERSATIONS = Number(process.env.PROFILE_CONVERSATIONS ?? 3000);

const runtime = createFlowRuntime({ flows: [profileFlow], store: createMemoryStore() });
const { cpuPerConversation } = await profileIntakes(runtime, WARMUP, CONVERSATIONS);
console.log(`CPU ${cpuPerConversation.toFixed(3)} ms per conversation (${CONVERSATIONS} after ${WARMUP} unmeasured; memory store, offline matcher)`);
runtime.close();
