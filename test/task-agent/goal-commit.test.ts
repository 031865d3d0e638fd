/**
 * Issue 27 §3, the task agent's commit: a step's graph writes are applied in
 * the transaction that saves its snapshot, reply and turn id (graph-steps.ts),
 * and that commit is never cut at the goal's time limit (the answer is read
 * from what it kept). A commit the store did not confirm answers 503 over
 * HTTP saying the turn may or may not have been saved; the same turnId sent
 * again returns its answer if it was, or applies it now, never twice.
 *
 * The goal's reads of the graph need no separate bound here: they run in its
 * tool calls, which the goal's time stops (goal-time-abort.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import { taskAgentHost } from '../../src/task-agent/host.js';
import { StoreUnavailableError, type Store } from '../../src/store/types.js';
import { jsonRequests } from '../helpers/http.js';
import { taskAgentRuntime, useGraphStore } from '../helpers/task-agent.js';

let store: Store;
useGraphStore((opened) => (store = opened));

const GOAL = 'Create a Ticket node with key T-1 and status open';

describe("the commit of a task agent's goal", () => {
  it.each([
    ['kept it (its confirmation was lost on the way)', true],
    ['did not keep it', false],
  ])('a commit the store did not confirm, which %s: 503 saying it may not have been saved; the same turnId applies the goal once', async (_, lands) => {
    let fail = false;
    const inner = store.commitTurn.bind(store);
    const wrapped: Store = {
      ...store,
      kind: store.kind,
      commitTurn: async (...args) => {
        if (!fail) return inner(...args);
        fail = false;
        if (lands) await inner(...args);
        throw new StoreUnavailableError('postgres store: commit failed: no answer from PostgreSQL within 6000 ms (query timeout); the connection was dropped');
      },
    };
    const host = taskAgentHost({ database: store.sql! });
    const runtime = createRuntime({ workflows: [host.workflow], store: wrapped, actors: host.actors });
    const request = jsonRequests(createApp({ runtime }));
    try {
      const started = await request('/api/flows/task-agent/sessions', {});
      expect(started.status, started.text).toBe(201);
      const id = started.body.sessionId as string;
      fail = true;
      const lost = await request(`/api/sessions/${id}/turns`, { text: GOAL, turnId: 'goal-1' });
      expect(lost.status, lost.text).toBe(503);
      expect(lost.body.error).toEqual({
        code: 'store_unavailable',
        message:
          'The store did not confirm that this turn was saved: it may or may not have been. Send it again with the same turnId: if it was saved you get its answer, otherwise it is done now, never twice.',
      });
      const graph = () => taskAgentRuntime(store).graph();
      expect((await graph()).nodes).toHaveLength(lands ? 1 : 0);
      const again = await request(`/api/sessions/${id}/turns`, { text: GOAL, turnId: 'goal-1' });
      expect(again.status, again.text).toBe(200);
      expect(again.body.completion.reason).toBe('completed');
      expect((await graph()).nodes.map((n) => n.key)).toEqual(['T-1']);
      // Without a turnId the 503 says where to look first.
      const next = await request('/api/flows/task-agent/sessions', {});
      fail = true;
      const unkeyed = await request(`/api/sessions/${next.body.sessionId}/turns`, { text: 'Create a Ticket node with key T-2 and status open' });
      expect(unkeyed.status).toBe(503);
      expect(unkeyed.body.error.message).toBe(
        `The store did not confirm that this turn was saved: it may or may not have been. Read the session (GET /api/sessions/${next.body.sessionId}) before sending it again (a turn sent with a turnId can be sent again safely).`,
      );
    } finally {
      runtime.close();
    }
  });
});
