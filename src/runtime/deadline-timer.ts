/**
 * When to fire deadlines. XState's `after` is not restored from snapshots,
 * so deadlines live in the store (`gateflow_inputs.deadline`) and a runtime
 * fires them: at the earliest deadline it knows of (set when it opens a gate
 * or after each firing), and, when watching, on a steady poll that finds
 * gates opened by other processes or before a restart.
 */
export class DeadlineTimer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private at: number | null = null;
  private poll: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(
    private readonly fire: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
    /** The runtime's clock, which deadlines are judged by. */
    private readonly now: () => number,
  ) {}

  /** Fires at `deadline` (now, if it has passed) unless an earlier firing is already set. */
  arm(deadline: Date): void {
    if (this.closed) return;
    const at = deadline.getTime();
    if (this.at !== null && this.at <= at) return;
    clearTimeout(this.timer);
    this.at = at;
    // Timers hold at most 2^31-1 ms; a later deadline is set again when this one wakes.
    const wait = Math.min(Math.max(0, at - this.now()), 2_147_483_647);
    this.timer = setTimeout(() => {
      this.at = null;
      this.fire().catch(this.onError);
    }, wait);
    unref(this.timer);
  }

  /** Also fires every `everyMs`, for deadlines this process did not set. */
  watch(everyMs: number): void {
    if (this.closed || this.poll !== undefined) return;
    this.poll = setInterval(() => this.fire().catch(this.onError), everyMs);
    unref(this.poll);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.poll);
  }
}

/** Node's timers keep a process alive unless unref'd; a browser's have no unref. */
function unref(timer: unknown): void {
  (timer as { unref?: () => void }).unref?.();
}
