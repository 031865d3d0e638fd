/**
 * Issue 27 §1: the task agent is never stuck. A goal that escalates, is
 * answered, and escalates again waits with a new gate the person can answer
 * (and "stop" ends it): two failing deletes in a row, the weather question
 * then a delete of a node with edges, two unreadable model answers in a row.
 */
import { describe, expect, it } from 'vitest';
import { openAgeGraph } from '../../src/graph/index.js';
import type { Store } from '../../src/store/types.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import { scriptedModel, startGoal, taskAgentRuntime, type TaskAgentHarness, useGraphStore } from '../helpers/task-agent.js';

let store: Store;
useGraphStore((s) => (store = s));

/** Waiting with exactly one open gate, which the runtime lists too. */
async function expectAsking(agent: TaskAgentHarness, sessionId: string, reply: ReplyEnvelope) {
  expect(reply.state).toBe('escalate');
  expect(reply.status).toBe('waiting');
  expect(reply.inputs).toHaveLength(1);
  expect((await agent.runtime.inputs(undefined, { sessionId })).map((g) => g.gateId)).toEqual([reply.inputs![0]!.gateId]);
}

/** "stop" ends the goal and leaves nothing open. */
async function expectStops(agent: TaskAgentHarness, sessionId: string) {
  const stopped = await agent.runtime.turn(sessionId, { text: 'stop' });
  expect(stopped.status).toBe('done');
  expect(stopped.message).toMatch(/^Stopped as you asked/);
  expect(await agent.runtime.inputs(undefined, { sessionId })).toEqual([]);
}

describe('never stuck: an escalation answered and escalating again asks again', () => {
  it('"Delete the Ticket node NOPE-1" then "Delete the Ticket node NOPE-2"', async () => {
    const agent = taskAgentRuntime(store);
    const { sessionId, reply } = await startGoal(agent, 'Delete the Ticket node NOPE-1');
    await expectAsking(agent, sessionId, reply);
    const again = await agent.runtime.turn(sessionId, { text: 'Delete the Ticket node NOPE-2' });
    expect(again.message).toMatch(/NOPE-2/);
    await expectAsking(agent, sessionId, again);
    expect(again.inputs![0]!.gateId).not.toBe(reply.inputs![0]!.gateId);
    await expectStops(agent, sessionId);
  });

  it('the weather question, then a delete of a node with edges', async () => {
    const agent = taskAgentRuntime(store);
    await store.sql!.transaction(async (tx) => {
      const graph = await openAgeGraph(tx, { owner: null });
      await graph.addNode({ label: 'Ticket', key: 'T-1' });
      await graph.addNode({ label: 'Person', key: 'ana' });
      await graph.addEdge({ type: 'ASSIGNED_TO', from: { label: 'Ticket', key: 'T-1' }, to: { label: 'Person', key: 'ana' } });
    });
    const { sessionId, reply } = await startGoal(agent, "What's the weather like in London?");
    await expectAsking(agent, sessionId, reply);
    const again = await agent.runtime.turn(sessionId, { text: 'Delete the Ticket node T-1' });
    expect(again.message).toMatch(/edge/);
    await expectAsking(agent, sessionId, again);
    await expectStops(agent, sessionId);
    // Nothing was deleted.
    expect((await agent.graph()).nodes).toHaveLength(2);
  });

  it('two unreadable model answers in a row', async () => {
    const m = scriptedModel({ GoalSpec: [{ text: 'not json' }, { text: '{"intent": ' }] });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false });
    const { sessionId, reply } = await startGoal(agent, 'make the thing');
    await expectAsking(agent, sessionId, reply);
    const again = await agent.runtime.turn(sessionId, { text: 'make the thing, please' });
    expect(again.message).toMatch(/could not read your request/);
    await expectAsking(agent, sessionId, again);
    await expectStops(agent, sessionId);
  });

  it('a cancel ends an escalated goal too', async () => {
    const agent = taskAgentRuntime(store);
    const { sessionId } = await startGoal(agent, 'Delete the Ticket node NOPE-1');
    await agent.runtime.turn(sessionId, { text: 'Delete the Ticket node NOPE-2' });
    const cancelled = await agent.runtime.cancel(sessionId);
    expect(cancelled.status).toBe('cancelled');
    expect(await agent.runtime.inputs(undefined, { sessionId })).toEqual([]);
  });
});
