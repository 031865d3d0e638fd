import { z } from 'zod';
import { ReplyEnvelopeSchema } from '../workflow/reply.js';
import { AnswerSchema } from './context.js';
import { FlowVersionSchema } from './schema.js';

export { ButtonSchema, type Button } from '../workflow/reply.js';

export const ButtonContextSchema = z.enum(['gate_question', 'gate_confirmation']);

/**
 * Why a flow is where it is. `completed` is for terminals with that outcome
 * (flows that end without a handoff); `stopped` for a stop terminal reached
 * otherwise than by a limiting value (a decision, a fallback); `working` while
 * an action node runs; `awaiting_input` while an input node waits for values
 * someone gives from outside the conversation (a manager's approval).
 */
export const CompletionReasonSchema = z.enum([
  'awaiting_answer',
  'awaiting_user_confirmation',
  'stopped_limiting_value',
  'stopped',
  'handed_off',
  'completed',
  'working',
  'awaiting_input',
]);

export const CompletionSchema = z.object({
  isComplete: z.boolean(),
  reason: CompletionReasonSchema,
  readyForHandoff: z.boolean(),
});

export const ProblemStatementArtifactSchema = z.object({
  type: z.literal('PROBLEM_STATEMENT'),
  problemStatement: z.string(),
  answers: z.record(z.string(), z.string()),
});

export const HandoffArtifactSchema = z.object({
  type: z.literal('HANDOFF'),
  flowId: z.string(),
  flowVersion: FlowVersionSchema.describe("The flow's version the session runs on"),
  problemStatement: z.string(),
  answers: z.record(z.string(), AnswerSchema),
});

export const ArtifactSchema = z.discriminatedUnion('type', [ProblemStatementArtifactSchema, HandoffArtifactSchema]);

/**
 * A flow's reply: the common envelope with the flow's own part, the intake's
 * `answers` and `buttonContext`, and its artifacts and completion reasons.
 */
export const ReplySchema = ReplyEnvelopeSchema.extend({
  flowVersion: FlowVersionSchema.describe("The flow's version the session runs on"),
  buttonContext: ButtonContextSchema.nullable().describe('For flows: what the buttons answer (a question, the summary), or null'),
  answers: z.record(z.string(), AnswerSchema).describe('For flows: every answer given so far, by key'),
  artifacts: z.array(ArtifactSchema).describe('For flows: the PROBLEM_STATEMENT at the summary, the HANDOFF at the end'),
  completion: CompletionSchema.describe('Whether it is finished, and why'),
});

export type ButtonContext = z.infer<typeof ButtonContextSchema>;
export type CompletionReason = z.infer<typeof CompletionReasonSchema>;
export type Completion = z.infer<typeof CompletionSchema>;
export type Artifact = z.infer<typeof ArtifactSchema>;
export type Reply = z.infer<typeof ReplySchema>;
