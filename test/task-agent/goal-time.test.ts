/**
 * Issue 27 §3: a goal's wall time is bounded as a whole, not only per step.
 * Each step below stays under the step limit (60 s); their sum reaches the
 * goal's (50 s here), and the goal ends there: `done`, reason `limit`, the
 * answer says so, and the nodes made so far are kept. The model's answers
 * move a fake clock (the actors' `now`), so no test waits.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';
import { goalSpec, scriptedModel, startGoal, taskAgentRuntime, type Scripted, useGraphStore } from '../helpers/task-agent.js';

let store: Store;
useGraphStore((opened) => (store = opened));

describe('the time limit per goal', () => {
  it('ends the goal when its steps together reach it, though no step reached its own', async () => {
    let clock = Date.parse('2026-11-27T10:00:00Z');
    /** A plan that took `ms` of the model's time. */
    const slowPlan = (ms: number, call: { tool: string; args: Record<string, unknown> }, isFinalStep = false): Scripted => () => {
      clock += ms;
      return { rationale: 'next', call, isFinalStep };
    };
    const node = (key: string) => ({ tool: 'add_node', args: { label: 'Ticket', key, properties: {} } });
    const m = scriptedModel({
      GoalSpec: [goalSpec({ summary: 'Make tickets' }), goalSpec({ summary: 'Make tickets, go on' })],
      StepPlan: [
        // Step 1: 30 s, then a failing call that asks the person (no retries).
        slowPlan(30_000, node('T-1')),
        slowPlan(0, { tool: 'delete_node', args: { label: 'Ticket', key: 'NOPE' } }),
        // Step 2, after the person's answer: 15 s more (45 s in all), then 10 s more (55 s) to plan a call that would finish the goal.
        slowPlan(15_000, node('T-2')),
        slowPlan(10_000, node('T-3'), true),
      ],
    });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false, retryBudget: 0, now: () => clock, limits: { maxGoalMs: 50_000 } });
    const { sessionId, reply } = await startGoal(agent, 'make tickets');
    expect(reply.state).toBe('escalate');
    // The person takes an hour to answer: waiting is not the goal's time.
    clock += 3_600_000;
    const ended = await agent.runtime.turn(sessionId, { text: 'go on without that delete' });
    expect(ended.status).toBe('done');
    expect(ended.completion.reason).toBe('limit');
    expect(ended.message).toMatch(/^I stopped before finishing: this goal reached the time limit of 50 s per goal\./);
    // The work done is kept; the call planned past the limit was never made.
    expect((await agent.graph()).nodes.map((n) => n.key).sort()).toEqual(['T-1', 'T-2']);
  });
});
