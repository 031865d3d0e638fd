import { createActor, waitFor, type Actor, type AnyActorLogic, type InspectionEvent, type Snapshot } from 'xstate';
import { BUSY_TAG, PATHS_ACTOR_ID, compileFlow, type FlowMachine } from '../flow/compile.js';
import { initialFlowContext, type FlowInput } from '../flow/context.js';
import type { FlowTraceEvent } from '../flow/trace.js';
import { flowGraph, type FlowGraph } from '../flow/graph.js';
import { parseFlowValue } from '../flow/parse.js';
import type { FlowDocument, FlowVersion } from '../flow/schema.js';
import { buildReply } from './build-reply.js';
import { ConversationFinishedError, IncompatibleSnapshotError, InvalidTurnError } from './errors.js';
import type { Reply } from './reply.js';
import { parseTurn, turnToEvent, type Turn } from './turn.js';

/** What is stored for a conversation: the snapshot, and beside it the flow it belongs to. */
export interface PersistedConversation {
  sessionId: string;
  flowId: string;
  flowVersion: FlowVersion;
  snapshot: Snapshot<unknown>;
}

export interface ConversationOptions {
  /** The `extract` actor (see `createExtractActor`); the offline matcher when absent. */
  extract?: AnyActorLogic;
  /** Actors the flow's action nodes name, by name. */
  actors?: Record<string, AnyActorLogic>;
  /** Facts guards read as `context.*` (for a new conversation; a restored one keeps its own). */
  context?: FlowInput['context'];
  /** Today's date for date answers; the clock when absent (tests fix it). */
  today?: () => Date;
  sessionId?: string;
  /** Passed to the actor, e.g. the Stately inspector's `inspect`. */
  inspect?: (event: InspectionEvent) => void;
  /** How long a turn may wait for extraction before it fails. */
  settleTimeoutMs?: number;
  /** Receives the flow's structured events (node entries, guard outcomes, answers, votes): `--trace`. */
  onTrace?: (event: FlowTraceEvent) => void;
}

export interface Conversation {
  readonly sessionId: string;
  readonly flow: FlowDocument;
  /** True once a terminal is reached. */
  readonly done: boolean;
  /** The reply for the current state. */
  reply(): Reply;
  /**
   * Takes a turn, waits until the machine settles, returns the reply. Turns are
   * applied one at a time; a turn whose `turnId` was seen returns the reply it got then.
   */
  send(turn: Turn): Promise<Reply>;
  /** The snapshot to store, with the flow id and version beside it. */
  persist(): PersistedConversation;
  stop(): void;
}

interface Compiled {
  graph: FlowGraph;
  machine: FlowMachine;
  provided: WeakMap<AnyActorLogic, FlowMachine>;
}
/** Compiled machines by document, and by the `today` clock a conversation asked for (none: the default one). */
const compiled = new WeakMap<FlowDocument, Map<(() => Date) | undefined, Compiled>>();

/** Compiles a flow once per document object (and clock), and provides each extractor once. */
function machineFor(
  flow: FlowDocument,
  extract: AnyActorLogic | undefined,
  today: (() => Date) | undefined,
): { graph: FlowGraph; machine: FlowMachine } {
  let byClock = compiled.get(flow);
  if (!byClock) compiled.set(flow, (byClock = new Map()));
  let entry = byClock.get(today);
  if (!entry) {
    // Replies read the flow as checked and completed with defaults, as the machine does.
    const checked = parseFlowValue(flow, flow.id);
    entry = { graph: flowGraph(checked), machine: compileFlow(checked, today ? { today } : {}), provided: new WeakMap() };
    byClock.set(today, entry);
  }
  if (!extract) return entry;
  let machine = entry.provided.get(extract);
  if (!machine) {
    machine = entry.machine.provide({ actors: { extract } }) as FlowMachine;
    entry.provided.set(extract, machine);
  }
  return { graph: entry.graph, machine };
}

export function startConversation(flow: FlowDocument, options: ConversationOptions = {}): Conversation {
  return open(flow, undefined, options);
}

/**
 * Restores a stored conversation. Refuses, with {@link IncompatibleSnapshotError},
 * a snapshot of another flow or version, or one naming states the flow no longer has.
 */
