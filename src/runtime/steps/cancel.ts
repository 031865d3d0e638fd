import type { ReplyEnvelope } from '../../workflow/reply.js';
import { ConversationFinishedError } from '../errors.js';
import type { SessionStep, StepKind } from './step.js';

type CancelStep = Extract<SessionStep, { kind: 'cancel' }>;

/** What a cancelled session's reply says. */
export const CANCELLED_MESSAGE = 'This conversation was cancelled.';

/** A cancel: every open gate closes as cancelled, and the session ends whatever its machine was doing. */
export const cancelStep: StepKind<CancelStep> = {
  async prepare(step, { session, open }) {
    if (session.status === 'cancelled' || session.status === 'done' || session.status === 'failed') throw new ConversationFinishedError(session.sessionId);
    return { closing: open.map((g) => ({ gateId: g.gateId, status: 'cancelled' as const })), events: [], journalTurn: { cancel: true, by: step.by }, counts: false, ends: true };
  },
  async run(step, _prepared, active) {
    // A session stored before statuses were kept may be finished with an `active` status.
    if (active.done) throw new ConversationFinishedError(active.sessionId);
    return cancelled(active.reply());
  },
};

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
