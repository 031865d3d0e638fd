import { z } from 'zod';
import { EXIT_TARGET, NodeIdSchema, nodeFields } from '../fields.js';
import type { NodeKind } from './kind.js';
import { working } from './shared.js';

/** Calls a subflow (`subgraphs[ref]`): enters its `entry`; its `__exit__` returns here and leaves on `done`. */
export const SubgraphNodeSchema = z.strictObject({
  kind: z.literal('subgraph').describe('"subgraph": calls `subgraphs[ref]`; its `__exit__` returns here and leaves on `done`.'),
  ...nodeFields,
  ref: NodeIdSchema.meta({ description: 'The name of the subgraph it calls (a key of `subgraphs`).', examples: ['contact'] }),
});

export type SubgraphNode = z.infer<typeof SubgraphNodeSchema>;

/**
 * A subgraph call: a compound state holding the called scope's states (a
 * subgraph called from two places has two copies, with their own places), left
 * on `done` once the scope reaches its `__exit__` final state.
 */
export const subgraph: NodeKind<typeof SubgraphNodeSchema> = {
  kind: 'subgraph',
  schema: SubgraphNodeSchema,
  outcomes: ['done'],
  // A missing `ref` and calls that loop are reported with the flow's subgraphs (check.ts).
  checkEdges(_node, c) {
    c.need('done', 'to continue on when the subgraph exits');
  },
  // As loud as the loudest node of the scope it calls.
  silence: (node, subgraphs) => subgraphs.get(node.ref) ?? 'asks',

  state(p, c) {
    const sub = c.graph.scope(p.node.ref)!;
    const path = [...p.path, p.node.id];
    return {
      ...c.traced(p),
      initial: sub.entry.id,
      states: { ...c.scopeStates(sub, path), [EXIT_TARGET]: { type: 'final' } },
      onDone: c.route(p, 'done'),
    };
  },

  // Only seen while a node inside is working: the active node is the innermost one.
  reply: (_node, r) => working(r.messages.DEFAULT_WORKING_MESSAGE),
  // A call starts again at its entry.
  resume(node, r) {
    const inner = r.resumeIn(node.ref);
    return inner === undefined ? node.id : { [node.id]: inner };
  },
};
