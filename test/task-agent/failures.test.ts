/**
 * The task agent's failure paths (issue 13, section 3) through the runtime on
 * PGlite with AGE: an invalid plan from the model, a tool that throws, a tool
 * that times out (random: retried after a backoff; identical: never again
 * unchanged), the store going down mid-goal, the retry budget running out,
 * the person never answering; and the graph's changes committing with the
 * session's snapshot or not at all.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/graph/tools/tool.js';
import { StoreUnavailableError, type SqlDatabase, type Store } from '../../src/store/types.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import { goalSpec, scriptedModel, startGoal, taskAgentRuntime, useGraphStore } from '../helpers/task-agent.js';

type Steps = { tool: string; ok: boolean; error?: { code: string } }[];
const stepsOf = (reply: ReplyEnvelope): Steps => (reply.artifacts.find((a) => a.type === 'TASK_STEPS')?.steps as Steps | undefined) ?? [];
const outcomes = (reply: ReplyEnvelope) => stepsOf(reply).map((s) => (s.ok ? `${s.tool}:ok` : `${s.tool}:${s.error?.code}`));

let store: Store;
useGraphStore((s) => (store = s));

const goal = startGoal;

const spec = goalSpec;
const addTicket = (key: string) => ({ tool: 'add_node', args: { label: 'Ticket', key, properties: { status: 'open' } } });

/** A host tool that sleeps `ms` on its first `slowTimes` calls. */
function slowTool(ms: number, slowTimes: number) {
  let calls = 0;
  return defineTool({
    name: 'slow_touch',
    description: 'Marks a ticket as touched (slowly).',
    inputSchema: z.strictObject({ key: z.string() }),
    run: async (graph, { key }) => {
      if (calls++ < slowTimes) await new Promise((r) => setTimeout(r, ms));
      return graph.updateNode({ label: 'Ticket', key }, { set: { touched: true } });
    },
  });
}

