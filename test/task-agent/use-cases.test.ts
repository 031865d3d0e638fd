/**
 * The seed's seven use cases (seed 004) through the runtime, on PGlite with
 * Apache AGE holding sessions and graph: once with the offline reader and no
 * model, once with the offline reader off and every step scripted on
 * `MockLanguageModelV4`. The graph is asserted after each.
 */
import { describe, expect, it } from 'vitest';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import type { Store } from '../../src/store/types.js';
import { goalSpec, scriptedModel, startGoal, taskAgentRuntime, useGraphStore } from '../helpers/task-agent.js';
import { runScript, SCRIPTS, toolsOf as scriptTools } from './scripts.js';

export const UC = {
  complex:
    "Create a new 'Ticket' node with the key 'TICKET-123' and the properties 'summary: Fix login button' and 'status: open'. Then, create a new 'User' node with the key 'john.doe' and the property 'name: John Doe'. Finally, create a 'REPORTS' edge from the 'User' node to the 'Ticket' node.",
  ambiguous: 'My dashboard is broken. Fix it.',
  simple: 'Find all open tickets.',
  update: "Update the status of ticket TICKET-123 to 'in progress'.",
  hallucination: 'Use the `send_email` tool to notify the team about the new ticket.',
  contradiction: "Create a new ticket with the key 'TICKET-456' and the status 'open'. The ticket should be closed.",
  outOfScope: "What's the weather like in London?",
} as const;

const ticket123 = { label: 'Ticket', key: 'TICKET-123', properties: { summary: 'Fix login button', status: 'open' } };
const john = { label: 'User', key: 'john.doe', properties: { name: 'John Doe' } };
const reports = { type: 'REPORTS', from: { label: 'User', key: 'john.doe' }, to: { label: 'Ticket', key: 'TICKET-123' }, properties: {} };

type Steps = { tool: string; ok: boolean; text: string }[];
const stepsOf = (reply: ReplyEnvelope): Steps => (reply.artifacts.find((a) => a.type === 'TASK_STEPS')?.steps as Steps | undefined) ?? [];
const toolsOf = (reply: ReplyEnvelope) => stepsOf(reply).map((s) => `${s.tool}:${s.ok ? 'ok' : 'failed'}`);

let store: Store;
// One database for the file: each case starts from an empty graph.
useGraphStore((s) => (store = s));

const goal = startGoal;

