import { GateflowError } from '../error/gateflow-error.js';
import type { Snapshot } from 'xstate';
import type { InputValue } from '../inputs/coerce.js';
import type { GateClosing, GateRecord } from '../inputs/gate.js';
import type { ReplyEnvelope, SessionStatus, WorkflowVersion } from '../workflow/reply.js';
import type { Turn } from '../workflow/turn.js';

/**
 * What a journal entry records as its cause: a person's turn, a gate
 * answered (by whom), deadlines that passed, or the session cancelled.
 */
export type JournalTurn =
  | Turn
  | { input: string; name: string; value: InputValue; by: string | null }
  | { timeout: string[] }
  | { cancel: true; by: string | null };

/**
 * What a session's machine emitted during one step (a flow's trace events:
 * nodes entered, guards tried, votes, validations), kept with the step's
 * journal entry so that the viewer can show each turn's reasons later.
 */
export type StepTrace = { type: string; [key: string]: unknown }[];

/** A stored session: the snapshot, the workflow it belongs to, and its version for optimistic locking. */
export interface SessionRecord {
  sessionId: string;
  flowId: string;
  flowVersion: WorkflowVersion;
  snapshot: Snapshot<unknown>;
  /** Starts at 1; every committed turn adds one. */
  version: number;
  /** The JWT subject that owns the session, or null when the server has no auth. */
  owner: string | null;
  /** The status of its last reply (`cancelled` is set by a cancel alone). */
  status: SessionStatus;
  createdAt: Date;
  updatedAt: Date;
}

/** One line of a session's append-only journal: the opening reply (turn null), then every turn. */
export interface JournalEntry {
  /** The session version this entry produced: 1 for the opening reply. */
  seq: number;
  turnId: string | null;
  turn: JournalTurn | null;
  reply: ReplyEnvelope;
  /** What the machine emitted during the step ([] when nothing, or for an entry read by turn id). */
  trace: StepTrace;
  createdAt: Date;
}

export interface NewSession {
  sessionId: string;
  flowId: string;
  flowVersion: WorkflowVersion;
  snapshot: Snapshot<unknown>;
  owner: string | null;
  reply: ReplyEnvelope;
  /** What the machine emitted while it started. */
  trace?: StepTrace;
  /** The gates its first state opened. */
  gates?: GateRecord[];
  events?: NewSessionEvent[];
}

export interface CommittedTurn {
  snapshot: Snapshot<unknown>;
  /** Changed when a snapshot was migrated to another flow version. */
  flowVersion: WorkflowVersion;
  turn: JournalTurn;
  turnId: string | null;
  reply: ReplyEnvelope;
  /** What the machine emitted during the step. */
  trace?: StepTrace;
  /** Gates opened and closed by this turn: written in the same transaction as the snapshot. */
  gates?: { opened: GateRecord[]; closed: GateClosing[] };
  /**
   * What the events stream announces once the turn is saved. The store adds
   * the step's own `session.stepped` (see {@link steppedEvent}) after these:
   * a SQL store reads it from the journal entry, with no event row.
   */
  events?: NewSessionEvent[];
  /**
   * Work that must commit with this turn or not at all (a task agent's graph
   * changes): run in the same transaction, before the session is saved. Only a
   * store with {@link Store.sql} can run it.
   */
  effects?: TurnEffects;
}

/** The queries of one transaction: what {@link CommittedTurn.effects} and {@link SqlDatabase.transaction} hand over. */
export interface SqlTransaction {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}

/**
 * Writes in the turn's transaction; throwing rolls the whole turn back. It may
 * return announcements of its own (a document agent's action), which are
 * written with the turn's, so that they go out only if it commits.
 */
export type TurnEffects = (tx: SqlTransaction) => Promise<void | { events?: NewSessionEvent[] }>;

/**
 * The database under a SQL store, for workflows that keep data of their own
 * beside the sessions (the task agent's graph): queries, and transactions on
 * one connection. Closing stays with the store.
 */
