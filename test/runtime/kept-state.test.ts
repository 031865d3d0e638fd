/**
 * A turn on a session this process saved last reads nothing from the store:
 * it is applied on what was saved, and the commit's version check says whether
 * that was still current. Another process's turn in between makes the commit
 * fail; the turn is then applied again on what the store holds. A turn id
 * taken already is still answered from the journal, and a refusal made on
 * stale state is checked against the store.
 */
import { describe, expect, it } from 'vitest';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/types.js';
import { flow } from '../helpers/patient-intake.js';

/** A store that counts its loads and commits. */
function counted(inner: Store) {
  const n = { load: 0, commit: 0 };
  const store: Store = {
    ...inner,
    kind: inner.kind,
    load: (...args) => (n.load++, inner.load(...args)),
    commitTurn: (...args) => (n.commit++, inner.commitTurn(...args)),
  };
  return { store, n };
}

const plain = (answers: Record<string, { value: unknown }>) => Object.fromEntries(Object.entries(answers).map(([k, a]) => [k, a.value]));

describe('a session this process saved last', () => {
  it('takes a turn with one round trip (the commit), not two', async () => {
    const { store, n } = counted(createMemoryStore());
    const runtime = createFlowRuntime({ flows: [flow], store });
    const { sessionId } = await runtime.start(flow.id);
    for (const button of ['Yes', 'No', 'Follow-up']) await runtime.turn(sessionId, { button });
    expect(n).toEqual({ load: 0, commit: 3 });
    expect((await store.history(sessionId)).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    runtime.close();
  });

  it('applies a turn again on what the store holds when another process took a turn in between', async () => {
    const shared = createMemoryStore();
    const a = counted(shared);
    const here = createFlowRuntime({ flows: [flow], store: a.store });
    const elsewhere = createFlowRuntime({ flows: [flow], store: shared });
    const { sessionId } = await here.start(flow.id);
    await here.turn(sessionId, { button: 'Yes' });
    await elsewhere.turn(sessionId, { button: 'No' });
    // Here the kept state still asks the insurance question, where "Follow-up" is no button: the store is read, the turn applied on it.
    const reply = await here.turn(sessionId, { button: 'Follow-up' });
    expect(plain(reply.answers)).toEqual({ '1_patient_info_availability': 'Yes', '2_insurance_history': 'No', '3_visit_type': 'Follow-up' });
    expect(a.n).toEqual({ load: 1, commit: 2 });
    const history = await shared.history(sessionId);
    expect(history.map((e) => e.turn)).toEqual([null, { button: 'Yes' }, { button: 'No' }, { button: 'Follow-up' }]);
    // A turn the kept state takes too (it asks the age group, and does not understand): its commit loses the
    // version race, and the turn is applied again on the store's session, which asks how to contact.
    await elsewhere.turn(sessionId, { button: 'Minor' });
    const next = await here.turn(sessionId, { text: 'by email' });
    expect(plain(next.answers)).toMatchObject({ '4_patient_age_group': 'Minor', '5_preferred_contact': 'Email' });
    expect(a.n).toEqual({ load: 2, commit: 4 });
    expect((await shared.history(sessionId)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    here.close();
    elsewhere.close();
  });

  it('answers a turn id taken already from the journal, without applying it again', async () => {
    const { store, n } = counted(createMemoryStore());
    const runtime = createFlowRuntime({ flows: [flow], store });
    const { sessionId } = await runtime.start(flow.id);
    const first = await runtime.turn(sessionId, { button: 'Yes', turnId: 't1' });
    const again = await runtime.turn(sessionId, { button: 'Yes', turnId: 't1' });
    expect(again).toEqual(first);
    expect(n).toEqual({ load: 1, commit: 1 });
    expect(await store.history(sessionId)).toHaveLength(2);
    runtime.close();
  });

  it('checks a refusal made on stale state against the store: a session cancelled elsewhere is finished', async () => {
    const shared = createMemoryStore();
    const here = createFlowRuntime({ flows: [flow], store: shared });
    const elsewhere = createFlowRuntime({ flows: [flow], store: shared });
    const { sessionId } = await here.start(flow.id);
    await here.turn(sessionId, { button: 'Yes' });
    await elsewhere.cancel(sessionId);
    await expect(here.turn(sessionId, { button: 'No' })).rejects.toMatchObject({ code: 'session_finished' });
    expect((await shared.history(sessionId)).at(-1)!.reply.status).toBe('cancelled');
    here.close();
    elsewhere.close();
  });
});

describe('turns on one session in this process', () => {
  it('go to the store at once when nothing else runs on the session (no wait behind an empty queue)', async () => {
    const { store, n } = counted(createMemoryStore());
    const runtime = createFlowRuntime({ flows: [flow], store, liveSessions: 0 });
    const { sessionId } = await runtime.start(flow.id);
    const turn = runtime.turn(sessionId, { button: 'Yes' });
    // The step began within the call: its load was asked for before any promise settled.
    expect(n.load).toBe(1);
    await turn;
    runtime.close();
  });

  it('still run one after another when sent together: each is applied on the one before', async () => {
    const { store, n } = counted(createMemoryStore());
    const runtime = createFlowRuntime({ flows: [flow], store, liveSessions: 0 });
    const { sessionId } = await runtime.start(flow.id);
    const first = runtime.turn(sessionId, { button: 'Yes' });
    const second = runtime.turn(sessionId, { button: 'No' });
    // The second waits for the first: one load so far.
    expect(n.load).toBe(1);
    const replies = await Promise.all([first, second]);
    expect(replies.map((r) => Object.keys(r.answers))).toEqual([['1_patient_info_availability'], ['1_patient_info_availability', '2_insurance_history']]);
    expect(n).toEqual({ load: 2, commit: 2 });
    runtime.close();
  });
});
