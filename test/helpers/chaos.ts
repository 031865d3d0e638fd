/**
 * What the chaos suites share (issue 27 §5): how many seeded runs
 * (GATEFLOW_CHAOS_RUNS: 40 in `npm test`, 1000 in `npm run test:chaos`, which CI runs), the base seed (GATEFLOW_CHAOS_SEED;
 * a failing run prints its seed), the model deadline a hang waits for, and the
 * invariants every workflow keeps whatever its model answers.
 */
import { expect } from 'vitest';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import type { ChaosOutcome } from '../../src/testing/chaos-model.js';

export const CHAOS_RUNS = Number(process.env.GATEFLOW_CHAOS_RUNS ?? 40);
export const CHAOS_SEED = Number(process.env.GATEFLOW_CHAOS_SEED ?? 27);
/**
 * The model deadline in the chaos suites: a hang (the `timeout` outcome) ends
 * when it fires. Answers come at once, so this only sets how long a hang
 * costs; a load spike that outlasts it turns an answer into a timeout, which
 * the invariants must survive as well.
 */
export const CHAOS_MODEL_TIMEOUT_MS = 200;
/** Hangs cost wall time (the deadline): fewer of them than the default weights give. */
export const CHAOS_WEIGHTS: Partial<Record<ChaosOutcome, number>> = { timeout: 1 };

export const FINISHED = new Set(['done', 'cancelled', 'failed']);

/**
 * Not stuck: a session that is not finished has an open gate the person can
 * answer, or is where a turn of the person's is taken (`idleStates`).
 */
export function expectNotStuck(reply: ReplyEnvelope, idleStates: readonly string[], where: string): void {
  if (FINISHED.has(reply.status)) return;
  const open = (reply.inputs ?? []).length > 0;
  const idle = typeof reply.state === 'string' && idleStates.includes(reply.state);
  expect(open || idle, `${where}: stuck in ${JSON.stringify(reply.state)} (${reply.status}) with no open gate: ${reply.message.slice(0, 300)}`).toBe(true);
}

/**
 * A turn as the person sends it: a refusal of what they sent (a gateflow
 * error below 500, as HTTP answers 4xx) leaves the session as it was and is
 * counted; anything else thrown is a failure (a 500).
 */
export async function sendTurn<R extends ReplyEnvelope>(send: () => Promise<R>, previous: R, tally: Tally): Promise<R> {
  try {
    return await send();
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status < 500) {
      tally.add(`refused:${String((error as { code?: unknown }).code)}`);
      return previous;
    }
    throw error;
  }
}

/** A tally of what the runs saw, printed at the end of a suite. */
export class Tally {
  readonly counts = new Map<string, number>();
  add(key: string, n = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }
  toString(): string {
    return [...this.counts.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
  }
}
