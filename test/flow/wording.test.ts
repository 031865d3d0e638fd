/**
 * Wording of the first hour (issue 29 §4): who a flow waits for reads as
 * English for a role that takes no article ("staff"), the summary's heading
 * agrees with the number of answers.
 */
import { describe, expect, it } from 'vitest';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { waitingLines } from '../../src/flow/nodes/input.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { example, flow } from './helpers.js';

describe('waiting lines', () => {
  it.each([
    ['manager', 'Waiting for a manager: Approve.'],
    ['auditor', 'Waiting for an auditor: Approve.'],
    ['staff', 'Waiting for staff: Approve.'],
    ['front-desk-staff', 'Waiting for front desk staff: Approve.'],
    ['managers', 'Waiting for managers: Approve.'],
    ['support', 'Waiting for support: Approve.'],
  ])('names the role %s as English does', (role, line) => {
    expect(waitingLines([{ name: 'ok', type: 'boolean', description: 'Approve', to: role }], () => false)).toBe(line);
  });
});

describe('the summary', () => {
  const start = async (turns: ({ text: string } | { button: string })[]) => {
    const runtime = createRuntime({ workflows: [flowWorkflow(example('refund-approval'))], store: createMemoryStore() });
    const { sessionId } = await runtime.start('refund-approval');
    let reply;
    for (const t of turns) reply = await runtime.turn(sessionId, t);
    runtime.close();
    return reply!;
  };

  it('heads a summary of one answer "Your Answer", of several "Your Answers" (the seed\'s heading)', async () => {
    const runtime = createRuntime({
      workflows: [
        flowWorkflow(flow({
          id: 'one-answer',
          version: 1,
          start: 'name',
          nodes: [
            { kind: 'question', id: 'name', prompt: 'Your name?', answer: { type: 'string' } },
            { kind: 'confirmation', id: 'review' },
            { kind: 'terminal', id: 'end', outcome: 'completed', message: 'Thanks.' },
          ],
          edges: [
            { from: 'name', to: 'review' },
            { from: 'review', to: 'end', on: 'confirmed' },
            { from: 'review', to: 'name', on: 'edit' },
          ],
        })),
      ],
      store: createMemoryStore(),
    });
    const { sessionId } = await runtime.start('one-answer');
    const one = await runtime.turn(sessionId, { text: 'Ann' });
    runtime.close();
    expect(one.message).toContain('**Your Answer:**');
    expect(one.message).not.toContain('Your Answers');
    const several = await start([{ text: 'CD5678' }, { text: '50' }, { button: 'wrong_item' }]);
    expect(several.message).toContain('**Your Answers:**');
  });
});
