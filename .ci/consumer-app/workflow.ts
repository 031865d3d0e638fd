// A hand-written workflow as a module (its default export), for `gateflow chat ./workflow.ts`.
import { defineWorkflow } from 'gateflow';
import { assign, setup } from 'xstate';

export default defineWorkflow({
  id: 'greeting',
  version: 1,
  machine: setup({ types: { context: {} as { name: string }, events: {} as { type: 'user.text'; text: string } } }).createMachine({
    context: { name: '' },
    initial: 'asking',
    states: {
      asking: { on: { 'user.text': { target: 'done', actions: assign({ name: ({ event }) => event.text }) } } },
      done: { type: 'final' },
    },
  }),
  reply: (snapshot) => ({ message: snapshot.matches('asking') ? 'What is your name?' : `Hello, ${snapshot.context.name}!` }),
});
