import type { SqlClient } from '../store/sql/sql-store.js';

/** What the graph needs of a database connection: queries, inside the caller's transaction. */
export type GraphSql = Pick<SqlClient, 'query'>;

/**
 * Runs `fn` in a savepoint of the caller's transaction. When it fails, its
 * statements are undone and the transaction stays usable, so a tool that the
 * database refused (and a model that asked for it) does not doom the session's
 * turn: the error goes to the caller, the transaction goes on.
 */
export async function inSavepoint<T>(sql: GraphSql, fn: () => Promise<T>): Promise<T> {
  await sql.query('SAVEPOINT gateflow_graph');
  let result: T;
  try {
    result = await fn();
  } catch (error) {
    await sql.query('ROLLBACK TO SAVEPOINT gateflow_graph');
    await sql.query('RELEASE SAVEPOINT gateflow_graph');
    throw error;
  }
  await sql.query('RELEASE SAVEPOINT gateflow_graph');
  return result;
}

/**
 * Runs `fn` read-only, in a savepoint that is always rolled back: `SET
 * TRANSACTION READ ONLY`, `statement_timeout`, `work_mem` and (where the
 * role may: a superuser, as on PGlite) `temp_file_limit` hold inside it only,
 * and are undone with it, so the caller's transaction may write again
 * afterwards, and a query that failed leaves it usable. READ ONLY stops AGE's
 * writes too (CREATE, SET, REMOVE, DELETE, MERGE fail with 25006, checked on
 * AGE 1.7); the rollback keeps nothing of a read in any case. Needs a
 * transaction (a savepoint outside one is an error: it fails closed). `fn` is
 * told whether the statement timeout can work: not on PGlite (one thread).
 */
export async function readOnlyScope<T>(
  sql: GraphSql,
  options: { timeoutMs: number; workMemKb?: number; tempFileLimitKb?: number },
  fn: (scope: { timed: boolean }) => Promise<T>,
): Promise<T> {
  await sql.query('SAVEPOINT gateflow_read');
  try {
    await sql.query('SET TRANSACTION READ ONLY');
    const { rows } = await sql.query<{ timed: boolean }>(
      `SELECT set_config('statement_timeout', $1, true) IS NOT NULL
              AND ($2::int IS NULL OR set_config('work_mem', $2::int || 'kB', true) IS NOT NULL)
              AND ($3::int IS NULL OR current_setting('is_superuser') <> 'on' OR set_config('temp_file_limit', $3::int || 'kB', true) IS NOT NULL)
              AND version() NOT LIKE '%emscripten%' AS timed`,
      [`${Math.max(1, Math.round(options.timeoutMs))}ms`, options.workMemKb ?? null, options.tempFileLimitKb ?? null],
    );
    return await fn({ timed: rows[0]?.timed === true });
  } finally {
    await sql.query('ROLLBACK TO SAVEPOINT gateflow_read');
    await sql.query('RELEASE SAVEPOINT gateflow_read');
  }
}
