import type { SqlDatabase } from '../store/types.js';
import { ActInProgressError } from './errors.js';
import type { Owner } from './schemas.js';

/**
 * Claims on the act API's idempotency key (issue 27 §4), in the store's
 * database (schema change 11), PGlite and PostgreSQL alike. A message sent
 * with a key and no chat finds where it was applied by the key alone (the
 * session journal's turn id); without a claim, two sends at the same moment
 * to two servers both find nothing and both apply. So the key is claimed
 * first, in its own statement: one send holds it while it works, and another
 * waits for it to end, then finds what it applied.
 *
 * A claim is a row only while its act is under way (deleted when the act
 * ends, whatever the outcome), so the table holds the acts in flight. A
 * process killed while it held one leaves the row: its lease runs out and a
 * later send takes it over (the journal then says whether the dead process
 * had applied the message). The holder renews the lease while it works, so a
 * slow commit past the act's limit is not taken over.
 */

/** What a key names: the owner's project and the turn id (or Idempotency-Key). */
export interface ActKey {
  owner: Owner;
  projectId: number;
  turnId: string;
}

export interface ActClaims {
  /** Takes the key's claim for `leaseMs` (a free key, or one whose lease ran out): the claim's token, or null when another holds it. */
  take(key: ActKey, leaseMs: number): Promise<string | null>;
  /** Moves the held claim's lease to `leaseMs` from now; false when it is no longer this token's. */
  renew(key: ActKey, token: string, leaseMs: number): Promise<boolean>;
  /** Ends the held claim: the key is free again. */
  release(key: ActKey, token: string): Promise<void>;
  /** How long the key's claim has left, in ms (0: expired), or null when the key is free. */
  leaseLeft(key: ActKey): Promise<number | null>;
  /**
   * Frees every key: only for the one process a database has, at its start
   * (a PGlite directory is locked to one), where any claim is a killed
   * process's. Returns how many there were.
   */
  clearAll(): Promise<number>;
}

// The key's row: a hash, as an owner's length has no cap the index could hold.
const KEY = `sha256(convert_to($1::text, 'UTF8'))`;
const keyText = (key: ActKey) => JSON.stringify([key.owner, key.projectId, key.turnId]);
const lease = (param: string) => `now() + ${param}::double precision * interval '1 millisecond'`;

export function actClaims(sql: Pick<SqlDatabase, 'query'>): ActClaims {
  return {
    async take(key, leaseMs) {
      const token = crypto.randomUUID();
      // One statement: a free key is inserted; a taken one is updated only when its lease has passed (the row's
      // lock makes two takers of one stale claim meet one after the other, and the second finds it live).
      const { rows } = await sql.query<{ token: string }>(
        `INSERT INTO gateflow_act_claims AS c (key, project_id, turn_id, token, lease_until)
              VALUES (${KEY}, $2, $3, $4, ${lease('$5')})
         ON CONFLICT (key) DO UPDATE SET token = EXCLUDED.token, lease_until = EXCLUDED.lease_until, claimed_at = now()
               WHERE c.lease_until < now()
         RETURNING c.token`,
        [keyText(key), key.projectId, key.turnId, token, leaseMs],
      );
      return rows[0]?.token === token ? token : null;
    },
    async renew(key, token, leaseMs) {
      const { rows } = await sql.query(`UPDATE gateflow_act_claims SET lease_until = ${lease('$3')} WHERE key = ${KEY} AND token = $2 RETURNING 1`, [
        keyText(key),
        token,
        leaseMs,
      ]);
      return rows.length > 0;
    },
    async release(key, token) {
      await sql.query(`DELETE FROM gateflow_act_claims WHERE key = ${KEY} AND token = $2`, [keyText(key), token]);
    },
    async leaseLeft(key) {
      const { rows } = await sql.query<{ ms: number | string }>(
        `SELECT greatest(0, extract(epoch FROM lease_until - now()) * 1000)::float8 AS ms FROM gateflow_act_claims WHERE key = ${KEY}`,
        [keyText(key)],
      );
      return rows[0] ? Number(rows[0].ms) : null;
    },
    async clearAll() {
      return (await sql.query('DELETE FROM gateflow_act_claims RETURNING 1')).rows.length;
    },
  };
}

export interface ActClaimTiming {
  /** How long a claim lasts unless renewed: a little more than an act may take, so a dead holder's frees the key soon after. */
  leaseMs: number;
  /** How long a send waits for another that holds the key before it answers {@link ActInProgressError}: at most the act's limit. */
  waitMs: number;
}

const FIRST_POLL_MS = 50;
const MAX_POLL_MS = 1_000;
/** `Retry-After` of a key still held when the wait ends: its lease's time left, at least 1 s and at most this. */
const MAX_RETRY_AFTER_S = 10;

/**
 * Runs `work` holding the key's claim: taken at once when free; when another
 * holds it, the claim is tried again (every 50 ms, doubling to 1 s) until it
 * is freed (the other's act ended: `work` then finds what it applied) or its
 * lease runs out, for at most `waitMs`, after which {@link ActInProgressError}
 * (409 `turn_in_progress`, with Retry-After). The claim is released when
 * `work` ends, whether it answered or threw.
 */
export async function withActClaim<T>(claims: ActClaims, key: ActKey, timing: ActClaimTiming, work: () => Promise<T>): Promise<T> {
  const until = Date.now() + timing.waitMs;
  for (let pause = FIRST_POLL_MS; ; pause = Math.min(pause * 2, MAX_POLL_MS)) {
    const token = await claims.take(key, timing.leaseMs);
    if (token !== null) return holding(claims, key, token, timing.leaseMs, work);
    const left = until - Date.now();
    if (left <= 0) {
      const ms = (await claims.leaseLeft(key)) ?? 0;
      throw new ActInProgressError(key.turnId, Math.min(MAX_RETRY_AFTER_S, Math.max(1, Math.ceil(ms / 1000))));
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
  }
}

async function holding<T>(claims: ActClaims, key: ActKey, token: string, leaseMs: number, work: () => Promise<T>): Promise<T> {
  // Renewed while the act runs, so a live holder keeps its key however long its commit takes; a killed one stops renewing.
  const beat = setInterval(() => void claims.renew(key, token, leaseMs).catch(() => undefined), Math.max(leaseMs / 3, 1_000));
  try {
    return await work();
  } finally {
    clearInterval(beat);
    // A release that fails (the store is down) leaves the claim to expire with its lease.
    await claims.release(key, token).catch(() => undefined);
  }
}
