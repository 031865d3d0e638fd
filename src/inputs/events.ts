import type { InputValue } from './coerce.js';

/**
 * The events the runtime sends a machine waiting for inputs. Each gate is
 * answered on its own (`input.answered`, with the names of the state's gates
 * still open after it: none left means the machine moves on); a deadline
 * that passes without a default sends `input.timedOut`.
 */
export interface InputAnsweredEvent {
  type: 'input.answered';
  gateId: string;
  /** The id of the state node that declared the input. */
  state: string;
  name: string;
  value: InputValue;
  /** Who answered (a JWT subject), null without auth; `deadline` when the default was taken. */
  by: string | null;
  /** The value was read from words the person typed (a text turn), not picked (a button, an answer by the gate's id). */
  typed?: boolean;
  /** The names of this state's inputs still open after this one. */
  remaining: string[];
}

export interface InputTimedOutEvent {
  type: 'input.timedOut';
  state: string;
  /** The inputs whose deadline passed without an answer or a default. */
  names: string[];
}

export type InputEvent = InputAnsweredEvent | InputTimedOutEvent;

export const INPUT_ANSWERED = 'input.answered' as const;
export const INPUT_TIMED_OUT = 'input.timedOut' as const;

/** A guard for hand-written machines: this answer was the state's last open input. */
export const lastInputAnswered = ({ event }: { event: { type: string } }): boolean =>
  event.type === INPUT_ANSWERED && (event as InputAnsweredEvent).remaining.length === 0;