export function restoreConversation(
  flow: FlowDocument,
  persisted: PersistedConversation,
  options: Omit<ConversationOptions, 'sessionId'> = {},
): Conversation {
  if (persisted.flowId !== flow.id || String(persisted.flowVersion) !== String(flow.version))
    throw new IncompatibleSnapshotError(
      `session ${persisted.sessionId} was saved with flow ${persisted.flowId}@${persisted.flowVersion}, not ${flow.id}@${flow.version}`,
    );
  return open(flow, persisted, { ...options, sessionId: persisted.sessionId });
}

function open(flow: FlowDocument, persisted: PersistedConversation | undefined, options: ConversationOptions): Conversation {
  const { graph, machine: base } = machineFor(flow, options.extract, options.today);
  const machine = options.actors ? (base.provide({ actors: options.actors }) as FlowMachine) : base;
  const sessionId = options.sessionId ?? globalThis.crypto.randomUUID();
  const settleTimeoutMs = options.settleTimeoutMs ?? 120_000;
  const actor: Actor<FlowMachine> = createActor(machine, {
    input: { ...(options.context && { context: options.context }) },
    ...(persisted && { snapshot: withContextDefaults(persisted.snapshot) }),
    ...(options.inspect && { inspect: options.inspect }),
  });
  // A snapshot XState cannot restore gives an actor in error before it starts;
  // starting it anyway would report the error again, uncaught, later on.
  if (actor.getSnapshot().status === 'error')
    throw new IncompatibleSnapshotError(
      `session ${sessionId}: the stored snapshot does not fit flow ${flow.id}@${flow.version} (${describe(actor.getSnapshot().error)})`,
    );
  // Subscribed before the start, so the first node's entry is in the trace.
  if (options.onTrace) {
    const onTrace = options.onTrace;
    actor.on('*', (event) => onTrace(event as FlowTraceEvent));
  }
  actor.start();

  // Settled: no invoked actor running, in the flow or in its path selection
  // (whose vote may still move the flow on).
  const settle = async () => {
    const deadline = Date.now() + settleTimeoutMs;
    for (;;) {
      const snapshot = await waitFor(actor, (s) => s.status !== 'active' || !s.hasTag(BUSY_TAG), {
        timeout: Math.max(1, deadline - Date.now()),
      });
      if (snapshot.status === 'error') throw snapshot.error;
      const paths = snapshot.status === 'active' ? snapshot.children[PATHS_ACTOR_ID] : undefined;
      if (!paths || !paths.getSnapshot().hasTag(BUSY_TAG)) return;
      await waitFor(paths, (s) => !s.hasTag(BUSY_TAG), { timeout: Math.max(1, deadline - Date.now()) });
    }
  };
  // Turns are applied one after another; a failed turn does not block the next.
  let queue: Promise<unknown> = settle();

  const reply = () => buildReply(graph, actor.getSnapshot(), sessionId);
  // Replies by turnId, so that a replayed turn changes nothing (this process
  // only: a store keeps the journal across processes).
  const repliesByTurnId = new Map<string, Reply>();

  return {
    sessionId,
    flow,
    get done() {
      return actor.getSnapshot().status === 'done';
    },
    reply,
    send(turn) {
      const parsed = parseTurn(turn);
      const run = queue.catch(() => undefined).then(async () => {
        if (!parsed.success) throw new InvalidTurnError(parsed.message);
        const { turnId } = parsed.data;
        const replayed = turnId !== undefined ? repliesByTurnId.get(turnId) : undefined;
        if (replayed) return replayed;
        if (actor.getSnapshot().status === 'done') throw new ConversationFinishedError(sessionId);
        actor.send(turnToEvent(parsed.data));
        await settle();
        const result = reply();
        if (turnId !== undefined) repliesByTurnId.set(turnId, result);
        return result;
      });
      queue = run;
      return run;
    },
    persist: () => ({
      sessionId,
      flowId: flow.id,
      flowVersion: flow.version,
      snapshot: actor.getPersistedSnapshot() as Snapshot<unknown>,
    }),
    stop: () => actor.stop(),
  };
}

/**
 * A stored snapshot's context with every field this version of the context
 * has: snapshots saved before a field existed (before typed answers, say)
 * restore with its initial value.
 */
function withContextDefaults(snapshot: Snapshot<unknown>): Snapshot<unknown> {
  const stored = snapshot as { context?: unknown };
  if (typeof stored !== 'object' || stored === null || typeof stored.context !== 'object' || stored.context === null) return snapshot;
  return { ...stored, context: { ...initialFlowContext(), ...stored.context } } as unknown as Snapshot<unknown>;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
