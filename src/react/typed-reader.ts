import { useEffect, useState } from 'react';
import type { coerceInputValue } from '../inputs/coerce-value.js';

/**
 * The typed-value reader (dates, numbers in words, phone numbers: most of
 * what the widget would weigh) in a chunk of its own, loaded when a form
 * first shows rather than with the widget. A form uses it only to say a
 * refusal in the person's words; until it is there, the server's words are
 * shown, which say the same.
 */
export type TypedReader = typeof coerceInputValue;

let loading: Promise<TypedReader> | undefined;
let loaded: TypedReader | undefined;

/** Starts loading the reader (once); resolves with it. */
export function loadTypedReader(): Promise<TypedReader> {
  // zod's JIT off before the reader's schemas are built (./zod-jitless.ts), whatever the host imported.
  // Its export is read: a bundler drops an unread module of a `sideEffects: false` package, config call and all.
  loading ??= import('./zod-jitless.js')
    .then(({ ZOD_JITLESS }) => {
      if (!ZOD_JITLESS) throw new Error("zod's JIT is still on");
      return import('../inputs/coerce-value.js');
    })
    .then((module) => (loaded = module.coerceInputValue));
  return loading;
}

/** The reader if it has loaded, else undefined. */
export const typedReader = (): TypedReader | undefined => loaded;

/** The reader once loaded (loading it on the first form shown); undefined until then. */
export function useTypedReader(): TypedReader | undefined {
  const [reader, setReader] = useState(typedReader);
  useEffect(() => {
    if (reader) return;
    let live = true;
    // A failed load (offline, a chunk gone after a deploy) leaves the server's words: nothing to report.
    loadTypedReader().then(
      (next) => live && setReader(() => next),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [reader]);
  return reader;
}
