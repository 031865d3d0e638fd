import type { InputValue } from '../../inputs/coerce.js';
import type { InputAnsweredEvent, InputTimedOutEvent } from '../../inputs/events.js';
import type { GateClosing, GateRecord } from '../../inputs/gate.js';
import { answered, deliverAll, type SessionStep, type StepKind } from './step.js';

type TimeoutStep = Extract<SessionStep, { kind: 'timeout' }>;

/** Deadlines that passed: nothing to do (null) when none is due or the session was cancelled. */
export const timeoutStep: StepKind<TimeoutStep> = {
  async prepare(_step, { session, open, now }) {
    const due = open.filter((g) => g.deadline !== null && g.deadline <= now);
    if (due.length === 0 || session.status === 'cancelled') return null;
    return { ...timedOut(due, open), journalTurn: { timeout: due.map((g) => g.gateId) }, counts: false, ends: false };
  },
  run: (_step, prepared, active) => deliverAll(active, prepared.events),
};

/**
 * A gate with a default is answered with it (by `deadline`); the others of a
 * state time out together, after its defaults.
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
