import { SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { AnyActorLogic, InspectionEvent, Snapshot } from 'xstate';
import { GateflowError } from '../error/gateflow-error.js';
import { coerceInput, type InputValue } from '../inputs/coerce.js';
import { declaredInputs } from '../inputs/declared.js';
import { InputClosedError, InputForbiddenError, InputNotFoundError, InvalidInputValueError } from '../inputs/errors.js';
import { isGateId, openInputOf, type GateRecord, type OpenInput } from '../inputs/gate.js';
import { ConflictError, type JournalTurn, type LoadedSession, type SessionEvent, type SessionRecord, type StepTrace, type Store } from '../store/types.js';
import type { ReplyEnvelope, SessionStatus, WorkflowVersion } from '../workflow/reply.js';
import { openSession, type WorkflowSession } from '../workflow/session.js';
import { parseTurn, sameTurn, type Turn } from '../workflow/turn.js';
import { DeadlineTimer } from './deadline-timer.js';
import { EventFeed } from './event-feed.js';
import { planGates, stepEvents, withInputs } from './gates.js';
import type { Workflow, WorkflowHost, WorkflowSummary } from '../workflow/types.js';
import {
  FlowNotFoundError,
  IncompatibleSnapshotError,
  ForkError,
  InvalidPageError,
  InvalidTurnError,
  SessionNotFoundError,
  TurnIdReusedError,
  TurnLimitError,
} from './errors.js';
import { replayConversation, replayTurnOf } from './replay.js';
import { isSessionId, newSessionId } from './session-id.js';
import { prepareStep, runStep, type SessionStep } from './steps/index.js';

export { CANCELLED_MESSAGE } from './steps/index.js';

/** How many turns a session takes unless `maxTurnsPerSession` says otherwise. */
export const DEFAULT_MAX_TURNS_PER_SESSION = 500;
/** History entries per page when the caller names no limit, and the most it may name. */
export const DEFAULT_HISTORY_PAGE_SIZE = 50;
export const MAX_HISTORY_PAGE_SIZE = 200;
/** Sessions per page of a list when the caller names no limit, and the most it may name. */
export const DEFAULT_SESSION_PAGE_SIZE = 50;
export const MAX_SESSION_PAGE_SIZE = 200;
/** Open gates in one page of the inbox, unless asked for fewer or more (up to the most). */
export const DEFAULT_INPUT_PAGE_SIZE = 100;
export const MAX_INPUT_PAGE_SIZE = 500;

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
  /** The time gates open and deadlines are judged by (tests move it). */
  clock?: () => Date;
  /**
   * Input deadlines: this runtime fires those of the gates it opens; with
   * `watchMs` it also polls the store that often for deadlines set by other
   * processes or before a restart (the server does, every second).
   */
  deadlines?: { watchMs?: number; leaseMs?: number };
  /** How often the events stream reads the store while someone listens (default 500 ms). */
  eventPollMs?: number;
  /** Errors of background work (firing deadlines, reading events) that no caller receives. */
  onBackgroundError?: (error: unknown) => void;
}

/**
 * Who asks: sessions belong to an owner (a JWT subject) when the server has
 * auth; `roles` (the token's `roles` claim) let a caller answer gates
 * addressed to them (a manager's approval) in sessions they do not own.
 */
export interface Caller {
  owner?: string | null;
  roles?: readonly string[];
}

/** Which open gates to list. */
export interface InputQuery {
  sessionId?: string;
  workflowId?: string;
  /** Only the gates after this place in the opening order: a page's `nextAfter` (0 or absent: from the first). */
  after?: number;
  /** At most this many (default {@link DEFAULT_INPUT_PAGE_SIZE}, at most {@link MAX_INPUT_PAGE_SIZE}). */
  limit?: number;
}

/** What a role holder learns of the gate they answered in another person's session: the gate, as it closed. */
export interface AnswerReceipt {
  gateId: string;
  name: string;
  status: 'answered';
  /** The value as the gate read it (coerced to its type). */
  value: InputValue | null;
}

/** One page of the open gates: `nextAfter` is the `after` of the next page, null on the last. */
export interface InputPage {
  inputs: OpenInput[];
  nextAfter: number | null;
}

