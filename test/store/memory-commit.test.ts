/**
 * The memory store keeps a session as JSON text, as a database would; a turn's
 * commit checks the version it keeps beside the text, and does not parse the
 * stored record (with its snapshot) again on every turn.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStore } from '../../src/store/memory.js';
import { ConflictError } from '../../src/store/types.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';

const reply = (message: string): ReplyEnvelope =>
  ({ sessionId: 's', flowId: 'f', flowVersion: 1, state: 'a', status: 'active', message, buttons: null, inputs: [] }) as unknown as ReplyEnvelope;

afterEach(() => vi.restoreAllMocks());

describe('the memory store commits a turn', () => {
  it('without parsing the stored record, and reads back what it was given', async () => {
    const store = createMemoryStore();
    await store.create({ sessionId: 's', flowId: 'f', flowVersion: 1, snapshot: { value: 'a', context: { n: 0 } } as never, owner: 'ann', reply: reply('hi') });
    const parse = vi.spyOn(JSON, 'parse');
    const version = await store.commitTurn('s', 1, { snapshot: { value: 'b', context: { n: 1 } } as never, flowVersion: 1, turn: { text: 'x' }, turnId: null, reply: reply('next') });
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
    expect(version).toBe(2);
    const loaded = await store.load('s');
    expect(loaded!.session).toMatchObject({ sessionId: 's', flowId: 'f', owner: 'ann', version: 2, status: 'active', snapshot: { value: 'b', context: { n: 1 } } });
    expect(loaded!.session.createdAt.getTime()).toBeLessThanOrEqual(loaded!.session.updatedAt.getTime());
    const events = await store.readEvents(0, 10);
    expect(events.at(-1)).toMatchObject({ type: 'session.stepped', sessionId: 's', workflowId: 'f', owner: 'ann', data: { seq: 2, status: 'active' } });
    await expect(store.commitTurn('s', 1, { snapshot: {} as never, flowVersion: 1, turn: { text: 'y' }, turnId: null, reply: reply('late') })).rejects.toThrow(ConflictError);
  });

  it("writes its times as text: no Date goes through JSON (a Date's toJSON is the slow path of a commit)", async () => {
    const store = createMemoryStore();
    const toJSON = vi.spyOn(Date.prototype, 'toJSON');
    await store.create({ sessionId: 's', flowId: 'f', flowVersion: 1, snapshot: { value: 'a' } as never, owner: null, reply: reply('hi') });
    await store.commitTurn('s', 1, {
      snapshot: { value: 'b' } as never,
      flowVersion: 1,
      turn: { text: 'x' },
      turnId: null,
      reply: reply('next'),
      events: [{ type: 'session.finished', sessionId: 's', workflowId: 'f', owner: null, to: null, gateId: null, data: { status: 'done' } }],
    });
    expect(toJSON).not.toHaveBeenCalled();
    toJSON.mockRestore();
    // Read back as Dates, as before.
    const { session } = (await store.load('s'))!;
    expect(session.createdAt).toBeInstanceOf(Date);
    expect(session.updatedAt.getTime()).toBeGreaterThanOrEqual(session.createdAt.getTime());
    const history = await store.history('s');
    expect(history.map((e) => e.createdAt instanceof Date && !Number.isNaN(e.createdAt.getTime()))).toEqual([true, true]);
    expect(history[1]!.createdAt.getTime()).toBe(session.updatedAt.getTime());
    expect((await store.readEvents(0, 10)).map((e) => e.createdAt instanceof Date && !Number.isNaN(e.createdAt.getTime()))).toEqual([true, true]);
  });

  it("keeps the step's own announcement as it is made (no JSON text to write and parse), read back in order with the others", async () => {
    const store = createMemoryStore();
    await store.create({
      sessionId: 's',
      flowId: 'f',
      flowVersion: 1,
      snapshot: { value: 'a' } as never,
      owner: null,
      reply: reply('hi'),
      events: [{ type: 'session.started' as never, sessionId: 's', workflowId: 'f', owner: null, to: null, gateId: null, data: {} }],
    });
    const stringify = vi.spyOn(JSON, 'stringify');
    await store.commitTurn('s', 1, {
      snapshot: { value: 'b' } as never,
      flowVersion: 1,
      turn: { text: 'x' },
      turnId: null,
      reply: { ...reply('done'), status: 'done' },
      events: [{ type: 'session.finished', sessionId: 's', workflowId: 'f', owner: null, to: null, gateId: null, data: { status: 'done' } }],
    });
    // The record, the journal entry and the caller's one event: nothing for the step's own.
    expect(stringify).toHaveBeenCalledTimes(3);
    stringify.mockRestore();
    const events = await store.readEvents(0, 10);
    expect(events.map((e) => [e.id, e.type])).toEqual([
      [1, 'session.started'],
      [2, 'session.finished'],
      [3, 'session.stepped'],
    ]);
    expect(events[2]).toEqual({
      id: 3,
      type: 'session.stepped',
      sessionId: 's',
      workflowId: 'f',
      owner: null,
      to: null,
      gateId: null,
      data: { seq: 2, status: 'done' },
      createdAt: expect.any(Date),
    });
    expect(await store.readEvents(2, 1)).toEqual([events[2]]);
    expect(await store.lastEventId()).toBe(3);
    // What a reader gets is its own: changing it changes nothing stored.
    (events[2]!.data as { seq: number }).seq = 99;
    expect((await store.readEvents(2, 1))[0]!.data).toEqual({ seq: 2, status: 'done' });
  });

  it('builds no date text on a commit, nor for its announcements: times are kept as milliseconds, read back as the same Dates', async () => {
    const store = createMemoryStore();
    await store.create({ sessionId: 's', flowId: 'f', flowVersion: 1, snapshot: { value: 'a' } as never, owner: null, reply: reply('hi') });
    const toISOString = vi.spyOn(Date.prototype, 'toISOString');
    const finished = { type: 'session.finished' as const, sessionId: 's', workflowId: 'f', owner: null, to: null, gateId: null, data: { status: 'done' } };
    await store.commitTurn('s', 1, { snapshot: { value: 'b' } as never, flowVersion: 1, turn: { text: 'x' }, turnId: null, reply: reply('next'), events: [finished] });
    expect(toISOString).not.toHaveBeenCalled();
    toISOString.mockRestore();
    const { session } = (await store.load('s'))!;
    const history = await store.history('s');
    expect(history[1]!.createdAt.getTime()).toBe(session.updatedAt.getTime());
    expect(history[0]!.createdAt.getTime()).toBe(session.createdAt.getTime());
    const events = await store.readEvents(0, 10);
    expect(events.at(-1)!.createdAt.getTime()).toBe(session.updatedAt.getTime());
    expect(events[0]).toEqual({ ...finished, id: 1, createdAt: expect.any(Date) });
    expect(Object.keys(events[0]!)).toEqual(['type', 'sessionId', 'workflowId', 'owner', 'to', 'gateId', 'data', 'id', 'createdAt']);
    expect(events[0]!.createdAt.getTime()).toBeLessThanOrEqual(events[1]!.createdAt.getTime());
  });

  it('changes nothing when a value of the turn cannot be written (the session and its journal stay as they were)', async () => {
    const store = createMemoryStore();
    await store.create({ sessionId: 's', flowId: 'f', flowVersion: 1, snapshot: { value: 'a' } as never, owner: null, reply: reply('hi') });
    // JSON cannot write a BigInt: the snapshot is fine, the reply is not.
    const bad = { ...reply('next'), answers: { n: 1n } } as unknown as ReplyEnvelope;
    await expect(store.commitTurn('s', 1, { snapshot: { value: 'b' } as never, flowVersion: 1, turn: { text: 'x' }, turnId: null, reply: bad })).rejects.toThrow(TypeError);
    const { session } = (await store.load('s'))!;
    expect(session).toMatchObject({ version: 1, snapshot: { value: 'a' } });
    expect(await store.history('s')).toHaveLength(1);
    // And the session takes the turn again at its version.
    expect(await store.commitTurn('s', 1, { snapshot: { value: 'b' } as never, flowVersion: 1, turn: { text: 'x' }, turnId: null, reply: reply('next') })).toBe(2);
  });
});
