/**
 * A random, unguessable session id: 144 bits, base64url (24 characters),
 * never starting with "-" (a command line would read `--session -x...` as
 * an option): one in 64 draws is drawn again.
 */
export function newSessionId(): string {
  for (;;) {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(18));
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    const id = btoa(binary).replaceAll('+', '-').replaceAll('/', '_');
    if (!id.startsWith('-')) return id;
  }
}

/** Whether a string could be a session id at all; anything else is unknown without asking a store. */
export function isSessionId(value: string): boolean {
  return /^[A-Za-z0-9_-]{1,128}$/.test(value);
}
