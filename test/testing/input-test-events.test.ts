/**
 * `inputTestEvents` (gateflow/testing, issue 28 §2): a state that waits for
 * two inputs is completed by answering them one after the other, as the
 * runtime sends them (the last answer with nothing remaining); an input
 * answered already is not offered again.
 */
import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { doneEvent, generateMachinePaths, inputTestEvents } from '../../src/testing/index.js';
import { approvalMachine } from '../helpers/approval-workflow.js';

const key = (snapshot: AnyMachineSnapshot) => JSON.stringify([snapshot.value, snapshot.context]);

describe('inputTestEvents', () => {
  it('reaches the state after one that waits for two inputs, answering them one after the other', () => {
    const paths = generateMachinePaths(approvalMachine, {
      key,
      events: (snapshot) => [...(snapshot.matches('preparing') ? [doneEvent('0.approval.preparing', undefined)] : []), ...inputTestEvents(snapshot)],
    });
    const decided = paths.filter((p) => p.expected.at(-1) === 'decided');
    expect(decided.length).toBeGreaterThan(0);
    // Every way there answers both of the manager's inputs, the last with nothing remaining.
    for (const path of decided) {
      const answers = path.events.filter((e) => e.type === 'input.answered' && ['approved', 'amount'].includes(e.name));
      expect(answers.map((e) => e.type === 'input.answered' && e.name).sort()).toEqual(['amount', 'approved']);
      expect(answers.at(-1)).toMatchObject({ remaining: [] });
    }
  });

  it('offers only the inputs still open, each with the others open as remaining', () => {
    // The manager's two inputs open, then one of them answered (kept in the context, as the machine keeps them).
    const waiting = approvalMachine.resolveState({ value: 'approval', context: { email: 'a@example.com' } });
    const both = inputTestEvents(waiting);
    expect(both.filter((e) => e.type === 'input.answered').map((e) => e.type === 'input.answered' && [e.name, e.remaining])).toEqual(
      expect.arrayContaining([
        ['approved', ['amount']],
        ['amount', ['approved']],
      ]),
    );
    const half = approvalMachine.resolveState({ value: 'approval', context: { email: 'a@example.com', approved: true } });
    const one = inputTestEvents(half);
    expect(new Set(one.map((e) => (e.type === 'input.answered' ? e.name : e.type)))).toEqual(new Set(['amount', 'input.timedOut']));
    expect(one.filter((e) => e.type === 'input.answered').every((e) => e.type === 'input.answered' && e.remaining.length === 0)).toBe(true);
  });
});
