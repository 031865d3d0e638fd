/**
 * Issue 27 §4: a graph step does not replay all its earlier writes for each
 * tool call. Each call's preview replays only the step's earlier writes it can
 * depend on (same node, or a name taken as the other kind), and the save
 * applies every write once more, with the snapshot. Counted here: every tool
 * run (previews' and the save's), through the runtime on PGlite with AGE.
 * Before: 1 + 2 + 3 previews + 3 saved = 9 for three calls, whatever they were.
 */
import { describe, expect, it } from 'vitest';
import { createGraphToolRegistry } from '../../src/graph/tools/graph-tools.js';
import { ToolRegistry } from '../../src/graph/tools/registry.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { Store } from '../../src/store/types.js';
import { taskAgentActors } from '../../src/task-agent/actors.js';
import type { ToolSignature } from '../../src/task-agent/schemas.js';
import { taskAgentWorkflow } from '../../src/task-agent/workflow.js';
import { writesToReplay } from '../../src/task-agent/write-footprint.js';
import { graphSnapshot, openAgeGraph } from '../../src/graph/index.js';
import { goalSpec, scriptedModel, useGraphStore } from '../helpers/task-agent.js';

let store: Store;
useGraphStore((opened) => (store = opened));

const addNode = (label: string, key: string): ToolSignature => ({ tool: 'add_node', args: { label, key, properties: {} } });
const addEdge = (type: string, from: [string, string], to: [string, string]): ToolSignature => ({
  tool: 'add_edge',
  args: { type, from: { label: from[0], key: from[1] }, to: { label: to[0], key: to[1] }, properties: {} },
});

/** Runs one goal whose calls are planned by a scripted model, counting every tool run. */
async function runGoal(calls: ToolSignature[]) {
  const runs: string[] = [];
  const registry = new ToolRegistry(
    createGraphToolRegistry()
      .list()
      .map((tool) => ({ ...tool, run: (graph: Parameters<typeof tool.run>[0], args: Parameters<typeof tool.run>[1]) => (runs.push(tool.name), tool.run(graph, args)) })),
  );
  const m = scriptedModel({
    GoalSpec: [goalSpec({})],
    StepPlan: calls.map((call, i) => ({ rationale: `step ${i + 1}`, call, isFinalStep: i === calls.length - 1 })),
    Answer: [{ message: 'Done.' }],
  });
  const runtime = createRuntime({ workflows: [taskAgentWorkflow({ registry })], store, actors: taskAgentActors({ database: store.sql!, registry, model: m.model, offlineReader: false }) });
  try {
    const { sessionId } = await runtime.start('task-agent');
    const reply = await runtime.turn(sessionId, { text: 'go' });
    const graph = await store.sql!.transaction(async (tx) => graphSnapshot(await openAgeGraph(tx, { owner: null })));
    return { reply, runs, graph };
  } finally {
    runtime.close();
  }
}

describe('graph operations per goal', () => {
  it('three independent nodes: 3 previews and 3 saved (was 9)', async () => {
    const { reply, runs, graph } = await runGoal([addNode('Ticket', 'T-1'), addNode('Ticket', 'T-2'), addNode('User', 'ana')]);
    expect(reply.completion.reason).toBe('completed');
    expect(runs).toHaveLength(6);
    expect(graph.nodes.map((n) => n.key).sort()).toEqual(['T-1', 'T-2', 'ana']);
  });

  it('two nodes and an edge between them: the edge replays the two (8, was 9), and is made', async () => {
    const { reply, runs, graph } = await runGoal([addNode('Ticket', 'T-1'), addNode('User', 'ana'), addEdge('REPORTS', ['User', 'ana'], ['Ticket', 'T-1'])]);
    expect(reply.completion.reason).toBe('completed');
    expect(runs).toEqual(['add_node', 'add_node', 'add_node', 'add_node', 'add_edge', 'add_node', 'add_node', 'add_edge']);
    expect(graph.edges).toHaveLength(1);
  });

  it('a call still sees the earlier writes it depends on: a duplicate of a node made in the same step is refused', async () => {
    const { reply, graph } = await runGoal([addNode('Ticket', 'T-1'), addNode('User', 'ana'), addNode('Ticket', 'T-1')]);
    expect(reply.completion.reason).not.toBe('completed');
    expect(graph.nodes.map((n) => n.key).sort()).toEqual(['T-1', 'ana']);
  });
});

describe('writesToReplay', () => {
  const registry = createGraphToolRegistry();
  const writes = [addNode('Ticket', 'T-1'), addNode('User', 'ana'), addEdge('REPORTS', ['User', 'ana'], ['Ticket', 'T-1']), addNode('Team', 'core')];

  it('a node of its own needs none; an edge needs its ends; an update of an edge needs the edge and, through it, its ends', () => {
    expect(writesToReplay(registry, addNode('Ticket', 'T-2'), writes)).toEqual([]);
    expect(writesToReplay(registry, addEdge('IN', ['Team', 'core'], ['Ticket', 'T-9']), writes)).toEqual([writes[3]]);
    // Sharing a node is enough (conservative): the edge from ana brings the ticket it ends at.
    expect(writesToReplay(registry, addEdge('IN', ['User', 'ana'], ['Team', 'core']), writes)).toEqual(writes);
    const update: ToolSignature = { tool: 'update_props', args: { target: { kind: 'edge', type: 'REPORTS', from: { label: 'User', key: 'ana' }, to: { label: 'Ticket', key: 'T-1' } }, set: { a: 1 } } };
    expect(writesToReplay(registry, update, writes)).toEqual(writes.slice(0, 3));
  });

  it('a name taken as the other kind is a dependency; reads and unknown tools need every write', () => {
    expect(writesToReplay(registry, addEdge('Ticket', ['User', 'x'], ['User', 'y']), writes)).toEqual([writes[0]]);
    expect(writesToReplay(registry, { tool: 'cypher_query', args: { query: 'MATCH (n) RETURN n' } }, writes)).toEqual(writes);
    expect(writesToReplay(registry, { tool: 'my_tool', args: {} }, writes)).toEqual(writes);
  });
});
