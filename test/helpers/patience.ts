/**
 * How long a test waits for something that must happen (a server to listen, a
 * page to show a reply, a poll to see a change). Far beyond what any load on
 * the machine makes a working step take, so that reaching it means a hang, not
 * a busy machine: no test depends on the machine being idle. Vitest's own test
 * and hook timeouts (vitest.config.ts) are longer still.
 */
export const PATIENCE_MS = 240_000;
