import { z } from 'zod';
import type { FlowEvent } from '../flow/context.js';

/** The longest text a turn may carry; longer messages are refused, not cut. */
export const MAX_TURN_TEXT_LENGTH = 4000;

const turnId = z.string().min(1).max(200).optional();

/** A person's turn: text they typed or a button they pressed, with an optional id for replays. */
export const TurnSchema = z.union([
  z.strictObject({
    text: z.string().max(MAX_TURN_TEXT_LENGTH, `text must be at most ${MAX_TURN_TEXT_LENGTH} characters`),
    turnId,
  }),
  z.strictObject({ button: z.string().min(1, 'button must not be empty').max(200), turnId }),
]);

export type Turn = z.infer<typeof TurnSchema>;

export function turnToEvent(turn: Turn): FlowEvent {
  return 'button' in turn ? { type: 'user.button', value: turn.button } : { type: 'user.text', text: turn.text };
}
