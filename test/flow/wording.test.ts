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

describe('the default handoff message', () => {
  const handoff = (questions: number) =>
    flow({
      id: `handoff-${questions}`,
      version: 1,
      start: 'q1',
      nodes: [
        ...Array.from({ length: questions }, (_, i) => ({ kind: 'question' as const, id: `q${i + 1}`, prompt: `Question ${i + 1}?`, answer: { type: 'string' as const } })),
        { kind: 'terminal', id: 'end', outcome: 'handoff' },
      ],
      edges: Array.from({ length: questions }, (_, i) => ({ from: `q${i + 1}`, to: i + 1 < questions ? `q${i + 2}` : 'end' })),
    });

  it('says "your answer" for one answer and "your answers" for several', async () => {
    const said = async (questions: number) => {
      const runtime = createRuntime({ workflows: [flowWorkflow(handoff(questions))], store: createMemoryStore() });
      const { sessionId } = await runtime.start(`handoff-${questions}`);
      let reply;
      for (let i = 0; i < questions; i++) reply = await runtime.turn(sessionId, { text: `answer ${i + 1}` });
      runtime.close();
      return reply!.message;
    };
    expect(await said(1)).toBe('Thank you. Your answer has been passed on to a person, who will take it from here.');
    expect(await said(2)).toBe('Thank you. Your answers have been passed on to a person, who will take it from here.');
  });
});
