import type { Extension } from '@electric-sql/pglite';
import { age } from '@electric-sql/pglite-age';

/**
 * What PGlite must be opened with to hold graphs: Apache AGE, built for
 * PGlite (`@electric-sql/pglite-age`), e.g.
 * `new PGlite(dataDir, graphPgliteOptions())` (measured: no time added to opening
 * the store; AGE's first query about half a second). Kept apart from the rest of `graph/` so that only a
 * PGlite host loads the AGE bundle.
 */
export function graphPgliteOptions(): { extensions: { age: Extension } } {
  return { extensions: { age } };
}
