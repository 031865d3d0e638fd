/**
 * Issue 27 §3: "no route of the server waits on" a goal that runs to its
 * limit. A planner that never stops runs over HTTP (PGlite with AGE: one
 * database for the sessions and the graph) while the same server is asked
 * for another session again and again: those requests are answered while
 * the goal runs (counted, no clock read), and the goal ends at its limit
 * with HTTP 200 and its work kept.
 */
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import type { Store } from '../../src/store/types.js';
import { taskAgentHost } from '../../src/task-agent/host.js';
import { jsonRequests } from '../helpers/http.js';
import { goalSpec, scriptedModel, taskAgentRuntime, useGraphStore, type Scripted } from '../helpers/task-agent.js';

let store: Store;
useGraphStore((s) => (store = s));

const endless = (n: number): Scripted[] =>
  Array.from({ length: n }, (_, i) => ({ rationale: 'one more', call: { tool: 'add_node', args: { label: 'Ticket', key: `T-${i}`, properties: {} } }, isFinalStep: false }));

describe('a goal running to its limit', () => {
  it('leaves the other routes answering meanwhile, and ends 200 with its work kept', async () => {
    const m = scriptedModel({ GoalSpec: [goalSpec({ summary: 'Make tickets forever' })], StepPlan: endless(100) });
    const host = taskAgentHost({ database: store.sql!, model: m.model, offlineReader: false, limits: { maxModelCalls: 30 } });
    const runtime = createRuntime({ workflows: [host.workflow], store, actors: host.actors });
    const request = jsonRequests(createApp({ runtime }));
    try {
      const goal = (await request('/api/flows/task-agent/sessions', {})).body.sessionId as string;
      const other = (await request('/api/flows/task-agent/sessions', {})).body.sessionId as string;
      let running = true;
      const ended = request(`/api/sessions/${goal}/turns`, { text: 'make tickets, and never stop' }).finally(() => (running = false));
      let answered = 0;
      let stepsSeenMeanwhile = 0;
      while (running) {
        const seen = await request(`/api/sessions/${other}`);
        expect(seen.status, seen.text).toBe(200);
        if (!running) break;
        answered++;
        stepsSeenMeanwhile = Math.max(stepsSeenMeanwhile, m.calls.length);
      }
      const turn = await ended;
      expect(turn.status, turn.text).toBe(200);
      expect(turn.body.completion.reason).toBe('limit');
      expect(m.calls).toHaveLength(30);
      expect((await taskAgentRuntime(store).graph()).nodes).toHaveLength(29);
      console.log(`[meanwhile] ${answered} other requests answered during the goal's ${m.calls.length} model calls`);
      // Answered while the goal was under way, not only before it began or after it ended.
      expect(answered).toBeGreaterThanOrEqual(3);
      expect(stepsSeenMeanwhile).toBeGreaterThan(1);
    } finally {
      runtime.close();
    }
  });
});
