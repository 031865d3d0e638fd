import { InputClosedError } from '../../inputs/errors.js';
import { answered, deliverAll, type SessionStep, type StepKind } from './step.js';

type AnswerStep = Extract<SessionStep, { kind: 'answer' }>;

/** An answer to one gate by its id: coerced and checked (refused with the gate left open), then delivered. */
export const answerStep: StepKind<AnswerStep> = {
  async prepare(step, { session, open, now, accept, closedStatus }) {
    const gate = open.find((g) => g.gateId === step.gateId);
    if (!gate || session.status === 'cancelled') throw new InputClosedError(step.gateId, gate ? 'cancelled' : await closedStatus(step.gateId));
    const value = accept(gate, step.value, now);
    const closing = [{ gateId: gate.gateId, status: 'answered' as const, value, answeredBy: step.by }];
    return { closing, events: [answered(gate, value, step.by, open, closing)], journalTurn: { input: gate.gateId, name: gate.name, value, by: step.by }, counts: true, ends: false };
  },
  run: (_step, prepared, active) => deliverAll(active, prepared.events),
};
