/** Where `gateflow serve` and the PGlite store keep their data unless told otherwise. */
export const DEFAULT_PGLITE_DIR = '.gateflow/db';
