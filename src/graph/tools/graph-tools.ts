import { z } from 'zod';
import { MAX_CYPHER_LENGTH } from '../cypher-text.js';
import {
  EdgeRefSchema,
  LabelSchema,
  NewEdgeSchema,
  NewNodeSchema,
  NodeKeySchema,
  NodeRefSchema,
  withPropertyChange,
} from '../model.js';
import { GraphQuerySchema } from '../property-graph.js';
import { ToolRegistry } from './registry.js';
import { defineTool, type GraphTool } from './tool.js';

/** The graph tools of seed 004: what a task agent changes and reads the graph with. */

export const addNodeTool = defineTool({
  name: 'add_node',
  description: 'Create a node with a label and a key unique among nodes of that label (e.g. label "Ticket", key "TICKET-123"), with optional properties.',
  inputSchema: NewNodeSchema,
  run: (graph, args) => graph.addNode(args),
});

export const addEdgeTool = defineTool({
  name: 'add_edge',
  description: 'Create a directed edge of a type (e.g. "REPORTS") from one existing node to another, with optional properties. Both nodes must exist.',
  inputSchema: NewEdgeSchema,
  run: (graph, args) => graph.addEdge(args),
});

export const updatePropsTool = defineTool({
  name: 'update_props',
  description: "Change the properties of a node (target kind \"node\": label and key) or an edge (kind \"edge\": type, from, to): set adds or overwrites, unset removes. A node's key cannot change.",
  inputSchema: withPropertyChange({
    target: z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('node'), ...NodeRefSchema.shape }),
      z.strictObject({ kind: z.literal('edge'), ...EdgeRefSchema.shape }),
    ]),
  }),
  run: async (graph, { target, set, unset }) => {
    const change = { ...(set ? { set } : {}), ...(unset ? { unset } : {}) };
    if (target.kind === 'node') return graph.updateNode({ label: target.label, key: target.key }, change);
    return graph.updateEdge({ type: target.type, from: target.from, to: target.to }, change);
  },
});

export const deleteNodeTool = defineTool({
  name: 'delete_node',
  description: 'Delete a node by label and key. Refused while the node has edges, unless detach is true (then its edges are deleted with it).',
  inputSchema: z.strictObject({
    label: LabelSchema,
    key: NodeKeySchema,
    detach: z.boolean().default(false).describe('Also delete the edges of the node'),
  }),
  run: async (graph, { label, key, detach }) => ({ deleted: { label, key }, ...(await graph.deleteNode({ label, key }, { detach })) }),
});

export const deleteEdgeTool = defineTool({
  name: 'delete_edge',
  description: 'Delete the edge of a type from one node to another.',
  inputSchema: EdgeRefSchema,
  run: async (graph, ref) => {
    await graph.deleteEdge(ref);
    return { deleted: ref };
  },
});

export const queryGraphTool = defineTool({
  name: 'query_graph',
  readOnly: true,
  description:
    'Find nodes by label, key and property values (equality), and optionally their neighbours (by direction, edge type, neighbour label). Returns { nodes, edges, truncated }.',
  inputSchema: GraphQuerySchema,
  run: (graph, query) => graph.query(query),
});

export const cypherQueryTool = defineTool({
  name: 'cypher_query',
  readOnly: true,
  description:
    "Run one read-only openCypher query (MATCH … RETURN …) on the graph, values written inline (no $parameters), and get { columns, rows, truncated }. Writes are refused: change the graph with the other tools. Nodes hold their key in the property `key`.",
  inputSchema: z.strictObject({ query: z.string().min(1).max(MAX_CYPHER_LENGTH).describe('The Cypher query, e.g. MATCH (t:Ticket {status: "open"}) RETURN t.key') }),
  run: (graph, { query }) => graph.cypher(query),
});

/** The seven graph tools, in the order a model is shown them. */
export const GRAPH_TOOLS: readonly GraphTool[] = [addNodeTool, addEdgeTool, updatePropsTool, deleteNodeTool, deleteEdgeTool, queryGraphTool, cypherQueryTool];

/** A registry with the graph tools and, after them, the host's own. */
export const createGraphToolRegistry = (...hostTools: GraphTool[]): ToolRegistry => new ToolRegistry([...GRAPH_TOOLS, ...hostTools]);
