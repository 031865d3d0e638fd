import { createActor, type Actor, type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type InspectionEvent, type Snapshot } from 'xstate';
import { ConversationFinishedError, IncompatibleSnapshotError, InvalidButtonError } from '../runtime/errors.js';
import type { StepTrace } from '../store/types.js';
import { declaresInputs } from '../inputs/declared.js';
import { EntryCounter } from './entries.js';
import type { ReplyEnvelope } from './reply.js';
import { waitUntilSettled } from './settle.js';
import type { Turn } from './turn.js';
import type { Workflow, WorkflowHost } from './types.js';

/** The most events one step keeps for its journal entry; the rest are counted in a `trace.truncated` event. */
export const MAX_TRACE_EVENTS_PER_STEP = 500;

/** How long a turn may take to settle (a model call, an action) before it fails. */
export const DEFAULT_SETTLE_TIMEOUT_MS = 120_000;

export interface OpenSessionOptions {
  sessionId: string;
  host: WorkflowHost;
  /** A stored snapshot of this workflow's version (already migrated): restores the session. */
  snapshot?: Snapshot<unknown>;
  /** For a new session: facts the workflow's `input` receives. */
  context?: Record<string, unknown>;
  /** For a new session: its owner (the JWT subject), which the workflow's `input` receives. */
  owner?: string | null;
  /** Passed to the actor, e.g. the Stately inspector's `inspect`. */
  inspect?: (event: InspectionEvent) => void;
  /** Receives what the machine emits (a flow's trace events). */
  onEmitted?: (event: { type: string }) => void;
  settleTimeoutMs?: number;
  /**
   * Replies come with an empty `inputs` list when the workflow's reply has none (the runtime's:
   * it fills the list with the open gates, in its own copy). Absent: replies as the workflow builds them.
   */
  replyInputs?: boolean;
}

/** A live session of a workflow: one actor, a turn at a time. */
export interface WorkflowSession<TReply extends ReplyEnvelope = ReplyEnvelope> {
  readonly sessionId: string;
  readonly workflow: Workflow<TReply>;
  /** True once the machine reached a final state. */
  readonly done: boolean;
  /** The state value, for traces and spans. */
  readonly state: unknown;
  reply(): TReply;
  /** The machine's current snapshot (what the runtime reads the declared inputs from). */
  snapshot(): AnyMachineSnapshot;
  /**
   * How many times the state (by node id) was entered since this live session
   * began: a step that leaves a waiting state and enters it again changes it.
   */
  entryCount(stateId: string): number;
  /** Sends the turn's event and waits until the machine settles. The caller sends one turn at a time. */
  send(turn: Turn): Promise<TReply>;
  /** Sends an event the runtime made (an input answered, a deadline passed) and waits until the machine settles. */
  deliver(event: EventObject): Promise<TReply>;
  /** The snapshot to store. */
  persisted(): Snapshot<unknown>;
  /** What the machine emitted since the last call (or since it started): the step's trace for the journal. */
  takeTrace(): StepTrace;
  stop(): void;
}

/**
 * Starts (or, with `snapshot`, restores) a session of `workflow` and waits
 * until it has settled. A snapshot XState cannot restore (a state the
 * machine no longer has) is refused with {@link IncompatibleSnapshotError}.
 */
export async function openSession<TReply extends ReplyEnvelope>(
  workflow: Workflow<TReply>,
  options: OpenSessionOptions,
): Promise<WorkflowSession<TReply>> {
  const session = createSession(workflow, options);
  try {
    await session.settled;
  } catch (error) {
    session.value.stop();
    throw error;
  }
  return session.value;
}