describe('failure paths', () => {
  it('an invalid plan from the model is diagnosed and planned again; the second plan runs', async () => {
    const m = scriptedModel({
      GoalSpec: [spec({})],
      StepPlan: [{ text: '{"call": "add a ticket please"}' }, { rationale: 'r', call: addTicket('T-1'), isFinalStep: true }],
      Answer: [{ message: 'Created T-1.' }],
    });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false });
    const { sessionId, reply } = await goal(agent, 'make me a ticket');
    expect(reply.status).toBe('done');
    expect(outcomes(reply)).toEqual(['add_node:ok']);
    expect(m.calls.map((c) => c.step)).toEqual(['GoalSpec', 'StepPlan', 'StepPlan', 'Answer']);
    // The second plan is told why the first failed.
    expect(m.calls[2]!.prompt).toMatch(/The last attempt failed: the model answered outside the expected form/);
    expect((await agent.graph()).nodes.map((n) => n.key)).toEqual(['T-1']);
    const states = (await agent.runtime.session(sessionId)).history.map((h) => h.reply.state);
    expect(states).toEqual(['idle', 'done']);
  });

  it('a tool that throws: diagnosed by the model, escalated, and the person stops it; nothing changed', async () => {
    const explode = defineTool({
      name: 'explode',
      description: 'Always fails.',
      inputSchema: z.strictObject({}),
      run: async () => {
        throw new Error('kaboom from the host tool');
      },
    });
    const m = scriptedModel({
      GoalSpec: [spec({ complexity: 'simple', step: { tool: 'explode', args: {} } })],
      Diagnosis: [{ kind: 'systematic', remedy: 'escalate', explanation: 'the explode tool always fails' }],
      Answer: [{ message: 'I stopped.' }],
    });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false, tools: [explode] });
    const { sessionId, reply } = await goal(agent, 'explode');
    expect(reply.status).toBe('waiting');
    expect(reply.message).toContain('the explode tool always fails');
    expect(outcomes(reply)).toEqual(['explode:tool_error']);
    // The tool's own words are for the log (issue 25): the diagnosis, and so the person, get which tool failed.
    expect(m.calls.find((c) => c.step === 'Diagnosis')!.prompt).toContain('the explode tool failed');
    expect(m.calls.find((c) => c.step === 'Diagnosis')!.prompt).not.toContain('kaboom');
    const end = await agent.runtime.turn(sessionId, { text: 'stop' });
    expect(end.status).toBe('done');
    expect(end.message).toContain('Nothing was changed in the graph.');
  });

  it('a tool that times out once is random: retried after a backoff, the same call, and it works', async () => {
    const m = scriptedModel({ GoalSpec: [spec({ complexity: 'simple', step: { tool: 'slow_touch', args: { key: 'T-9' } } })], Answer: [{ message: 'Touched.' }] });
    // The backoff outlasts the slow call: PGlite finishes a statement it started even when the agent stopped waiting for it.
    const withModel = taskAgentRuntime(store, { model: m.model, offlineReader: false, tools: [slowTool(300, 1)], toolTimeoutMs: 60, backoffMs: 500, maxBackoffMs: 500 });
    await withModel.seed({ label: 'Ticket', key: 'T-9', properties: {} });
    const { reply } = await goal(withModel, 'touch T-9');
    expect(outcomes(reply)).toEqual(['slow_touch:tool_timeout', 'slow_touch:ok']);
    expect((await withModel.graph()).nodes[0]!.properties.touched).toBe(true);
  });

  it('a retried step keeps its place in the plan: a first step that timed out is not taken for the last', async () => {
    const m = scriptedModel({
      GoalSpec: [spec({})],
      StepPlan: [
        { rationale: 'touch first', call: { tool: 'slow_touch', args: { key: 'T-9' } }, isFinalStep: false },
        { rationale: 'then a ticket', call: addTicket('T-10'), isFinalStep: true },
      ],
      Answer: [{ message: 'Touched T-9 and made T-10.' }],
    });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false, tools: [slowTool(300, 1)], toolTimeoutMs: 60, backoffMs: 500, maxBackoffMs: 500 });
    await agent.seed({ label: 'Ticket', key: 'T-9', properties: {} });
    const { reply } = await goal(agent, 'touch T-9, then make T-10');
    expect(outcomes(reply)).toEqual(['slow_touch:tool_timeout', 'slow_touch:ok', 'add_node:ok']);
    expect(m.calls.map((c) => c.step)).toEqual(['GoalSpec', 'StepPlan', 'StepPlan', 'Answer']);
    expect((await agent.graph()).nodes.map((n) => n.key)).toEqual(['T-10', 'T-9']);
  });

  it('a call that times out again is identical: never tried a third time unchanged; without a model the person is asked', async () => {
    const m = scriptedModel({ GoalSpec: [spec({ complexity: 'simple', step: { tool: 'slow_touch', args: { key: 'T-9' } } })] });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false, tools: [slowTool(300, 5)], toolTimeoutMs: 40, retryBudget: 5 });
    await agent.seed({ label: 'Ticket', key: 'T-9', properties: {} });
    // A model that cannot plan anything better: replanning fails, the budget is spent on nothing unchanged.
    const { reply } = await goal(agent, 'touch T-9');
    const timeouts = outcomes(reply).filter((o) => o === 'slow_touch:tool_timeout');
    expect(timeouts).toHaveLength(2);
    expect(reply.status).toBe('waiting');
  });

  it('the store going down mid-goal: the call fails as random, is retried, and the goal completes', async () => {
    let failures = 1;
    const flaky: SqlDatabase = {
      kind: store.sql!.kind,
      query: (text, params) => store.sql!.query(text, params),
      transaction: (fn) => {
        if (failures-- > 0) return Promise.reject(new StoreUnavailableError('pglite store: connection lost'));
        return store.sql!.transaction(fn);
      },
    };
    const agent = taskAgentRuntime(store, { database: flaky });
    const { reply } = await goal(agent, 'Create a Ticket node with key T-5 and status open.');
    expect(outcomes(reply)).toEqual(['add_node:store_unavailable', 'add_node:ok']);
    expect((await agent.graph()).nodes.map((n) => n.key)).toEqual(['T-5']);
  });

  it('the retry budget runs out: the agent says how often it tried, and asks', async () => {
    const m = scriptedModel({
      GoalSpec: [spec({})],
      StepPlan: [
        { rationale: 'r', call: { tool: 'update_props', args: { target: { kind: 'node', label: 'Ticket', key: 'NOPE-1' }, set: { a: 1 } } }, isFinalStep: true },
        { rationale: 'r', call: { tool: 'update_props', args: { target: { kind: 'node', label: 'Ticket', key: 'NOPE-2' }, set: { a: 1 } } }, isFinalStep: true },
        { rationale: 'r', call: { tool: 'update_props', args: { target: { kind: 'node', label: 'Ticket', key: 'NOPE-3' }, set: { a: 1 } } }, isFinalStep: true },
      ],
    });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false, retryBudget: 2 });
    const { reply } = await goal(agent, 'update the nope tickets');
    expect(outcomes(reply)).toEqual(['update_props:graph_node_not_found', 'update_props:graph_node_not_found', 'update_props:graph_node_not_found']);
    expect(reply.status).toBe('waiting');
    expect(reply.message).toMatch(/^I tried 3 times and could not finish/);
    expect(m.left()).toEqual({});
  });

  it('the person never answers: past the deadline the run ends saying what was and was not done', async () => {
    const m = scriptedModel({
      GoalSpec: [spec({})],
      StepPlan: [
        { rationale: 'r', call: addTicket('T-1'), isFinalStep: false },
        { rationale: 'r', call: { tool: 'send_email', args: {} }, isFinalStep: true },
      ],
      Answer: [{ message: 'I made one ticket, then waited in vain.' }],
    });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false, answerWithin: 'PT10M' });
    const { sessionId, reply } = await goal(agent, 'make a ticket and mail everyone');
    expect(reply.status).toBe('waiting');
    // The ticket made before the escalation was saved with that step.
    expect((await agent.graph()).nodes.map((n) => n.key)).toEqual(['T-1']);
    agent.clock.now = new Date(agent.clock.now.getTime() + 11 * 60_000);
    expect(await agent.runtime.fireDeadlines()).toBe(1);
    const end = (await agent.runtime.session(sessionId)).reply;
    expect(end.status).toBe('done');
    expect(end.message).toContain('Nobody answered my question in time');
    expect(end.message).toContain("create node Ticket 'T-1': done");
    expect(end.message).toContain('call send_email: not done');
    expect(end.message).toContain('Not done: the goal');
    expect((await agent.graph()).nodes.map((n) => n.key)).toEqual(['T-1']);
  });
});

