/**
 * Issue 27 §3: the per-goal time limit holds during a call, not only between
 * calls. Each model and tool call of a goal is given the goal's time left (an
 * AbortSignal); a model that never answers, or a tool that never returns,
 * is stopped there, and the goal ends with the honest answer (what was done,
 * what was not), the work applied before kept, nothing applied twice.
 *
 * No wall-time assertions: the clock the limits read is a fake one that the
 * scripted answers move, so that only the call that never answers can meet
 * the limit (its real timer gets the few hundred ms left); the tests assert
 * the outcome and that the goal's abort reached the call.
 */
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/graph/tools/tool.js';
import { ConversationFinishedError } from '../../src/runtime/errors.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import type { Store } from '../../src/store/types.js';
import { GoalTimeUp } from '../../src/workflow/goal-time.js';
import { taskAgentHost } from '../../src/task-agent/host.js';
import type { CallOptions } from '../helpers/mock-model.js';
import { textResult } from '../helpers/mock-model.js';
import { goalSpec, startGoal, taskAgentRuntime, useGraphStore } from '../helpers/task-agent.js';

let store: Store;
useGraphStore((opened) => (store = opened));

/** What one model call answers: an object (after moving the clock by `ms`), or nothing until it is aborted. */
type Answer = { ms?: number; object: Record<string, unknown> } | 'never';

/** A model answering each schema's calls in turn; a 'never' call waits for its abort and records the reason. */
function model(script: Record<string, Answer[]>, clock: { ms: number }) {
  const aborts: unknown[] = [];
  const steps: string[] = [];
  const m = new MockLanguageModelV4({
    doGenerate: async (options: CallOptions) => {
      const step = options.responseFormat?.type === 'json' ? (options.responseFormat.name ?? '?') : 'text';
      steps.push(step);
      const next = script[step]?.shift();
      if (next === undefined) throw new Error(`no ${step} answer left`);
      if (next === 'never')
        return new Promise<never>((_, reject) => {
          const signal = options.abortSignal;
          signal?.addEventListener('abort', () => {
            aborts.push(signal.reason);
            reject(signal.reason);
          });
        });
      clock.ms += next.ms ?? 0;
      return textResult(JSON.stringify(next.object));
    },
  });
  return { model: m, aborts, steps };
}

const plan = (tool: string, args: Record<string, unknown>, isFinalStep = false) => ({ rationale: 'next', call: { tool, args }, isFinalStep });
const addNode = (key: string) => plan('add_node', { label: 'Ticket', key, properties: {} });

