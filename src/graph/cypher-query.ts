import { parseAgtype, type AgValue } from './agtype.js';
import { checkReadPlan } from './cypher-plan.js';
import { checkCypherText, dollarQuoted } from './cypher-text.js';
import { CypherQueryError } from './errors.js';
import { isGraphName } from './graph-name.js';
import { readOnlyScope, type GraphSql } from './sql-scope.js';

/** The bounds on one model-written query. */
export interface CypherLimits {
  /** Rows returned at most; more are cut and `truncated` is set. */
  maxRows: number;
  /** PostgreSQL's statement_timeout for the query (PGlite has none: `maxCost` bounds it there). */
  timeoutMs: number;
  /** The planner's cost estimate above which the query is refused unrun. */
  maxCost: number;
  /**
   * The cost cap where no statement timeout can stop a read (PGlite: one
   * thread, no timer runs while a statement does), so that every read ends
   * soon: about a second of AGE's work on a loaded two-core machine (a
   * two-way cartesian product of 2,000 nodes costs 6e4 and took 3 s).
   */
  maxCostWithoutTimeout: number;
  /** Memory for one sort or hash of the read (PostgreSQL's work_mem, in kB); more spills to temporary files. */
  workMemKb: number;
  /** Temporary file space the read may use (temp_file_limit, in kB), where the role may set it (a superuser: PGlite's). */
  tempFileLimitKb: number;
}

export const DEFAULT_CYPHER_LIMITS: Readonly<CypherLimits> = {
  maxRows: 100,
  timeoutMs: 2000,
  maxCost: 1e8,
  maxCostWithoutTimeout: 1e4,
  workMemKb: 4096,
  tempFileLimitKb: 65_536,
};

export interface CypherResult {
  columns: string[];
  /** One object per row: column name to value (vertices and edges as `{ id, label, properties }`). */
  rows: Record<string, AgValue>[];
  truncated: boolean;
}

/**
 * Runs Cypher a model wrote, as hostile text: checked as tokens, embedded in a
 * dollar quote it cannot close, planned with EXPLAIN and refused if the plan
 * writes or costs too much (a lower cap where no statement timeout works),
 * then run read-only under a statement timeout, with its rows capped and its
 * sorts' memory and temporary files bounded, in a savepoint that is rolled
 * back whatever happens.
 */
export async function runReadOnlyCypher(sql: GraphSql, graph: string, text: string, limits: CypherLimits = DEFAULT_CYPHER_LIMITS): Promise<CypherResult> {
  if (!isGraphName(graph)) throw new Error(`not a graph name: ${graph}`);
  const { columns } = checkCypherText(text);
  const definitions = columns.map((_, i) => `c${i} ag_catalog.agtype`).join(', ');
  // A parameter (the row cap) keeps the statement on the extended protocol: one statement, never several.
  const select = `SELECT * FROM ag_catalog.cypher('${graph}', ${dollarQuoted(text)}) AS (${definitions}) LIMIT $1`;
  const cap = [limits.maxRows + 1];
  return readOnlyScope(sql, limits, async ({ timed }) => {
    const { rows: plan } = await asQueryError(sql.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${select}`, cap));
    checkReadPlan(plan[0]?.['QUERY PLAN'], timed ? limits.maxCost : Math.min(limits.maxCost, limits.maxCostWithoutTimeout));
    const { rows } = await asQueryError(sql.query<Record<string, string | null>>(select, cap));
    return {
      columns,
      rows: rows.slice(0, limits.maxRows).map((row) => Object.fromEntries(columns.map((name, i) => [name, parseAgtype(row[`c${i}`] ?? null)]))),
      truncated: rows.length > limits.maxRows,
    };
  });
}

/** The database's verdict on the query (syntax, types, the timeout) for the model to read; anything else (an outage) goes on as it is. */
async function asQueryError<T>(query: Promise<T>): Promise<T> {
  try {
    return await query;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code !== 'string' || !/^(?:22|42|57014|XX|0A|3F|2B|25)/.test(code)) throw error;
    const detail = code === '57014' ? 'it ran longer than the time limit' : (error as Error).message;
    throw new CypherQueryError(detail, code);
  }
}
