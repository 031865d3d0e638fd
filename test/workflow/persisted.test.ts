/**
 * The snapshot a session stores is built by gateflow (src/workflow/persisted.ts)
 * rather than by XState's getPersistedSnapshot, which costs a turn more: it
 * must be the same, key for key and in the same order (the stored JSON text is
 * compared), for every kind of snapshot: children invoked and spawned, actor
 * references in the context, history, a final state's output, an error.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assign, createActor, createMachine, fromCallback, fromPromise, setup, type AnyActorRef } from 'xstate';
import { parseFlowText } from '../../src/flow/parse.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { persistedSnapshot } from '../../src/workflow/persisted.js';

const same = (actor: AnyActorRef) => expect(JSON.stringify(persistedSnapshot(actor))).toBe(JSON.stringify(actor.getPersistedSnapshot()));

const child = createMachine({ id: 'child', initial: 'a', context: { n: 1 }, states: { a: { on: { next: 'b' } }, b: { type: 'final' } }, output: { made: true } });
const machine = setup({
  types: { context: {} as { spawned: AnyActorRef | null; list: unknown[]; nested: { deep: { ref: AnyActorRef | null } } } },
  actors: { child, work: fromPromise(async () => 7), listen: fromCallback(() => () => {}) },
}).createMachine({
  id: 'm',
  context: { spawned: null, list: [1, { a: 2 }], nested: { deep: { ref: null } } },
  initial: 'idle',
  states: {
    idle: {
      on: {
        spawn: { actions: assign(({ spawn }) => ({ spawned: spawn('child', { id: 'kid' }) })) },
        nest: { actions: assign(({ spawn }) => ({ nested: { deep: { ref: spawn('child', { id: 'deep-kid' }) } }, list: [spawn('listen', { id: 'in-list' })] })) },
        go: 'parent',
        fail: 'failing',
        end: 'done',
      },
    },
    parent: {
      initial: 'one',
      invoke: [{ id: 'inv', src: 'child' }, { id: 'cb', src: 'listen' }],
      states: { one: { on: { step: 'two' } }, two: {}, hist: { type: 'history', history: 'deep' } },
      on: { out: 'idle', back: '#m.parent.hist' },
    },
    failing: {
      entry: () => {
        throw new Error('broken action');
      },
    },
    done: { type: 'final' },
  },
  output: () => ({ result: 'over' }),
});

describe('the persisted snapshot', () => {
  it('is what XState persists, key for key, through spawned and invoked children, references in the context, history and the end', () => {
    const actor = createActor(machine).start();
    same(actor);
    for (const type of ['spawn', 'nest', 'go', 'step', 'out', 'back', 'end']) {
      actor.send({ type });
      same(actor);
    }
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('is what XState persists for an actor restored from a persisted snapshot, and one in error', () => {
    const first = createActor(machine).start();
    first.send({ type: 'spawn' });
    first.send({ type: 'go' });
    const restored = createActor(machine, { snapshot: first.getPersistedSnapshot() }).start();
    same(restored);
    const failing = createActor(machine);
    failing.subscribe({ error: () => {} });
    failing.start();
    failing.send({ type: 'fail' });
    expect(failing.getSnapshot().status).toBe('error');
    same(failing);
  });

  it('is what XState persists at every turn of a flow, and for an actor that is not a machine', async () => {
    const flow = parseFlowText(readFileSync(new URL('../../machines/flows/lighting-consult.json', import.meta.url), 'utf8'), 'lighting-consult.json');
    const actor = createActor(flowWorkflow(flow).machine({ actors: {} })).start();
    same(actor);
    for (const text of ['hello', 'a restaurant', 'yes', 'no', '12']) {
      actor.send({ type: 'user.text', text });
      same(actor);
    }
    const promise = createActor(fromPromise(async () => 1)).start();
    await new Promise((resolve) => setImmediate(resolve));
    same(promise);
  });
});
