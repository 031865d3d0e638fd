import { SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { AnyActorLogic, InspectionEvent, Snapshot } from 'xstate';
import { GateflowError } from '../error/gateflow-error.js';
import { ConflictError, type Store } from '../store/types.js';
import type { ReplyEnvelope, WorkflowVersion } from '../workflow/reply.js';
import { openSession, type WorkflowSession } from '../workflow/session.js';
import { parseTurn, sameTurn, type Turn } from '../workflow/turn.js';
import type { Workflow, WorkflowHost, WorkflowSummary } from '../workflow/types.js';
import {
  FlowNotFoundError,
  IncompatibleSnapshotError,
  InvalidPageError,
  InvalidTurnError,
  SessionNotFoundError,
  TurnIdReusedError,
  TurnLimitError,
} from './errors.js';
import { isSessionId, newSessionId } from './session-id.js';

/** How many turns a session takes unless `maxTurnsPerSession` says otherwise. */
export const DEFAULT_MAX_TURNS_PER_SESSION = 500;
/** History entries per page when the caller names no limit, and the most it may name. */
export const DEFAULT_HISTORY_PAGE_SIZE = 50;
export const MAX_HISTORY_PAGE_SIZE = 200;

export interface RuntimeOptions<TReply extends ReplyEnvelope = ReplyEnvelope> {
  /**
   * The workflows to serve. Several versions of one id may be given: the last
   * is the current one, used for new sessions; earlier ones keep serving the
   * sessions that started on them.
   */
  workflows: Workflow<TReply>[];
  store: Store;
  /** Actors the workflows' machines name (a model-backed `extract`, action actors, tools), replacing their defaults. */
  actors?: Record<string, AnyActorLogic>;
  /** How often a turn is applied again after losing a race with another process. */
  maxConflictRetries?: number;
  /** How many sessions keep a live actor between turns (restoring is skipped while the stored version matches). */
  liveSessions?: number;
  /**
   * The most turns one session takes (default {@link DEFAULT_MAX_TURNS_PER_SESSION});
   * the next is refused with {@link TurnLimitError}. Bounds a session's journal.
   */
  maxTurnsPerSession?: number;
  /** How long a turn may take to settle (a model call, an action) before it fails. */
  settleTimeoutMs?: number;
  /** Receives what a session's machine emits (a flow's trace events), with the session. */
  onEmitted?: (event: { type: string }, session: { sessionId: string; workflowId: string }) => void;
  /** Passed to every session's actor, e.g. the Stately inspector's `inspect`. */
  inspect?: (event: InspectionEvent) => void;
  /** Where turn spans go: the global OpenTelemetry tracer (a no-op unless the host installs an SDK) when absent. */
  tracer?: Tracer;
}

/** Who asks: sessions belong to an owner (a JWT subject) when the server has auth. */
export interface Caller {
  owner?: string | null;
}

/** Which part of a session's history to read: the entries after seq `after`, at most `limit`. */
export interface HistoryPage {
  after?: number;
  limit?: number;
}

export interface SessionView<TReply extends ReplyEnvelope = ReplyEnvelope> {
  /** The session's current reply (its last journal entry). */
  reply: TReply;
  /** One page of the journal, oldest first: the opening reply (seq 1, turn null), then each turn. */
  history: { seq: number; turn: Turn | null; reply: TReply }[];
  /** The `after` of the next page, or null when this page reaches the end. */
  nextAfter: number | null;
}

export interface Runtime<TReply extends ReplyEnvelope = ReplyEnvelope> {
  /** The current version of every workflow. */
  workflows(): WorkflowSummary[];
  /** Starts a session of a workflow; `context` goes to its input. */
  start(workflowId: string, caller?: Caller, options?: { context?: Record<string, unknown> }): Promise<{ sessionId: string; reply: TReply }>;
  /** Load, restore, send, wait until settled, build the reply, save and journal. */
  turn(sessionId: string, turn: unknown, caller?: Caller): Promise<TReply>;
  /** The current reply and one page of the history (the first {@link DEFAULT_HISTORY_PAGE_SIZE} entries by default). */
  session(sessionId: string, caller?: Caller, page?: HistoryPage): Promise<SessionView<TReply>>;
  /** Resolves when the store can serve; throws StoreUnavailableError otherwise. */
  ready(): Promise<void>;
}

/**
 * The one runtime every workflow runs through: sessions in a store, one turn
 * at a time per session in this process (the store's version check across
 * processes), replays by turnId from the journal, a span per turn.
 */
export function createRuntime<TReply extends ReplyEnvelope>(options: RuntimeOptions<TReply>): Runtime<TReply> {
  const { store } = options;
  const maxRetries = options.maxConflictRetries ?? 100;
  const maxTurns = options.maxTurnsPerSession ?? DEFAULT_MAX_TURNS_PER_SESSION;
  const live = new LiveSessions<TReply>(options.liveSessions ?? 1000);
  const host: WorkflowHost = { actors: options.actors ?? {} };
  const tracer = options.tracer ?? trace.getTracer('gateflow');

  // id → version (as text) → workflow; the current version per id.
  const versions = new Map<string, Map<string, Workflow<TReply>>>();
  const current = new Map<string, Workflow<TReply>>();
  for (const workflow of options.workflows) {
    if (!versions.has(workflow.id)) versions.set(workflow.id, new Map());
    versions.get(workflow.id)!.set(String(workflow.version), workflow);
    current.set(workflow.id, workflow);
  }

  // Turns on one session run one after another in this process.
  const queues = new Map<string, Promise<unknown>>();
  const serialized = <T>(sessionId: string, fn: () => Promise<T>): Promise<T> => {
    const previous = queues.get(sessionId) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(fn);
    queues.set(sessionId, run);
    const cleanup = () => {
      if (queues.get(sessionId) === run) queues.delete(sessionId);
    };
    run.then(cleanup, cleanup);
    return run;
  };

  // A session with an owner is seen by that owner only; one without (made by a server without auth) by anyone.
  const visible = (owner: string | null, caller: Caller | undefined) => owner === null || owner === (caller?.owner ?? null);

  const open = (workflow: Workflow<TReply>, sessionId: string, restore: { snapshot?: Snapshot<unknown>; context?: Record<string, unknown> }) =>
    openSession(workflow, {
      sessionId,
      host,
      ...restore,
      ...(options.settleTimeoutMs !== undefined && { settleTimeoutMs: options.settleTimeoutMs }),
      ...(options.inspect && { inspect: options.inspect }),
      ...(options.onEmitted && {
        onEmitted: (event: { type: string }) => options.onEmitted!(event, { sessionId, workflowId: workflow.id }),
      }),
    });

  /** The workflow a stored session continues on, and its snapshot (migrated if need be). */
  const resolve = (workflowId: string, version: WorkflowVersion, snapshot: Snapshot<unknown>) => {
    const registered = versions.get(workflowId);
    const workflow = current.get(workflowId);
    if (!registered || !workflow) throw new FlowNotFoundError(workflowId);
    const same = registered.get(String(version));
    if (same) return { workflow: same, snapshot };
    if (!workflow.migrate)
      throw new IncompatibleSnapshotError(
        `incompatible snapshot: saved with ${workflowId}@${version}, which is no longer registered, and ${workflowId}@${workflow.version} cannot migrate it`,
      );
    return { workflow, snapshot: workflow.migrate(version, snapshot) };
  };

  const applyTurn = async (sessionId: string, turn: Turn, caller: Caller | undefined, span: Span): Promise<TReply> => {
    const turnId = turn.turnId ?? null;
    let roundTrips = 0;
    try {
      for (let attempt = 0; ; attempt++) {
        roundTrips++;
        const loaded = await store.load(sessionId, turnId ?? undefined);
        if (!loaded || !visible(loaded.session.owner, caller)) throw new SessionNotFoundError(sessionId);
        const { session } = loaded;
        span.setAttributes({ 'gateflow.workflow.id': session.flowId, 'gateflow.workflow.version': String(session.flowVersion) });
        if (loaded.replayed) {
          // The same turn again is a replay; another turn under a used id would silently be lost.
          if (loaded.replayed.turn && !sameTurn(loaded.replayed.turn, turn)) throw new TurnIdReusedError(turnId!);
          span.setAttribute('gateflow.turn.outcome', 'replayed');
          return loaded.replayed.reply as TReply;
        }
        // Version 1 is the opening reply: a session at version n has taken n - 1 turns.
        if (session.version - 1 >= maxTurns) throw new TurnLimitError(sessionId, maxTurns);
        // The actor kept from this session's last turn, if the store still holds that
        // version; otherwise restore from the stored snapshot.
        const active =
          live.take(sessionId, session.version) ??
          (await (() => {
            const { workflow, snapshot } = resolve(session.flowId, session.flowVersion, session.snapshot);
            return open(workflow, sessionId, { snapshot });
          })());
        if (span.isRecording()) span.setAttribute('gateflow.state.before', stateText(active.state));
        try {
          const reply = await active.send(turn);
          roundTrips++;
          const version = await store.commitTurn(sessionId, session.version, {
            snapshot: active.persisted(),
            flowVersion: active.workflow.version,
            turn,
            turnId,
            reply,
          });
          if (active.done) active.stop();
          else live.keep(sessionId, version, active);
          span.setAttributes({
            ...(span.isRecording() && { 'gateflow.state.after': stateText(active.state) }),
            'gateflow.turn.outcome': 'applied',
            'gateflow.turn.conflicts': attempt,
          });
          return reply;
        } catch (error) {
          active.stop();
          // Another process saved a turn first: load its result and apply this turn again.
          if (!(error instanceof ConflictError) || attempt >= maxRetries) throw error;
        }
      }
    } finally {
      span.setAttribute('gateflow.store.round_trips', roundTrips);
    }
  };

  return {
    workflows: () => [...current.values()].map((w) => ({ id: w.id, version: w.version, title: w.title })),

    start(workflowId, caller, startOptions = {}) {
      return traced(tracer, 'gateflow.start', { 'gateflow.workflow.id': workflowId }, async (span) => {
        const workflow = current.get(workflowId);
        if (!workflow) throw new FlowNotFoundError(workflowId);
        const sessionId = newSessionId();
        span.setAttributes({ 'gateflow.session.id': sessionId, 'gateflow.workflow.version': String(workflow.version) });
        const active = await open(workflow, sessionId, { ...(startOptions.context && { context: startOptions.context }) });
        const reply = active.reply();
        try {
          await store.create({
            sessionId,
            flowId: workflow.id,
            flowVersion: workflow.version,
            snapshot: active.persisted(),
            owner: caller?.owner ?? null,
            reply,
          });
        } catch (error) {
          active.stop();
          throw error;
        }
        span.setAttributes({ 'gateflow.state.after': stateText(active.state), 'gateflow.store.round_trips': 1 });
        live.keep(sessionId, 1, active);
        return { sessionId, reply };
      });
    },

    turn(sessionId, input, caller) {
      return traced(tracer, 'gateflow.turn', { 'gateflow.session.id': sessionId }, async (span) => {
        const parsed = parseTurn(input);
        if (!parsed.success) throw new InvalidTurnError(parsed.message);
        if (!isSessionId(sessionId)) throw new SessionNotFoundError(sessionId);
        span.setAttribute('gateflow.turn.kind', 'button' in parsed.data ? 'button' : 'text');
        return serialized(sessionId, () => applyTurn(sessionId, parsed.data, caller, span));
      });
    },

    async session(sessionId, caller, page = {}) {
      const after = page.after ?? 0;
      const limit = page.limit ?? DEFAULT_HISTORY_PAGE_SIZE;
      if (!Number.isSafeInteger(after) || after < 0) throw new InvalidPageError(`after must be an integer of 0 or more, not ${after}`);
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_HISTORY_PAGE_SIZE)
        throw new InvalidPageError(`limit must be an integer from 1 to ${MAX_HISTORY_PAGE_SIZE}, not ${limit}`);
      if (!isSessionId(sessionId)) throw new SessionNotFoundError(sessionId);
      const loaded = await store.load(sessionId);
      if (!loaded || !visible(loaded.session.owner, caller)) throw new SessionNotFoundError(sessionId);
      const { version } = loaded.session;
      // The page, and the current reply (the entry of the session's version) when the page does not hold it.
      const entries = await store.history(sessionId, { after, limit });
      const current = entries.find((e) => e.seq === version) ?? (await store.history(sessionId, { after: version - 1, limit: 1 }))[0];
      if (!current) throw new SessionNotFoundError(sessionId);
      const last = entries.at(-1);
      return {
        reply: current.reply as TReply,
        history: entries.map((e) => ({ seq: e.seq, turn: e.turn, reply: e.reply as TReply })),
        nextAfter: last && last.seq < version ? last.seq : null,
      };
    },

    ready: () => store.ping(),
  };
}

