import type { StateValue } from 'xstate';
import type { FlowGraph } from './graph.js';
import type { FlowNode } from './schema.js';

/** The node a compiled flow is in, and its place: node ids from the root joined by "." (`led.court_size`). */
export interface ActiveNode {
  node: FlowNode;
  place: string;
  /** The subgraph calls it is inside, outermost first (the call stack). */
  stack: string[];
}

/**
 * Reads a state value down through subgraph calls to the node that is
 * active. Undefined when the value names a node the flow does not have.
 */
export function activeNode(graph: FlowGraph, value: StateValue): ActiveNode | undefined {
  let scope = graph.main;
  const stack: string[] = [];
  let v: StateValue = value;
  for (let depth = 0; depth < 64; depth++) {
    const key = typeof v === 'string' ? v : Object.keys(v)[0];
    if (key === undefined) return undefined;
    const node = scope.node(key);
    if (!node) return undefined;
    const inner = typeof v === 'string' ? undefined : v[key];
    if (node.kind === 'subgraph' && inner !== undefined) {
      const sub = graph.scope(node.ref);
      if (!sub) return undefined;
      stack.push(key);
      scope = sub;
      v = inner as StateValue;
      continue;
    }
    return { node, place: [...stack, key].join('.'), stack };
  }
  return undefined;
}
