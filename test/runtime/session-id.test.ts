/**
 * Session ids: 144 random bits as 24 base64url characters, never starting
 * with "-". The random bytes are drawn from the system's generator in pools
 * (one call per 64 ids), each byte used once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

/** The module afresh (its pool empty), with the system's generator counted or replaced. */
async function fresh(fill?: (bytes: Uint8Array, call: number) => void) {
  vi.resetModules();
  let calls = 0;
  const real = globalThis.crypto.getRandomValues.bind(globalThis.crypto);
  vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
    calls++;
    if (fill && array instanceof Uint8Array) fill(array, calls);
    else real(array as unknown as Uint8Array);
    return array;
  });
  const { newSessionId, isSessionId } = await import('../../src/runtime/session-id.js');
  return { newSessionId, isSessionId, calls: () => calls };
}

describe('newSessionId', () => {
  it('gives 24 base64url characters, never a leading "-", all different', async () => {
    const { newSessionId, isSessionId } = await fresh();
    const ids = Array.from({ length: 5000 }, () => newSessionId());
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{23}$/);
      expect(isSessionId(id)).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is the base64url of the drawn bytes, each byte used once, and draws again for a leading "-"', async () => {
    // Bytes 0..n in order, except that the second id's first byte reads as "-" (0xf8: 111110..).
    const { newSessionId } = await fresh((bytes) => {
      bytes.forEach((_, i) => (bytes[i] = i & 255));
      bytes[18] = 0xf8;
    });
    const drawn = Uint8Array.from({ length: 18 * 3 }, (_, i) => (i === 18 ? 0xf8 : i & 255));
    const b64 = (from: number) => Buffer.from(drawn.subarray(from, from + 18)).toString('base64url');
    expect(b64(18).startsWith('-')).toBe(true);
    expect(newSessionId()).toBe(b64(0));
    // The id that would have started with "-" is skipped: the next is made of the bytes after it.
    expect(newSessionId()).toBe(b64(36));
  });

  it('asks the system for random bytes once per 64 ids, not once per id', async () => {
    const { newSessionId, calls } = await fresh();
    for (let i = 0; i < 60; i++) newSessionId();
    expect(calls()).toBe(1);
    for (let i = 0; i < 200; i++) newSessionId();
    // 260 ids (and the few drawn again for a leading "-") take 5 pools of 64.
    expect(calls()).toBeGreaterThanOrEqual(5);
    expect(calls()).toBeLessThanOrEqual(6);
  });
});
