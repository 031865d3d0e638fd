import { kindOf } from './nodes/index.js';
import { EXIT_TARGET, type FlowDocument, type FlowNode } from './schema.js';

/**
 * Which answers may exist when a node's guards run: the flow's inputs, and
 * the answers of every node on some path from the start (or a subgraph's
 * entry) to that node, the node itself included (its edges' guards run once
 * it is answered; its `when` may run again in a loop). A call of a subgraph
 * gives every answer of that subgraph. Conservative where the order is not
 * known: inside a subgraph, every answer given outside it may exist; the
 * flow's and the constraints' fallbacks may be entered from any node.
 */
export interface AnswerOrder {
  /** The answer keys that may be given before the guards of `node` (in `subgraph`, or the main flow when null) run; undefined for a node it does not know. */
  givenBy(subgraph: string | null, node: string): ReadonlySet<string> | undefined;
  /** The node that gives an answer key (for messages). */
  giver(key: string): string | undefined;
}

export function answerOrder(doc: FlowDocument): AnswerOrder {
  const subgraphs = doc.subgraphs ?? {};
  const inputs = Object.keys(doc.inputs ?? {});
  const givers = new Map<string, string>();
  const scopes = [
    { ref: null as string | null, nodes: doc.nodes, edges: doc.edges, extra: [doc.fallback, ...(doc.constraints ?? []).map((c) => c.fallback)] },
    ...Object.entries(subgraphs).map(([ref, s]) => ({ ref: ref as string | null, nodes: s.nodes, edges: s.edges, extra: [] as (string | undefined)[] })),
  ];

  const ownKeys = (node: FlowNode): string[] => kindOf(node).answerKeys?.(node) ?? [];
  /** Every key a subgraph gives, its calls included. */
  const subgraphKeys = (ref: string, seen: string[] = []): string[] => {
    const sub = subgraphs[ref];
    if (!sub || seen.includes(ref)) return [];
    return sub.nodes.flatMap((n) => keysOf(n, [...seen, ref]));
  };
  const keysOf = (node: FlowNode, seen: string[] = []): string[] => (node.kind === 'subgraph' ? subgraphKeys(node.ref, seen) : ownKeys(node));
  for (const scope of scopes) for (const node of scope.nodes) for (const key of ownKeys(node)) if (!givers.has(key)) givers.set(key, node.id);

  const cache = new Map<string, ReadonlySet<string>>();
  return {
    giver: (key) => givers.get(key),
    givenBy(ref, id) {
      const cacheKey = `${ref ?? ''}\u0000${id}`;
      const known = cache.get(cacheKey);
      if (known) return known;
      const scope = scopes.find((s) => s.ref === ref);
      const byId = new Map(scope?.nodes.map((n) => [n.id, n]));
      if (!scope || !byId.has(id)) return undefined;
      const back = new Map<string, string[]>();
      const link = (from: string, to: string) => back.set(to, [...(back.get(to) ?? []), from]);
      for (const edge of scope.edges) if (edge.to !== EXIT_TARGET && byId.has(edge.from)) link(edge.from, edge.to);
      for (const target of scope.extra) if (target !== undefined) for (const node of scope.nodes) link(node.id, target);
      const before = new Set([id]);
      const queue = [id];
      while (queue.length > 0)
        for (const from of back.get(queue.shift()!) ?? [])
          if (!before.has(from)) {
            before.add(from);
            queue.push(from);
          }
      const given = new Set(inputs);
      for (const nodeId of before) for (const key of keysOf(byId.get(nodeId)!)) given.add(key);
      // Inside a subgraph: whatever is given outside it may have been given before it was called.
      if (ref !== null) for (const other of scopes) if (other.ref !== ref) for (const node of other.nodes) for (const key of ownKeys(node)) given.add(key);
      cache.set(cacheKey, given);
      return given;
    },
  };
}
