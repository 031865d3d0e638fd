import type { AnyActorLogic, AnyMachineSnapshot, AnyStateMachine, EventObject, Snapshot } from 'xstate';
import type { TurnEffects } from '../store/types.js';
import type { Outline } from '../viz/drawing.js';
import type { ReplyEnvelope, WorkflowVersion } from './reply.js';
import type { Turn } from './turn.js';

/** What the host gives a workflow's machine: the actors that do its I/O, by the names the machine gives them in `setup`. */
export interface WorkflowHost {
  actors: Record<string, AnyActorLogic>;
}

/**
 * What a session runs, and the little the runtime must know about it. One
 * interface for every kind, as XState's `ActorLogic` is for every actor: a
 * compiled flow document is one implementation (`flowWorkflow`), a
 * hand-written machine registered with {@link defineWorkflow} another.
 */
export interface Workflow<TReply extends ReplyEnvelope = ReplyEnvelope> {
  readonly id: string;
  readonly version: WorkflowVersion;
  readonly title: string | null;
  /** The machine a session runs, with the host's actors provided (pure: all its I/O is in those actors). */
  machine(host: WorkflowHost): AnyStateMachine;
  /** The input of a new session's actor; `context` is what the host passed at start, `session` who it is for. */
  input?(context: Record<string, unknown> | undefined, session: SessionIdentity): unknown;
  /**
   * What the host gave a session at start, read back from a stored snapshot
   * (a fork replays the session from its start with it); absent: nothing.
   */
  startContext?(snapshot: Snapshot<unknown>): Record<string, unknown> | undefined;
  /** How a turn becomes an event of the machine. */
  toEvent(turn: Turn): EventObject;
  /** Whether the machine has settled after an event: default, no `busy` tag on it or its child machines (see `isSettled`). */
  isSettled?(snapshot: AnyMachineSnapshot): boolean;
  /** The reply for a snapshot: derived from it, never stored apart, so a restored session answers the same. */
  reply(snapshot: AnyMachineSnapshot, sessionId: string): TReply;
  /** A stored snapshot of this version made ready to restore (fields added since it was saved). */
  restore?(snapshot: Snapshot<unknown>): Snapshot<unknown>;
  /**
   * A snapshot saved with another version of this workflow, mapped onto this
   * one; throws `IncompatibleSnapshotError` when it cannot be. Without it, such
   * a snapshot is refused.
   */
  migrate?(fromVersion: WorkflowVersion, snapshot: Snapshot<unknown>): Snapshot<unknown>;
  /**
   * Writes of its own that must commit with the step that made them (a task
   * agent's graph changes), or null: the store runs them in the transaction
   * that saves the snapshot, so that a crash leaves neither half done. `before`
   * is the snapshot stored before the step (what is committed already).
   */
  effects?(step: WorkflowStep): TurnEffects | null;
  /**
   * The workflow as its author wrote it, for the drawings and the viewer (a
   * flow document's nodes and edges); absent for a hand-written machine,
   * which is drawn as its machine.
   */
  outline?(): Outline;
}

/** A step about to be saved: the stored snapshot before it, the machine's snapshot after it, whose session. */
export interface WorkflowStep {
  before: Snapshot<unknown>;
  after: AnyMachineSnapshot;
  session: SessionIdentity;
}

/** Whose session it is: its id and owner (the JWT subject, null without auth). */
export interface SessionIdentity {
  sessionId: string;
  owner: string | null;
}

/** The reply type of a workflow. */
export type ReplyOf<W> = W extends Workflow<infer R> ? R : never;

/** id, version and title: what `GET /api/flows` lists. */
export interface WorkflowSummary {
  id: string;
  version: WorkflowVersion;
  title: string | null;
}
