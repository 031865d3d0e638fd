import type { ReplyEnvelope } from '../../workflow/reply.js';
import type { WorkflowSession } from '../../workflow/session.js';
import { answerStep } from './answer.js';
import { cancelStep } from './cancel.js';
import type { PreparedStep, SessionStep, StepContext, StepKind } from './step.js';
import { timeoutStep } from './timeout.js';
import { turnStep } from './turn.js';

export { CANCELLED_MESSAGE } from './cancel.js';
export type { PreparedStep, SessionStep, StepContext, StepKind } from './step.js';

const kinds: { [K in SessionStep['kind']]: StepKind<Extract<SessionStep, { kind: K }>> } = {
  turn: turnStep,
  answer: answerStep,
  timeout: timeoutStep,
  cancel: cancelStep,
};

const kindOf = <S extends SessionStep>(step: S) => kinds[step.kind] as unknown as StepKind<S>;

/** What the step closes, tells the machine and journals; null when it has nothing to do. */
export const prepareStep = (step: SessionStep, context: StepContext): Promise<PreparedStep | null> => kindOf(step).prepare(step, context);

/** The live session takes the prepared step; the reply it leads to. */
export const runStep = <R extends ReplyEnvelope>(step: SessionStep, prepared: PreparedStep, active: WorkflowSession<R>): Promise<R> =>
  kindOf(step).run(step, prepared, active);
