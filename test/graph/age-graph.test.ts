import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  asAiSdkTools,
  createGraphToolRegistry,
  defineTool,
  DuplicateEdgeError,
  DuplicateNodeError,
  graphNameFor,
  graphSnapshot,
  LabelKindConflictError,
  NodeHasEdgesError,
  NodeNotFoundError,
  openAgeGraph,
  type PropertyGraph,
  type ToolOutcome,
} from '../../src/graph/index.js';
import type { SqlClient } from '../../src/store/sql/sql-store.js';
import { textResult, type GenerateResult } from '../helpers/mock-model.js';
import { openAgeClient } from './age-client.js';

let client: SqlClient;
beforeAll(async () => {
  client = await openAgeClient();
});
afterAll(() => client?.close());

/** Runs `fn` on an owner's graph in one transaction (as a turn would). */
const withGraph = <T>(owner: string | null, fn: (graph: PropertyGraph) => Promise<T>) =>
  client.transaction(async (tx) => fn(await openAgeGraph(tx, { owner })));
const snapshotOf = (owner: string | null, label?: string) => withGraph(owner, (g) => graphSnapshot(g, label === undefined ? {} : { label }));
const registry = createGraphToolRegistry();
const call = (graph: PropertyGraph, tool: string, args: unknown) => registry.call(graph, tool, args);
const errorCode = (outcome: ToolOutcome) => (outcome.ok ? undefined : outcome.error.code);

const ticket = { label: 'Ticket', key: 'TICKET-123' };
const john = { label: 'User', key: 'john.doe' };

