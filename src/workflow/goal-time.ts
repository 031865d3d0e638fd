/**
 * A goal's (or an act's) time limit during a call: the agents' actors are
 * given the time left (`TimeLeft`) and stop their model, tool or search call
 * when it runs out. Shared by the task agent and the document agent; no
 * imports, so that it sits on the floor with the rest of src/workflow/.
 */

/** What an actor is told of the time it has: how much is left (ms from when it starts) and the limit's words. */
export interface TimeLeft {
  ms: number;
  limit: string;
}

/** The reason a goal's call was stopped: its time ran out (the limit in words). */
export class GoalTimeUp extends Error {
  override readonly name = 'GoalTimeUp';
  constructor(readonly limit: string) {
    super(`stopped: the goal reached ${limit}`);
  }
}

export interface GoalTimer {
  /** Aborts when the goal's time runs out (reason: a {@link GoalTimeUp}) or when `outer` aborts. */
  signal: AbortSignal;
  /** The limit's words once the goal's time ran out, else null. */
  timeUp(): string | null;
  clear(): void;
}

/**
 * The signal an actor's model and tool calls get: the goal's time left (the
 * step's or the goal's limit, whichever comes first), and the actor's own stop
 * (XState aborts it when the actor is stopped). Absent `left`, only `outer`.
 * A timer and a controller rather than `AbortSignal.any` with
 * `AbortSignal.timeout`: on Node 20 a timeout signal inside `any()` can be
 * collected before it fires (nodejs/node#57736), see src/extract/deadline.ts.
 */
export function goalTimer(left: TimeLeft | undefined, outer?: AbortSignal): GoalTimer {
  const controller = new AbortController();
  let up: string | null = null;
  const stop = () => {
    up = left!.limit;
    controller.abort(new GoalTimeUp(left!.limit));
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (left) {
    if (left.ms <= 0) stop();
    else timer = setTimeout(stop, left.ms);
  }
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    timeUp: () => up,
    clear: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
    },
  };
}

/** A pause that ends early when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
