import type { DeclaredInputs } from '../inputs/declared.js';
import { newGateId, openInputOf, type GateClosing, type GateRecord } from '../inputs/gate.js';
import { durationMs } from '../inputs/spec.js';
import type { NewSessionEvent } from '../store/types.js';
import type { ReplyEnvelope } from '../workflow/reply.js';

/**
 * Which gates a step of a session opens and closes. A gate opens when the
 * state that declares its input is entered (not when the machine stays in
 * it: answered gates are not asked again); gates still open when the machine
 * has left their state close as `closed`. A state left and entered again
 * within the step (an agent escalating a second time) counts as entered: its
 * old gates close and new ones open, so the session is never left waiting
 * without a gate to answer. Pure: the runtime commits the plan
 * with the snapshot, in one transaction.
 */
export interface GatePlan {
  opened: GateRecord[];
  closed: GateClosing[];
  /** The session's gates open after the step. */
  open: GateRecord[];
}

export interface GateStep {
  sessionId: string;
  workflowId: string;
  owner: string | null;
  /** The states that waited for inputs before the step. */
  before: ReadonlySet<string>;
  /** Those of them the step left and entered again (absent: none). */
  reentered?: ReadonlySet<string>;
  /** What the active states wait for after it. */
  after: readonly DeclaredInputs[];
  /** The gates open before the step. */
  open: readonly GateRecord[];
  /** The gates the step itself closed (answered, timed out, cancelled). */
  closing: readonly GateClosing[];
  now: Date;
}

export function planGates(step: GateStep): GatePlan {
  const closedNow = new Set(step.closing.map((c) => c.gateId));
  const reentered = step.reentered ?? new Set<string>();
  // A state entered again keeps none of its old gates.
  const activeStates = new Set(step.after.map((d) => d.state).filter((s) => !reentered.has(s)));
  const closed: GateClosing[] = [...step.closing];
  const stillOpen: GateRecord[] = [];
  for (const gate of step.open) {
    if (closedNow.has(gate.gateId)) continue;
    if (activeStates.has(gate.state)) stillOpen.push(gate);
    else closed.push({ gateId: gate.gateId, status: 'closed' });
  }
  const opened: GateRecord[] = [];
  for (const { state, inputs } of step.after) {
    if (step.before.has(state) && !reentered.has(state)) continue;
    for (const spec of inputs)
      opened.push({
        gateId: newGateId(),
        sessionId: step.sessionId,
        workflowId: step.workflowId,
        owner: step.owner,
        state,
        name: spec.name,
        spec,
        to: spec.to ?? null,
        status: 'open',
        deadline: spec.deadline === undefined ? null : new Date(step.now.getTime() + durationMs(spec.deadline)),
        openedAt: step.now,
        closedAt: null,
        value: null,
        answeredBy: null,
      });
  }
  return { opened, closed, open: [...stillOpen, ...opened] };
}

/** The reply with the session's open gates, and `waiting` while any is open. */
export function withInputs<R extends ReplyEnvelope>(reply: R, open: readonly GateRecord[]): R {
  // A copy (the session keeps the reply it built), its fields set after: a spread that overrides keys is slow,
  // and so is adding a key to a spread copy (a session's replies come with `inputs`: set in place, 30x faster).
  const copy = { ...reply };
  if (open.length > 0 && reply.status === 'active') copy.status = 'waiting';
  copy.inputs = open.map(openInputOf);
  return copy;
}

/** What the events stream announces for a step: gates opened and closed, the session finished. */
export function stepEvents(
  session: { sessionId: string; workflowId: string; owner: string | null },
  plan: Pick<GatePlan, 'opened' | 'closed'>,
  closedGates: ReadonlyMap<string, GateRecord>,
  status: { before: string; after: string },
): NewSessionEvent[] {
  const base = { sessionId: session.sessionId, workflowId: session.workflowId, owner: session.owner };
  const events: NewSessionEvent[] = [];
  // In the order they happened: what the step closed, then what the state it reached opened.
  for (const c of plan.closed) {
    const g = closedGates.get(c.gateId);
    const type = c.status === 'answered' ? 'input.answered' : c.status === 'timed_out' ? 'input.timed_out' : 'input.closed';
    events.push({ ...base, type, to: g?.to ?? null, gateId: c.gateId, data: { name: g?.name ?? null, status: c.status } });
  }
  for (const g of plan.opened) events.push({ ...base, type: 'input.opened', to: g.to, gateId: g.gateId, data: { name: g.name } });
  const finished = (s: string) => s === 'done' || s === 'failed' || s === 'cancelled';
  if (finished(status.after) && !finished(status.before))
    events.push({ ...base, type: status.after === 'cancelled' ? 'session.cancelled' : 'session.finished', to: null, gateId: null, data: { status: status.after } });
  return events;
}