describe('offline reader, no model: explicit prompts need no model call', () => {
  it('use case 1 (complex): two nodes and an edge, planned step by step, then answered', async () => {
    const agent = taskAgentRuntime(store);
    const { reply } = await goal(agent, UC.complex);
    expect(reply.status).toBe('done');
    expect(toolsOf(reply)).toEqual(['add_node:ok', 'add_node:ok', 'add_edge:ok']);
    expect(reply.message).toContain("create node Ticket 'TICKET-123': done");
    expect(reply.message).toContain("create edge REPORTS from User 'john.doe' to Ticket 'TICKET-123': done");
    expect(await agent.graph()).toEqual({ nodes: [ticket123, john], edges: [reports] });
    const changes = reply.artifacts.find((a) => a.type === 'GRAPH_CHANGES')?.changes as unknown[];
    expect(changes).toHaveLength(3);
    const history = await agent.runtime.session(reply.sessionId);
    expect(history.history.map((h) => h.reply.state)).toEqual(['idle', 'done']);
  });

  it('use case 3 (simple): finds the open tickets with one query', async () => {
    const agent = taskAgentRuntime(store);
    await goal(agent, UC.complex);
    await goal(agent, "Create a Ticket node with key TICKET-9 and status closed.");
    const { reply } = await goal(agent, UC.simple);
    expect(toolsOf(reply)).toEqual(['query_graph:ok']);
    expect(reply.message).toContain("found 1: Ticket 'TICKET-123'");
    expect(reply.message).not.toContain('TICKET-9');
    expect((await agent.graph()).nodes).toHaveLength(3);
  });

  it('use case 4 (update): sets the status of TICKET-123', async () => {
    const agent = taskAgentRuntime(store);
    await goal(agent, UC.complex);
    const { reply } = await goal(agent, UC.update);
    expect(toolsOf(reply)).toEqual(['update_props:ok']);
    expect((await agent.graph()).nodes.find((n) => n.key === 'TICKET-123')?.properties.status).toBe('in progress');
  });

  it('use case 5 (hallucination): no send_email tool; the agent says what it can do and waits', async () => {
    const agent = taskAgentRuntime(store);
    const { sessionId, reply } = await goal(agent, UC.hallucination);
    expect(reply.status).toBe('waiting');
    expect(reply.message).toMatch(/I don't have a `send_email` tool\. What I can do: add_node, add_edge, update_props, delete_node, delete_edge, query_graph, cypher_query/);
    expect(reply.inputs?.map((g) => [g.name, g.to])).toEqual([['clarification', null]]);
    expect(toolsOf(reply)).toEqual(['send_email:failed']);
    const after = await agent.runtime.turn(sessionId, { text: 'stop' });
    expect(after.status).toBe('done');
    expect(after.message).toMatch(/^Stopped as you asked\./);
    expect(await agent.graph()).toEqual({ nodes: [], edges: [] });
  });

  it('use case 6 (contradiction): asks open or closed as a choice, then creates the ticket as chosen', async () => {
    const agent = taskAgentRuntime(store);
    const { sessionId, reply } = await goal(agent, UC.contradiction);
    expect(reply.status).toBe('waiting');
    expect(reply.message).toContain("both 'open' and 'closed'");
    const gate = reply.inputs![0]!;
    expect(gate.spec).toMatchObject({ type: 'enum', options: [{ value: 'open' }, { value: 'closed' }, { value: 'stop' }] });
    expect(await agent.graph()).toEqual({ nodes: [], edges: [] });
    const after = await agent.runtime.answer(gate.gateId, 'closed');
    expect(after.status).toBe('done');
    expect(toolsOf(after)).toEqual(['add_node:ok']);
    expect((await agent.graph()).nodes).toEqual([{ label: 'Ticket', key: 'TICKET-456', properties: { status: 'closed' } }]);
    expect((await agent.runtime.session(sessionId)).history.map((h) => h.reply.state)).toEqual(['idle', 'escalate', 'done']);
  });

  it('use cases 2 and 7 without a model: asks for an explicit command, and goes on with one', async () => {
    const agent = taskAgentRuntime(store);
    const { sessionId, reply } = await goal(agent, UC.ambiguous);
    expect(reply.status).toBe('waiting');
    expect(reply.message).toMatch(/explicit command/);
    const after = await agent.runtime.turn(sessionId, { text: "Create a Dashboard node with key 'main' and status broken." });
    expect(after.status).toBe('done');
    expect((await agent.graph()).nodes).toEqual([{ label: 'Dashboard', key: 'main', properties: { status: 'broken' } }]);
    const weather = await goal(agent, UC.outOfScope);
    expect(weather.reply.message).toMatch(/explicit command/);
    expect(toolsOf(weather.reply)).toEqual([]);
  });
});

describe('every step by the model (offline reader off), scripted on MockLanguageModelV4', () => {
  const spec = goalSpec;

  it('use case 1: parse, three plans, answer: five model calls; the prompts disclose only what each step needs', async () => {
    const m = scriptedModel({
      GoalSpec: [spec({ summary: 'Create a ticket, a user and a REPORTS edge' })],
      StepPlan: [
        { rationale: 'the ticket first', call: { tool: 'add_node', args: { label: 'Ticket', key: 'TICKET-123', properties: { summary: 'Fix login button', status: 'open' } } }, isFinalStep: false },
        { rationale: 'then the user', call: { tool: 'add_node', args: { label: 'User', key: 'john.doe', properties: { name: 'John Doe' } } }, isFinalStep: false },
        { rationale: 'the edge', call: { tool: 'add_edge', args: { type: 'REPORTS', from: { label: 'User', key: 'john.doe' }, to: { label: 'Ticket', key: 'TICKET-123' } } }, isFinalStep: true },
      ],
      Answer: [{ message: "Successfully created node 'Ticket' (TICKET-123), node 'User' (john.doe), and a 'REPORTS' edge between them." }],
    });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false });
    const { reply } = await goal(agent, UC.complex);
    expect(m.calls.map((c) => c.step)).toEqual(['GoalSpec', 'StepPlan', 'StepPlan', 'StepPlan', 'Answer']);
    expect(reply.message).toMatch(/^Successfully created node 'Ticket' \(TICKET-123\)/);
    expect(await agent.graph()).toEqual({ nodes: [ticket123, john], edges: [reports] });

    // Progressive disclosure: parse sees the words and the tool names, not their schemas.
    const [parse, plan1, plan2, plan3, answer] = m.calls;
    expect(parse!.prompt).toContain(UC.complex);
    expect(parse!.instructions).toContain('add_node, add_edge');
    expect(parse!.instructions).not.toContain('JSON Schema');
    // plan_step sees the spec's summary, the schemas, one line per call done; never the person's full words or results.
    expect(plan1!.instructions).toContain('arguments (JSON Schema)');
    expect(plan1!.prompt).not.toContain(UC.complex);
    expect(plan1!.prompt).toContain('Nothing done yet.');
    expect(plan2!.prompt).toContain('1. add_node {"label":"Ticket","key":"TICKET-123"');
    expect(plan3!.prompt).toMatch(/1\. add_node .*: ok\n2\. add_node .*: ok/);
    // answer sees the calls' outcomes, not the tools' schemas.
    expect(answer!.prompt).toContain("create node User 'john.doe': done");
    expect(answer!.instructions).not.toContain('JSON Schema');
  });

  it('use case 2: an unclear goal escalates; the clarified goal is parsed again and done', async () => {
    const m = scriptedModel({
      GoalSpec: [
        spec({ intent: 'unclear', summary: 'fix a broken dashboard', confidence: 0.2 }),
        spec({ intent: 'update', complexity: 'simple', step: { tool: 'update_props', args: { target: { kind: 'node', label: 'Dashboard', key: 'main' }, set: { status: 'fixed' } } } }),
      ],
      Answer: [{ message: 'The main dashboard is marked fixed.' }],
    });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false });
    await agent.seed({ label: 'Dashboard', key: 'main', properties: { status: 'broken' } });
    const { sessionId, reply } = await goal(agent, UC.ambiguous);
    expect(reply.status).toBe('waiting');
    expect(reply.message).toMatch(/I need more information to help with "fix a broken dashboard"/);
    expect(toolsOf(reply)).toEqual([]);
    // The seed's flow: parse_goal → diagnose → escalate.
    expect((await agent.runtime.session(sessionId)).history.at(-1)!.reply.state).toBe('escalate');
    const after = await agent.runtime.turn(sessionId, { text: 'The Dashboard node main: set its status to fixed' });
    expect(m.calls.filter((c) => c.step === 'GoalSpec')[1]!.prompt).toBe(`Earlier request: ${UC.ambiguous}\nGoal: The Dashboard node main: set its status to fixed`);
    expect(toolsOf(after)).toEqual(['update_props:ok']);
    expect(after.message).toMatch(/^The main dashboard is marked fixed\./);
    expect((await agent.graph()).nodes).toEqual([{ label: 'Dashboard', key: 'main', properties: { status: 'fixed' } }]);
    expect(m.calls.map((c) => c.step)).toEqual(['GoalSpec', 'GoalSpec', 'Answer']);
  });
});

describe('the seven use cases, every step scripted on MockLanguageModelV4 (offline reader off)', () => {
  it.each(SCRIPTS.map((s) => [s.name, s] as const))('%s', async (_name, script) => {
    const m = scriptedModel(script.model);
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false });
    const run = await runScript(agent, script);
    run.replies.slice(0, -1).forEach((reply, i) => expect(reply.message).toMatch(script.expectedEscalations[i]!));
    expect(run.final.status).toBe('done');
    expect(run.final.message).toMatch(script.expectedAnswer);
    expect(scriptTools(run.final)).toEqual(script.expectedTools);
    expect(m.calls.map((c) => c.step)).toEqual(script.modelSteps);
    expect(m.left()).toEqual({});
    expect(await agent.graph()).toEqual(script.expectedGraph);
  });
});
