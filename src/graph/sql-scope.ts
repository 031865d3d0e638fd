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
 * TRANSACTION READ ONLY` and `statement_timeout` hold inside it only, and are
 * undone with it, so the caller's transaction may write again afterwards, and
 * a query that failed leaves it usable. READ ONLY stops AGE's writes too
 * (CREATE, SET, REMOVE, DELETE, MERGE fail with 25006, checked on AGE 1.7);
 * the rollback keeps nothing of a read in any case. Needs a transaction (a
 * savepoint outside one is an error: it fails closed).
 */
export async function readOnlyScope<T>(sql: GraphSql, options: { timeoutMs: number }, fn: () => Promise<T>): Promise<T> {
  await sql.query('SAVEPOINT gateflow_read');
  try {
    await sql.query('SET TRANSACTION READ ONLY');
    await sql.query("SELECT set_config('statement_timeout', $1, true)", [`${Math.max(1, Math.round(options.timeoutMs))}ms`]);
    return await fn();
  } finally {
    await sql.query('ROLLBACK TO SAVEPOINT gateflow_read');
    await sql.query('RELEASE SAVEPOINT gateflow_read');
  }
}