/** An announcement of the events stream: a gate opened, answered, timed out or closed; a session finished or cancelled. */
export interface RuntimeEvent {
  id: number;
  type: SessionEvent['type'];
  sessionId: string;
  workflowId: string;
  gateId: string | null;
  /** The role a gate is addressed to (null: the person in the conversation). */
  to: string | null;
  data: Record<string, unknown>;
  at: string;
}

/** Which part of a session's history to read: the entries after seq `after`, at most `limit`. */
export interface HistoryPage {
  after?: number;
  limit?: number;
  /** Each entry with what the machine emitted during its step (the viewer's turns). */
  trace?: boolean;
}

export interface SessionView<TReply extends ReplyEnvelope = ReplyEnvelope> {
  /** The session's current reply (its last journal entry). */
  reply: TReply;
  /** One page of the journal, oldest first: the opening reply (seq 1, turn null), then each turn, answer, deadline or cancel. */
  /** Each entry: the step's cause, its reply, and (asked with `trace`) what the machine emitted during it (a flow's trace events). */
  history: { seq: number; turn: JournalTurn | null; reply: TReply; trace?: StepTrace }[];
  /** The `after` of the next page, or null when this page reaches the end. */
  nextAfter: number | null;
}

/** Which sessions to list, newest first: of a workflow, in a status, after a cursor (`nextAfter` of the page before), at most `limit`. */
export interface SessionQuery {
  workflowId?: string;
  status?: SessionStatus;
  after?: number;
  limit?: number;
}

/** A session as the list shows it. */
export interface SessionListItem {
  sessionId: string;
  workflowId: string;
  flowVersion: WorkflowVersion;
  /** The machine's state value now. */
  state: unknown;
  status: SessionStatus;
  /** How many steps its journal holds (the opening reply is step 1). */
  steps: number;
  createdAt: string;
  updatedAt: string;
}

export interface SessionList {
  sessions: SessionListItem[];
  /** Pass as `after` for the next (older) page; null on the last page. */
  nextAfter: number | null;
}

export interface Runtime<TReply extends ReplyEnvelope = ReplyEnvelope> {
  /** The current version of every workflow. */
  workflows(): WorkflowSummary[];
  /** The current version of every workflow, itself (what the drawings draw). */
  registered(): Workflow<TReply>[];
  /**
   * Serves a workflow from now on (a flow file changed under `serve --watch`):
   * a new version becomes the current one for new sessions, and sessions
   * on earlier versions continue on theirs; the same version again replaces
   * it, and its sessions restore into the changed machine at their next step.
   */
  register(workflow: Workflow<TReply>): void;
  /** Starts a session of a workflow; `context` goes to its input. */
  start(workflowId: string, caller?: Caller, options?: { context?: Record<string, unknown> }): Promise<{ sessionId: string; reply: TReply }>;
  /** Load, restore, send, wait until settled, build the reply, save and journal. */
  turn(sessionId: string, turn: Turn, caller?: Caller): Promise<TReply>;
  /** The current reply and one page of the history (the first {@link DEFAULT_HISTORY_PAGE_SIZE} entries by default). */
  session(sessionId: string, caller?: Caller, page?: HistoryPage): Promise<SessionView<TReply>>;
  /** The caller's sessions (those they may see), newest first, one page at a time. */
  sessions(caller?: Caller, query?: SessionQuery): Promise<SessionList>;
  /**
   * A new session that starts as session `sessionId` was after its step `seq`
   * (1 is the opening reply): the steps up to there are replayed from its
   * journal through the version of the workflow it started on, and must reach
   * the same states. The caller owns the fork.
   */
  fork(sessionId: string, seq: number, caller?: Caller): Promise<{ sessionId: string; reply: TReply }>;
  /** The open input gates the caller may answer, across sessions, oldest first: one page (the first 500 unless `query` says otherwise). */
  inputs(caller?: Caller, query?: InputQuery): Promise<OpenInput[]>;
  /** One page of the open gates the caller may answer, in the order they opened, and where the next page starts. */
  inputPage(caller?: Caller, query?: InputQuery): Promise<InputPage>;
  /**
   * Answers one gate: the value is coerced and checked first (refused with
   * `invalid_input_value`, the gate left open), then the machine resumes where
   * it waits. Returns the session's new reply.
   */
  answer(gateId: string, value: unknown, caller?: Caller): Promise<TReply>;
  /**
   * Answers one gate as {@link answer} does, and says what the caller may see
   * of the outcome: the session's reply when the session is theirs (or has no
   * owner); otherwise (a role holder answering another person's session) only
   * the gate's receipt, never the session's data.
   */
  answerInput(gateId: string, value: unknown, caller?: Caller): Promise<{ reply: TReply } | { receipt: AnswerReceipt }>;
  /** Ends a session as `cancelled`: its gates close and leave every listing. */
  cancel(sessionId: string, caller?: Caller): Promise<TReply>;
  /** Fires the deadlines that have passed, each once across processes; returns how many sessions moved. */
  fireDeadlines(): Promise<number>;
  /** Listens to the events stream (what `caller` may see); returns the function that stops listening. */
  subscribe(listener: (event: RuntimeEvent) => void, caller?: Caller): () => void;
  /** Resolves when the store can serve; throws StoreUnavailableError otherwise. */
  ready(): Promise<void>;
  /** Stops the deadline timer and the events stream (the store stays open: it is the caller's). */
  close(): void;
}

