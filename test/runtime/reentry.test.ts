/**
 * A step that leaves a waiting state and enters it again (an agent that
 * escalates, is answered, and escalates again) closes the state's old gates
 * and opens new ones: the session is never left `active` in a waiting state
 * with no gate to answer. For any machine: through a busy state between, by
 * an eventless loop within one macrostep, and by a re-entering self-transition.
 */
import { describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { waitsFor } from '../../src/inputs/declared.js';
import type { InputEvent } from '../../src/inputs/events.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { defineWorkflow } from '../../src/workflow/define.js';

const ask = waitsFor([{ name: 'word', type: 'string', minLength: 1, maxLength: 100, description: 'A word' }]);

/** Waits for a word; "done" ends it; anything else is checked and asked again, by the route `how`. */
function askAgain(how: 'busy' | 'eventless' | 'reenter') {
  const machine = setup({
    types: { context: {} as { words: string[] }, events: {} as InputEvent | { type: 'user.text'; text: string } },
    actors: { check: fromPromise(async () => undefined) },
    guards: { isDone: ({ event }) => event.type === 'input.answered' && event.value === 'done' },
    actions: { keep: assign({ words: ({ context, event }) => (event.type === 'input.answered' ? [...context.words, String(event.value)] : context.words) }) },
  }).createMachine({
    id: 'again',
    initial: 'asking',
    context: { words: [] },
    states: {
      asking: {
        meta: ask,
        on: {
          'input.answered': [
            { guard: 'isDone', target: 'finished' },
            how === 'busy'
              ? { target: 'checking', actions: 'keep' }
              : how === 'eventless'
                ? { target: 'passing', actions: 'keep' }
                : { target: 'asking', reenter: true, actions: 'keep' },
          ],
        },
      },
      checking: { tags: ['busy'], invoke: { src: 'check', onDone: 'asking' } },
      passing: { always: 'asking' },
      finished: { type: 'final' },
    },
  });
  return defineWorkflow({ id: `again-${how}`, version: 1, machine, reply: (s) => ({ message: s.value === 'finished' ? 'Bye.' : `Another word? (${s.context.words.length} so far)` }) });
}

describe('a waiting state entered again within one step', () => {
  for (const how of ['busy', 'eventless', 'reenter'] as const) {
    it(`opens a new gate and closes the old one (${how})`, async () => {
      const store = createMemoryStore();
      const runtime = createRuntime({ workflows: [askAgain(how)], store });
      const { sessionId, reply: first } = await runtime.start(`again-${how}`);
      expect(first.status).toBe('waiting');
      const gate1 = first.inputs![0]!.gateId;

      const second = await runtime.answer(gate1, 'hello');
      expect(second.status).toBe('waiting');
      expect(second.inputs).toHaveLength(1);
      const gate2 = second.inputs![0]!.gateId;
      expect(gate2).not.toBe(gate1);
      expect((await store.findInput(gate1))?.status).toBe('answered');

      // A text turn answers the new gate too, and again.
      const third = await runtime.turn(sessionId, { text: 'world' });
      expect(third.status).toBe('waiting');
      expect(third.message).toBe('Another word? (2 so far)');
      expect((await runtime.inputs(undefined, { sessionId })).map((g) => g.gateId)).toEqual([third.inputs![0]!.gateId]);

      const last = await runtime.turn(sessionId, { text: 'done' });
      expect(last.status).toBe('done');
      expect(await runtime.inputs(undefined, { sessionId })).toEqual([]);
      runtime.close();
    });
  }

  it('opens a new gate after a restore too (no live actor kept between steps)', async () => {
    const store = createMemoryStore();
    const runtime = createRuntime({ workflows: [askAgain('busy')], store, liveSessions: 0 });
    const { sessionId, reply } = await runtime.start('again-busy');
    const second = await runtime.answer(reply.inputs![0]!.gateId, 'hello');
    expect(second.inputs).toHaveLength(1);
    const third = await runtime.turn(sessionId, { text: 'again' });
    expect(third.status).toBe('waiting');
    expect(third.inputs).toHaveLength(1);
    runtime.close();
  });
});