describe('graph changes commit with the snapshot', () => {
  it('a step whose save fails leaves the graph as it was; sent again it applies once; replayed it applies nothing', async () => {
    let failSaves = 1;
    const failing: Store = {
      ...store,
      commitTurn: (id, version, turn) =>
        store.commitTurn(id, version, {
          ...turn,
          ...(turn.effects && {
            effects: async (tx) => {
              await turn.effects!(tx);
              // The crash: after the graph writes, before the session is saved, in the same transaction.
              if (failSaves-- > 0) throw new StoreUnavailableError('pglite store: lost mid-commit');
            },
          }),
        }),
    };
    const agent = taskAgentRuntime(failing);
    const { sessionId } = await agent.runtime.start('task-agent');
    const turn = { text: "Create a Ticket node with key T-1 and status open. Then create a User node with key 'ann'.", turnId: 'turn-1' };
    await expect(agent.runtime.turn(sessionId, turn)).rejects.toThrow(/lost mid-commit/);
    expect(await agent.graph()).toEqual({ nodes: [], edges: [] });
    expect((await agent.runtime.session(sessionId)).history).toHaveLength(1);

    const reply = await agent.runtime.turn(sessionId, turn);
    expect(reply.status).toBe('done');
    expect((await agent.graph()).nodes.map((n) => `${n.label}:${n.key}`)).toEqual(['Ticket:T-1', 'User:ann']);
    const again = await agent.runtime.turn(sessionId, turn);
    expect(again).toEqual(reply);
    expect((await agent.graph()).nodes).toHaveLength(2);
    expect((await agent.runtime.session(sessionId)).history).toHaveLength(2);
  });
});
