import { answerSchema } from './answer.js';
import type { Answer } from './context.js';
import type { AnswerSpec } from './fields.js';

/**
 * A flow's declared `inputs`: answers the host gives when a session starts,
 * as start facts of the same name. Each is stored as an answer only when it
 * fits its answer type (a category exactly, a number as a number, a date as
 * YYYY-MM-DD, ...): a value the flow does not allow is never stored, and a
 * guard reading it sees it missing (`has(answers.plan)` is false).
 */
export function inputAnswers(inputs: Record<string, AnswerSpec> | undefined, facts: Record<string, unknown>, today: Date): Record<string, Answer> {
  const answers: Record<string, Answer> = {};
  for (const [key, spec] of Object.entries(inputs ?? {})) {
    if (!Object.hasOwn(facts, key)) continue;
    const parsed = answerSchema(spec, today).safeParse(facts[key]);
    if (parsed.success) answers[key] = { value: parsed.data, confidence: 1, source: 'host', raw: String(facts[key]) };
  }
  return answers;
}
