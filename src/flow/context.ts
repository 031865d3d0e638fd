import { z } from 'zod';

/** How a value was obtained: a button press, the offline matcher, or a model. */
export const AnswerSourceSchema = z.enum(['button', 'match', 'llm']);

export const GateAnswerSchema = z.object({
  value: z.string(),
  confidence: z.number().min(0).max(1),
  source: AnswerSourceSchema,
  /** What the person sent: the button value or the text. */
  raw: z.string(),
});

/** The machine's context: plain JSON, so a snapshot persists as it is. */
export const FlowContextSchema = z.object({
  answers: z.record(z.string(), GateAnswerSchema),
  /** The answers as they were before the person chose to edit them. */
  previousAnswers: z.record(z.string(), GateAnswerSchema),
  /** Set when the last turn could not be understood; the reply says so. */
  notice: z.enum(['not_understood']).nullable(),
  /** The text being extracted, kept so an answer records what was said. */
  pendingText: z.string().nullable(),
  /** The question whose limiting value ended the flow. */
  stoppedBy: z.string().nullable(),
});

/** A person's turn, as the machine receives it. */
export type FlowEvent = { type: 'user.text'; text: string } | { type: 'user.button'; value: string };

export type AnswerSource = z.infer<typeof AnswerSourceSchema>;
export type GateAnswer = z.infer<typeof GateAnswerSchema>;
export type FlowContext = z.infer<typeof FlowContextSchema>;

export const initialFlowContext = (): FlowContext => ({
  answers: {},
  previousAnswers: {},
  notice: null,
  pendingText: null,
  stoppedBy: null,
});
