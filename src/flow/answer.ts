import type { ZodMiniType } from 'zod/mini';
import { readTypedValue } from '../extract/read-typed.js';
import type { AnswerValue } from './context.js';
import { compileGuard, type CompiledGuard, type GuardScope } from './guards/cel.js';
import { typedValueSchema } from '../extract/typed-value.js';
import { booleanLabels, isRequired, type AnswerSpec } from './fields.js';
import type { QuestionNode } from './nodes/question.js';
import { withoutLikelihoodHedges } from '../extract/guess.js';

/**
 * Typed answers: the zod schema a question's `answer` describes, and reading
 * a turn into a value that schema and the question's validators accept.
 * Nothing is stored unless it passes (`validateAnswer`).
 */

/** What a turn gave a typed question. */
export type ReadAnswer =
  | { kind: 'valid'; value: AnswerValue; confidence: number }
  /**
   * Refused. `choices`: it read two ways and the person may pick one (buttons, valid values only).
   * `found`: the answer holds this type's kind of value, refused as it is (see `TypedParse`); a validator's refusal is one too.
   * `guess`: hedged ("around 20k I guess"), what it most likely meant (extract/guess.ts), to offer, never to take.
   */
  | { kind: 'invalid'; message: string; choices?: { label: string; value: string }[]; found?: true; guess?: AnswerValue }
  /** An optional question the person chose to skip. */
  | { kind: 'skip' };

/** The button value (and words) that skip an optional question. */
export const SKIP_VALUE = 'skip';
/** The button value that keeps a previous answer when a question is asked again (after a correction at the summary). */
export const KEEP_VALUE = 'keep';
const SKIP_TEXT = /^\s*(skip|skip it|pass|next|none|n\/a|rather not say|prefer not to say|i'?d rather not say)\s*[.!]?\s*$/i;

/**
 * The zod schema of an answer type: the single source of what a value may be (shared with input gates).
 * A `zod/mini` schema (the browser runs it): `.parse` and `.safeParse` as in zod, checks by `.check(...)`.
 */
export function answerSchema(spec: AnswerSpec, today: Date = new Date()): ZodMiniType<AnswerValue> {
  return typedValueSchema(spec, today);
}

/** A question's validators, compiled once. */
export function compileValidators(q: QuestionNode): { guard: CompiledGuard; message: string }[] {
  return (q.validators ?? []).map((v) => ({ guard: compileGuard(v.check, 'validator'), message: v.message }));
}

/** The value if the schema and every validator accept it; otherwise the first reason why not. */
export function validateAnswer(
  q: QuestionNode,
  value: AnswerValue,
  scope: Omit<GuardScope, 'value'>,
  validators: { guard: CompiledGuard; message: string }[],
  today: Date = new Date(),
): { ok: true; value: AnswerValue } | { ok: false; message: string } {
  const parsed = answerSchema(q.answer, today).safeParse(value);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? 'That answer is not allowed.' };
  for (const v of validators) if (!v.guard.evaluate({ ...scope, value: parsed.data })) return { ok: false, message: v.message };
  return { ok: true, value: parsed.data };
}

/** The person asks to skip an optional question: the Skip button, or words such as "skip" or "pass". */
export function asksToSkip(turn: { button: string } | { text: string }): boolean {
  return 'button' in turn ? turn.button.trim().toLowerCase() === SKIP_VALUE : SKIP_TEXT.test(turn.text);
}

/** Reads a button press or text for a typed (non-category) question, then validates it. */
export function readTypedAnswer(
  q: QuestionNode,
  turn: { button: string } | { text: string },
  scope: Omit<GuardScope, 'value'>,
  validators: { guard: CompiledGuard; message: string }[],
  today: Date = new Date(),
): ReadAnswer {
  const spec = q.answer;
  if (spec.type === 'category') throw new Error(`question "${q.id}" takes categories, not a typed answer`);
  const said = 'button' in turn ? turn.button : turn.text;
  if (!isRequired(q) && asksToSkip(turn)) return { kind: 'skip' };
  // The schema is checked in the reader too (the same code as input gates); validators below.
  const parsed = readTypedValue(
    spec,
    said,
    {
      ...(spec.type === 'boolean' && booleanLabels(spec)),
      ...(spec.type === 'string' && spec.format !== undefined && { format: spec.format }),
      ...(spec.type === 'phone' && spec.country !== undefined && { country: spec.country }),
      ...(spec.type === 'number' && spec.exact !== undefined && { exact: spec.exact }),
      ...('text' in turn && { prompt: q.prompt }),
    },
    today,
  );
  if (!parsed.ok) {
    // "Next friday": the dates it may mean that the question allows, for the person to pick.
    const choices = (parsed.candidates ?? [])
      .filter((c) => validateAnswer(q, c.value, scope, validators, today).ok)
      .map((c) => ({ label: c.label, value: String(c.value) }));
    // "Around 20k I guess": hedged, so refused; what it most likely meant is offered, never taken (extract/guess.ts).
    const guess = choices.length === 0 && 'text' in turn ? guessTyped(q, turn.text, scope, validators, today) : undefined;
    if (guess !== undefined) return { kind: 'invalid', message: parsed.message, guess, ...(parsed.found && { found: true as const }) };
    return { kind: 'invalid', message: parsed.message, ...(choices.length > 0 && { choices }), ...(parsed.found && { found: true as const }) };
  }
  const checked = validateAnswer(q, parsed.value, scope, validators, today);
  if (!checked.ok) return { kind: 'invalid', message: checked.message, found: true };
  return { kind: 'valid', value: checked.value, confidence: 'button' in turn ? 1 : parsed.confidence };
}

/** The value a hedged text most likely meant: the text read again without its words of likelihood, if the question allows what that reads. */
function guessTyped(
  q: QuestionNode,
  text: string,
  scope: Omit<GuardScope, 'value'>,
  validators: { guard: CompiledGuard; message: string }[],
  today: Date,
): AnswerValue | undefined {
  const rest = withoutLikelihoodHedges(text);
  if (rest === undefined) return undefined;
  const read = readTypedAnswer(q, { text: rest }, scope, validators, today);
  return read.kind === 'valid' ? read.value : undefined;
}
