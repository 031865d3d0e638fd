import * as z from 'zod/mini';

/**
 * zod v4 compiles object parsers with `new Function` (its JIT) and, before
 * the first object schema is built, probes whether it may (`new Function('')`
 * in a try). Under a Content-Security-Policy without `unsafe-eval` (the
 * served pages', and any careful host's) the probe is refused and reported as
 * a `script-src eval` violation on every page load, though zod catches it.
 * In the browser the JIT is off: this module runs first (the browser entry
 * points import it before anything that builds a schema), so the probe never
 * runs. Node keeps the JIT (the server parses every turn). `zod/mini` and
 * classic zod share this setting; the widget's only schemas load with its
 * typed reader, which imports this module first (./typed-reader.ts).
 */
z.config({ jitless: true });

/** Imported by name so that a bundler keeps this module (the package is `sideEffects: false`). */
export const ZOD_JITLESS = z.config().jitless === true;
