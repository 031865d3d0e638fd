import type { SessionEvent, Store } from '../store/types.js';

/**
 * The store's announcements, read as they come: one poll loop per runtime
 * however many listeners, started by the first and stopped with the last.
 * The store is the source (not this process's memory), so a page served by
 * one process sees gates answered through another. A commit in this process
 * pokes the loop, so its own events go out at once.
 */
export class EventFeed {
  private readonly listeners = new Set<(event: SessionEvent) => void>();
  private cursor: number | null = null;
  // Ids are taken when a row is written but become visible when its transaction commits: a
  // later poll looks back a little and skips what was delivered, so a slow commit is not lost.
  private readonly delivered = new Set<number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private polling: Promise<void> | null = null;
  private again = false;
  // Bumped by stop(): a poll still in flight then changes nothing (it would set a stale place).
  private generation = 0;

  constructor(
    private readonly store: Store,
    private readonly pollMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Listens from now on; returns the function that stops listening. */
  subscribe(listener: (event: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.poke();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** Reads now (after a commit of this process), rather than at the next tick. */
  poke(): void {
    if (this.listeners.size === 0) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.polling = this.poll()
      .catch(this.onError)
      .finally(() => {
        this.polling = null;
        if (this.listeners.size === 0) return;
        if (this.again) {
          this.again = false;
          this.poke();
        } else this.timer = setTimeout(() => this.poke(), this.pollMs);
      });
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.cursor = null;
    this.delivered.clear();
    this.generation++;
  }

  private async poll(): Promise<void> {
    const generation = this.generation;
    if (this.cursor === null) {
      const start = await this.store.lastEventId();
      // What is there already happened before anyone listened: marked delivered, so the look-back does not send it.
      const before = await this.store.readEvents(Math.max(0, start - LOOK_BACK), LOOK_BACK);
      if (generation !== this.generation) return;
      for (const event of before) if (event.id <= start) this.delivered.add(event.id);
      this.cursor = start;
      return;
    }
    const events = await this.store.readEvents(Math.max(0, this.cursor - LOOK_BACK), 500);
    if (generation !== this.generation) return;
    for (const event of events) {
      if (this.delivered.has(event.id)) continue;
      this.delivered.add(event.id);
      this.cursor = Math.max(this.cursor, event.id);
      for (const listener of [...this.listeners]) {
        try {
          listener(event);
        } catch (error) {
          this.onError(error);
        }
      }
    }
    for (const id of this.delivered) if (id <= this.cursor - LOOK_BACK) this.delivered.delete(id);
  }
}

/** How many ids a poll reads again behind the newest it has seen. */
const LOOK_BACK = 32;
