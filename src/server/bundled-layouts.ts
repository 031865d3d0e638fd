import { z } from 'zod';
import { DrawingLayoutSchema, type DrawingLayout } from '../viz/layout.js';
import type { LayoutKey } from '../store/types.js';

/**
 * Layouts made ahead, at build time, for drawings known then (the example
 * flows): a fresh server serves them at once, where ELK in a worker just
 * started takes seconds for the first machine level. Each is found only under
 * its key (the drawing's content hash, the level, and the layout code's
 * revision with gateflow's version), so a changed flow or other layout code is
 * laid out as usual, never served a stale layout. `npm run build:layouts` writes the file;
 * test/server/bundled-layouts.test.ts fails when it is out of date.
 */
export const BundledLayoutsSchema = z.strictObject({
  layouts: z.array(
    z.strictObject({
      drawingId: z.string(),
      contentHash: z.string().regex(/^[0-9a-f]{64}$/u),
      level: z.string(),
      code: z.string(),
      body: DrawingLayoutSchema,
    }),
  ),
});
export type BundledLayouts = z.infer<typeof BundledLayoutsSchema>;

/** A lookup of bundled layouts by exact key; null for a key not bundled. */
export type BundledLayoutLookup = (key: LayoutKey) => DrawingLayout | null;

/**
 * A bundled layout was made by the elkjs this gateflow release pins: it stays
 * this drawing's layout whichever elkjs an app has installed, or none (an app
 * that opens only the examples' drawings needs no elkjs). So ELK's version is
 * left out of its key; the layout code's revision and gateflow's version stay.
 */
const withoutElk = (code: string) => code.replace(/\s+elkjs@\S+$/u, '');
const keyText = (key: LayoutKey) => JSON.stringify([key.drawingId, key.contentHash, key.level, withoutElk(key.code)]);

/** The lookup of a bundled-layouts document, checked first (a malformed one is an error naming the first problem). */
export function bundledLayoutLookup(document: unknown): BundledLayoutLookup {
  const checked = BundledLayoutsSchema.safeParse(document);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new TypeError(`bundled layouts: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'not a bundled-layouts document'}`);
  }
  const byKey = new Map(checked.data.layouts.map((entry) => [keyText(entry), entry.body]));
  return (key) => byKey.get(keyText(key)) ?? null;
}
