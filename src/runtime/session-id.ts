/** base64url's alphabet: a session id is 24 of these (6 bits each). */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const ID_BYTES = 18;
/**
 * Random bytes drawn 64 ids at a time: one call into the system's generator
 * costs about what encoding an id does, and a session starts with one.
 * Each byte is used once (the pool is never read twice).
 */
const POOL_BYTES = ID_BYTES * 64;
let pool = new Uint8Array(0);
let used = 0;

/**
 * A random, unguessable session id: 144 bits, base64url (24 characters),
 * never starting with "-" (a command line would read `--session -x...` as
 * an option): one in 64 draws is drawn again.
 */
export function newSessionId(): string {
  for (;;) {
    if (used + ID_BYTES > pool.length) {
      pool = globalThis.crypto.getRandomValues(new Uint8Array(POOL_BYTES));
      used = 0;
    }
    let id = '';
    // Three bytes are four characters.
    for (let i = used; i < used + ID_BYTES; i += 3) {
      const n = (pool[i]! << 16) | (pool[i + 1]! << 8) | pool[i + 2]!;
      id += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
    }
    used += ID_BYTES;
    if (id[0] !== '-') return id;
  }
}

/** Whether a string could be a session id at all; anything else is unknown without asking a store. */
export function isSessionId(value: string): boolean {
  return /^[A-Za-z0-9_-]{1,128}$/.test(value);
}
