import { StateMachine, type AnyActorRef, type AnyMachineSnapshot, type Snapshot } from 'xstate';

/**
 * The snapshot to store for an actor of a state machine: what XState's
 * `actor.getPersistedSnapshot()` gives, key for key, in its order, built
 * without its slow paths (an object rest that leaves out ten keys, then a
 * spread that overrides one): a turn takes one, and XState's way was a
 * tenth of the runtime's own work on a turn. Any other actor, or a machine
 * snapshot of a shape this does not know, is left to XState.
 * test/workflow/persisted.test.ts compares the two.
 */
export function persistedSnapshot(actor: AnyActorRef): Snapshot<unknown> {
  const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
  // A state machine's logic as XState defines it (not a subclass that may persist its own way).
  const logic = (actor as { logic?: object }).logic;
  if (!logic || Object.getPrototypeOf(logic) !== StateMachine.prototype || !isMachineSnapshot(snapshot)) return actor.getPersistedSnapshot() as Snapshot<unknown>;
  const children: Record<string, unknown> = {};
  for (const id in snapshot.children) {
    const child = snapshot.children[id] as AnyActorRef & { systemId?: string; _syncSnapshot?: unknown };
    children[id] = { snapshot: child.getPersistedSnapshot(), src: child.src, systemId: child.systemId, syncSnapshot: child._syncSnapshot };
  }
  // XState's order: the snapshot's own values (status, output, error, value, historyValue), then context and children.
  return {
    status: snapshot.status,
    output: snapshot.output,
    error: snapshot.error,
    value: snapshot.value,
    historyValue: historyOf(snapshot.historyValue),
    context: persistContext(snapshot.context),
    children,
  } as unknown as Snapshot<unknown>;
}

/** The keys of a machine snapshot as XState 5 makes it (createMachineSnapshot), in its order. */
const MACHINE_SNAPSHOT_KEYS = ['status', 'output', 'error', 'machine', 'context', '_nodes', 'value', 'tags', 'children', 'historyValue', 'matches', 'hasTag', 'can', 'getMeta', 'toJSON'];

/** Whether the snapshot has exactly the keys this knows how to persist, in XState's order (another XState may add one). */
function isMachineSnapshot(snapshot: object): boolean {
  let i = 0;
  for (const key in snapshot) if (key !== MACHINE_SNAPSHOT_KEYS[i++]) return false;
  return i === MACHINE_SNAPSHOT_KEYS.length;
}

/** XState's serializeHistoryValue: each history state's nodes by id. */
function historyOf(historyValue: unknown): Record<string, { id: string }[]> {
  const result: Record<string, { id: string }[]> = {};
  if (typeof historyValue !== 'object' || historyValue === null) return result;
  for (const key in historyValue) {
    const value = (historyValue as Record<string, unknown>)[key];
    if (Array.isArray(value)) result[key] = value.map((item: { id: string }) => ({ id: item.id }));
  }
  return result;
}

/** XState's marker of an actor reference in a persisted context. */
const ACTOR_TYPE = 1;

/** XState's persistContext: the context with each actor reference in it replaced by its marker (copies only where one was found). */
function persistContext<T>(part: T): T {
  let copy: Record<string, unknown> | unknown[] | undefined;
  for (const key in part) {
    const value = part[key] as unknown;
    if (!value || typeof value !== 'object') continue;
    let replaced: unknown = value;
    if ('sessionId' in value && 'send' in value && 'ref' in value) replaced = { xstate$$type: ACTOR_TYPE, id: (value as unknown as { id: string }).id };
    else replaced = persistContext(value);
    if (replaced !== value) {
      copy ??= Array.isArray(part) ? part.slice() : { ...(part as Record<string, unknown>) };
      (copy as Record<string, unknown>)[key] = replaced;
    }
  }
  return (copy ?? part) as T;
}
