import { z } from 'zod';
import { closestName } from '../extract/suggest.js';
import { DEFAULT_INPUT_PAGE_SIZE, MAX_INPUT_PAGE_SIZE, type AnswerReceipt } from '../runtime/runtime.js';
import { isSessionId } from '../runtime/session-id.js';
import { isWellFormed, quote } from '../workflow/untrusted-string.js';
import { HttpError } from './errors.js';

/**
 * What the input routes read from a request: the filters of `GET /api/inputs`
 * and `GET /api/events`, and the body of `POST /api/inputs/{gateId}`. A
 * filter that is misspelt or malformed is refused (400 `invalid_query`), not
 * ignored: `?session=...` silently listing every gate would look like an answer.
 */

const SessionIdParam = z.string().refine(isSessionId, 'must be a session id (letters, digits, "_" and "-", at most 128)');
export const WorkflowIdParam = z
  .string()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .refine((v) => isWellFormed(v) && !/[\u0000-\u001f\u007f]/.test(v), 'must be printable text');

const WholeNumberParam = z.string().regex(/^\d{1,15}$/, 'must be a whole number').transform(Number);

export const InputQuerySchema = z.strictObject({
  sessionId: SessionIdParam.describe("Only this session's gates").optional(),
  workflowId: WorkflowIdParam.describe("Only gates of this workflow's sessions").optional(),
  after: WholeNumberParam.describe("Only the gates after this place in the opening order: the previous page's nextAfter (default 0: from the first)").optional(),
  limit: WholeNumberParam.refine((n) => n >= 1 && n <= MAX_INPUT_PAGE_SIZE, `must be from 1 to ${MAX_INPUT_PAGE_SIZE}`)
    .describe(`At most this many gates (1 to ${MAX_INPUT_PAGE_SIZE}, default ${DEFAULT_INPUT_PAGE_SIZE})`)
    .optional(),
});
export type InputQueryParams = z.infer<typeof InputQuerySchema>;

export const EventQuerySchema = z.strictObject({
  sessionId: SessionIdParam.describe("Only this session's events").optional(),
});

/** `POST /api/inputs/{gateId}`: the value, any JSON; a gate's type reads it (text as a person types it, or the typed value). */
export const AnswerBodySchema = z.strictObject(
  {
    // Missing is checked first: z.json() is a union whose own message for a missing value is "Invalid input".
    value: z
      .unknown()
      .refine((v) => v !== undefined, { error: '"value" is missing', abort: true })
      .pipe(z.json())
      .describe('The value: text as typed ("yes", "42", "2026-12-01") or the typed value (true, 42, an object for a json input)'),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}` : 'the body must be a JSON object') },
);

/** What a role holder gets for answering a gate of a session that is not theirs: the gate as it closed, nothing of the session. */
export const AnswerReceiptSchema = z.object({
  gateId: z.string(),
  name: z.string().describe('The input the gate asked for'),
  status: z.literal('answered'),
  value: z.json().nullable().describe('The value as the gate read it (coerced to its type)'),
}) satisfies z.ZodType<AnswerReceipt>;

/** Reads a query (Hono's `c.req.queries()`: every value of every name) against a schema of single values. */
export function readQuery<S extends z.ZodObject>(queries: Record<string, string[]>, schema: S): z.infer<S> {
  const known = Object.keys(schema.shape);
  const single: Record<string, string> = {};
  for (const [name, values] of Object.entries(queries)) {
    if (!known.includes(name)) {
      const guess = closestName(name, known);
      throw new HttpError(400, 'invalid_query', `unknown query parameter ${quote(name)}${guess ? ` (did you mean ${guess}?)` : ''}; this route takes ${known.join(', ')}`);
    }
    if (values.length !== 1) throw new HttpError(400, 'invalid_query', `give ${name} once, not ${values.length} times`);
    single[name] = values[0]!;
  }
  const parsed = schema.safeParse(single);
  if (!parsed.success)
    throw new HttpError(
      400,
      'invalid_query',
      parsed.error.issues.map((i) => `${i.path.join('.')} ${quote(String(single[String(i.path[0])] ?? ''))} ${i.message}`).join('; '),
    );
  return parsed.data as z.infer<S>;
}
