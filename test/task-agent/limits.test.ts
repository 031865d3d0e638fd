/**
 * Issue 27 §3: a goal is bounded. Reaching a limit (steps, model calls, tool
 * calls, prompt bytes, a step's wall time) ends the goal `done` with an honest
 * answer (what was done, what was not); the work already done is kept.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';
import { taskAgentHost } from '../../src/task-agent/host.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import { emptyGraph, goalSpec, scriptedModel, startGoal, taskAgentRuntime, type Scripted, useGraphStore } from '../helpers/task-agent.js';

let store: Store;
useGraphStore((s) => (store = s));

/** A planner that never stops: every plan adds one more node and is never the last. */
const endless = (n: number): Scripted[] =>
  Array.from({ length: n }, (_, i) => ({ rationale: 'one more', call: { tool: 'add_node', args: { label: 'Ticket', key: `T-${i}`, properties: {} } }, isFinalStep: false }));

const steps = (reply: ReplyEnvelope) => (reply.artifacts.find((a) => a.type === 'TASK_STEPS') as unknown as { outcome: string; steps: { ok: boolean }[] }).steps;

describe('limits per goal', () => {
  it('a planner that never stops ends at the model-call limit, with its work kept and said', async () => {
    const m = scriptedModel({ GoalSpec: [goalSpec({ summary: 'Make tickets forever' })], StepPlan: endless(50) });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false, limits: { maxModelCalls: 5 } });
    const { reply } = await startGoal(agent, 'make tickets, and never stop');
    expect(reply.status).toBe('done');
    expect(reply.completion.reason).toBe('limit');
    // One GoalSpec and four plans: five model calls, then no more (not even for the answer).
    expect(m.calls.map((c) => c.step)).toEqual(['GoalSpec', 'StepPlan', 'StepPlan', 'StepPlan', 'StepPlan']);
    expect(reply.message).toMatch(/^I stopped before finishing: this goal reached the limit of 5 model calls per goal\./);
    expect(reply.message).toContain('The 4 changes above were made; nothing else was done.');
    expect(reply.message).toContain('Not done: Make tickets forever');
    expect((await agent.graph()).nodes.map((n) => n.key).sort()).toEqual(['T-0', 'T-1', 'T-2', 'T-3']);
  });

  it('a goal of many nodes ends at the tool-call limit, its nodes so far kept', async () => {
    const m = scriptedModel({ GoalSpec: [goalSpec({ summary: 'Create 10000 tickets' })], StepPlan: endless(50) });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false, limits: { maxToolCalls: 3 } });
    const { reply } = await startGoal(agent, 'Create 10000 Ticket nodes');
    expect(reply.completion.reason).toBe('limit');
    expect(reply.message).toMatch(/reached the limit of 3 tool calls per goal/);
    expect(steps(reply)).toHaveLength(3);
    expect((await agent.graph()).nodes).toHaveLength(3);
  });

  it('ends at the steps limit, and at the prompt-bytes limit', async () => {
    const m1 = scriptedModel({ GoalSpec: [goalSpec({})], StepPlan: endless(50) });
    const bySteps = await startGoal(taskAgentRuntime(store, { model: m1.model, offlineReader: false, limits: { maxSteps: 2 } }), 'go');
    expect(bySteps.reply.message).toMatch(/reached the limit of 2 steps per goal/);
    await emptyGraph(store);
    const m2 = scriptedModel({ GoalSpec: [goalSpec({})], StepPlan: endless(50) });
    const byBytes = await startGoal(taskAgentRuntime(store, { model: m2.model, offlineReader: false, limits: { maxPromptBytes: 1 } }), 'go');
    expect(byBytes.reply.message).toMatch(/reached the limit of 1 bytes of prompts per goal/);
    expect(steps(byBytes.reply)).toHaveLength(1);
  });

  it('refuses a limit it could not keep, naming it: a step longer than the runtime\'s wait for a turn (a 500 at 120 s), or a negative one', () => {
    expect(() => taskAgentHost({ database: store.sql!, limits: { maxStepMs: 600_000 } })).toThrow(/^taskAgentWorkflow: limits\.maxStepMs: Too big: expected number to be <=100000/);
    expect(() => taskAgentHost({ database: store.sql!, limits: { maxModelCalls: -1 } })).toThrow(/^taskAgentWorkflow: limits\.maxModelCalls: Too small/);
  });

  it("ends at a step's time limit (0 ms: no call is begun)", async () => {
    const m = scriptedModel({ GoalSpec: [goalSpec({})], StepPlan: endless(50) });
    const { reply } = await startGoal(taskAgentRuntime(store, { model: m.model, offlineReader: false, limits: { maxStepMs: 0 } }), 'go');
    expect(reply.completion.reason).toBe('limit');
    expect(reply.message).toMatch(/reached the time limit of 0 ms for one step/);
    expect(steps(reply)).toHaveLength(0);
  });
});

describe('model output size', () => {
  it('a 5 MB label is refused with its size, never echoed into the reply or the journal', async () => {
    const huge = 'L'.repeat(5_000_000);
    const m = scriptedModel({
      GoalSpec: [goalSpec({})],
      StepPlan: [{ rationale: 'big', call: { tool: 'add_node', args: { label: huge, key: 'K-1', properties: {} } }, isFinalStep: true }],
    });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false, retryBudget: 0 });
    const { sessionId, reply } = await startGoal(agent, 'make a node');
    expect(reply.message).toMatch(/arguments of 5\.0 MB; at most 64 KB/);
    const history = await agent.runtime.session(sessionId);
    const journal = JSON.stringify(history);
    expect(journal.length).toBeLessThan(100_000);
    expect(journal).not.toContain('LLLLLLLLLLLLLLLLLLLL');
    expect((await agent.graph()).nodes).toEqual([]);
  });
});
