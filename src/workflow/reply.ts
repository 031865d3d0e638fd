import { z } from 'zod';

/**
 * The reply every workflow answers a turn with, as the library, the CLI and
 * HTTP give it. This envelope is common to every workflow; a workflow kind
 * adds fields of its own (flows add the intake's `answers` and
 * `buttonContext`). Only zod here: the store and the server read it without
 * importing the runtime or any workflow kind.
 */

/** A workflow's version: a string such as "1.2.0" or a whole number. */
export const WorkflowVersionSchema = z.union([z.string().min(1), z.number().int().nonnegative()]);

/**
 * Where a session is: `active` (it takes turns), `waiting` (for an input
 * someone must give), `done` (finished), `cancelled`, `failed` (the machine
 * stopped on an error).
 */
export const SessionStatusSchema = z.enum(['active', 'waiting', 'done', 'cancelled', 'failed']);

export const ButtonSchema = z.object({ label: z.string(), value: z.string() });

/** Whether the workflow is finished and why; each kind documents its reasons. */
export const CompletionEnvelopeSchema = z.object({
  isComplete: z.boolean(),
  reason: z.string(),
  readyForHandoff: z.boolean(),
});

/** Something the workflow produced (a handoff, a document, graph changes): typed by `type`. */
export const ArtifactEnvelopeSchema = z.looseObject({ type: z.string() });

export const ReplyEnvelopeSchema = z.object({
  sessionId: z.string(),
  /** The workflow's id and version (named for flows, the first kind of workflow). */
  flowId: z.string(),
  flowVersion: WorkflowVersionSchema,
  /** The machine's state value. */
  state: z.union([z.string(), z.record(z.string(), z.unknown())]),
  status: SessionStatusSchema,
  /** The text to show. */
  message: z.string(),
  buttons: z.array(ButtonSchema).nullable(),
  artifacts: z.array(ArtifactEnvelopeSchema),
  completion: CompletionEnvelopeSchema,
});

export type WorkflowVersion = z.infer<typeof WorkflowVersionSchema>;
export type SessionStatus = z.infer<typeof SessionStatusSchema>;
export type Button = z.infer<typeof ButtonSchema>;
export type ReplyEnvelope = z.infer<typeof ReplyEnvelopeSchema>;