describe('the graph tools on AGE (seed 004, use case 1)', () => {
  const owner = 'use-case-1';

  it('add_node, add_edge: the ticket, the user, and REPORTS between them', async () => {
    await withGraph(owner, async (g) => {
      expect(await call(g, 'add_node', { ...ticket, properties: { summary: 'Fix login button', status: 'open' } })).toEqual({
        ok: true,
        result: { ...ticket, properties: { summary: 'Fix login button', status: 'open' } },
      });
      expect(await call(g, 'add_node', { ...john, properties: { name: 'John Doe' } })).toMatchObject({ ok: true });
      expect(await call(g, 'add_edge', { type: 'REPORTS', from: john, to: ticket, properties: { since: 2024 } })).toEqual({
        ok: true,
        result: { type: 'REPORTS', from: john, to: ticket, properties: { since: 2024 } },
      });
    });
    expect(await snapshotOf(owner)).toEqual({
      nodes: [
        { ...ticket, properties: { summary: 'Fix login button', status: 'open' } },
        { ...john, properties: { name: 'John Doe' } },
      ],
      edges: [{ type: 'REPORTS', from: john, to: ticket, properties: { since: 2024 } }],
    });
  });

  it('query_graph: by label and property values, with neighbours in each direction', async () => {
    await withGraph(owner, async (g) => {
      expect(await call(g, 'query_graph', { label: 'Ticket', where: { status: 'open' } })).toEqual({
        ok: true,
        result: { nodes: [{ ...ticket, properties: { summary: 'Fix login button', status: 'open' } }], edges: [], truncated: false },
      });
      expect(await call(g, 'query_graph', { label: 'Ticket', where: { status: 'closed' } })).toMatchObject({ result: { nodes: [] } });
      const reporters = await g.query({ ...ticket, neighbours: { direction: 'in', type: 'REPORTS' } });
      expect(reporters.nodes.map((n) => n.key)).toEqual(['TICKET-123', 'john.doe']);
      expect(reporters.edges).toEqual([{ type: 'REPORTS', from: john, to: ticket, properties: { since: 2024 } }]);
      // Outgoing from the ticket: none; the ticket is still found.
      const out = await g.query({ ...ticket, neighbours: { direction: 'out' } });
      expect(out).toEqual({ nodes: [expect.objectContaining(ticket)], edges: [], truncated: false });
      // Both directions from the user, filtered by the neighbour's label.
      expect((await g.query({ ...john, neighbours: { label: 'Ticket' } })).edges).toHaveLength(1);
      expect((await g.query({ ...john, neighbours: { label: 'Nothing' } })).edges).toHaveLength(0);
    });
  });

  it('update_props: set and unset on a node and on an edge; the key never changes', async () => {
    await withGraph(owner, async (g) => {
      expect(await call(g, 'update_props', { target: { kind: 'node', ...ticket }, set: { status: 'in progress', tags: ['ui', 'login'] }, unset: ['summary'] })).toEqual({
        ok: true,
        result: { ...ticket, properties: { status: 'in progress', tags: ['ui', 'login'] } },
      });
      expect(await call(g, 'update_props', { target: { kind: 'edge', type: 'REPORTS', from: john, to: ticket }, set: { since: 2025 } })).toMatchObject({
        ok: true,
        result: { properties: { since: 2025 } },
      });
      expect(errorCode(await call(g, 'update_props', { target: { kind: 'node', ...ticket }, set: { key: 'OTHER' } }))).toBe('tool_invalid_input');
      expect(errorCode(await call(g, 'update_props', { target: { kind: 'node', ...ticket } }))).toBe('tool_invalid_input');
      expect(errorCode(await call(g, 'update_props', { target: { kind: 'node', label: 'Ticket', key: 'NOPE' }, set: { a: 1 } }))).toBe('graph_node_not_found');
      expect(errorCode(await call(g, 'update_props', { target: { kind: 'edge', type: 'OWNS', from: john, to: ticket }, set: { a: 1 } }))).toBe('graph_edge_not_found');
    });
    expect((await snapshotOf(owner, 'Ticket')).nodes).toEqual([{ ...ticket, properties: { status: 'in progress', tags: ['ui', 'login'] } }]);
    // Lists compare whole in query_graph's equality.
    await withGraph(owner, async (g) => {
      expect((await g.query({ where: { tags: ['ui', 'login'] } })).nodes.map((n) => n.key)).toEqual(['TICKET-123']);
      expect((await g.query({ where: { tags: ['ui'] } })).nodes).toEqual([]);
    });
  });

  it('delete_node is refused while edges exist; with detach it deletes them too', async () => {
    await withGraph(owner, async (g) => {
      await expect(g.deleteNode(john)).rejects.toBeInstanceOf(NodeHasEdgesError);
      expect(await call(g, 'delete_node', john)).toEqual({
        ok: false,
        error: { code: 'graph_node_has_edges', message: expect.stringContaining('still has 1 edge') },
      });
    });
    expect((await snapshotOf(owner)).edges).toHaveLength(1);
    await withGraph(owner, async (g) => {
      expect(await call(g, 'delete_node', { ...john, detach: true })).toEqual({ ok: true, result: { deleted: john, edgesDeleted: 1 } });
      expect(errorCode(await call(g, 'delete_node', john))).toBe('graph_node_not_found');
    });
    expect(await snapshotOf(owner)).toEqual({ nodes: [expect.objectContaining(ticket)], edges: [] });
  });

  it('delete_edge removes one edge; a missing one is an error', async () => {
    await withGraph(owner, async (g) => {
      await g.addNode(john);
      await g.addEdge({ type: 'REPORTS', from: john, to: ticket });
      await g.addEdge({ type: 'WATCHES', from: john, to: ticket });
      expect(await call(g, 'delete_edge', { type: 'REPORTS', from: john, to: ticket })).toMatchObject({ ok: true });
      expect(errorCode(await call(g, 'delete_edge', { type: 'REPORTS', from: john, to: ticket }))).toBe('graph_edge_not_found');
      expect(errorCode(await call(g, 'delete_edge', { type: 'WATCHES', from: ticket, to: john }))).toBe('graph_edge_not_found');
    });
    expect((await snapshotOf(owner)).edges).toEqual([{ type: 'WATCHES', from: john, to: ticket, properties: {} }]);
    // Without detach, once its edges are gone, a node is deleted.
    await withGraph(owner, async (g) => {
      await g.deleteEdge({ type: 'WATCHES', from: john, to: ticket });
      expect(await g.deleteNode(john)).toEqual({ edgesDeleted: 0 });
    });
  });
});

