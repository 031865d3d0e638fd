/**
 * Persistence: every seed example and testing scenario gives the same replies
 * whether it runs on one conversation or is persisted (through JSON) and
 * restored before every turn; what is stored keeps the flow id and version
 * beside the snapshot; incompatible snapshots are refused.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { restoreConversation, startConversation, type PersistedConversation } from '../../src/flow/conversation.js';
import { ConversationFinishedError, IncompatibleSnapshotError } from '../../src/runtime/errors.js';
import { ReplySchema } from '../../src/flow/reply.js';
import {
  EXAMPLE_SCRIPTS,
  GATE_1,
  GATE_2,
  SCENARIO_SCRIPTS,
  SEED_GATE_CONFIG,
  countingModel,
  llmExtract,
  roundTrip,
  runScript,
  runScriptRestoring,
  seedFlow,
  type Script,
} from '../helpers/intake.js';

async function bothWays(script: Script, sessionId: string) {
  const flow = script.flow();
  const onceModel = script.model ? countingModel(script.model()) : undefined;
  const restoredModel = script.model ? countingModel(script.model()) : undefined;
  const once = await runScript(flow, script.turns, {
    sessionId,
    ...(onceModel && { extract: () => llmExtract(onceModel) }),
  });
  // A flow parsed again from its text: restoring must not depend on the same object.
  const restored = await runScriptRestoring(script.flow(), script.turns, {
    sessionId,
    ...(restoredModel && { extract: () => llmExtract(restoredModel) }),
  });
  return { flow, once, restored, onceModel, restoredModel };
}

describe.each([
  ['Complete Flow Examples', EXAMPLE_SCRIPTS],
  ['Testing Scenarios', SCENARIO_SCRIPTS],
])('%s: restored between every turn', (_group, scripts) => {
  it.each(scripts.map((s) => [s.name, s] as const))('%s', async (_name, script) => {
    const sessionId = `restore-${script.name.replace(/\W+/g, '-')}`;
    const { flow, once, restored, onceModel, restoredModel } = await bothWays(script, sessionId);

    expect(once).toHaveLength(script.turns.length + 1);
    expect(restored.replies).toEqual(once);
    for (const reply of restored.replies) {
      expect(reply.sessionId).toBe(sessionId);
      // The public contract: every reply is a valid Reply, and plain JSON.
      expect(ReplySchema.safeParse(reply).success).toBe(true);
      expect(roundTrip(reply)).toEqual(reply);
    }
    // Restoring never calls the model again: only the turns do.
    expect(restoredModel?.calls).toBe(onceModel?.calls);

    for (const stored of restored.stored) {
      expect(Object.keys(stored).sort()).toEqual(['flowId', 'flowVersion', 'sessionId', 'snapshot']);
      expect(stored).toMatchObject({ sessionId, flowId: flow.id, flowVersion: flow.version });
      expect(stored.snapshot).toMatchObject({ status: expect.any(String), value: expect.anything() });
    }
    // The last stored snapshot is where the single conversation ended.
    const last = restored.stored[restored.stored.length - 1]!;
    expect((last.snapshot as unknown as { value: unknown }).value).toEqual(once[once.length - 1]!.state);
  });
});

describe('what is stored', () => {
  it('is plain JSON: the round trip changes nothing', async () => {
    const conversation = startConversation(seedFlow(), { sessionId: 's-json' });
    await conversation.send({ button: 'Yes' });
    const persisted = conversation.persist();
    expect(roundTrip(persisted)).toEqual(persisted);
    expect(persisted).toMatchObject({
      sessionId: 's-json',
      flowId: 'seed-gates',
      flowVersion: 1,
      snapshot: {
        status: 'active',
        value: { [GATE_2]: 'asking' },
        context: { answers: { [GATE_1]: { value: 'Yes', confidence: 1, source: 'button', raw: 'Yes' } } },
      },
    });
    conversation.stop();
  });

  it('a restored finished conversation still refuses turns', async () => {
    const flow = seedFlow();
    const conversation = startConversation(flow, { sessionId: 's-done' });
    const stoppedReply = await conversation.send({ button: 'No' });
    const restored = restoreConversation(flow, roundTrip(conversation.persist()));
    expect(restored.done).toBe(true);
    expect(restored.reply()).toEqual(stoppedReply);
    await expect(restored.send({ button: 'Yes' })).rejects.toBeInstanceOf(ConversationFinishedError);
  });
});

describe('incompatible snapshots', () => {
  afterEach(() => {
    vi.clearAllTimers();
    vi.useRealTimers();
  });

  async function storedAtGate2(): Promise<PersistedConversation> {
    const conversation = startConversation(seedFlow(), { sessionId: 's-old' });
    await conversation.send({ button: 'Yes' });
    const persisted = roundTrip(conversation.persist());
    conversation.stop();
    return persisted;
  }

  it('restoring with a different flow version throws IncompatibleSnapshotError', async () => {
    const stored = await storedAtGate2();
    const v2 = seedFlow({ ...structuredClone(SEED_GATE_CONFIG), version: 2 });
    expect(() => restoreConversation(v2, stored)).toThrow(IncompatibleSnapshotError);
    expect(() => restoreConversation(v2, stored)).toThrow(/seed-gates@1.*seed-gates@2/);
  });

  it('restoring with a different flow id throws IncompatibleSnapshotError', async () => {
    const stored = await storedAtGate2();
    const other = seedFlow({ ...structuredClone(SEED_GATE_CONFIG), id: 'other-gates' });
    expect(() => restoreConversation(other, stored)).toThrow(IncompatibleSnapshotError);
  });

  /** The same flow id and version, but gate 2 renamed: the stored state no longer exists. */
  function flowWithoutGate2() {
    const config = structuredClone(SEED_GATE_CONFIG) as { gate_order: string[]; gates: Record<string, unknown> };
    config.gate_order = [GATE_1, '2_insurance'];
    config.gates = { [GATE_1]: config.gates[GATE_1], '2_insurance': config.gates[GATE_2] };
    return seedFlow(config);
  }

  it('a snapshot naming a state that no longer exists throws IncompatibleSnapshotError', async () => {
    const stored = await storedAtGate2();
    // XState reports the failed restore on a timer as well; keep it from leaking out of this test.
    vi.useFakeTimers();
    expect(() => restoreConversation(flowWithoutGate2(), stored)).toThrow(IncompatibleSnapshotError);
    expect(() => restoreConversation(flowWithoutGate2(), stored)).toThrow(/does not fit workflow seed-gates@1/);
  });

  it('a snapshot naming a substate that no longer exists throws IncompatibleSnapshotError', async () => {
    const stored = await storedAtGate2();
    const bad = { ...stored, snapshot: { ...(stored.snapshot as object), value: { [GATE_2]: 'pondering' } } } as unknown as PersistedConversation;
    vi.useFakeTimers();
    expect(() => restoreConversation(seedFlow(), bad)).toThrow(IncompatibleSnapshotError);
  });

  // BUG (src/runtime/conversation.ts, open()): the actor is started on an
  // errored snapshot with no observer, so XState's reportUnhandledError throws
  // the restore error again from a setTimeout after IncompatibleSnapshotError
  // was thrown and handled: in a server this is an uncaught exception that can
  // take the process down. Expected: refusing a snapshot leaves nothing behind.
  it('refusing an incompatible snapshot leaves no error to be thrown later', async () => {
    const stored = await storedAtGate2();
    vi.useFakeTimers();
    expect(() => restoreConversation(flowWithoutGate2(), stored)).toThrow(IncompatibleSnapshotError);
    expect(() => vi.runAllTimers()).not.toThrow();
  });
});
