import { CypherRefusedError } from './errors.js';

/**
 * The second check on model-written Cypher: the plan PostgreSQL would run
 * (EXPLAIN, which runs nothing). AGE plans its writes as custom scans (Cypher
 * Create, Set, Delete, Merge) and a read as ordinary scans and joins, so a plan
 * with any custom scan, table modification or row lock is refused, however the
 * text hid the write. The plan's estimated cost is capped too: PGlite has no
 * statement timeout (it runs in one thread), so a cartesian product across
 * the whole graph is refused before it starts.
 */

const WRITING_NODES = new Set(['ModifyTable', 'LockRows', 'Custom Scan']);

interface PlanNode {
  'Node Type'?: string;
  'Custom Plan Provider'?: string;
  'Total Cost'?: number;
  Plans?: PlanNode[];
}

/** Refuses a plan (EXPLAIN (FORMAT JSON) output, parsed or as text) that writes, or costs more than `maxCost`. */
export function checkReadPlan(explained: unknown, maxCost: number): void {
  const doc = typeof explained === 'string' ? (JSON.parse(explained) as unknown) : explained;
  const root = (Array.isArray(doc) ? (doc[0] as { Plan?: PlanNode } | undefined)?.Plan : undefined) ?? undefined;
  if (!root) throw new CypherRefusedError('write_plan', 'the database gave no plan for the query');
  const visit = (node: PlanNode) => {
    const type = node['Node Type'] ?? '';
    if (WRITING_NODES.has(type) || node['Custom Plan Provider'] !== undefined)
      throw new CypherRefusedError('write_plan', `the query would write (${node['Custom Plan Provider'] ?? type}): cypher_query only reads`);
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(root);
  // The most costly node, not the root: a LIMIT above a join is costed as if it stopped early,
  // but a filter that matches little runs the join through (a cost of 455 at the root took 18 s).
  const costOf = (node: PlanNode): number => Math.max(node['Total Cost'] ?? 0, ...(node.Plans ?? []).map(costOf));
  const cost = costOf(root);
  if (cost > maxCost)
    throw new CypherRefusedError('too_expensive', `the query would cost about ${Math.round(cost).toExponential(1)} (the limit is ${maxCost.toExponential(1)}): match by label and key, and avoid unconnected patterns`);
}
