/**
 * How many conversations a side needs before its CPU per conversation is steady:
 * from a cold start, successive batches of the bench's intake (test/bench/turns.ts),
 * each batch's CPU per conversation (process.cpuUsage: all threads, so V8's
 * compiler and GC threads too, as the bench counts it) and the main thread's alone
 * (/proc, Linux). gateflow on the memory store and the LangGraph.js MemorySaver
 * anchor, each in a process of its own, one after the other.
 *
 *   npx tsx test/bench/warmup-curve.ts
 *
 * The bench warms each side up with BENCH_WARMUP conversations (default 3000)
 * before measuring: this shows whether that is past each side's warm-up.
 * CURVE_BATCH (default 250) and CURVE_BATCHES (default 16) size it.
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { memoryAnchor, type Question } from './langgraph-anchor.js';
import { PROFILE_INTAKE, profileFlow } from './profile-intake.js';

const BATCH = Number(process.env.CURVE_BATCH ?? 250);
const BATCHES = Number(process.env.CURVE_BATCHES ?? 16);
const SIDES = ['gateflow memory', 'LangGraph.js MemorySaver'] as const;
type SideName = (typeof SIDES)[number];

const processCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** The main thread's CPU in ms (user + system), from /proc; NaN where there is none. */
const mainThreadCpuMs = () => {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
};

/** One whole intake on a side (start + the bench's six turns). */
function conversationOf(name: SideName): () => Promise<void> {
  if (name === 'gateflow memory') {
    const runtime = createFlowRuntime({ flows: [profileFlow], store: createMemoryStore() });
    return async () => {
      const { sessionId } = await runtime.start(profileFlow.id);
      for (const turn of PROFILE_INTAKE) await runtime.turn(sessionId, turn);
    };
  }
  const doc = JSON.parse(readFileSync(new URL('../../machines/flows/patient-intake.json', import.meta.url), 'utf8')) as {
    gate_order: string[];
    gates: Record<string, { question: string; expected_categories: string[] }>;
  };
  const questions: Question[] = doc.gate_order.map((key) => ({ key, question: doc.gates[key]!.question, categories: doc.gates[key]!.expected_categories }));
  const anchor = memoryAnchor(questions);
  let threads = 0;
  return async () => {
    const id = `thread-${++threads}`;
    await anchor.start(id);
    for (const turn of PROFILE_INTAKE) await anchor.turn(id, turn);
  };
}

/** A side's process: its batches, one line each (conversations so far: process CPU / main thread CPU, ms per conversation). */
async function side(name: SideName) {
  const conversation = conversationOf(name);
  const rows: string[] = [];
  for (let b = 1; b <= BATCHES; b++) {
    const c0 = processCpuMs();
    const m0 = mainThreadCpuMs();
    for (let i = 0; i < BATCH; i++) await conversation();
    rows.push(`${String(b * BATCH).padStart(5)}: ${((processCpuMs() - c0) / BATCH).toFixed(3)} / ${((mainThreadCpuMs() - m0) / BATCH).toFixed(3)}`);
  }
  console.log(`${name} (after n conversations: process CPU / main thread CPU, ms per conversation, batches of ${BATCH})\n  ${rows.join('\n  ')}`);
}

const chosen = process.env.CURVE_SIDE as SideName | undefined;
if (chosen) await side(chosen);
else
  for (const name of SIDES)
    await new Promise<void>((resolve, reject) =>
      fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, CURVE_SIDE: name } })
        .on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${name}: exit code ${code}`))))
        .on('error', reject),
    );
