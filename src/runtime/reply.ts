import { z } from 'zod';
import { GateAnswerSchema } from '../flow/context.js';
import { FlowVersionSchema } from '../flow/schema.js';

export const ButtonSchema = z.object({ label: z.string(), value: z.string() });

export const ButtonContextSchema = z.enum(['gate_question', 'gate_confirmation']);

/**
 * Why a flow is where it is. `completed` is for terminals with that outcome
 * (flows that end without a handoff); `stopped` for a stop terminal reached
 * otherwise than by a limiting value (a decision, a fallback); `working` while
 * an action node runs.
 */
export const CompletionReasonSchema = z.enum([
  'awaiting_answer',
  'awaiting_user_confirmation',
  'stopped_limiting_value',
  'stopped',
  'handed_off',
  'completed',
  'working',
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
  flowVersion: FlowVersionSchema,
  problemStatement: z.string(),
  answers: z.record(z.string(), GateAnswerSchema),
});

export const ArtifactSchema = z.discriminatedUnion('type', [ProblemStatementArtifactSchema, HandoffArtifactSchema]);

/** What every turn answers with: the same from the library, the CLI and HTTP. */
export const ReplySchema = z.object({
  sessionId: z.string(),
  flowId: z.string(),
  flowVersion: FlowVersionSchema,
  /** The machine's state value. */
  state: z.union([z.string(), z.record(z.string(), z.unknown())]),
  message: z.string(),
  buttons: z.array(ButtonSchema).nullable(),
  buttonContext: ButtonContextSchema.nullable(),
  answers: z.record(z.string(), GateAnswerSchema),
  artifacts: z.array(ArtifactSchema),
  completion: CompletionSchema,
});

export type Button = z.infer<typeof ButtonSchema>;
export type ButtonContext = z.infer<typeof ButtonContextSchema>;
export type CompletionReason = z.infer<typeof CompletionReasonSchema>;
export type Completion = z.infer<typeof CompletionSchema>;
export type Artifact = z.infer<typeof ArtifactSchema>;
export type Reply = z.infer<typeof ReplySchema>;
