import { z } from 'zod';
import { OpenInputSchema } from '../inputs/gate.js';

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

export const ButtonSchema = z.object({
  label: z.string().describe('What the button shows'),
  value: z.string().describe('What pressing it sends as `{ "button": value }`'),
});

/** Whether the workflow is finished and why; each kind documents its reasons. */
export const CompletionEnvelopeSchema = z.object({
  isComplete: z.boolean().describe('Whether the session takes no more turns'),
  reason: z.string().describe('Why it is where it is (each workflow kind lists its reasons; flows: awaiting_answer, awaiting_user_confirmation, stopped_limiting_value, stopped, handed_off, completed, working, awaiting_input)'),
  readyForHandoff: z.boolean().describe('Whether its result can be handed to a person or system'),
});

/** Something the workflow produced (a handoff, a document, graph changes): typed by `type`. */
export const ArtifactEnvelopeSchema = z.looseObject({ type: z.string() });

export const ReplyEnvelopeSchema = z.object({
  sessionId: z.string().describe('The session'),
  /** The workflow's id and version (named for flows, the first kind of workflow). */
  flowId: z.string().describe("The workflow's id (a flow's, an agent's)"),
  flowVersion: WorkflowVersionSchema.describe("The workflow's version the session runs on"),
  state: z.union([z.string(), z.record(z.string(), z.unknown())]).describe("The machine's state value"),
  status: SessionStatusSchema.describe('active: takes turns; waiting: for an input someone must give; done; cancelled; failed'),
  message: z.string().describe('The text to show'),
  buttons: z.array(ButtonSchema).nullable().describe('The choices to offer, or null'),
  artifacts: z.array(ArtifactEnvelopeSchema).describe('What the workflow produced, each typed by `type`'),
  completion: CompletionEnvelopeSchema.describe('Whether it is finished, and why'),
  inputs: z
    .array(OpenInputSchema)
    .describe("The session's open input gates (the runtime adds them): those addressed to the person are answered with a text turn or by id, the others by id")
    .optional(),
});

export type WorkflowVersion = z.infer<typeof WorkflowVersionSchema>;
export type SessionStatus = z.infer<typeof SessionStatusSchema>;
export type Button = z.infer<typeof ButtonSchema>;
export type ReplyEnvelope = z.infer<typeof ReplyEnvelopeSchema>;
