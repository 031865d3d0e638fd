import type { ObjectCallFailure } from '../extract/object-call.js';

/**
 * What the operator of `gateflow serve` or `gateflow chat` reads when the model fails: one line on stderr with the
 * provider's error as it came (the person in the chat is only told that free text cannot be read right now). A
 * model that is down fails every call: after a line, more failures are counted for `everyMs` and said in one line
 * then, so a busy server's log is not flooded.
 */
export function modelFailureLog(write: (line: string) => void, options: { everyMs?: number; now?: () => number } = {}): (failure: ObjectCallFailure) => void {
  const everyMs = options.everyMs ?? 60_000;
  const now = options.now ?? Date.now;
  let lastLine = -Infinity;
  let held = 0;
  return (failure) => {
    const at = now();
    if (at - lastLine < everyMs) {
      held++;
      return;
    }
    const more = held > 0 ? ` (and ${held} more model failure${held === 1 ? '' : 's'} since the last line)` : '';
    write(`gateflow: model call failed (${failure.reason}): ${failure.detail}${more}`);
    lastLine = at;
    held = 0;
  };
}
