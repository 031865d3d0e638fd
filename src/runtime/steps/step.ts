import type { InputAnsweredEvent, InputTimedOutEvent } from '../../inputs/events.js';
import type { GateClosing, GateRecord } from '../../inputs/gate.js';
import type { InputValue } from '../../inputs/coerce.js';
import type { JournalTurn, SessionRecord } from '../../store/types.js';
import type { ReplyEnvelope } from '../../workflow/reply.js';
import type { WorkflowSession } from '../../workflow/session.js';
import type { Turn } from '../../workflow/turn.js';

/** What changes a session: a person's turn, a gate's answer, deadlines that passed, a cancel. */
export type SessionStep =
  | { kind: 'turn'; turn: Turn }
  | { kind: 'answer'; gateId: string; value: unknown; by: string | null }
  | { kind: 'timeout' }
  | { kind: 'cancel'; by: string | null };

/** What a step kind is given to decide what it does: the stored session, its open gates, the time. */
export interface StepContext {
  session: SessionRecord;
  open: readonly GateRecord[];
  now: Date;
  /** Who sent it (an answer's and a cancel's `by` are in the step). */
  callerOwner: string | null;
  /** The gate's value as its type reads it; throws the refusal that leaves the gate open. */
  accept(gate: GateRecord, raw: unknown, now: Date): InputValue;
  /** A gate's status once it is no longer open (for the refusal of an answer to it). */
  closedStatus(gateId: string): Promise<string>;
}

/** What a step does before the machine sees it: the gates it closes, the events for the machine, its journal entry. */
export interface PreparedStep {
  closing: GateClosing[];
  events: (InputAnsweredEvent | InputTimedOutEvent)[];
  journalTurn: JournalTurn;
  /** Whether the step counts against the session's turn limit. */
  counts: boolean;
  /** Whether the session ends with it, whatever its machine does (a cancel): no gate stays open. */
  ends: boolean;
}

/** One kind of step: how it is prepared (null: nothing to do) and how the live session takes it. */
export interface StepKind<S extends SessionStep> {
  prepare(step: S, context: StepContext): Promise<PreparedStep | null>;
  run<R extends ReplyEnvelope>(step: S, prepared: PreparedStep, active: WorkflowSession<R>): Promise<R>;
}

/** Sends the runtime's events for the step's gates, one after another, and returns the reply they lead to. */
export async function deliverAll<R extends ReplyEnvelope>(active: WorkflowSession<R>, events: PreparedStep['events']): Promise<R> {
  for (const event of events) await active.deliver(event);
  return active.reply();
}

/** The answer event for a gate: with the names of its state's gates still open after the step's closings. */
export function answered(gate: GateRecord, value: InputValue, by: string | null, open: readonly GateRecord[], closing: readonly GateClosing[]): InputAnsweredEvent {
  const closed = new Set(closing.map((c) => c.gateId));
  const remaining = open.filter((g) => g.state === gate.state && !closed.has(g.gateId)).map((g) => g.name);
  return { type: 'input.answered', gateId: gate.gateId, state: gate.state, name: gate.name, value, by, remaining };
}
