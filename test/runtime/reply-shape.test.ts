/**
 * A session's reply comes with its `inputs` key (empty: the runtime says which
 * gates are open), so that the runtime's copy sets a key it has rather than
 * adding one to a spread copy, a slow path of every turn; the workflow's own
 * reply elsewhere (what the flow conversation API gives) is left as it was; and the
 * runtime's reply keeps the envelope's order (status, then inputs, last).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFlowText } from '../../src/flow/parse.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { openSession } from '../../src/workflow/session.js';
import { greetingWorkflow } from '../fixtures/greeting-workflow.js';

const intake = flowWorkflow(parseFlowText(readFileSync(new URL('../../machines/flows/patient-intake.json', import.meta.url), 'utf8'), 'patient-intake.json'));

describe("a session's reply", () => {
  it("has an empty inputs list of its own, last, in the runtime's sessions; elsewhere (the flow conversation API) the workflow's reply as it was", async () => {
    for (const workflow of [intake, greetingWorkflow]) {
      const session = await openSession(workflow, { sessionId: 's', host: { actors: {} }, replyInputs: true });
      const reply = session.reply();
      expect(reply.inputs).toEqual([]);
      expect(Object.keys(reply).at(-1)).toBe('inputs');
      session.stop();
      const plain = await openSession(workflow, { sessionId: 's', host: { actors: {} } });
      expect('inputs' in plain.reply()).toBe(false);
      plain.stop();
    }
  });

  it("is answered by the runtime with the open gates in that key, in the envelope's order", async () => {
    const runtime = createRuntime({ workflows: [intake], store: createMemoryStore() });
    const { sessionId, reply } = await runtime.start(intake.id);
    expect(Object.keys(reply)).toEqual(['sessionId', 'flowId', 'flowVersion', 'state', 'message', 'buttons', 'buttonContext', 'answers', 'artifacts', 'completion', 'status', 'inputs']);
    const next = await runtime.turn(sessionId, { button: 'Yes' });
    expect(Object.keys(next)).toEqual(Object.keys(reply));
    expect(next.inputs).toEqual([]);
    runtime.close();
  });
});
