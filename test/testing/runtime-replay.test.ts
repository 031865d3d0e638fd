/**
 * Generated paths sent through the runtime, as an app's tests would send them
 * over HTTP (issue 28 §2; docs/guide.md §6): with `offeredButtonsOnly`, no turn
 * of a path is refused, and a flow read by the offline matcher alone (no
 * model outcome, no date, no side event on its paths) reaches, turn by turn,
 * the states the path expects.
 */
import { describe, expect, it } from 'vitest';
import { createFlowRuntime } from '../../src/flow/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { generateFlowPaths, type FlowTestEvent } from '../../src/testing/index.js';
import type { Turn } from '../../src/workflow/turn.js';
import { exampleFlows } from '../helpers/http.js';

const turnOf = (event: FlowTestEvent): Turn | null =>
  event.type === 'user.button' ? { button: event.value } : event.type === 'user.text' ? { text: event.text } : null;

describe('generated paths through the runtime', () => {
  it('contact-request: every path, turn by turn, reaches the states it expects', async () => {
    const doc = exampleFlows().find((f) => f.id === 'contact-request')!;
    const paths = generateFlowPaths(doc, { offeredButtonsOnly: true });
    const runtime = createFlowRuntime({ flows: [doc], store: createMemoryStore() });
    const reached: string[] = [];
    const expected: string[] = [];
    for (const path of paths) {
      const { sessionId } = await runtime.start(doc.id);
      for (const [i, event] of path.events.entries()) {
        const turn = turnOf(event);
        expect(turn, `${path.description}: ${event.type}`).not.toBeNull();
        const reply = await runtime.turn(sessionId, turn!);
        reached.push(`${path.description} #${i}: ${JSON.stringify(reply.state)}`);
        expected.push(`${path.description} #${i}: ${JSON.stringify(path.expected[i])}`);
      }
    }
    runtime.close();
    expect(paths.length).toBeGreaterThan(100);
    expect(reached).toEqual(expected);
  });
});
