import { matchCategory } from './match-category.js';
import type { ExtractionInput, ExtractionOutput } from './types.js';

/**
 * Extraction with the offline matcher alone. It answers the current question
 * only: reading answers to later questions from a message is a model's job.
 */
export function extractOffline(input: ExtractionInput): ExtractionOutput {
  const gate = input.questions.find((g) => g.key === input.key);
  if (!gate) return { values: {}, failure: { reason: 'abstained', message: `no question "${input.key}" offered` } };
  const result = matchCategory(input.text, gate);
  if (result.status === 'abstain')
    return { values: {}, failure: { reason: 'abstained', message: `offline matcher abstained: ${result.reason}` } };
  return { values: { [gate.key]: { value: result.value, confidence: result.confidence, source: 'match' } } };
}
