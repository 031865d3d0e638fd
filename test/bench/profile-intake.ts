/**
 * What the profiling drivers share (profile-turns.ts on the memory store, profile-turns-postgres.ts on
 * PostgreSQL): the bench's flow and intake, and whole intakes run through a runtime after a warm-up, with the
 * CPU and the wall time they cost.
 */
import { readFileSync } from 'node:fs';
import { parseFlowText } from '../../src/flow/parse.js';
import type { createFlowRuntime } from '../../src/flow/runtime.js';
import type { Turn } from '../../src/workflow/turn.js';

export const profileFlow = parseFlowText(readFileSync(new URL('../../machines/flows/patient-intake.json', import.meta.url), 'utf8'), 'patient-intake.json');
/** The bench's intake (test/bench/turns.ts): five gates, buttons and free text, then confirm. */
export const PROFILE_INTAKE: Turn[] = [{ button: 'Yes' }, { text: 'no, always covered' }, { button: 'Follow-up' }, { text: 'an adult' }, { button: 'Email' }, { button: 'confirm' }];

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Runs `warmup` intakes unmeasured, then `conversations` measured: CPU ms per conversation and wall ms per step. */
export async function profileIntakes(runtime: ReturnType<typeof createFlowRuntime>, warmup: number, conversations: number): Promise<{ cpuPerConversation: number; msPerStep: number }> {
  const conversation = async () => {
    const { sessionId } = await runtime.start(profileFlow.id);
    for (const turn of PROFILE_INTAKE) await runtime.turn(sessionId, turn);
  };
  for (let i = 0; i < warmup; i++) await conversation();
  const c0 = cpuMs();
  const t0 = performance.now();
  for (let i = 0; i < conversations; i++) await conversation();
  return { cpuPerConversation: (cpuMs() - c0) / conversations, msPerStep: (performance.now() - t0) / conversations / (PROFILE_INTAKE.length + 1) };
}