export interface SqlDatabase {
  /** Which engine: `pglite` or `postgres`. */
  readonly kind: string;
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T>;
}

/** Kinds of what the events stream announces. */
export const SESSION_EVENT_TYPES = [
  'input.opened',
  'input.answered',
  'input.timed_out',
  'input.closed',
  'session.finished',
  'session.cancelled',
  'session.stepped',
  'agent.action_completed',
] as const;
export type SessionEventType = (typeof SESSION_EVENT_TYPES)[number];

/** An announcement, written with the turn that caused it. */
export interface NewSessionEvent {
  type: SessionEventType;
  sessionId: string;
  workflowId: string;
  /** The session's owner, and the role a gate is addressed to: who may see the event. */
  owner: string | null;
  to: string | null;
  gateId: string | null;
  /** The gate's name, the session's status: small facts for a page to act on. */
  data: Record<string, unknown>;
}

/** `session.stepped`: a step was saved as journal entry `seq`; whoever shows the session reads it again. */
export function steppedEvent(session: { sessionId: string; workflowId: string; owner: string | null }, seq: number, status: string): NewSessionEvent {
  return { ...session, type: 'session.stepped', to: null, gateId: null, data: { seq, status } };
}

/** An announcement as read back, with its place in the stream. */
export interface SessionEvent extends NewSessionEvent {
  id: number;
  createdAt: Date;
}

/** Which open gates to list. */
export interface InputFilter {
  sessionId?: string;
  workflowId?: string;
  /** Who asks: gates of sessions without owner, of sessions they own, or addressed to a role they hold. Absent: all. */
  visibleTo?: { owner: string | null; roles: readonly string[] };
  /** Only the gates after this place in the opening order (a {@link ListedGate.place}; 0 or absent: from the first). */
  after?: number;
  /** At most this many (500 when absent). */
  limit?: number;
}

/** An open gate as listed, with its place in the order gates were opened: the cursor of the next page. */
export type ListedGate = GateRecord & { place: number };

/** A window on a journal: the entries with seq greater than `after`, at most `limit`. */
export interface JournalPage {
  after?: number;
  limit?: number;
}

/** Which sessions to list, newest first: those after the cursor `after` (a summary's `cursor`), at most `limit`. */
export interface SessionFilter {
  /** Who asks: sessions without owner and those they own. Absent: all. */
  visibleTo?: { owner: string | null };
  workflowId?: string;
  status?: SessionStatus;
  /** A cursor from an earlier page: only sessions older than it. */
  after?: number;
  limit: number;
}

/** A session as a list shows it: no snapshot, no journal. */
export interface SessionSummary {
  sessionId: string;
  flowId: string;
  flowVersion: WorkflowVersion;
  /** The machine's state value (from the stored snapshot). */
  state: unknown;
  status: SessionStatus;
  /** Its version: how many journal entries it has. */
  version: number;
  owner: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Its place in the newest-first order, for the next page's `after`. */
  cursor: number;
}

/** What `load` returns: the session and, when asked for a turnId, that turn's entry if present. */
export interface LoadedSession {
  session: SessionRecord;
  replayed: JournalEntry | null;
  /** Its open gates, oldest first. */
  gates: GateRecord[];
}

/** What decides a stored layout: the drawing, a hash of its content, the level, and the layout code (with ELK's version) that made it. */
export interface LayoutKey {
  drawingId: string;
  contentHash: string;
  level: string;
  code: string;
}

/**
 * Drawings laid out, kept across restarts (the server's
 * `GET /api/drawings/{id}/layout`). A body is JSON text that the reader checks:
 * the store keeps it as given. Bounded: a body over {@link MAX_LAYOUT_BYTES} is
 * not kept, and only the newest layouts of each drawing and in all are.
 */
export interface LayoutStore {
  /** The body stored under exactly this key, or null. */
  get(key: LayoutKey): Promise<string | null>;
  /** Keeps a body under its key (replacing one there); false when it is too large to keep. */
  put(key: LayoutKey, body: string): Promise<boolean>;
}

