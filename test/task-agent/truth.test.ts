/**
 * Issue 27 §2: the task agent tells the truth, whatever the model answers.
 * A goal is `completed` only when every call planned succeeded (the answer
 * never begins "Done" over a failed step); a read's rows reach the person and
 * the answer prompt (capped, with the count); a tool name the model made up
 * is re-planned, not asked about; invalid arguments are described in words.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import { goalSpec, scriptedModel, startGoal, taskAgentRuntime, useGraphStore } from '../helpers/task-agent.js';

let store: Store;
useGraphStore((s) => (store = s));

const stepsArtifact = (reply: ReplyEnvelope) => reply.artifacts.find((a) => a.type === 'TASK_STEPS') as unknown as { outcome?: string; steps: { tool: string; ok: boolean; text: string }[] };

describe('tell the truth', () => {
  it('"My dashboard is broken. Fix it.": a failed step and a read that worked end partial, never "Done"', async () => {
    const m = scriptedModel({
      GoalSpec: [goalSpec({ intent: 'update', summary: 'Fix the dashboard', complexity: 'complex' })],
      StepPlan: [
        { rationale: 'mark it fixed', call: { tool: 'update_props', args: { target: { kind: 'node', label: 'Dashboard', key: 'main' }, set: { status: 'fixed' } } }, isFinalStep: false },
        { rationale: 'look at it', call: { tool: 'query_graph', args: { label: 'Dashboard' } }, isFinalStep: true },
      ],
      Answer: [{ message: 'Done. Your dashboard is fixed.' }],
    });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false });
    const { reply } = await startGoal(agent, 'My dashboard is broken. Fix it.');
    expect(reply.status).toBe('done');
    expect(stepsArtifact(reply).steps.map((s) => s.ok)).toEqual([false, true]);
    expect(reply.completion.reason).toBe('partial');
    expect(reply.completion.readyForHandoff).toBe(false);
    expect(stepsArtifact(reply).outcome).toBe('partial');
    expect(reply.message).not.toMatch(/^\s*Done/i);
    expect(reply.message).toMatch(/^Partly done: 1 of 2 steps failed\./);
    expect(reply.message).toContain('Nothing was changed in the graph.');
  });

  it('a goal whose every call succeeded is completed, and says so', async () => {
    const m = scriptedModel({
      GoalSpec: [goalSpec({ complexity: 'simple', step: { tool: 'add_node', args: { label: 'Ticket', key: 'T-1', properties: {} } } })],
      Answer: [{ message: 'Created T-1.' }],
    });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false });
    const { reply } = await startGoal(agent, 'make T-1');
    expect(reply.completion.reason).toBe('completed');
    expect(stepsArtifact(reply).outcome).toBe('completed');
    expect(reply.message).toMatch(/^Created T-1\.\n\nDone: 1 change to the graph\./);
  });

  it("a read's rows reach the reply and the answer prompt, capped with the count", async () => {
    const agent0 = taskAgentRuntime(store);
    await agent0.seed(...Array.from({ length: 23 }, (_, i) => ({ label: 'Ticket', key: `T-${String(i).padStart(2, '0')}`, properties: {} })));
    const m = scriptedModel({
      GoalSpec: [goalSpec({ intent: 'query', complexity: 'simple', step: { tool: 'cypher_query', args: { query: 'MATCH (t:Ticket) RETURN t.key AS key ORDER BY key' } } })],
      Answer: [{ message: 'Here are your tickets.' }],
    });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false });
    const { reply } = await startGoal(agent, 'which tickets are there?');
    expect(reply.completion.reason).toBe('completed');
    expect(reply.message).toContain('run a read-only Cypher query: done, 23 rows:');
    expect(reply.message).toContain('T-00');
    expect(reply.message).toContain('T-19');
    expect(reply.message).not.toContain('T-20');
    expect(reply.message).toContain('(3 more not shown)');
    const answerPrompt = m.calls.find((c) => c.step === 'Answer')!.prompt;
    expect(answerPrompt).toContain('T-00');
    expect(answerPrompt).toContain('23 rows');
  });

  it('a tool the model made up is planned again, never asked about', async () => {
    const m = scriptedModel({
      GoalSpec: [goalSpec({ summary: 'Tell the team about T-1' })],
      StepPlan: [
        { rationale: 'mail them', call: { tool: 'send_email', args: { to: 'team' } }, isFinalStep: true },
        { rationale: 'note it on the ticket', call: { tool: 'add_node', args: { label: 'Note', key: 'N-1', properties: { text: 'team told' } } }, isFinalStep: true },
      ],
      Answer: [{ message: 'I left a note.' }],
    });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false });
    const { reply } = await startGoal(agent, 'Let the team know about T-1');
    expect(reply.status).toBe('done');
    expect(reply.inputs).toEqual([]);
    expect(m.calls.map((c) => c.step)).toEqual(['GoalSpec', 'StepPlan', 'StepPlan', 'Answer']);
    // The second plan is told the first named a tool that does not exist.
    expect(m.calls[2]!.prompt).toMatch(/send_email/);
    expect(stepsArtifact(reply).steps.map((s) => `${s.tool}:${s.ok}`)).toEqual(['send_email:false', 'add_node:true']);
    expect((await agent.graph()).nodes.map((n) => n.key)).toEqual(['N-1']);
  });

  it('invalid arguments are described in words, never "undefined"', async () => {
    const m = scriptedModel({
      GoalSpec: [goalSpec({ complexity: 'simple', step: { tool: 'add_edge', args: {} } })],
      Answer: [{ message: 'I could not.' }],
    });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false, retryBudget: 0 });
    const { sessionId, reply } = await startGoal(agent, 'link them');
    const end = reply.status === 'waiting' ? await agent.runtime.turn(sessionId, { text: 'stop' }) : reply;
    for (const r of [reply, end]) expect(r.message).not.toContain('undefined');
    expect(stepsArtifact(end).steps[0]!.text).toMatch(/^create edge with no type from a node not given to a node not given: not done \(/);
  });
});
