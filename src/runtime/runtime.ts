import { SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { AnyActorLogic, InspectionEvent, Snapshot } from 'xstate';
import { GateflowError } from '../error/gateflow-error.js';
import { coerceInput, type InputValue } from '../inputs/coerce.js';
import { declaredInputs } from '../inputs/declared.js';
import { InputClosedError, InputForbiddenError, InputNotFoundError, InvalidInputValueError } from '../inputs/errors.js';
import type { InputAnsweredEvent, InputTimedOutEvent } from '../inputs/events.js';
import { isGateId, openInputOf, type GateClosing, type GateRecord, type OpenInput } from '../inputs/gate.js';
import { ConflictError, type JournalTurn, type SessionEvent, type StepTrace, type Store } from '../store/types.js';
import type { ReplyEnvelope, WorkflowVersion } from '../workflow/reply.js';
import { openSession, type WorkflowSession } from '../workflow/session.js';
import { parseTurn, sameTurn, type Turn } from '../workflow/turn.js';
import { DeadlineTimer } from './deadline-timer.js';
import { EventFeed } from './event-feed.js';
import { planGates, stepEvents, steppedEvent, withInputs } from './gates.js';
import type { Workflow, WorkflowHost, WorkflowSummary } from '../workflow/types.js';
import {
  ConversationFinishedError,
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

export interface Runtime<TReply extends ReplyEnvelope = ReplyEnvelope> {
  /** The current version of every workflow. */
  workflows(): WorkflowSummary[];
  /** The current version of every workflow, itself (what the drawings draw). */
  registered(): Workflow<TReply>[];
  /** Starts a session of a workflow; `context` goes to its input. */
  start(workflowId: string, caller?: Caller, options?: { context?: Record<string, unknown> }): Promise<{ sessionId: string; reply: TReply }>;
  /** Load, restore, send, wait until settled, build the reply, save and journal. */
  turn(sessionId: string, turn: unknown, caller?: Caller): Promise<TReply>;
  /** The current reply and one page of the history (the first {@link DEFAULT_HISTORY_PAGE_SIZE} entries by default). */
  session(sessionId: string, caller?: Caller, page?: HistoryPage): Promise<SessionView<TReply>>;
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

/** What changes a session: a person's turn, a gate's answer, deadlines that passed, a cancel. */
type SessionStep =
  | { kind: 'turn'; turn: Turn }
  | { kind: 'answer'; gateId: string; value: unknown; by: string | null }
  | { kind: 'timeout' }
  | { kind: 'cancel'; by: string | null };

/** How soon a deadline that has passed but could not be taken is looked at again. */
const RETRY_DUE_MS = 1000;

/** What a cancelled session's reply says. */
export const CANCELLED_MESSAGE = 'This conversation was cancelled.';

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
        roundTrips++;
        const loaded = await store.load(sessionId, turnId ?? undefined);
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
        let closing: GateClosing[] = [];
        let events: (InputAnsweredEvent | InputTimedOutEvent)[] = [];
        let journalTurn: JournalTurn;
        if (step.kind === 'answer') {
          const gate = open.find((g) => g.gateId === step.gateId);
          if (!gate || session.status === 'cancelled') throw new InputClosedError(step.gateId, gate ? 'cancelled' : await closedStatus(step.gateId));
          const value = accept(gate, step.value, now);
          closing = [{ gateId: gate.gateId, status: 'answered', value, answeredBy: step.by }];
          events = [answered(gate, value, step.by, open, closing)];
          journalTurn = { input: gate.gateId, name: gate.name, value, by: step.by };
        } else if (step.kind === 'timeout') {
          const due = open.filter((g) => g.deadline !== null && g.deadline <= now);
          if (due.length === 0 || session.status === 'cancelled') return null;
          ({ closing, events } = timedOut(due, open));
          journalTurn = { timeout: due.map((g) => g.gateId) };
        } else if (step.kind === 'cancel') {
          if (session.status === 'cancelled' || session.status === 'done' || session.status === 'failed') throw new ConversationFinishedError(sessionId);
          closing = open.map((g) => ({ gateId: g.gateId, status: 'cancelled' as const }));
          journalTurn = { cancel: true, by: step.by };
        } else {
          if (session.status === 'cancelled') throw new ConversationFinishedError(sessionId);
          // A text turn answers the one gate addressed to the person, the same way an answer by id does.
          const mine = open.filter((g) => g.to === null);
          const turn = step.turn;
          if (mine.length === 1 && 'text' in turn) {
            const gate = mine[0]!;
            const read = coerceInput(gate.spec, turn.text, now);
            // Words that are not one of its values: refused (the gate asks again), unless the gate passes
            // them on to the machine as an ordinary turn (a new request instead of Proceed / Cancel).
            if (!read.ok && !gate.spec.passOtherText) throw new InvalidInputValueError(gate.gateId, gate.name, read.expected, read.message);
            if (read.ok) {
              closing = [{ gateId: gate.gateId, status: 'answered', value: read.value, answeredBy: caller?.owner ?? null }];
              events = [answered(gate, read.value, caller?.owner ?? null, open, closing)];
            }
          }
          journalTurn = turn;
        }
        // Version 1 is the opening reply: a session at version n has taken n - 1 steps.
        if (step.kind !== 'cancel' && step.kind !== 'timeout' && session.version - 1 >= maxTurns) throw new TurnLimitError(sessionId, maxTurns);
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
          // A session stored before statuses were kept may be finished with an `active` status.
          if (step.kind === 'cancel' && active.done) throw new ConversationFinishedError(sessionId);
          const before = new Set(declaredInputs(active.snapshot()).map((d) => d.state));
          let reply: TReply;
          if (step.kind === 'cancel') reply = cancelled(active.reply());
          else if (events.length > 0) {
            for (const event of events) await active.deliver(event);
            reply = active.reply();
          } else reply = step.kind === 'turn' ? await active.send(step.turn) : active.reply();
          const plan = planGates({
            sessionId,
            workflowId: session.flowId,
            owner: session.owner,
            before,
            after: step.kind === 'cancel' ? [] : declaredInputs(active.snapshot()),
            open,
            closing,
            now,
          });
          reply = withInputs(reply, plan.open);
          roundTrips++;
          const effects = active.workflow.effects?.({ before: session.snapshot, after: active.snapshot(), session: { sessionId, owner: session.owner } }) ?? null;
          const version = await store.commitTurn(sessionId, session.version, {
            ...(effects && { effects }),
            snapshot: active.persisted(),
            flowVersion: active.workflow.version,
            turn: journalTurn,
            turnId,
            reply,
            trace: active.takeTrace(),
            gates: { opened: plan.opened, closed: plan.closed },
            events: [
              ...stepEvents(
                { sessionId, workflowId: session.flowId, owner: session.owner },
                plan,
                new Map(open.map((g) => [g.gateId, g])),
                { before: session.status, after: reply.status },
              ),
              // Last: a page that follows the session (the viewer) reads it again on this one.
              steppedEvent({ sessionId, workflowId: session.flowId, owner: session.owner }, session.version + 1, reply.status),
            ],
          });
          if (active.done || step.kind === 'cancel') active.stop();
          else live.keep(sessionId, version, active);
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
        try {
          // A machine may wait for inputs from its first state on.
          plan = planGates({ sessionId, workflowId: workflow.id, owner, before: new Set(), after: declaredInputs(active.snapshot()), open: [], closing: [], now: clock() });
          reply = withInputs(active.reply(), plan.open);
          await store.create({
            sessionId,
            flowId: workflow.id,
            flowVersion: workflow.version,
            snapshot: active.persisted(),
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
        const reply = await serialized(sessionId, () => applyStep(sessionId, { kind: 'turn', turn: parsed.data }, caller, span, parsed.data.turnId ?? null));
        return reply!;
      });
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

/** The answer event for a gate: with the names of its state's gates still open after the step's closings. */
function answered(gate: GateRecord, value: InputValue, by: string | null, open: readonly GateRecord[], closing: readonly GateClosing[]): InputAnsweredEvent {
  const closed = new Set(closing.map((c) => c.gateId));
  const remaining = open.filter((g) => g.state === gate.state && !closed.has(g.gateId)).map((g) => g.name);
  return { type: 'input.answered', gateId: gate.gateId, state: gate.state, name: gate.name, value, by, remaining };
}

/**
 * Deadlines that passed: a gate with a default is answered with it (by
 * `deadline`); the others of a state time out together, after its defaults.
 */
function timedOut(due: readonly GateRecord[], open: readonly GateRecord[]): { closing: GateClosing[]; events: (InputAnsweredEvent | InputTimedOutEvent)[] } {
  const closing: GateClosing[] = [];
  const events: (InputAnsweredEvent | InputTimedOutEvent)[] = [];
  for (const state of new Set(due.map((g) => g.state))) {
    const mine = due.filter((g) => g.state === state);
    const withDefault = mine.filter((g) => g.spec.default !== undefined);
    const without = mine.filter((g) => g.spec.default === undefined);
    for (const g of withDefault) {
      const value = g.spec.default as InputValue;
      closing.push({ gateId: g.gateId, status: 'answered', value, answeredBy: 'deadline' });
      events.push(answered(g, value, 'deadline', open, [...closing, ...without.map((w) => ({ gateId: w.gateId, status: 'timed_out' as const }))]));
    }
    if (without.length > 0) {
      for (const g of without) closing.push({ gateId: g.gateId, status: 'timed_out' });
      events.push({ type: 'input.timedOut', state, names: without.map((g) => g.name) });
    }
  }
  return { closing, events };
}

/** A session's reply once cancelled: nothing more to press or answer. */
function cancelled<R extends ReplyEnvelope>(reply: R): R {
  return {
    ...reply,
    status: 'cancelled',
    message: CANCELLED_MESSAGE,
    buttons: null,
    completion: { isComplete: true, reason: 'cancelled', readyForHandoff: false },
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
