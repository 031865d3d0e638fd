import { waitFor, type AnyActorRef, type AnyMachineSnapshot } from 'xstate';

import { BUSY_TAG } from '../../machines/tags.js';

export { BUSY_TAG };

const isMachineSnapshot = (snapshot: unknown): snapshot is AnyMachineSnapshot =>
  typeof snapshot === 'object' && snapshot !== null && typeof (snapshot as { hasTag?: unknown }).hasTag === 'function';

/** Settled: stopped, or not busy (the default of `Workflow.isSettled`). */
export const notBusy = (snapshot: AnyMachineSnapshot): boolean => snapshot.status !== 'active' || !snapshot.hasTag(BUSY_TAG);

/**
 * Waits until an actor has settled after an event: it is not busy, and none
 * of its child machines is (a child's outcome may still move it on). Throws
 * the machine's error if it failed, and XState's timeout error after `timeoutMs`.
 */
export async function waitUntilSettled(
  actor: AnyActorRef,
  options: { timeoutMs: number; isSettled?: (snapshot: AnyMachineSnapshot) => boolean },
): Promise<void> {
  const settled = options.isSettled ?? notBusy;
  // Most steps settle within the send (no model call, no action): answered at once, with no timer and no subscription.
  const now = actor.getSnapshot() as AnyMachineSnapshot;
  if (settled(now)) {
    if (now.status === 'error') throw now.error;
    if (now.status !== 'active' || !busyChildOf(now)) return;
  }
  const deadline = Date.now() + options.timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  for (;;) {
    const snapshot = (await waitFor(actor, (s) => settled(s as AnyMachineSnapshot), { timeout: left() })) as AnyMachineSnapshot;
    if (snapshot.status === 'error') throw snapshot.error;
    if (snapshot.status !== 'active') return;
    const busyChild = busyChildOf(snapshot);
    if (!busyChild) return;
    await waitFor(busyChild, (s) => !isMachineSnapshot(s) || s.status !== 'active' || !s.hasTag(BUSY_TAG), { timeout: left() });
  }
}

/** A child machine of the snapshot's that is still busy (its outcome may move the parent on). */
function busyChildOf(snapshot: AnyMachineSnapshot): AnyActorRef | undefined {
  return Object.values(snapshot.children as Record<string, AnyActorRef | undefined>).find((child) => {
    const s: unknown = child?.getSnapshot();
    return isMachineSnapshot(s) && s.status === 'active' && s.hasTag(BUSY_TAG);
  });
}
