import { addEdgeTool, addNodeTool, deleteEdgeTool, deleteNodeTool, updatePropsTool } from '../graph/tools/graph-tools.js';
import type { ToolRegistry } from '../graph/tools/registry.js';
import type { ToolSignature } from './schemas.js';

/**
 * What a call can see of the graph or change in it, as far as the step's
 * earlier writes go: the nodes it names (by label and key) and the names it
 * uses as a node label or an edge type (AGE keeps one table per name, so a
 * name taken for nodes refuses an edge type, and the reverse). A call whose
 * reach is not known (a read, a host's own tool) reaches everything.
 */
interface Footprint {
  all: boolean;
  nodes: Set<string>;
  names: Map<string, 'node' | 'edge'>;
}

const EVERYTHING: Footprint = { all: true, nodes: new Set(), names: new Map() };

type Ref = { label?: unknown; key?: unknown };
const nodeId = (ref: unknown): string | null => {
  const r = (ref ?? {}) as Ref;
  return typeof r.label === 'string' && typeof r.key === 'string' ? JSON.stringify([r.label, r.key]) : null;
};

/** The built-in graph tools whose reach their arguments say (a host tool of the same name with other arguments is not one). */
const KNOWN = new Map([addNodeTool, addEdgeTool, updatePropsTool, deleteNodeTool, deleteEdgeTool].map((t) => [t.name, t.inputSchema as unknown]));

function footprintOf(registry: ToolRegistry, call: ToolSignature): Footprint {
  if (KNOWN.get(call.tool) === undefined || registry.get(call.tool)?.inputSchema !== KNOWN.get(call.tool)) return EVERYTHING;
  const args = call.args as Record<string, unknown>;
  const nodes: (string | null)[] = [];
  const names = new Map<string, 'node' | 'edge'>();
  switch (call.tool) {
    case 'add_node':
      nodes.push(nodeId(args));
      if (typeof args.label === 'string') names.set(args.label, 'node');
      break;
    case 'add_edge':
      nodes.push(nodeId(args.from), nodeId(args.to));
      if (typeof args.type === 'string') names.set(args.type, 'edge');
      break;
    case 'delete_node':
      // Its edges (detach) end at this node: a call about one of them names it too.
      nodes.push(nodeId(args));
      break;
    case 'delete_edge':
      nodes.push(nodeId(args.from), nodeId(args.to));
      break;
    case 'update_props': {
      const target = (args.target ?? {}) as Record<string, unknown>;
      if (target.kind === 'node') nodes.push(nodeId(target));
      else nodes.push(nodeId(target.from), nodeId(target.to));
      break;
    }
  }
  if (nodes.some((n) => n === null)) return EVERYTHING;
  return { all: false, nodes: new Set(nodes as string[]), names };
}

const overlaps = (a: Footprint, b: Footprint): boolean =>
  a.all || b.all || [...a.nodes].some((n) => b.nodes.has(n)) || [...a.names].some(([name, kind]) => b.names.has(name) && b.names.get(name) !== kind);

/**
 * The step's earlier writes a call's preview must replay to see the graph as
 * the step left it: those whose reach overlaps the call's, and, in turn, the
 * earlier writes those depend on; in their order. A read, or a call of a
 * host's tool, needs them all. The others are left out: the call's outcome
 * cannot depend on them (the save applies every write again, in order, and
 * refuses the step if one no longer applies).
 */
export function writesToReplay(registry: ToolRegistry, call: ToolSignature, writes: readonly ToolSignature[]): ToolSignature[] {
  const reach = [footprintOf(registry, call)];
  const needed = new Array<boolean>(writes.length).fill(false);
  for (let i = writes.length - 1; i >= 0; i--) {
    const write = footprintOf(registry, writes[i]!);
    if (!reach.some((r) => overlaps(r, write))) continue;
    needed[i] = true;
    reach.push(write);
  }
  return writes.filter((_, i) => needed[i]);
}
