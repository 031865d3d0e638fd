import { z } from 'zod';
import { isWellFormed, quote } from './untrusted-string.js';

import { MAX_TURN_TEXT_LENGTH } from './turn-limits.js';

export { MAX_TURN_TEXT_LENGTH };

const turnId = z
  .string()
  .min(1, 'turnId must not be empty')
  .max(200, 'turnId must be at most 200 characters')
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'turnId must not contain control characters')
  .refine(isWellFormed, 'turnId must be well-formed Unicode (no lone surrogate)')
  .optional()
  .describe('An id for this turn: sent again, the same turn returns the stored reply and changes nothing');

export const TextTurnSchema = z.strictObject({
  text: z
    .string()
    .max(MAX_TURN_TEXT_LENGTH, `text must be at most ${MAX_TURN_TEXT_LENGTH} characters`)
    .refine(isWellFormed, 'text must be well-formed Unicode (no lone surrogate)')
    .describe('What the person typed'),
  turnId,
});
export const ButtonTurnSchema = z.strictObject({
  button: z
    .string()
    .min(1, 'button must not be empty')
    .max(200, 'button must be at most 200 characters')
    .refine(isWellFormed, 'button must be well-formed Unicode (no lone surrogate)')
    .describe('The value of the button the person pressed (one of the reply\'s buttons)'),
  turnId,
});

/**
 * A person's turn: text they typed or a button they pressed, with an optional
 * id for replays. The same for every workflow; each workflow says how a turn
 * becomes an event of its machine (`Workflow.toEvent`).
 */
export const TurnSchema = z.union([TextTurnSchema, ButtonTurnSchema]);

export type Turn = z.infer<typeof TurnSchema>;

export type TurnParseResult = { success: true; data: Turn } | { success: false; message: string };

/** What every refusal of a turn starts with. */
export const TURN_SHAPE = 'expected {"text": string} or {"button": string}, with an optional "turnId"';

/**
 * Checks a turn and, when it is wrong, says what is wrong: not an object, both
 * or neither of `text` and `button`, a field of the wrong type, an unknown key.
 */
export function parseTurn(input: unknown): TurnParseResult {
  const refuse = (detail: string): TurnParseResult => ({ success: false, message: `invalid turn: ${TURN_SHAPE}: ${detail}` });
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return refuse(`got ${describe(input)}`);
  const plain = plainTurn(input);
  if (plain) return { success: true, data: plain };
  const hasText = 'text' in input;
  const hasButton = 'button' in input;
  if (hasText && hasButton) return refuse('got both "text" and "button"');
  if (!hasText && !hasButton) {
    const keys = Object.keys(input);
    return refuse(keys.length ? `got ${listKeys(keys)} instead` : 'got an empty object');
  }
  const parsed = (hasText ? TextTurnSchema : ButtonTurnSchema).safeParse(input);
  if (parsed.success) return { success: true, data: parsed.data };
  return refuse(
    parsed.error.issues
      .map((i) =>
        i.code === 'unrecognized_keys'
          ? `unknown key${i.keys.length > 1 ? 's' : ''} ${listKeys(i.keys)}`
          : `${i.path.join('.') || 'turn'}: ${i.message}`,
      )
      .join('; '),
  );
}

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * The usual turn, read without zod (whose parse cost a turn about a fiftieth of its CPU): a plain
 * object with `text` or `button`, and perhaps `turnId`, strings the schemas take as they are; the
 * same object they would return (keys in their order). Anything else, or anything in doubt, is
 * undefined: the schemas read it, and word a refusal.
 */
export function plainTurn(input: object): Turn | undefined {
  if (Object.getPrototypeOf(input) !== Object.prototype) return undefined;
  const keys = Object.keys(input);
  if (keys.length === 0 || keys.length > 2) return undefined;
  const fields = input as Record<string, unknown>;
  let turnId: string | undefined;
  if (keys.length === 2) {
    const id = fields.turnId;
    if (!keys.includes('turnId') || typeof id !== 'string' || id.length < 1 || id.length > 200 || CONTROL_CHARACTER.test(id) || !isWellFormed(id)) return undefined;
    turnId = id;
  }
  const key = keys[0] === 'turnId' ? keys[1] : keys[0];
  if (key === 'text') {
    const text = fields.text;
    if (typeof text !== 'string' || text.length > MAX_TURN_TEXT_LENGTH || !isWellFormed(text)) return undefined;
    return turnId === undefined ? { text } : { text, turnId };
  }
  if (key === 'button') {
    const button = fields.button;
    if (typeof button !== 'string' || button.length < 1 || button.length > 200 || !isWellFormed(button)) return undefined;
    return turnId === undefined ? { button } : { button, turnId };
  }
  return undefined;
}

/** Keys for a message: each quoted and cut short, at most five of them. */
function listKeys(keys: string[]): string {
  const shown = keys.slice(0, 5).map((k) => quote(k));
  return keys.length > 5 ? `${shown.join(', ')} and ${keys.length - 5} more` : shown.join(', ');
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

/** Whether two turns say the same thing (their turnIds aside): a replay, not a new turn. */
export function sameTurn(a: Turn, b: Turn): boolean {
  if ('text' in a) return 'text' in b && a.text === b.text;
  return 'button' in b && a.button === b.button;
}
