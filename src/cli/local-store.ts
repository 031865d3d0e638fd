import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Extensions } from '@electric-sql/pglite';
import { DirectoryLockedError } from '../store/dir-lock.js';
import type { PostgresTimeouts } from '../store/postgres.js';
import { StoreUnavailableError, type Store } from '../store/types.js';
import { CliError } from './io.js';

/**
 * The store a command reads on its own, without a server (`gateflow inputs`,
 * `gateflow graph`): the one `gateflow serve` would open, found as serve finds
 * it. What can go wrong (no store in the directory, a directory a server
 * holds, a database that does not answer) is one line and exit 1.
 */

/** Where the store is: as `gateflow serve` reads it from the environment. */
export interface LocalStoreLocation {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  postgresTimeouts?: PostgresTimeouts;
}

export async function openLocalStore(location: LocalStoreLocation, options: { pgliteExtensions?: Extensions } = {}): Promise<Store> {
  try {
    if (location.databaseUrl) {
      const { createPostgresStore } = await import('../store/postgres.js');
      return await createPostgresStore({ connectionString: location.databaseUrl, ...(location.postgresTimeouts && { timeouts: location.postgresTimeouts }) });
    }
    const { createPgliteStore, DEFAULT_PGLITE_DIR } = await import('../store/pglite.js');
    const dataDir = location.dataDir ?? DEFAULT_PGLITE_DIR;
    // Opening a directory that holds no store would create an empty one there (and
    // answer "nothing"): a mistyped path or another working directory.
    if (!existsSync(join(dataDir, 'PG_VERSION')))
      throw new CliError(
        `gateflow: no gateflow store in ${resolve(dataDir)}: set GATEFLOW_DB_DIR to the directory gateflow serve uses (DATABASE_URL for PostgreSQL), or ask a running server with --server URL`,
        1,
      );
    return await createPgliteStore({ dataDir, ...(options.pgliteExtensions && { extensions: options.pgliteExtensions }) });
  } catch (error) {
    if (error instanceof DirectoryLockedError) throw new CliError(`gateflow: ${error.message}.\ngateflow: ${lockedAdvice(error)}`, 1);
    if (error instanceof StoreUnavailableError) throw new CliError(`gateflow: ${error.message}`, 1);
    throw error;
  }
}

/**
 * What to do about a held PGlite directory: a server is asked with `--server`;
 * another command (a second `gateflow input` at the same moment, a chat) is
 * waited for, which the advice to use a server would not help with.
 */
function lockedAdvice(error: DirectoryLockedError): string {
  const command = error.holder.command;
  if (command !== undefined && !/\bserve\b/.test(command))
    return 'another gateflow command holds this store: try again once it has finished (or ask a running server with --server URL)';
  return 'a server holds this store: ask it instead with --server URL (e.g. --server http://127.0.0.1:3000, or set GATEFLOW_SERVER)';
}
