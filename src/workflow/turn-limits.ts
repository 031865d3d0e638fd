/**
 * The longest text a turn may carry; longer messages are refused, not cut.
 * In a module of its own (no zod): the chat widget counts against it.
 */
export const MAX_TURN_TEXT_LENGTH = 4000;
