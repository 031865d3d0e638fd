import type { Extension } from '@electric-sql/pglite';
import { importOptional } from '../error/optional-dependency.js';

/**
 * What PGlite must be opened with to hold graphs: Apache AGE, built for
 * PGlite (`@electric-sql/pglite-age`), e.g.
 * `new PGlite(dataDir, graphPgliteOptions())` (measured: no time added to opening
 * the store; AGE's first query about half a second). Kept apart from the rest of `graph/` so that only a
 * PGlite host loads the AGE bundle.
 */
// An optional peer dependency: importing this module is using it, and says what to install when it is missing.
const { age } = await importOptional('@electric-sql/pglite-age', 'Apache AGE in PGlite (gateflow/graph/pglite)', () => import('@electric-sql/pglite-age'));

export function graphPgliteOptions(): { extensions: { age: Extension } } {
  return { extensions: { age } };
}