/** The gates of a step that has none open before it (shared: never written to). */
const NO_GATES: ReadonlyMap<string, GateRecord> = new Map();

/** How soon a deadline that has passed but could not be taken is looked at again. */
const RETRY_DUE_MS = 1000;

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
  const clock = options.clock ?? (() => new Date());
  const onBackgroundError = options.onBackgroundError ?? (() => {});
  const feed = new EventFeed(store, options.eventPollMs ?? 500, onBackgroundError);
  const deadlines = new DeadlineTimer(() => fireDeadlines().then(() => undefined), onBackgroundError, () => clock().getTime());
  if (options.deadlines?.watchMs) deadlines.watch(options.deadlines.watchMs);
  const leaseMs = options.deadlines?.leaseMs ?? 30_000;

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
    const previous = queues.get(sessionId);
    // Nothing running on the session (the usual case): start at once, with no promise to wait behind.
    const run = previous ? previous.catch(() => undefined).then(fn) : fn();
    queues.set(sessionId, run);
    const cleanup = () => {
      if (queues.get(sessionId) === run) queues.delete(sessionId);
    };
    run.then(cleanup, cleanup);
    return run;
  };

  // A session with an owner is seen by that owner only; one without (made by a server without auth) by anyone.
  const visible = (owner: string | null, caller: Caller | undefined) => owner === null || owner === (caller?.owner ?? null);
  const holds = (caller: Caller | undefined, role: string | null) => role !== null && (caller?.roles ?? []).includes(role);
  /** Whether the caller may answer a gate: anyone without auth; the session's person its own gates; a role holder the gates addressed to the role. */
  const mayAnswer = (gate: GateRecord, caller: Caller | undefined) => {
    const me = caller?.owner ?? null;
    if (gate.owner === null && me === null) return true;
    return gate.to === null ? gate.owner === me : holds(caller, gate.to);
  };

  const openActive = (
    workflow: Workflow<TReply>,
    sessionId: string,
    restore: { snapshot?: Snapshot<unknown>; context?: Record<string, unknown>; owner?: string | null },
  ) =>
    openSession(workflow, {
      sessionId,
      host,
      ...restore,
      replyInputs: true,
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

  /**
   * One step of a session, applied until it wins the session's version:
   * load (with its open gates), restore, send, settle, plan the gates, build
   * the reply, and commit the snapshot, the journal entry, the gates and the
   * announcements together. Returns null when a deadline step finds nothing due.
   */
  const applyStep = async (sessionId: string, step: SessionStep, caller: Caller | undefined, span: Span, turnId: string | null): Promise<TReply | null> => {
    let roundTrips = 0;
    try {
      for (let attempt = 0; ; attempt++) {
        // What this process saved at the session's last step, if it was the last to save one: the step
        // is tried on it without reading the store, and the commit's version check says whether it
        // was still current (a turn id already taken fails it too: then the store is read, as always).
        // A turn id this process saved lately is a retry: the store's entry answers it, nothing is sent again.
        const peeked = attempt === 0 ? live.peek(sessionId) : undefined;
        const kept = peeked && !(turnId !== null && peeked.turnIds.includes(turnId)) ? peeked : undefined;
        try {
          let loaded: LoadedSession | null;
          if (kept) loaded = { session: kept.record, replayed: null, gates: kept.gates };
          else {
            roundTrips++;
            loaded = await store.load(sessionId, turnId ?? undefined);
          }
          // An answer's caller was checked against the gate; a deadline has no caller.
          if (!loaded || (step.kind !== 'answer' && step.kind !== 'timeout' && !visible(loaded.session.owner, caller)))
            throw new SessionNotFoundError(sessionId);
          const { session } = loaded;
          span.setAttributes({ 'gateflow.workflow.id': session.flowId, 'gateflow.workflow.version': String(session.flowVersion) });
          if (loaded.replayed && step.kind === 'turn') {
            // The same turn again is a replay; another turn under a used id would silently be lost.
            const said = loaded.replayed.turn;
            if (said && ('text' in said || 'button' in said) && !sameTurn(said, step.turn)) throw new TurnIdReusedError(turnId!);
            span.setAttribute('gateflow.turn.outcome', 'replayed');
            return loaded.replayed.reply as TReply;
          }
          const now = clock();
          const open = loaded.gates;
          const prepared = await prepareStep(step, { session, open, now, callerOwner: caller?.owner ?? null, accept, closedStatus });
          if (!prepared) return null;
          // Version 1 is the opening reply: a session at version n has taken n - 1 steps.
          if (prepared.counts && session.version - 1 >= maxTurns) throw new TurnLimitError(sessionId, maxTurns);
          // The actor kept from this session's last step, if the store still holds that
          // version; otherwise restore from the stored snapshot.
          const active =
            live.take(sessionId, session.version) ??
            (await (() => {
              const { workflow, snapshot } = resolve(session.flowId, session.flowVersion, session.snapshot);
              return openActive(workflow, sessionId, { snapshot });
            })());
          if (span.isRecording()) span.setAttribute('gateflow.state.before', stateText(active.state));
          try {
            // The waiting states before the step, and how often each had been entered: one entered again within the step asks anew.
            const entered = new Map(declaredInputs(active.snapshot()).map((d) => [d.state, active.entryCount(d.state)]));
            let reply = await runStep(step, prepared, active);
            const after = prepared.ends ? [] : declaredInputs(active.snapshot());
            const { closing } = prepared;
            // No gate before or after the step (most steps of most machines): nothing to plan.
            const plan =
              entered.size === 0 && after.length === 0 && open.length === 0 && closing.length === 0
                ? { opened: [], closed: [], open: [] }
                : planGates({
                    sessionId,
                    workflowId: session.flowId,
                    owner: session.owner,
                    before: new Set(entered.keys()),
                    reentered: new Set(after.filter((d) => entered.has(d.state) && active.entryCount(d.state) !== entered.get(d.state)).map((d) => d.state)),
                    after,
                    open,
                    closing,
                    now,
                  });
            reply = withInputs(reply, plan.open);
            roundTrips++;
            const effects = active.workflow.effects?.({ before: session.snapshot, after: active.snapshot(), session: { sessionId, owner: session.owner } }) ?? null;
            const snapshot = active.persisted();
            const version = await store.commitTurn(sessionId, session.version, {
              ...(effects && { effects }),
              snapshot,
              flowVersion: active.workflow.version,
              turn: prepared.journalTurn,
              turnId,
              reply,
              trace: active.takeTrace(),
              gates: { opened: plan.opened, closed: plan.closed },
              // The store announces the step itself (session.stepped) after these.
              events: stepEvents(
                { sessionId, workflowId: session.flowId, owner: session.owner },
                plan,
                open.length === 0 ? NO_GATES : new Map(open.map((g) => [g.gateId, g])),
                { before: session.status, after: reply.status },
              ),
            });
            if (active.done || prepared.ends) active.stop();
            else
              live.keep(sessionId, version, active, {
                // Written out, not spread over the loaded record (a spread that overrides keys is slow).
                record: {
                  sessionId,
                  flowId: session.flowId,
                  flowVersion: active.workflow.version,
                  snapshot,
                  version,
                  owner: session.owner,
                  status: reply.status,
                  createdAt: session.createdAt,
                  updatedAt: now,
                },
                gates: plan.open,
                turnIds: turnId === null ? (kept?.turnIds ?? []) : [...(kept?.turnIds ?? []), turnId].slice(-KEPT_TURN_IDS),
              });
            afterCommit(plan.opened);
            span.setAttributes({
              ...(span.isRecording() && { 'gateflow.state.after': stateText(active.state) }),
              'gateflow.turn.outcome': 'applied',
              'gateflow.turn.conflicts': attempt,
            });
            return reply;
          } catch (error) {
            active.stop();
            // Another process saved a step first: load its result and apply this step again.
            if (!(error instanceof ConflictError) || attempt >= maxRetries) throw error;
          }
        } catch (error) {
          // Refused on what was kept (a gate answered, a button no longer offered, elsewhere since): read the
          // store and try again. A failure of the program (5xx: a model, the store) is not about what was kept.
          if (kept && error instanceof GateflowError && error.status < 500) {
            live.drop(sessionId);
            continue;
          }
          throw error;
        }
      }
    } finally {
      span.setAttribute('gateflow.store.round_trips', roundTrips);
    }
  };

  /** The gate's value as its type reads it, or the refusal that says what was expected (the gate stays open). */
  const accept = (gate: GateRecord, raw: unknown, now: Date): InputValue => {
    const read = coerceInput(gate.spec, raw, now);
    if (!read.ok) throw new InvalidInputValueError(gate.gateId, gate.name, read.expected, read.message);
    return read.value;
  };
  const closedStatus = async (gateId: string) => (await store.findInput(gateId))?.status ?? 'closed';

  /** After a commit: announce at once, and fire any deadline the step set. */
  const afterCommit = (opened: readonly GateRecord[]) => {
    feed.poke();
    for (const g of opened) if (g.deadline) deadlines.arm(g.deadline);
  };

  const answerGate = (gateId: string, value: unknown, caller: Caller | undefined): Promise<{ reply: TReply; gate: GateRecord }> =>
    traced(tracer, 'gateflow.answer', { 'gateflow.input.id': gateId }, async (span) => {
      if (!isGateId(gateId)) throw new InputNotFoundError(gateId);
      const gate = await store.findInput(gateId);
      // A gate of a session the caller cannot see is unknown to them; one they see but may not answer is forbidden.
      if (!gate) throw new InputNotFoundError(gateId);
      if (!mayAnswer(gate, caller)) {
        if (gate.to !== null && visible(gate.owner, caller) && gate.owner !== null) throw new InputForbiddenError(gateId, gate.to);
        throw new InputNotFoundError(gateId);
      }
      if (gate.status !== 'open') throw new InputClosedError(gateId, gate.status);
      span.setAttributes({ 'gateflow.session.id': gate.sessionId, 'gateflow.input.name': gate.name });
      // Past its deadline a gate takes no answer, even before a sweep came by: its deadline is fired now, and the answer refused.
      if (gate.deadline !== null && gate.deadline <= clock()) {
        await serialized(gate.sessionId, () => applyStep(gate.sessionId, { kind: 'timeout' }, undefined, span, null));
        throw new InputClosedError(gateId, (await store.findInput(gateId))?.status ?? 'timed_out');
      }
      const step: SessionStep = { kind: 'answer', gateId, value, by: caller?.owner ?? null };
      return { reply: (await serialized(gate.sessionId, () => applyStep(gate.sessionId, step, caller, span, null)))!, gate };
    });

  const inputPage = async (caller: Caller | undefined, query: InputQuery = {}): Promise<InputPage> => {
    const after = query.after ?? 0;
    const limit = query.limit ?? DEFAULT_INPUT_PAGE_SIZE;
    if (!Number.isSafeInteger(after) || after < 0) throw new InvalidPageError(`after must be an integer of 0 or more, not ${after}`);
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_INPUT_PAGE_SIZE)
      throw new InvalidPageError(`limit must be an integer from 1 to ${MAX_INPUT_PAGE_SIZE}, not ${limit}`);
    // One more than the page: whether another page exists is known without a count.
    const gates = await store.listInputs({
      ...(query.sessionId !== undefined && { sessionId: query.sessionId }),
      ...(query.workflowId !== undefined && { workflowId: query.workflowId }),
      visibleTo: { owner: caller?.owner ?? null, roles: caller?.roles ?? [] },
      after,
      limit: limit + 1,
    });
    const page = gates.slice(0, limit);
    return { inputs: page.map(openInputOf), nextAfter: gates.length > limit ? page.at(-1)!.place : null };
  };

  const fireDeadlines = async (): Promise<number> => {
    let moved = 0;
    for (let round = 0; round < 20; round++) {
      const sessions = await store.claimDueInputs(clock(), leaseMs, 50);
      if (sessions.length === 0) break;
      for (const sessionId of sessions) {
        try {
          const span = tracer.startSpan('gateflow.deadline', { attributes: { 'gateflow.session.id': sessionId } });
          try {
            if (await serialized(sessionId, () => applyStep(sessionId, { kind: 'timeout' }, undefined, span, null))) moved++;
          } finally {
            span.end();
          }
        } catch (error) {
          onBackgroundError(error);
        }
      }
    }
    // The next deadline; one that has passed is held by another sweeper's lease (or keeps failing): look again in a while, not at once.
    const next = await store.nextDeadline();
    if (next) deadlines.arm(new Date(Math.max(next.getTime(), clock().getTime() + RETRY_DUE_MS)));
    return moved;
  };

  return {
    workflows: () => [...current.values()].map((w) => ({ id: w.id, version: w.version, title: w.title })),
    registered: () => [...current.values()],

    register(workflow) {
      if (!versions.has(workflow.id)) versions.set(workflow.id, new Map());
      versions.get(workflow.id)!.set(String(workflow.version), workflow);
      current.set(workflow.id, workflow);
      // Live actors run the machine they were made with: the next step restores from the store.
      live.dropWhere((session) => session.workflow.id === workflow.id);
    },

    start(workflowId, caller, startOptions = {}) {
      return traced(tracer, 'gateflow.start', { 'gateflow.workflow.id': workflowId }, async (span) => {
        const workflow = current.get(workflowId);
        if (!workflow) throw new FlowNotFoundError(workflowId);
        const sessionId = newSessionId();
        span.setAttributes({ 'gateflow.session.id': sessionId, 'gateflow.workflow.version': String(workflow.version) });
        const owner = caller?.owner ?? null;
        const active = await openActive(workflow, sessionId, { ...(startOptions.context && { context: startOptions.context }), owner });
        let plan: ReturnType<typeof planGates>;
        let reply: TReply;
        let snapshot: Snapshot<unknown>;
        try {
          // A machine may wait for inputs from its first state on.
          plan = planGates({ sessionId, workflowId: workflow.id, owner, before: new Set(), after: declaredInputs(active.snapshot()), open: [], closing: [], now: clock() });
          reply = withInputs(active.reply(), plan.open);
          snapshot = active.persisted();
          await store.create({
            sessionId,
            flowId: workflow.id,
            flowVersion: workflow.version,
            snapshot,
            owner,
            reply,
            trace: active.takeTrace(),
            gates: plan.opened,
            events: stepEvents({ sessionId, workflowId: workflow.id, owner }, plan, new Map(), { before: 'active', after: reply.status }),
          });
        } catch (error) {
          active.stop();
          throw error;
        }
        afterCommit(plan.opened);
        span.setAttributes({ 'gateflow.state.after': stateText(active.state), 'gateflow.store.round_trips': 1 });
        const now = new Date();
        live.keep(sessionId, 1, active, {
          record: { sessionId, flowId: workflow.id, flowVersion: workflow.version, snapshot, version: 1, owner, status: reply.status, createdAt: now, updatedAt: now },
          gates: plan.open,
          turnIds: [],
        });
        return { sessionId, reply };
      });
    },

    turn(sessionId, input, caller) {
      return traced(tracer, 'gateflow.turn', { 'gateflow.session.id': sessionId }, async (span) => {
        const parsed = parseTurn(input);
        if (!parsed.success) throw new InvalidTurnError(parsed.message);
        if (!isSessionId(sessionId)) throw new SessionNotFoundError(sessionId);
        span.setAttribute('gateflow.turn.kind', 'button' in parsed.data ? 'button' : 'text');
        const reply = await serialized(sessionId, () => applyStep(sessionId, { kind: 'turn', turn: parsed.data }, caller, span, parsed.data.turnId ?? null));
        return reply!;
      });
    },

    async sessions(caller, query = {}) {
      const limit = query.limit ?? DEFAULT_SESSION_PAGE_SIZE;
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SESSION_PAGE_SIZE)
        throw new InvalidPageError(`limit must be an integer from 1 to ${MAX_SESSION_PAGE_SIZE}, not ${limit}`);
      if (query.after !== undefined && (!Number.isSafeInteger(query.after) || query.after < 1))
        throw new InvalidPageError(`after must be a cursor from nextAfter (an integer of 1 or more), not ${query.after}`);
      // One more than the page, to know whether another follows.
      const found = await store.listSessions({
        visibleTo: { owner: caller?.owner ?? null },
        ...(query.workflowId !== undefined && { workflowId: query.workflowId }),
        ...(query.status !== undefined && { status: query.status }),
        ...(query.after !== undefined && { after: query.after }),
        limit: limit + 1,
      });
      const page = found.slice(0, limit);
      return {
        sessions: page.map((s) => ({
          sessionId: s.sessionId,
          workflowId: s.flowId,
          flowVersion: s.flowVersion,
          state: s.state,
          status: s.status,
          steps: s.version,
          createdAt: s.createdAt.toISOString(),
          updatedAt: s.updatedAt.toISOString(),
        })),
        nextAfter: found.length > limit ? page.at(-1)!.cursor : null,
      };
    },

    async fork(sessionId, seq, caller) {
      if (!Number.isSafeInteger(seq) || seq < 1) throw new InvalidPageError(`seq must be a step number of 1 or more, not ${seq}`);
      if (!isSessionId(sessionId)) throw new SessionNotFoundError(sessionId);
      const loaded = await store.load(sessionId);
      if (!loaded || !visible(loaded.session.owner, caller)) throw new SessionNotFoundError(sessionId);
      const { session } = loaded;
      if (seq > session.version) throw new ForkError(`session ${sessionId} has ${session.version} steps; there is no step ${seq}`);
      const entries = await store.history(sessionId, { after: 0, limit: seq });
      const opening = entries[0]!.reply;
      // The journal keeps each step's turn, not its snapshot: the fork replays the turns from the start on the version the session started on.
      const workflow = versions.get(session.flowId)?.get(String(opening.flowVersion));
      if (!workflow) throw new ForkError(`${session.flowId}@${opening.flowVersion}, the version session ${sessionId} started on, is no longer served`);
      if (workflow.effects) throw new ForkError(`${session.flowId} keeps data of its own (documents, a graph): replaying its steps would write them again`);
      const context = workflow.startContext?.(session.snapshot);
      let offset = 0;
      const replaying = createRuntime<TReply>({
        ...options,
        // The session's starting version is the current one here: the fork starts on it.
        workflows: [...options.workflows.filter((w) => w !== workflow), workflow],
        clock: () => new Date(clock().getTime() + offset),
        deadlines: {},
        liveSessions: 0,
      });
      let fork: string | undefined;
      try {
        const turns = entries.slice(1).map((e) => replayTurnOf(e.turn!));
        const replayed = await replayConversation(replaying, session.flowId, turns, {
          owner: caller?.owner ?? null,
          ...(context && { context }),
          setClock: (at) => (offset = Math.max(offset, at.getTime() - clock().getTime())),
          onStep: (step, reply) => {
            fork = reply.sessionId;
            const recorded = entries[step - 1]!.reply;
            if (JSON.stringify(reply.state) !== JSON.stringify(recorded.state) || reply.status !== recorded.status)
              throw new ForkError(
                `step ${step} replays differently: it reached ${stateText(reply.state)} (${reply.status}) where the session reached ${stateText(recorded.state)} (${recorded.status})`,
              );
          },
        });
        return { sessionId: replayed.sessionId, reply: replayed.replies.at(-1)! };
      } catch (error) {
        // A fork that could not reach its step is not left half made.
        if (fork !== undefined) await replaying.cancel(fork, { owner: caller?.owner ?? null }).catch(() => undefined);
        throw error;
      } finally {
        replaying.close();
      }
    },

    async inputs(caller, query = {}) {
      // The first page of the most (a library caller that wants more pages uses inputPage).
      return (await inputPage(caller, { limit: MAX_INPUT_PAGE_SIZE, ...query })).inputs;
    },

    inputPage,

    async answer(gateId, value, caller) {
      return (await answerGate(gateId, value, caller)).reply;
    },

    async answerInput(gateId, value, caller) {
      const { reply, gate } = await answerGate(gateId, value, caller);
      if (visible(gate.owner, caller)) return { reply };
      // The session is not the caller's (it is 404 to them): the gate's outcome only.
      const closed = await store.findInput(gateId);
      return { receipt: { gateId, name: gate.name, status: 'answered', value: closed?.value ?? null } };
    },

    cancel(sessionId, caller) {
      return traced(tracer, 'gateflow.cancel', { 'gateflow.session.id': sessionId }, async (span) => {
        if (!isSessionId(sessionId)) throw new SessionNotFoundError(sessionId);
        return (await serialized(sessionId, () => applyStep(sessionId, { kind: 'cancel', by: caller?.owner ?? null }, caller, span, null)))!;
      });
    },

    fireDeadlines,

    subscribe(listener, caller) {
      return feed.subscribe((e) => {
        // What the caller may see: events of sessions visible to them, and of gates addressed to a role they hold.
        if (!visible(e.owner, caller) && !holds(caller, e.to)) return;
        listener({ id: e.id, type: e.type, sessionId: e.sessionId, workflowId: e.workflowId, gateId: e.gateId, to: e.to, data: e.data, at: e.createdAt.toISOString() });
      });
    },

    close() {
      deadlines.close();
      feed.stop();
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
        history: entries.map((e) => ({ seq: e.seq, turn: e.turn, reply: e.reply as TReply, ...(page.trace && { trace: e.trace }) })),
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

/** A session as this process saved it: its record at that version and its open gates. */
interface SavedState {
  record: SessionRecord;
  gates: GateRecord[];
  /** The turn ids of its last few turns saved by this process (a retry of one is read from the store). */
  turnIds: string[];
}
const KEPT_TURN_IDS = 16;

/**
 * Live sessions by id, each valid for one stored version: a turn takes it out
 * (so no two turns share it) and puts it back after its commit. The least
 * recently used are stopped beyond `capacity`.
 */
class LiveSessions<TReply extends ReplyEnvelope> {
  private readonly entries = new Map<string, { version: number; session: WorkflowSession<TReply>; saved?: SavedState }>();
  constructor(private readonly capacity: number) {}

  /** What was saved at the kept version (the session as the store now holds it, and its open gates), if known. */
  peek(sessionId: string): SavedState | undefined {
    return this.entries.get(sessionId)?.saved;
  }

  /** Forgets a session (what was kept proved stale). */
  drop(sessionId: string): void {
    this.entries.get(sessionId)?.session.stop();
    this.entries.delete(sessionId);
  }

  take(sessionId: string, version: number): WorkflowSession<TReply> | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    this.entries.delete(sessionId);
    if (entry.version === version) return entry.session;
    entry.session.stop();
    return undefined;
  }

  /** Stops and forgets the sessions `which` names. */
  dropWhere(which: (session: WorkflowSession<TReply>) => boolean): void {
    for (const [id, entry] of this.entries)
      if (which(entry.session)) {
        this.entries.delete(id);
        entry.session.stop();
      }
  }

  
  keep(sessionId: string, version: number, session: WorkflowSession<TReply>, saved?: SavedState): void {
    if (this.capacity <= 0) return session.stop();
    // A workflow whose steps write data of their own compares the stored snapshot: it reads it from the store.
    this.entries.set(sessionId, { version, session, ...(saved && !session.workflow.effects && { saved }) });
    if (this.entries.size > this.capacity) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      entry.session.stop();
    }
  }
}
