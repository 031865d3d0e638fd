/**
 * A lazily loaded part of the widget whose load fails (offline, a chunk
 * replaced by a deploy) is tried again, never left failed until a reload
 * (src/react/retrying-import.ts): the typed reader's chunk (an import that
 * fails, then succeeds), the pauses and the bound on tries, the `online`
 * event, and no unhandled rejection. Timers are vitest's fake ones: nothing
 * here waits on the clock. The browser's side: test/browser/reader-retry.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retryingImport } from '../../src/react/retrying-import.js';

/** The typed reader's first import fails as a dropped connection would; later ones load. */
const chunk = vi.hoisted(() => ({ failures: 1 }));
vi.mock('../../src/react/zod-jitless.js', async (original) => {
  if (chunk.failures > 0) {
    chunk.failures--;
    throw new TypeError('Failed to fetch dynamically imported module: /assets/zod-jitless.js');
  }
  return original();
});

/** An importer that fails `failures` times, then gives `value`; counts its calls. */
function flaky<T>(failures: number, value: T) {
  const importer = vi.fn(async () => {
    if (importer.mock.calls.length <= failures) throw new TypeError(`Failed to fetch dynamically imported module (try ${importer.mock.calls.length})`);
    return value;
  });
  return importer;
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  vi.useFakeTimers();
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  vi.useRealTimers();
  process.off('unhandledRejection', onUnhandled);
});

describe("the typed reader's chunk", () => {
  it('loads when asked again after a failed load, once the pause is over', async () => {
    const { loadTypedReader, typedReader } = await import('../../src/react/typed-reader.js');
    // (vitest words the failure of a mocked module its own way.)
    await expect(loadTypedReader()).rejects.toThrow();
    expect(typedReader()).toBeUndefined();
    // Within the pause: no new request, the same failure.
    await expect(loadTypedReader()).rejects.toThrow();
    await vi.advanceTimersByTimeAsync(2_000);
    const reader = await loadTypedReader();
    expect(typedReader()).toBe(reader);
    expect(reader({ name: 'n', type: 'number', min: 0 }, '-5', new Date()).ok).toBe(false);
    expect(unhandled).toEqual([]);
  });
});

describe('a retrying import', () => {
  it('tries again by itself while someone waits for it, with growing pauses, and tells them once it has loaded', async () => {
    const importer = flaky(2, 'the part');
    const part = retryingImport(importer, { retryAfterMs: 1_000, onlineEvents: null });
    const told = vi.fn();
    part.subscribe(told);
    await expect(part.load()).rejects.toThrow(/try 1/);
    await vi.advanceTimersByTimeAsync(999);
    expect(importer).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(importer).toHaveBeenCalledTimes(2);
    // The second failure doubles the pause.
    await vi.advanceTimersByTimeAsync(1_999);
    expect(importer).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(importer).toHaveBeenCalledTimes(3);
    expect(part.current()).toBe('the part');
    expect(told).toHaveBeenCalledTimes(1);
    // Loaded: asked again, no new request.
    await expect(part.load()).resolves.toBe('the part');
    expect(importer).toHaveBeenCalledTimes(3);
    expect(unhandled).toEqual([]);
  });

  it('shares one request between those who ask at the same time', async () => {
    const importer = flaky(0, 42);
    const part = retryingImport(importer, { onlineEvents: null });
    await expect(Promise.all([part.load(), part.load()])).resolves.toEqual([42, 42]);
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('tries nothing by itself when nobody waits: the next ask after the pause does', async () => {
    const importer = flaky(1, 'x');
    const part = retryingImport(importer, { retryAfterMs: 1_000, onlineEvents: null });
    await expect(part.load()).rejects.toThrow();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(importer).toHaveBeenCalledTimes(1);
    await expect(part.load()).resolves.toBe('x');
    expect(importer).toHaveBeenCalledTimes(2);
  });

  it('stops after the bound on tries, and starts a new round when the browser is online again', async () => {
    const online = new EventTarget();
    const importer = flaky(3, 'back');
    const part = retryingImport(importer, { retryAfterMs: 1_000, maxRetryAfterMs: 1_500, maxAttempts: 2, onlineEvents: online });
    part.subscribe(() => undefined);
    await expect(part.load()).rejects.toThrow(/try 1/);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    // Two tries, then no more, however long it waits or is asked.
    expect(importer).toHaveBeenCalledTimes(2);
    await expect(part.load()).rejects.toThrow(/try 2/);
    expect(importer).toHaveBeenCalledTimes(2);
    // Online again: a try at once (it fails: the third failure), then one more after the pause, which loads.
    online.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(importer).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(importer).toHaveBeenCalledTimes(4);
    expect(part.current()).toBe('back');
    expect(unhandled).toEqual([]);
  });

  it('stops trying when the last one waiting leaves', async () => {
    const importer = flaky(5, 'x');
    const part = retryingImport(importer, { retryAfterMs: 1_000, onlineEvents: null });
    const leave = part.subscribe(() => undefined);
    await expect(part.load()).rejects.toThrow();
    leave();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(importer).toHaveBeenCalledTimes(1);
  });
});