// A state value as a span attribute; only built when a span records (JSON of a nested state is not free).
const stateText = (state: unknown) => (typeof state === 'string' ? state : JSON.stringify(state));

/** Runs `fn` in an active span: its outcome recorded, an error's code on it, the span ended. */
async function traced<T>(tracer: Tracer, name: string, attributes: Record<string, string>, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.setAttribute('gateflow.turn.outcome', error instanceof GateflowError ? error.code : 'internal');
      // A caller's mistake is not the service failing; everything else is.
      if (!(error instanceof GateflowError) || error.status >= 500) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      }
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Live sessions by id, each valid for one stored version: a turn takes it out
 * (so no two turns share it) and puts it back after its commit. The least
 * recently used are stopped beyond `capacity`.
 */
class LiveSessions<TReply extends ReplyEnvelope> {
  private readonly entries = new Map<string, { version: number; session: WorkflowSession<TReply> }>();
  constructor(private readonly capacity: number) {}

  take(sessionId: string, version: number): WorkflowSession<TReply> | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    this.entries.delete(sessionId);
    if (entry.version === version) return entry.session;
    entry.session.stop();
    return undefined;
  }

  keep(sessionId: string, version: number, session: WorkflowSession<TReply>): void {
    if (this.capacity <= 0) return session.stop();
    this.entries.set(sessionId, { version, session });
    if (this.entries.size > this.capacity) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      entry.session.stop();
    }
  }
}
