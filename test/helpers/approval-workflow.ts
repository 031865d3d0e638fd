import { assign, fromPromise, setup } from 'xstate';
import { waitsFor } from '../../src/inputs/declared.js';
import { lastInputAnswered, type InputEvent } from '../../src/inputs/events.js';
import { defineWorkflow } from '../../src/workflow/define.js';

/**
 * A hand-written machine that waits for inputs, for the runtime's tests: it
 * prepares (a promise actor that counts its runs: nothing before the wait may
 * run again on resume), asks the person for an email (a gate addressed to
 * them), then waits for a manager's `approved` and `amount` (the second with
 * a deadline), and ends `decided` or `escalated`.
 */
export const calls = { prepare: 0 };

type Ctx = { email?: string; approved?: boolean; amount?: number };

export const approvalMachine = setup({
  types: {
    context: {} as Ctx,
    events: {} as InputEvent | { type: 'user.text'; text: string } | { type: 'user.button'; value: string },
  },
  actors: {
    prepare: fromPromise(async () => {
      calls.prepare++;
    }),
  },
  actions: {
    keepInput: assign(({ event }) => (event.type === 'input.answered' ? { [event.name]: event.value } : {})),
  },
  guards: { lastInputAnswered },
}).createMachine({
  id: 'approval',
  initial: 'preparing',
  context: {},
  states: {
    preparing: { tags: ['busy'], invoke: { src: 'prepare', onDone: 'contact' } },
    contact: {
      meta: waitsFor([{ name: 'email', type: 'email', description: 'Your email address' }]),
      on: { 'input.answered': { guard: 'lastInputAnswered', target: 'approval', actions: 'keepInput' } },
    },
    approval: {
      meta: waitsFor(
        [
          { name: 'approved', type: 'boolean', description: 'Approve the request?' },
          { name: 'amount', type: 'number', min: 0, max: 5000, description: 'Approved amount', deadline: 'PT1H' },
        ],
        { to: 'manager' },
      ),
      on: {
        'input.answered': [{ guard: 'lastInputAnswered', target: 'decided', actions: 'keepInput' }, { actions: 'keepInput' }],
        'input.timedOut': 'escalated',
      },
    },
    decided: { type: 'final' },
    escalated: { type: 'final' },
  },
});

export const approvalWorkflow = defineWorkflow({
  id: 'approval',
  version: 1,
  title: 'Approval',
  machine: approvalMachine,
  reply: (s) => {
    switch (s.value) {
      case 'contact':
        return { message: 'What is your email address?' };
      case 'approval':
        return { message: `Thanks${s.context.email ? `, ${s.context.email}` : ''}. A manager will look at it.` };
      case 'decided':
        return { message: s.context.approved ? `Approved: ${s.context.amount}.` : 'Declined.' };
      case 'escalated':
        return { message: 'Nobody answered in time: a person will take it.', reason: 'handed_off' };
      default:
        return { message: '…' };
    }
  },
});
