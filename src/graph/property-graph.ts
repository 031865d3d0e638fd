import { z } from 'zod';
import type { CypherResult } from './cypher-query.js';
import {
  EdgeTypeSchema,
  LabelSchema,
  NodeKeySchema,
  PropertiesSchema,
  type EdgeRef,
  type GraphEdge,
  type GraphNode,
  type NewEdge,
  type NewNode,
  type NodeRef,
  type PropertyChange,
} from './model.js';

/** The most nodes (or node–edge–neighbour rows) one query_graph call returns. */
export const MAX_QUERY_LIMIT = 100;

/** What query_graph finds: nodes by label, key and property values, and, if asked, their neighbours. */
export const GraphQuerySchema = z.strictObject({
  label: LabelSchema.optional().describe('Only nodes with this label'),
  key: NodeKeySchema.optional().describe('Only the node with this key'),
  where: PropertiesSchema.optional().describe('Only nodes whose properties equal these values'),
  neighbours: z
    .strictObject({
      direction: z.enum(['out', 'in', 'both']).default('both').describe('out: edges from the node; in: edges to it; both'),
      type: EdgeTypeSchema.optional().describe('Only edges of this type'),
      label: LabelSchema.optional().describe('Only neighbours with this label'),
    })
    .optional()
    .describe("Also return each found node's neighbours and the edges to them"),
  limit: z.number().int().min(1).max(MAX_QUERY_LIMIT).default(25).describe(`At most this many results (up to ${MAX_QUERY_LIMIT})`),
});
export type GraphQuery = z.input<typeof GraphQuerySchema>;

export interface GraphQueryResult {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** More matched than `limit`: ask with a narrower query. */
  truncated: boolean;
}

/**
 * A property graph: nodes with a label and a key unique per label, directed
 * typed edges (one per type between two nodes), properties on both. Bound to
 * one owner's graph and to the caller's transaction, so that a turn's changes
 * commit or roll back with the session.
 */
export interface PropertyGraph {
  /** The graph's name in the database. */
  readonly name: string;
  /** Refused when a node of that label has that key already. */
  addNode(node: NewNode): Promise<GraphNode>;
  /** Refused when an end is missing, or the same edge (type, from, to) exists. */
  addEdge(edge: NewEdge): Promise<GraphEdge>;
  updateNode(ref: NodeRef, change: PropertyChange): Promise<GraphNode>;
  updateEdge(ref: EdgeRef, change: PropertyChange): Promise<GraphEdge>;
  /** Refused while the node has edges, unless `detach` (which deletes them with it). */
  deleteNode(ref: NodeRef, options?: { detach?: boolean }): Promise<{ edgesDeleted: number }>;
  deleteEdge(ref: EdgeRef): Promise<void>;
  query(query: GraphQuery): Promise<GraphQueryResult>;
  /** Model-written Cypher: read-only, checked, capped (see runReadOnlyCypher). */
  cypher(text: string): Promise<CypherResult>;
  /** Every node (with a label: of that label), ordered by label and key. */
  listNodes(options?: { label?: string }): Promise<GraphNode[]>;
  /** Every edge (with a label: those touching a node of that label). */
  listEdges(options?: { label?: string }): Promise<GraphEdge[]>;
}