describe('identity and refusals', () => {
  const owner = 'identity';

  it('a key is unique per label, not across labels', async () => {
    await withGraph(owner, async (g) => {
      await g.addNode({ label: 'Ticket', key: 'K-1', properties: { n: 1 } });
      await expect(g.addNode({ label: 'Ticket', key: 'K-1' })).rejects.toBeInstanceOf(DuplicateNodeError);
      await g.addNode({ label: 'Project', key: 'K-1' });
    });
    expect((await snapshotOf(owner)).nodes).toEqual([
      { label: 'Project', key: 'K-1', properties: {} },
      { label: 'Ticket', key: 'K-1', properties: { n: 1 } },
    ]);
  });

  it('one edge per type between two nodes; an edge needs both ends', async () => {
    await withGraph(owner, async (g) => {
      const from = { label: 'Ticket', key: 'K-1' };
      const to = { label: 'Project', key: 'K-1' };
      await g.addEdge({ type: 'IN', from, to });
      await expect(g.addEdge({ type: 'IN', from, to })).rejects.toBeInstanceOf(DuplicateEdgeError);
      await g.addEdge({ type: 'IN', from: to, to: from }); // the other direction is another edge
      const missing = g.addEdge({ type: 'IN', from, to: { label: 'Project', key: 'NOPE' } });
      await expect(missing).rejects.toBeInstanceOf(NodeNotFoundError);
      await expect(missing).rejects.toMatchObject({ node: { label: 'Project', key: 'NOPE' } });
    });
  });

  it('a name is either a node label or an edge type', async () => {
    await withGraph(owner, async (g) => {
      await expect(g.addEdge({ type: 'Ticket', from: { label: 'Ticket', key: 'K-1' }, to: { label: 'Project', key: 'K-1' } })).rejects.toBeInstanceOf(
        LabelKindConflictError,
      );
      await expect(g.addNode({ label: 'IN', key: 'x' })).rejects.toMatchObject({ code: 'graph_label_kind_conflict', usedFor: 'edges' });
    });
  });

  it('names that are not identifiers are refused before any query', async () => {
    await withGraph(owner, async (g) => {
      for (const label of ['Ticket`) DETACH DELETE (n', 'Tick et', '_ag_label_vertex', '1abc', '']) {
        expect(errorCode(await call(g, 'add_node', { label, key: 'x' }))).toBe('tool_invalid_input');
        await expect(g.addNode({ label, key: 'x' })).rejects.toMatchObject({ code: 'graph_invalid_input' });
      }
      expect(errorCode(await call(g, 'add_node', { label: 'T', key: 'x', properties: { 'a`b': 1 } }))).toBe('tool_invalid_input');
      expect(errorCode(await call(g, 'add_node', { label: 'T', key: 'x', properties: { a: { nested: 1 } } }))).toBe('tool_invalid_input');
      expect(errorCode(await call(g, 'add_node', { label: 'T', key: 'x', properties: { a: null } }))).toBe('tool_invalid_input');
      expect(errorCode(await call(g, 'send_email', { to: 'team' }))).toBe('tool_not_found');
    });
    expect((await snapshotOf(owner)).nodes.map((n) => n.label)).not.toContain('T');
  });

  it('values travel as parameters: quotes, dollars and backslashes come back as they went', async () => {
    const key = `a'b"c$$d\\e $cypher$ }) DETACH DELETE n //`;
    const properties = { text: "it's $$ `x` \\ \"q\" ::vertex", list: ['$1', "'", 2.5, true] };
    await withGraph(owner, (g) => g.addNode({ label: 'Odd', key, properties }));
    expect((await snapshotOf(owner, 'Odd')).nodes).toEqual([{ label: 'Odd', key, properties }]);
    await withGraph(owner, async (g) => expect((await g.query({ key })).nodes).toHaveLength(1));
  });

  it('property names that are Cypher keywords work in every tool', async () => {
    await withGraph(owner, async (g) => {
      await g.addNode({ label: 'Kw', key: 'k', properties: { by: 'x', order: 1, match: true } });
      await g.updateNode({ label: 'Kw', key: 'k' }, { set: { return: 'r' }, unset: ['match'] });
      expect((await g.query({ where: { by: 'x', order: 1 } })).nodes).toEqual([{ label: 'Kw', key: 'k', properties: { by: 'x', order: 1, return: 'r' } }]);
    });
  });

  it('query_graph caps its results and says so', async () => {
    await withGraph(owner, async (g) => {
      for (let i = 0; i < 5; i++) await g.addNode({ label: 'Many', key: `m${i}` });
      expect(await g.query({ label: 'Many', limit: 3 })).toMatchObject({ truncated: true, nodes: [{ key: 'm0' }, { key: 'm1' }, { key: 'm2' }] });
      expect((await g.query({ label: 'Many', limit: 5 })).truncated).toBe(false);
      expect(errorCode(await call(g, 'query_graph', { label: 'Many', limit: 1000 }))).toBe('tool_invalid_input');
    });
  });
});

