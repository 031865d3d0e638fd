import { GateflowError } from '../error/gateflow-error.js';
import type { Snapshot } from 'xstate';
import type { ReplyEnvelope, WorkflowVersion } from '../workflow/reply.js';
import type { Turn } from '../workflow/turn.js';

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
  createdAt: Date;
  updatedAt: Date;
}

/** One line of a session's append-only journal: the opening reply (turn null), then every turn. */
export interface JournalEntry {
  /** The session version this entry produced: 1 for the opening reply. */
  seq: number;
  turnId: string | null;
  turn: Turn | null;
  reply: ReplyEnvelope;
  createdAt: Date;
}

export interface NewSession {
  sessionId: string;
  flowId: string;
  flowVersion: WorkflowVersion;
  snapshot: Snapshot<unknown>;
  owner: string | null;
  reply: ReplyEnvelope;
}

export interface CommittedTurn {
  snapshot: Snapshot<unknown>;
  /** Changed when a snapshot was migrated to another flow version. */
  flowVersion: WorkflowVersion;
  turn: Turn;
  turnId: string | null;
  reply: ReplyEnvelope;
}

/** A window on a journal: the entries with seq greater than `after`, at most `limit`. */
export interface JournalPage {
  after?: number;
  limit?: number;
}

/** What `load` returns: the session and, when asked for a turnId, that turn's entry if present. */
export interface LoadedSession {
  session: SessionRecord;
  replayed: JournalEntry | null;
}

/**
 * Where sessions live. A turn costs at most two round trips: `load` (with the
 * turn id lookup) and `commitTurn` (one atomic statement).
 */
export interface Store {
  readonly kind: string;
  /** Creates a session at version 1 with its opening reply as journal entry 1. */
  create(session: NewSession): Promise<void>;
  /** The session, and the journal entry of `turnId` if it was already taken. Null when unknown. */
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
