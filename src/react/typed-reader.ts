import { useEffect, useSyncExternalStore } from 'react';
import type { coerceInputValue } from '../inputs/coerce-value.js';
import { retryingImport } from './retrying-import.js';

/**
 * The typed-value reader (dates, numbers in words, phone numbers: most of
 * what the widget would weigh) in a chunk of its own, loaded when a form
 * first shows rather than with the widget. A form uses it only to say a
 * refusal in the person's words; until it is there, the server's words are
 * shown, which say the same. A failed load (offline, a chunk gone after a
 * deploy) is tried again (./retrying-import.ts).
 */
export type TypedReader = typeof coerceInputValue;

const reader = retryingImport<TypedReader>(() =>
  // zod's JIT off before the reader's schemas are built (./zod-jitless.ts), whatever the host imported.
  // Its export is read: a bundler drops an unread module of a `sideEffects: false` package, config call and all.
  import('./zod-jitless.js')
    .then(({ ZOD_JITLESS }) => {
      if (!ZOD_JITLESS) throw new Error("zod's JIT is still on");
      return import('../inputs/coerce-value.js');
    })
    .then((module) => module.coerceInputValue),
);

/** Loads the reader (once it has loaded; a failed load is tried again when next asked for, after a pause). */
export const loadTypedReader = (): Promise<TypedReader> => reader.load();

/** The reader if it has loaded, else undefined. */
export const typedReader = (): TypedReader | undefined => reader.current();

/**
 * The reader once loaded (loading it on the first form shown); undefined
 * until then. `need` is what the form would read with it (the refusal to
 * say): each new one asks for the reader again if it has not loaded.
 */
export function useTypedReader(need?: unknown): TypedReader | undefined {
  const current = useSyncExternalStore(reader.subscribe, reader.current, reader.current);
  useEffect(() => {
    if (current) return;
    // A failure leaves the server's words, and the loader tries again: nothing to report here.
    reader.load().catch(() => undefined);
  }, [current, need]);
  return current;
}
