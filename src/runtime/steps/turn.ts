import { coerceInput } from '../../inputs/coerce.js';
import { InvalidInputValueError } from '../../inputs/errors.js';
import { ConversationFinishedError } from '../errors.js';
import { answered, deliverAll, type PreparedStep, type SessionStep, type StepKind } from './step.js';

type TurnStep = Extract<SessionStep, { kind: 'turn' }>;

/**
 * A person's turn. Text answers the one gate addressed to the person, the
 * same way an answer by id does; otherwise the turn goes to the machine as
 * its workflow reads turns.
 */
export const turnStep: StepKind<TurnStep> = {
  async prepare({ turn }, { session, open, now, callerOwner }) {
    if (session.status === 'cancelled') throw new ConversationFinishedError(session.sessionId);
    const prepared: PreparedStep = { closing: [], events: [], journalTurn: turn, counts: true, ends: false };
    const mine = open.filter((g) => g.to === null);
    if (mine.length === 1 && 'text' in turn) {
      const gate = mine[0]!;
      const read = coerceInput(gate.spec, turn.text, now);
      // Words that are not one of its values: refused (the gate asks again), unless the gate passes
      // them on to the machine as an ordinary turn (a new request instead of Proceed / Cancel).
      if (!read.ok && !gate.spec.passOtherText) throw new InvalidInputValueError(gate.gateId, gate.name, read.expected, read.message);
      if (read.ok) {
        prepared.closing = [{ gateId: gate.gateId, status: 'answered', value: read.value, answeredBy: callerOwner }];
        prepared.events = [{ ...answered(gate, read.value, callerOwner, open, prepared.closing), typed: true }];
      }
    }
    return prepared;
  },
  run: (step, prepared, active) => (prepared.events.length > 0 ? deliverAll(active, prepared.events) : active.send(step.turn)),
};
