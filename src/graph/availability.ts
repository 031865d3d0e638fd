import type { SqlClient } from '../store/sql/sql-store.js';
import { GraphUnavailableError } from './errors.js';

/**
 * Checks once, at start, that the database can hold graphs, and enables Apache
 * AGE in it when the server has it (`CREATE EXTENSION age`). Throws
 * {@link GraphUnavailableError} with a message an operator can act on when it
 * cannot: the task agent reports it and stays off; sessions, flows and every
 * other workflow keep working. Runs in a transaction of its own, so a refusal
 * leaves no other work broken. Returns AGE's version.
 */
export async function ensureGraphSupport(client: Pick<SqlClient, 'transaction'>): Promise<{ version: string }> {
  return client.transaction(async (tx) => {
    const installed = await tx.query<{ extversion: string }>("SELECT extversion FROM pg_extension WHERE extname = 'age'");
    if (installed.rows[0]) return { version: installed.rows[0].extversion };
    const available = await tx.query<{ default_version: string }>("SELECT default_version FROM pg_available_extensions WHERE name = 'age'");
    if (!available.rows[0]) throw new GraphUnavailableError('not_installed', 'no extension "age" among the available extensions');
    // Processes starting together: one creates the extension, the others wait and find it.
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', ['gateflow graph extension']);
    try {
      await tx.query('CREATE EXTENSION IF NOT EXISTS age');
    } catch (error) {
      throw new GraphUnavailableError('not_enabled', (error as Error).message);
    }
    const created = await tx.query<{ extversion: string }>("SELECT extversion FROM pg_extension WHERE extname = 'age'");
    return { version: created.rows[0]?.extversion ?? available.rows[0].default_version };
  });
}
