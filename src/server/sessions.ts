import { z } from 'zod';
import { SessionStatusSchema, WorkflowVersionSchema } from '../workflow/reply.js';
import { MAX_SESSION_PAGE_SIZE } from '../runtime/runtime.js';
import { WorkflowIdParam } from './inputs.js';

/**
 * What the session list and the fork route read and answer:
 * `GET /api/sessions?workflowId=&status=&after=&limit=` and
 * `POST /api/sessions/{id}/fork` with `{ "seq": n }`.
 */

const wholeNumber = (what: string) => z.string().regex(/^\d{1,15}$/, `must be a whole number (${what})`).transform(Number);

export const SessionQuerySchema = z.strictObject({
  workflowId: WorkflowIdParam.describe("Only this workflow's sessions").optional(),
  status: SessionStatusSchema.describe('Only sessions in this status: active, waiting, done, cancelled, failed').optional(),
  after: wholeNumber('nextAfter of the page before').describe('The `nextAfter` of the page before: only older sessions').optional(),
  limit: wholeNumber(`1 to ${MAX_SESSION_PAGE_SIZE}`).describe(`At most this many sessions (1 to ${MAX_SESSION_PAGE_SIZE}, default 50)`).optional(),
});

export const SessionListSchema = z.object({
  sessions: z
    .array(
      z.object({
        sessionId: z.string(),
        workflowId: z.string(),
        flowVersion: WorkflowVersionSchema,
        state: z.unknown().describe("The machine's state value now"),
        status: SessionStatusSchema,
        steps: z.number().int().min(1).describe('How many steps its journal holds (the opening reply is step 1)'),
        createdAt: z.string().describe('ISO time it started'),
        updatedAt: z.string().describe('ISO time of its last step'),
      }),
    )
    .describe('Newest first'),
  nextAfter: z.number().int().nullable().describe('Pass as `after` to read the next (older) page; null on the last page'),
});

export const ForkBodySchema = z.strictObject(
  { seq: z.number().int().min(1).describe('The step to fork from (1 is the opening reply), as the history numbers it') },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}` : undefined) },
);