/** The session at once, and a promise of its first settling (for callers that must answer synchronously). */
export function createSession<TReply extends ReplyEnvelope>(
  workflow: Workflow<TReply>,
  options: OpenSessionOptions,
): { value: WorkflowSession<TReply>; settled: Promise<void> } {
  const { sessionId } = options;
  const machine: AnyStateMachine = workflow.machine(options.host);
  const timeoutMs = options.settleTimeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS;
  const snapshot = options.snapshot && (workflow.restore ? workflow.restore(options.snapshot) : options.snapshot);
  // Set once the actor exists: the inspector hears of it while it is being made.
  let entries: { of: unknown; counter: EntryCounter } | undefined;
  // Entries are counted for the states that wait for inputs: a machine with none is not inspected
  // (XState reports every microstep to an inspector, which costs a turn about a tenth of its time).
  const counting = declaresInputs(machine);
  const actor: Actor<AnyStateMachine> = createActor(machine, {
    ...(snapshot ? { snapshot } : { input: workflow.input ? workflow.input(options.context, { sessionId, owner: options.owner ?? null }) : options.context }),
    ...((counting || options.inspect) && {
      inspect: (event: InspectionEvent) => {
        // The root actor's own microsteps only (none happen before it starts).
        if (counting && entries && event.actorRef === entries.of) entries.counter.observe(event);
        options.inspect?.(event);
      },
    }),
  });
  // A snapshot XState cannot restore gives an actor in error before it starts;
  // starting it anyway would report the error again, uncaught, later on.
  if (actor.getSnapshot().status === 'error')
    throw new IncompatibleSnapshotError(
      `session ${sessionId}: the stored snapshot does not fit workflow ${workflow.id}@${workflow.version} (${describe(actor.getSnapshot().error)})`,
    );
  const counter = new EntryCounter(actor.getSnapshot() as AnyMachineSnapshot);
  entries = { of: actor, counter };
  // Subscribed before the start, so that what the first state emits is seen.
  if (options.onEmitted) actor.on('*', options.onEmitted);
  let trace: StepTrace = [];
  let dropped = 0;
  actor.on('*', (event: { type: string }) => {
    if (trace.length < MAX_TRACE_EVENTS_PER_STEP) trace.push({ ...event });
    else dropped++;
  });
  actor.start();
  const settle = () => waitUntilSettled(actor, { timeoutMs, ...(workflow.isSettled && { isSettled: workflow.isSettled }) });
  const current = () => actor.getSnapshot() as AnyMachineSnapshot;

  let built: { snapshot: AnyMachineSnapshot; reply: TReply } | undefined;
  const value: WorkflowSession<TReply> = {
    sessionId,
    workflow,
    get done() {
      return current().status === 'done';
    },
    get state() {
      return current().value;
    },
    // A snapshot's reply, built once: a button turn checks it before the turn, and it was the last turn's answer.
    reply: () => {
      const snapshot = current();
      if (built?.snapshot !== snapshot) {
        const reply = workflow.reply(snapshot, sessionId);
        // For the runtime, with its `inputs` key (none until it says which gates are open), added to the
        // new object here: the runtime's copy (withInputs) then sets a key it has, where adding one to a
        // spread copy is a V8 slow path, 30x dearer.
        if (options.replyInputs && !('inputs' in reply)) reply.inputs = [];
        built = { snapshot, reply };
      }
      return built.reply;
    },
    async send(turn) {
      if (current().status === 'done') throw new ConversationFinishedError(sessionId);
      // A button is a choice among those offered (its value or label, in any case): anything else is refused, never read as text.
      if ('button' in turn) {
        const offered = value.reply().buttons ?? [];
        const pressed = turn.button.trim().toLowerCase();
        if (!offered.some((b) => b.value.toLowerCase() === pressed || b.label.toLowerCase() === pressed))
          throw new InvalidButtonError(turn.button, offered.map((b) => b.value));
      }
      actor.send(workflow.toEvent(turn));
      await settle();
      return value.reply();
    },
    snapshot: current,
    entryCount: (stateId) => counter.count(stateId),
    async deliver(event) {
      if (current().status === 'done') throw new ConversationFinishedError(sessionId);
      actor.send(event);
      await settle();
      return value.reply();
    },
    persisted: () => actor.getPersistedSnapshot() as Snapshot<unknown>,
    takeTrace: () => {
      const taken = dropped > 0 ? [...trace, { type: 'trace.truncated', dropped }] : trace;
      trace = [];
      dropped = 0;
      return taken;
    },
    stop: () => actor.stop(),
  };
  return { value, settled: settle() };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
