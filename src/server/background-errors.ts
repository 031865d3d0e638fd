import { GateflowError } from '../error/gateflow-error.js';

/** How long one kind of background error stays quiet after it was logged. */
export const BACKGROUND_ERROR_QUIET_MS = 60_000;

/**
 * A logger for errors of background work (deadlines fired every second, the
 * events stream's reads) that no request receives. A database that is down
 * fails every poll: each kind of error (its code) is written at most once a
 * minute, with how many like it were left out since, instead of a line a second.
 */
export function backgroundErrorLog(write: (line: string) => void, now: () => number = Date.now, quietMs = BACKGROUND_ERROR_QUIET_MS): (error: unknown) => void {
  const kinds = new Map<string, { loggedAt: number; skipped: number }>();
  return (error) => {
    const kind = error instanceof GateflowError ? error.code : 'internal';
    const at = now();
    const seen = kinds.get(kind);
    if (seen && at - seen.loggedAt < quietMs) {
      seen.skipped++;
      return;
    }
    const skipped = seen?.skipped ?? 0;
    kinds.set(kind, { loggedAt: at, skipped: 0 });
    const text = error instanceof GateflowError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
    write(`gateflow: background work failed (${kind}): ${text}${skipped > 0 ? ` (${skipped} more like it in the last minute were not logged)` : ''}`);
  };
}
