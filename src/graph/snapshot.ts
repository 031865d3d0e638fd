import type { GraphSnapshot } from './model.js';
import type { PropertyGraph } from './property-graph.js';

/**
 * The graph as `GET /api/graph` and `gateflow graph --json` give it:
 * `{ nodes: [{ label, key, properties }], edges: [{ type, from, to, properties }] }`.
 * With a label: the nodes of that label and the edges touching them (their
 * other ends named by label and key).
 */
export async function graphSnapshot(graph: PropertyGraph, options: { label?: string } = {}): Promise<GraphSnapshot> {
  const nodes = await graph.listNodes(options);
  const edges = await graph.listEdges(options);
  return { nodes, edges };
}