describe('the time limit per goal, during a call', () => {
  it('stops a model call that never answers when the goal runs out of time, and keeps the work done before', async () => {
    const clock = { ms: Date.parse('2026-11-27T10:00:00Z') };
    const m = model(
      {
        GoalSpec: [{ object: goalSpec({ summary: 'Make tickets' }) }, 'never'],
        // Step 1 takes 59.8 s of the goal's 60 s (by the fake clock), makes T-1, then a failing call asks the person.
        StepPlan: [{ ms: 59_800, object: addNode('T-1') }, { object: plan('delete_node', { label: 'Ticket', key: 'NOPE' }) }],
      },
      clock,
    );
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false, retryBudget: 0, now: () => clock.ms, limits: { maxGoalMs: 60_000 } });
    const { sessionId, reply } = await startGoal(agent, 'make tickets');
    expect(reply.state).toBe('escalate');
    // Step 2: 200 ms of the goal are left, and the model never answers.
    const ended = await agent.runtime.turn(sessionId, { text: 'go on without that delete' });
    expect(ended.status).toBe('done');
    expect(ended.completion.reason).toBe('limit');
    expect(ended.message).toMatch(/^I stopped before finishing: this goal reached the time limit of 60 s per goal\./);
    expect(ended.message).toContain('Not done:');
    // The goal's abort reached the model call, naming the limit.
    expect(m.aborts).toHaveLength(1);
    expect(m.aborts[0]).toBeInstanceOf(GoalTimeUp);
    expect((m.aborts[0] as GoalTimeUp).limit).toBe('the time limit of 60 s per goal');
    // No model call after it (the answer is the facts'), the work of step 1 kept once.
    expect(m.steps).toEqual(['GoalSpec', 'StepPlan', 'StepPlan', 'GoalSpec']);
    expect((await agent.graph()).nodes.map((n) => n.key)).toEqual(['T-1']);
    // The goal is over: a later message is refused and changes nothing.
    await expect(agent.runtime.turn(sessionId, { text: 'make tickets' })).rejects.toBeInstanceOf(ConversationFinishedError);
    expect((await agent.graph()).nodes.map((n) => n.key)).toEqual(['T-1']);
  });

  it('stops a tool call that never returns, rolls it back, and keeps the step\'s earlier writes', async () => {
    const clock = { ms: Date.parse('2026-11-27T10:00:00Z') };
    const toolAborts: unknown[] = [];
    const stuck = defineTool({
      name: 'slow_report',
      description: 'Writes a report of the graph (slow).',
      inputSchema: z.object({ topic: z.string() }),
      run: (graph, _args, context) =>
        new Promise((_, reject) => {
          // A write first: it must not survive the stop.
          void graph.addNode({ label: 'Report', key: 'R-1', properties: {} });
          context?.signal?.addEventListener('abort', () => {
            toolAborts.push(context.signal!.reason);
            reject(context.signal!.reason);
          });
        }),
    });
    const m = model(
      {
        GoalSpec: [{ object: goalSpec({ summary: 'Make a ticket and a report' }) }],
        StepPlan: [{ object: addNode('T-1') }, { ms: 59_800, object: plan('slow_report', { topic: 'tickets' }, true) }],
      },
      clock,
    );
    const agent = taskAgentRuntime(store, { model: m.model, tools: [stuck], offlineReader: false, now: () => clock.ms, limits: { maxGoalMs: 60_000 } });
    const { reply } = await startGoal(agent, 'make a ticket, then a report');
    expect(reply.status).toBe('done');
    expect(reply.completion.reason).toBe('limit');
    expect(reply.message).toMatch(/^I stopped before finishing: this goal reached the time limit of 60 s per goal\./);
    expect(reply.message).toMatch(/slow_report[^\n]*not done \(not finished: the goal reached the time limit of 60 s per goal\)/);
    expect(toolAborts).toHaveLength(1);
    expect(toolAborts[0]).toBeInstanceOf(GoalTimeUp);
    // T-1 (done before) is kept; the stopped tool's write is not.
    expect((await agent.graph()).nodes.map((n) => n.key)).toEqual(['T-1']);
  });

  it('answers the goal over HTTP with 200 and the truth when the first model call never answers', async () => {
    const clock = { ms: 0 };
    const m = model({ GoalSpec: ['never'] }, clock);
    const host = taskAgentHost({ database: store.sql!, model: m.model, offlineReader: false, limits: { maxGoalMs: 300 } });
    const runtime = createRuntime({ workflows: [host.workflow], store, actors: host.actors });
    try {
      const app = createApp({ runtime });
      const started = await app.request('/api/flows/task-agent/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(started.status).toBe(201);
      const { sessionId } = (await started.json()) as { sessionId: string };
      const turn = await app.request(`/api/sessions/${sessionId}/turns`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'sort out my tickets', turnId: 't-1' }),
      });
      expect(turn.status, await turn.clone().text()).toBe(200);
      const body = (await turn.json()) as { status: string; message: string; completion: { reason: string } };
      expect(body.status).toBe('done');
      expect(body.completion.reason).toBe('limit');
      expect(body.message).toMatch(/^I stopped before finishing: this goal reached the time limit of 300 ms per goal\./);
      expect(body.message).toContain('Nothing was changed in the graph.');
      expect(m.aborts[0]).toBeInstanceOf(GoalTimeUp);
    } finally {
      runtime.close();
    }
  });
});
