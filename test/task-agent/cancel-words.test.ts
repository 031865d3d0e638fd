/**
 * Issue 27 §1: "stop" (or cancel) always ends an agent's goal. A cancel word
 * the person types is a cancel, even when it is one of the values a
 * contradiction asks them to choose between; only a picked button (an answer
 * by the gate's id) takes it as that value.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';
import { emptyGraph, goalSpec, scriptedModel, startGoal, taskAgentRuntime, useGraphStore } from '../helpers/task-agent.js';

let store: Store;
useGraphStore((opened) => (store = opened));

/** A goal whose status is contested between "stop" and "go": a traffic light, say. */
const contested = () =>
  scriptedModel({
    GoalSpec: [
      goalSpec({
        summary: 'Create Light L-1',
        complexity: 'simple',
        contradictions: [{ subject: 'Light L-1', property: 'status', values: ['stop', 'go'] }],
        step: { tool: 'add_node', args: { label: 'Light', key: 'L-1', properties: { status: 'go' } } },
      }),
    ],
    Answer: [{ message: 'Created L-1.' }],
  });

describe('a cancel word ends the goal', () => {
  it('typed "stop" ends it, though "stop" is one of the contradicting values', async () => {
    const agent = taskAgentRuntime(store, { model: contested().model, offlineReader: false });
    const { sessionId, reply } = await startGoal(agent, 'Create a Light node L-1 with status stop. Its status is go.');
    expect(reply.state).toBe('escalate');
    const stopped = await agent.runtime.turn(sessionId, { text: 'Stop' });
    expect(stopped.status).toBe('done');
    expect(stopped.message).toMatch(/^Stopped as you asked/);
    expect((await agent.graph()).nodes).toEqual([]);
  });

  it('typed "cancel" (not one of the buttons) ends it too', async () => {
    const agent = taskAgentRuntime(store, { model: contested().model, offlineReader: false });
    const { sessionId } = await startGoal(agent, 'Create a Light node L-1 with status stop. Its status is go.');
    const stopped = await agent.runtime.turn(sessionId, { text: 'cancel' });
    expect(stopped.status).toBe('done');
    expect(stopped.message).toMatch(/^Stopped as you asked/);
  });

  it('the "stop" button picks the value; the "Do nothing" button stops', async () => {
    const agent = taskAgentRuntime(store, { model: contested().model, offlineReader: false });
    const { reply } = await startGoal(agent, 'Create a Light node L-1 with status stop. Its status is go.');
    const gate = reply.inputs![0]!;
    const options = (gate.options ?? []).map((o) => o.value);
    expect(options).toContain('stop');
    const doNothing = gate.options!.find((o) => o.label === 'Do nothing');
    expect(doNothing, 'a way to stop by button').toBeDefined();
    expect(doNothing!.value).not.toBe('stop');
    const picked = await agent.runtime.answer(gate.gateId, 'stop');
    expect(picked.status).toBe('done');
    expect((await agent.graph()).nodes).toEqual([{ label: 'Light', key: 'L-1', properties: { status: 'stop' } }]);

    await emptyGraph(store);
    const again = taskAgentRuntime(store, { model: contested().model, offlineReader: false });
    const second = await startGoal(again, 'Create a Light node L-1 with status stop. Its status is go.');
    const stopped = await again.runtime.answer(second.reply.inputs![0]!.gateId, doNothing!.value);
    expect(stopped.message).toMatch(/^Stopped as you asked/);
    expect((await again.graph()).nodes).toEqual([]);
  });

  it('"never mind" on a clarification question ends the goal (not read as a new goal)', async () => {
    const agent = taskAgentRuntime(store);
    const { sessionId, reply } = await startGoal(agent, 'Delete the Ticket node NOPE-1');
    expect(reply.state).toBe('escalate');
    const stopped = await agent.runtime.turn(sessionId, { text: 'never mind.' });
    expect(stopped.status).toBe('done');
    expect(stopped.message).toMatch(/^Stopped as you asked/);
  });
});