describe('transactions', () => {
  it('a transaction that fails leaves nothing of its graph changes', async () => {
    const owner = 'rollback';
    await withGraph(owner, (g) => g.addNode({ label: 'Kept', key: 'k' }));
    await expect(
      withGraph(owner, async (g) => {
        await g.addNode({ label: 'Ticket', key: 'T-1' });
        await g.addNode({ label: 'NewLabel', key: 'n' });
        await g.addEdge({ type: 'REL', from: { label: 'Ticket', key: 'T-1' }, to: { label: 'Kept', key: 'k' } });
        await g.updateNode({ label: 'Kept', key: 'k' }, { set: { touched: true } });
        throw new Error('the turn failed after the tools ran');
      }),
    ).rejects.toThrow('the turn failed');
    expect(await snapshotOf(owner)).toEqual({ nodes: [{ label: 'Kept', key: 'k', properties: {} }], edges: [] });
  });

  it('a refused tool, or one the database rejected, does not doom the transaction', async () => {
    const owner = 'refusals-in-a-turn';
    await withGraph(owner, async (g) => {
      await g.addNode({ label: 'A', key: '1' });
      expect(errorCode(await call(g, 'add_node', { label: 'A', key: '1' }))).toBe('graph_duplicate_node');
      expect(errorCode(await call(g, 'cypher_query', { query: 'MATCH (n) RETURN n.key AS' }))).toBe('cypher_failed');
      await g.addNode({ label: 'A', key: '2' });
    });
    expect((await snapshotOf(owner)).nodes.map((n) => n.key)).toEqual(['1', '2']);
  });

  it('the first transaction of an owner creates the graph; the next one finds it', async () => {
    const owner = 'concurrent-first-turns';
    await Promise.all([withGraph(owner, (g) => g.addNode({ label: 'A', key: 'x' })), withGraph(owner, (g) => g.addNode({ label: 'B', key: 'y' }))]);
    expect((await snapshotOf(owner)).nodes.map((n) => n.key)).toEqual(['x', 'y']);
  });
});

describe('one graph per owner', () => {
  it('owners do not see each other’s nodes, and may use the same keys', async () => {
    await withGraph('alice', (g) => g.addNode({ label: 'Note', key: 'n1', properties: { who: 'alice' } }));
    await withGraph('bob', (g) => g.addNode({ label: 'Note', key: 'n1', properties: { who: 'bob' } }));
    await withGraph(null, (g) => g.addNode({ label: 'Note', key: 'shared' }));
    expect((await snapshotOf('alice')).nodes).toEqual([{ label: 'Note', key: 'n1', properties: { who: 'alice' } }]);
    expect((await snapshotOf('bob')).nodes).toEqual([{ label: 'Note', key: 'n1', properties: { who: 'bob' } }]);
    expect((await snapshotOf(null)).nodes).toEqual([{ label: 'Note', key: 'shared', properties: {} }]);
    await withGraph('bob', async (g) => {
      const rows = (await g.cypher('MATCH (n) RETURN n.who AS who')).rows;
      expect(rows).toEqual([{ who: 'bob' }]);
    });
  });

  it('graph names are hashes of the owner: any owner text is safe', async () => {
    const owner = "x'); DROP TABLE ag_catalog.ag_graph; --";
    expect(await graphNameFor(owner)).toMatch(/^gf_[0-9a-f]{40}$/);
    expect(await graphNameFor(owner)).not.toBe(await graphNameFor('alice'));
    await withGraph(owner, (g) => g.addNode({ label: 'Note', key: 'k' }));
    expect((await snapshotOf(owner)).nodes).toHaveLength(1);
  });
});

