/**
 * A lazily loaded part of the widget (a chunk of its own) whose load may
 * fail: offline, or a deploy replaced the chunk's file. A failed load is
 * tried again, never left failed until the page is reloaded: when the part
 * is next asked for, by itself after a pause while anyone is waiting for it,
 * and at once when the browser says it is online again. Pauses grow (so a
 * server that is down is not hammered) and tries are bounded; an `online`
 * event allows a new round. Browsers fetch a failed module again on the next
 * `import()` of it (Chromium does; the HTML standard no longer keeps the
 * failure), so trying again is calling the import again.
 */

export interface RetryingImportOptions {
  /** The pause after the first failure; each further failure doubles it. Default 2 s. */
  retryAfterMs?: number;
  /** The longest pause. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Failed tries before giving up until the browser is online again. Default 6. */
  maxAttempts?: number;
  /** Where `online` events come from: the window in a browser (none in Node). */
  onlineEvents?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null;
}

export interface RetryingImport<T> {
  /** The part if it has loaded, else undefined. */
  current(): T | undefined;
  /**
   * Asks for the part: resolves with it, loading it if needed. Rejects
   * (without a new request) while a failure's pause lasts or after the last
   * try; the caller shows what it can without the part meanwhile.
   */
  load(): Promise<T>;
  /**
   * Follows the load: `listener` is called once the part has loaded. While
   * anyone follows, failed loads are tried again by themselves. Returns the
   * function that stops following.
   */
  subscribe(listener: () => void): () => void;
}

const defaultOnlineEvents = (): RetryingImportOptions['onlineEvents'] =>
  typeof window !== 'undefined' && typeof window.addEventListener === 'function' ? window : null;

/** Wraps `importer` (an `import()` of a chunk) so that failed loads are tried again. */
export function retryingImport<T>(importer: () => Promise<T>, options: RetryingImportOptions = {}): RetryingImport<T> {
  const retryAfterMs = options.retryAfterMs ?? 2_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const maxAttempts = options.maxAttempts ?? 6;
  const onlineEvents = options.onlineEvents === undefined ? defaultOnlineEvents() : options.onlineEvents;

  let value: { module: T } | undefined;
  let inFlight: Promise<T> | undefined;
  let failures = 0;
  let lastError: unknown;
  /** When the pause after the last failure ends (Date.now() time). */
  let retryAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();

  const onOnline = () => {
    // The failures may have been the connection's: a new round of tries, starting now.
    failures = 0;
    retryAt = 0;
    if (listeners.size > 0) background();
  };
  const watchOnline = (on: boolean) => {
    if (on) onlineEvents?.addEventListener('online', onOnline);
    else onlineEvents?.removeEventListener('online', onOnline);
  };

  /** A try nobody awaits: its failure is recorded, never an unhandled rejection. */
  const background = () => void load().catch(() => undefined);

  const schedule = () => {
    clearTimeout(timer);
    timer = undefined;
    if (listeners.size === 0 || failures >= maxAttempts) return;
    timer = setTimeout(background, Math.max(0, retryAt - Date.now()));
  };

  function load(): Promise<T> {
    if (value) return Promise.resolve(value.module);
    if (inFlight) return inFlight;
    if (failures >= maxAttempts || Date.now() < retryAt) return Promise.reject(lastError);
    clearTimeout(timer);
    timer = undefined;
    inFlight = Promise.resolve()
      .then(importer)
      .then(
        (module) => {
          value = { module };
          inFlight = undefined;
          watchOnline(false);
          for (const listener of [...listeners]) listener();
          return module;
        },
        (error: unknown) => {
          inFlight = undefined;
          failures += 1;
          lastError = error;
          retryAt = Date.now() + Math.min(maxRetryAfterMs, retryAfterMs * 2 ** (failures - 1));
          watchOnline(true);
          schedule();
          throw error;
        },
      );
    return inFlight;
  }

  return {
    current: () => value?.module,
    load,
    subscribe(listener) {
      listeners.add(listener);
      // A failure while nobody followed left no try pending: one is, now that someone waits.
      if (!value && !inFlight && failures > 0 && timer === undefined) schedule();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          clearTimeout(timer);
          timer = undefined;
        }
      };
    },
  };
}
