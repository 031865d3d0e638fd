import { z } from 'zod';

/** A question the extractor may answer: its key, wording and allowed categories. */
export const ExtractionQuestionSchema = z.object({
  key: z.string(),
  prompt: z.string(),
  categories: z.array(z.string()).min(1),
  synonyms: z.record(z.string(), z.array(z.string())).optional(),
});

export const ExtractionInputSchema = z.object({
  text: z.string(),
  /** The question being asked now. */
  key: z.string(),
  /** The questions this message may answer: the current one first, then unanswered later ones. */
  questions: z.array(ExtractionQuestionSchema).min(1),
  /**
   * The flow's other questions (asked before, or past a branch; typed ones with no categories): never answered here, but a
   * message that answers one of them with a bare yes/no beside it ("no, it's about my bill", "never"
   * typed at the pets question) says nothing sure about this one (offline.ts). Pass the same list each time.
   */
  elsewhere: z.array(ExtractionQuestionSchema.extend({ categories: z.array(z.string()) })).optional(),
  /** False on the first question: the seed's rule is that it never calls a model. */
  allowModel: z.boolean(),
  /** Today's date (YYYY-MM-DD, UTC): a date the person names is read into a timing category's window (timing-windows.ts). Without it, no date is. */
  today: z.string().regex(/^\d{4}-\d{2}-\d{2}$/u).optional(),
});

export const ExtractionSourceSchema = z.enum(['match', 'llm']);

export const ExtractedValueSchema = z.object({
  value: z.string(),
  confidence: z.number().min(0).max(1),
  source: ExtractionSourceSchema,
});

export const ExtractionFailureReasonSchema = z.enum([
  /** The offline matcher was not sure and no model was asked. */
  'abstained',
  /** The model said it could not tell (`unknown`) for the current question. */
  'model_unsure',
  /** The model call failed: HTTP error, network, timeout. */
  'model_error',
  /** The model answered, but not with an object the schema allows. */
  'invalid_output',
]);

export const ExtractionOutputSchema = z.object({
  /** Values by answer key. Empty when nothing could be extracted. */
  values: z.record(z.string(), ExtractedValueSchema),
  /** Why nothing (or not the current question) was extracted, for logs and traces. */
  failure: z.object({ reason: ExtractionFailureReasonSchema, message: z.string() }).optional(),
});

export type ExtractionQuestion = z.infer<typeof ExtractionQuestionSchema>;
export type ExtractionInput = z.infer<typeof ExtractionInputSchema>;
export type ExtractionSource = z.infer<typeof ExtractionSourceSchema>;
export type ExtractedValue = z.infer<typeof ExtractedValueSchema>;
export type ExtractionFailureReason = z.infer<typeof ExtractionFailureReasonSchema>;
export type ExtractionOutput = z.infer<typeof ExtractionOutputSchema>;
