/**
 * Issue 25 §1 for the task agent's graph: one owner's graph holds at most
 * `graphLimits.maxNodes` nodes and `maxEdges` edges; an add past one is the
 * tool's refusal (`graph_cap_reached`, naming the cap), the step not done,
 * nothing written, and the answer says so. Read offline (no model).
 */
import { describe, expect, it } from 'vitest';
import { GraphCapReachedError, graphSnapshot, openAgeGraph } from '../../src/graph/index.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { Store } from '../../src/store/types.js';
import { taskAgentHost } from '../../src/task-agent/host.js';
import { startGoal, useGraphStore } from '../helpers/task-agent.js';

let store: Store;
useGraphStore((opened) => (store = opened));

describe('caps on a graph', () => {
  it('refuses a node past maxNodes and an edge past maxEdges, writing nothing', async () => {
    await store.sql!.transaction(async (tx) => {
      const graph = await openAgeGraph(tx, { owner: null, graphLimits: { maxNodes: 2, maxEdges: 1 } });
      await graph.addNode({ label: 'Ticket', key: 'T-1', properties: {} });
      await graph.addNode({ label: 'User', key: 'U-1', properties: {} });
      const refused = await graph.addNode({ label: 'Ticket', key: 'T-2', properties: {} }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(GraphCapReachedError);
      expect((refused as Error).message).toBe("the graph holds 2 nodes already, this server's cap (maxNodes); nothing was added");
      await graph.addEdge({ type: 'REPORTS', from: { label: 'User', key: 'U-1' }, to: { label: 'Ticket', key: 'T-1' }, properties: {} });
      await expect(graph.addEdge({ type: 'OWNS', from: { label: 'User', key: 'U-1' }, to: { label: 'Ticket', key: 'T-1' }, properties: {} })).rejects.toMatchObject({ code: 'graph_cap_reached', cap: 'maxEdges' });
      const found = await graphSnapshot(graph);
      expect(found.nodes.map((n) => n.key).sort()).toEqual(['T-1', 'U-1']);
      expect(found.edges.map((e) => e.type)).toEqual(['REPORTS']);
    });
  });

  it('refuses a goal\'s add past the cap, counting the step\'s earlier adds, and keeps the ones before', async () => {
    const host = taskAgentHost({ database: store.sql!, graphLimits: { maxNodes: 1 }, retryBudget: 0 });
    const runtime = createRuntime({ workflows: [host.workflow], store, actors: host.actors });
    try {
      const { reply } = await startGoal({ runtime }, 'Create a Ticket node with key T-1, then create a Ticket node with key T-2');
      // The person is told which cap, and asked how to go on; T-1 (done before) is kept.
      expect(reply.state).toBe('escalate');
      expect(reply.message).toBe(`I tried 1 time and could not finish: the graph holds 1 nodes already, this server's cap (maxNodes); nothing was added. How should I go on? (Or answer "stop".)`);
      const { nodes } = await store.sql!.transaction(async (tx) => graphSnapshot(await openAgeGraph(tx, { owner: null })));
      expect(nodes.map((n) => n.key)).toEqual(['T-1']);
    } finally {
      runtime.close();
    }
  });
});