/** The largest layout body kept (the largest example flow's, patient-intake at the machine level, is 0.1 MB). */
export const MAX_LAYOUT_BYTES = 4 * 1024 * 1024;
/** Layouts kept per drawing: both levels of its last few versions; older ones are dropped. */
export const LAYOUTS_PER_DRAWING = 6;
/** Layouts kept in all. */
export const MAX_LAYOUTS = 500;

/** A body's size in UTF-8 bytes. */
export const layoutBytes = (body: string) => new TextEncoder().encode(body).length;

/**
 * Where sessions live. A turn costs at most two round trips: `load` (with the
 * turn id lookup) and `commitTurn` (one atomic statement).
 */
export interface Store {
  readonly kind: string;
  /** The SQL database the sessions live in (absent for the in-memory store). */
  readonly sql?: SqlDatabase;
  /** Drawings laid out, kept beside the sessions (absent: a server lays them out again after a restart). */
  readonly layouts?: LayoutStore;
  /** Creates a session at version 1 with its opening reply as journal entry 1. */
  create(session: NewSession): Promise<void>;
  /** The session with its open gates, and the journal entry of `turnId` if it was already taken. Null when unknown. */
  load(sessionId: string, turnId?: string): Promise<LoadedSession | null>;
  /**
   * Saves a turn if the session is still at `expectedVersion`: snapshot and
   * journal together or not at all. Returns the new version; throws
   * {@link ConflictError} when another turn got there first or the turnId is taken.
   */
  commitTurn(sessionId: string, expectedVersion: number, turn: CommittedTurn): Promise<number>;
  /**
   * The journal, oldest first: every entry, or with a page only the entries
   * after seq `after` (0 when omitted), at most `limit` of them.
   */
  history(sessionId: string, page?: JournalPage): Promise<JournalEntry[]>;
  /** Sessions, newest first (by creation), filtered; see {@link SessionFilter}. */
  listSessions(filter: SessionFilter): Promise<SessionSummary[]>;
  /** A gate by id, whatever its status; null when unknown. */
  findInput(gateId: string): Promise<GateRecord | null>;
  /** Open gates across sessions, in the order they were opened, each with its place in that order. */
  listInputs(filter?: InputFilter): Promise<ListedGate[]>;
  /**
   * The sessions with open gates whose deadline is at or before `now`, each
   * leased to this caller for `leaseMs` (`FOR UPDATE SKIP LOCKED`), so that
   * processes sweeping together do not all take the same session; the
   * session's version check still decides who fires it.
   */
  claimDueInputs(now: Date, leaseMs: number, limit: number): Promise<string[]>;
  /** The earliest deadline of any open gate, or null. */
  nextDeadline(): Promise<Date | null>;
  /** Announcements with an id above `after`, oldest first, at most `limit`. */
  readEvents(after: number, limit: number): Promise<SessionEvent[]>;
  /** The id of the last announcement (0 when none). */
  lastEventId(): Promise<number>;
  /** Resolves when the store can serve (one round trip); throws {@link StoreUnavailableError} otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Another turn was saved first (or carried the same turnId): reload and apply again. */
export class ConflictError extends GateflowError {
  override readonly name = 'ConflictError';
  readonly code = 'conflict';
  readonly status = 409;
  /** Reaches a caller only when the runtime gave up re-applying a turn. */
  override get publicMessage(): string {
    return `the session changed while this turn was applied, too often: ${this.message}`;
  }
}

/** The store cannot be reached or failed; nothing was written. */
export class StoreUnavailableError extends GateflowError {
  override readonly name = 'StoreUnavailableError';
  readonly code = 'store_unavailable';
  readonly status = 503;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
  /** The message names hosts and drivers: callers get the outcome only. */
  override get publicMessage(): string {
    return 'the session store is unavailable; nothing was saved, try again';
  }
}