describe('graphSnapshot', () => {
  it('gives { nodes, edges } exactly; with a label, its nodes and the edges touching them', async () => {
    const owner = 'snapshot';
    await withGraph(owner, async (g) => {
      await g.addNode({ label: 'User', key: 'u', properties: { name: 'U' } });
      await g.addNode({ label: 'Ticket', key: 't1' });
      await g.addNode({ label: 'Ticket', key: 't2' });
      await g.addNode({ label: 'Team', key: 'core' });
      await g.addEdge({ type: 'REPORTS', from: { label: 'User', key: 'u' }, to: { label: 'Ticket', key: 't1' } });
      await g.addEdge({ type: 'MEMBER', from: { label: 'User', key: 'u' }, to: { label: 'Team', key: 'core' }, properties: { role: 'lead' } });
    });
    expect(await snapshotOf(owner, 'Ticket')).toEqual({
      nodes: [
        { label: 'Ticket', key: 't1', properties: {} },
        { label: 'Ticket', key: 't2', properties: {} },
      ],
      edges: [{ type: 'REPORTS', from: { label: 'User', key: 'u' }, to: { label: 'Ticket', key: 't1' }, properties: {} }],
    });
    const all = await snapshotOf(owner);
    expect(all.nodes).toHaveLength(4);
    expect(all.edges).toEqual([
      { type: 'MEMBER', from: { label: 'User', key: 'u' }, to: { label: 'Team', key: 'core' }, properties: { role: 'lead' } },
      { type: 'REPORTS', from: { label: 'User', key: 'u' }, to: { label: 'Ticket', key: 't1' }, properties: {} },
    ]);
    expect(await snapshotOf(owner, 'Nothing')).toEqual({ nodes: [], edges: [] });
  });
});

describe('as AI SDK tools', () => {
  const toolCall = (toolName: string, input: unknown): GenerateResult => ({
    content: [{ type: 'tool-call', toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: textResult('').usage,
    warnings: [],
  });

  it('a model calls add_node and a host tool registered the same way; a refusal comes back as the result', async () => {
    const owner = 'ai-sdk';
    const pinged: string[] = [];
    const ping = defineTool({
      name: 'ping_team',
      description: 'Tell the team about a node',
      inputSchema: z.strictObject({ key: z.string() }),
      run: async (_graph, { key }) => {
        pinged.push(key);
        return { sent: true };
      },
    });
    const steps = [
      toolCall('add_node', { label: 'Ticket', key: 'TICKET-456', properties: { status: 'open' } }),
      toolCall('add_node', { label: 'Ticket', key: 'TICKET-456' }),
      toolCall('ping_team', { key: 'TICKET-456' }),
      textResult('Created TICKET-456.'),
    ];
    const seenTools: string[][] = [];
    const model = new MockLanguageModelV4({
      doGenerate: async (options) => {
        seenTools.push((options.tools ?? []).map((t) => t.name));
        return steps.shift()!;
      },
    });
    const result = await withGraph(owner, (g) =>
      generateText({ model, prompt: 'Create ticket TICKET-456', tools: asAiSdkTools(createGraphToolRegistry(ping), g), stopWhen: stepCountIs(5) }),
    );
    expect(seenTools[0]).toEqual(['add_node', 'add_edge', 'update_props', 'delete_node', 'delete_edge', 'query_graph', 'cypher_query', 'ping_team']);
    const outputs = result.steps.flatMap((s) => s.toolResults.map((r) => r.output));
    expect(outputs[0]).toEqual({ ok: true, result: { label: 'Ticket', key: 'TICKET-456', properties: { status: 'open' } } });
    expect(outputs[1]).toMatchObject({ ok: false, error: { code: 'graph_duplicate_node' } });
    expect(outputs[2]).toEqual({ ok: true, result: { sent: true } });
    expect(pinged).toEqual(['TICKET-456']);
    expect(result.text).toBe('Created TICKET-456.');
    expect((await snapshotOf(owner)).nodes).toEqual([{ label: 'Ticket', key: 'TICKET-456', properties: { status: 'open' } }]);
  });

  it('two tools of one name are refused', () => {
    expect(() => createGraphToolRegistry(defineTool({ name: 'add_node', description: 'x', inputSchema: z.object({}), run: async () => 1 }))).toThrow(
      /already registered/,
    );
  });
});
