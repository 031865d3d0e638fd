/**
 * A step that settles within its send (no model call, no action: most turns)
 * is answered at once: no timeout timer is armed and no subscription made for
 * it. A step that waits for an actor still waits, and a failure still throws.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, setup } from 'xstate';
import { waitUntilSettled } from '../../src/workflow/settle.js';

afterEach(() => vi.restoreAllMocks());

const machine = setup({
  actors: { work: fromPromise(async () => new Promise<number>((resolve) => setImmediate(() => resolve(1)))) },
}).createMachine({
  id: 'm',
  initial: 'idle',
  states: {
    idle: { on: { go: 'working', stay: 'idle' } },
    working: { tags: ['busy'], invoke: { src: 'work', onDone: 'finished' } },
    finished: {},
  },
});

describe('waitUntilSettled', () => {
  it('answers a step that settled within the send without arming a timer', async () => {
    const actor = createActor(machine).start();
    const timers = vi.spyOn(globalThis, 'setTimeout');
    actor.send({ type: 'stay' });
    await waitUntilSettled(actor, { timeoutMs: 60_000 });
    expect(timers).not.toHaveBeenCalled();
    actor.stop();
  });

  it('still waits for a busy step to finish', async () => {
    const actor = createActor(machine).start();
    actor.send({ type: 'go' });
    await waitUntilSettled(actor, { timeoutMs: 60_000 });
    expect(actor.getSnapshot().value).toBe('finished');
    actor.stop();
  });

  it('throws the error of a machine that failed', async () => {
    const failing = setup({}).createMachine({ id: 'f', initial: 'a', states: { a: { on: { boom: { actions: () => { throw new Error('boom'); } } } } } });
    const actor = createActor(failing);
    actor.subscribe({ error: () => undefined });
    actor.start();
    actor.send({ type: 'boom' });
    await expect(waitUntilSettled(actor, { timeoutMs: 60_000 })).rejects.toThrow('boom');
  });
});
