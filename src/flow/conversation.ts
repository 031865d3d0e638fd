import type { AnyActorLogic, InspectionEvent, Snapshot } from 'xstate';
import { IncompatibleSnapshotError, InvalidTurnError } from '../runtime/errors.js';
import { createSession, DEFAULT_SETTLE_TIMEOUT_MS, type WorkflowSession } from '../workflow/session.js';
import { parseTurn, type Turn } from '../workflow/turn.js';
import type { WorkflowHost } from '../workflow/types.js';
import type { FlowInput } from './context.js';
import type { Reply } from './reply.js';
import type { FlowDocument, FlowVersion } from './schema.js';
import type { FlowTraceEvent } from './trace.js';
import { flowWorkflow } from './workflow.js';

/**
 * A flow run in this process without a store: for tests, scripts and stories.
 * A server or the CLI runs flows through the runtime (`createFlowRuntime`),
 * which stores each turn; this is the same session actor, kept in memory.
 */

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
  return open(flow, persisted.snapshot, { ...options, sessionId: persisted.sessionId });
}

function open(flow: FlowDocument, snapshot: Snapshot<unknown> | undefined, options: ConversationOptions): Conversation {
  const workflow = flowWorkflow(flow, options.today ? { today: options.today } : {});
  const sessionId = options.sessionId ?? globalThis.crypto.randomUUID();
  const { value: session, settled } = createSession(workflow, {
    sessionId,
    host: hostFor(options.extract, options.actors),
    ...(snapshot && { snapshot }),
    ...(options.context && { context: options.context }),
    ...(options.inspect && { inspect: options.inspect }),
    ...(options.onTrace && { onEmitted: options.onTrace as (event: { type: string }) => void }),
    settleTimeoutMs: options.settleTimeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS,
  });
  return conversationOf(flow, session, settled);
}

/**
 * One host per extractor and set of actors, so that the workflow provides its
 * machine with them once (providing builds a new machine), not per conversation.
 */
const NONE = {};
const hosts = new WeakMap<object, WeakMap<object, WorkflowHost>>();
function hostFor(extract: AnyActorLogic | undefined, actors: Record<string, AnyActorLogic> | undefined): WorkflowHost {
  let byActors = hosts.get(extract ?? NONE);
  if (!byActors) hosts.set(extract ?? NONE, (byActors = new WeakMap()));
  let host = byActors.get(actors ?? NONE);
  if (!host) byActors.set(actors ?? NONE, (host = { actors: { ...(extract && { extract }), ...actors } }));
  return host;
}

function conversationOf(flow: FlowDocument, session: WorkflowSession<Reply>, settled: Promise<void>): Conversation {
  // Turns are applied one after another; a failed turn does not block the next.
  let queue: Promise<unknown> = settled;
  // Replies by turnId, so that a replayed turn changes nothing (in this process only:
  // the runtime's store keeps the journal across processes).
  const repliesByTurnId = new Map<string, Reply>();
  return {
    sessionId: session.sessionId,
    flow,
    get done() {
      return session.done;
    },
    reply: () => session.reply(),
    send(turn) {
      const parsed = parseTurn(turn);
      const run = queue.catch(() => undefined).then(async () => {
        if (!parsed.success) throw new InvalidTurnError(parsed.message);
        const { turnId } = parsed.data;
        const replayed = turnId !== undefined ? repliesByTurnId.get(turnId) : undefined;
        if (replayed) return replayed;
        const result = await session.send(parsed.data);
        if (turnId !== undefined) repliesByTurnId.set(turnId, result);
        return result;
      });
      queue = run;
      return run;
    },
    persist: () => ({ sessionId: session.sessionId, flowId: flow.id, flowVersion: flow.version, snapshot: session.persisted() }),
    stop: () => session.stop(),
  };
}
