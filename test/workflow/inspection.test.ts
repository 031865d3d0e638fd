/**
 * A session is inspected (XState reports each microstep to an inspector) only
 * where something listens: the runtime counts state entries of machines with
 * waiting states, and a host may pass `inspect`. A machine with no waiting
 * state, and no host inspector, runs without one (it cost a turn ~5-10%).
 */
import { describe, expect, it, vi } from 'vitest';
import { setup } from 'xstate';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { declaresInputs, waitsFor } from '../../src/inputs/declared.js';
import { defineWorkflow } from '../../src/workflow/define.js';
import { openSession } from '../../src/workflow/session.js';
import { example } from '../flow/helpers.js';

const inspected = vi.hoisted(() => ({ actors: [] as boolean[] }));
vi.mock('xstate', async (importOriginal) => {
  const real = await importOriginal<typeof import('xstate')>();
  return {
    ...real,
    createActor: ((logic: Parameters<typeof real.createActor>[0], options?: { inspect?: unknown }) => {
      inspected.actors.push(options?.inspect !== undefined);
      return real.createActor(logic, options as never);
    }) as typeof real.createActor,
  };
});

const waiting = setup({}).createMachine({
  id: 'waiting',
  initial: 'asking',
  states: { asking: { meta: waitsFor([{ name: 'word', type: 'string', minLength: 1, maxLength: 100 }]) } },
});
const plain = setup({}).createMachine({ id: 'plain', initial: 'idle', states: { idle: { on: { 'user.text': 'idle' } } } });

describe('inspection of a session', () => {
  it('knows which machines declare inputs, in nested states too', () => {
    expect(declaresInputs(waiting)).toBe(true);
    expect(declaresInputs(plain)).toBe(false);
    expect(declaresInputs(flowWorkflow(example('patient-intake')).machine({ actors: {} }))).toBe(false);
    const nested = setup({}).createMachine({ id: 'n', initial: 'a', states: { a: { initial: 'b', states: { b: { meta: waitsFor([{ name: 'x', type: 'boolean' }]) } } } } });
    expect(declaresInputs(nested)).toBe(true);
  });

  it('gives no inspector to a session whose machine never waits for an input', async () => {
    inspected.actors.length = 0;
    const session = await openSession(flowWorkflow(example('patient-intake')), { sessionId: 's1', host: { actors: {} } });
    await session.send({ button: 'Yes' });
    session.stop();
    expect(inspected.actors).toEqual([false]);
  });

  it('inspects a machine with waiting states (to count entries), and any session a host inspects', async () => {
    inspected.actors.length = 0;
    const w = defineWorkflow({ id: 'waiting', version: 1, machine: waiting, reply: () => ({ message: 'A word?' }) });
    const a = await openSession(w, { sessionId: 's2', host: { actors: {} } });
    a.stop();
    const events: string[] = [];
    const b = await openSession(flowWorkflow(example('patient-intake')), { sessionId: 's3', host: { actors: {} }, inspect: (e) => void events.push(e.type) });
    await b.send({ button: 'Yes' });
    b.stop();
    expect(inspected.actors).toEqual([true, true]);
    expect(events).toContain('@xstate.microstep');
  });
});
