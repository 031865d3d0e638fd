/**
 * What a snapshot's active states wait for is read from their meta; a machine
 * none of whose states declares inputs is known to wait for none without
 * building its active states' meta on every step (the runtime asks twice per turn).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { declaredInputs, waitsFor } from '../../src/inputs/declared.js';

afterEach(() => vi.restoreAllMocks());

describe('declaredInputs', () => {
  it("of a machine that declares no inputs: none, without reading its states' meta", () => {
    const machine = createMachine({ id: 'plain', initial: 'a', states: { a: { meta: { note: 'not inputs' }, on: { go: 'b' } }, b: {} } });
    const actor = createActor(machine).start();
    const snapshot = actor.getSnapshot();
    const getMeta = vi.spyOn(snapshot, 'getMeta');
    expect(declaredInputs(snapshot)).toEqual([]);
    expect(getMeta).not.toHaveBeenCalled();
    actor.stop();
  });

  it('of a machine that does: those of its active states, read from their meta', () => {
    const machine = createMachine({
      id: 'gated',
      initial: 'a',
      states: { a: { on: { go: 'waiting' } }, waiting: { meta: waitsFor([{ name: 'ok', type: 'boolean' }]) } },
    });
    const actor = createActor(machine).start();
    expect(declaredInputs(actor.getSnapshot())).toEqual([]);
    actor.send({ type: 'go' });
    expect(declaredInputs(actor.getSnapshot())).toEqual([{ state: 'gated.waiting', inputs: [{ name: 'ok', type: 'boolean' }] }]);
    actor.stop();
  });
});
