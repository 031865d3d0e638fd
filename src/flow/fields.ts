import { z } from 'zod';

/**
 * The building blocks of a flow document's schema: ids, keys, guard texts,
 * answer specs, the fields every node has, the outcomes edges leave on, and
 * the small rules read from them. Node kinds (nodes/<kind>.ts) build their
 * schemas from these; `schema.ts` assembles the document. This module imports
 * nothing else of the flow, so that every node kind may import it.
 */

/** A non-empty text (trimmed). */
export const text = z.string().trim().min(1, 'must not be empty');

/** Node ids become state keys: no dots (XState paths) and no `#` (state ids). */
export const NodeIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_-]*$/, 'must use only letters, digits, "_" and "-"');

/** Answer keys are what guards read (`answers.court_size`): CEL identifiers. */
export const AnswerKeySchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an identifier: letters, digits and "_", not starting with a digit');

export const FlowIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must use only lowercase letters, digits, "_" and "-"');

export const FlowVersionSchema = z.union([z.string().trim().min(1), z.number().int().nonnegative()], {
  error: (issue) =>
    issue.input === undefined ? 'is required' : 'must be a non-empty string (such as "1.2.0") or a whole number',
});

/** A CEL expression over `answers`, `context` and `constraints` (see guards/cel.ts). */
export const GuardTextSchema = z.string().trim().min(1, 'must not be empty');

/** Hints for a visual editor and the drawings: kept in the compiled state's `meta.ui`. */
export const UiHintsSchema = z.record(z.string(), z.json());

// ---------------------------------------------------------------- answers

export const CategoryAnswerSchema = z.strictObject({
  type: z.literal('category'),
  categories: z.array(text).min(1, 'needs at least one category'),
  /** Extra words or phrases that mean a category, keyed by the category. */
  synonyms: z.record(z.string(), z.array(text)).optional(),
});

export const StringAnswerSchema = z.strictObject({
  type: z.literal('string'),
  minLength: z.number().int().nonnegative().optional(),
  /** 2000 when absent. */
  maxLength: z.number().int().positive().max(10_000).optional(),
  /** A regular expression the whole answer must match. */
  pattern: z.string().optional(),
  patternMessage: text.optional(),
});

export const NumberAnswerSchema = z.strictObject({
  type: z.literal('number'),
  min: z.number().optional(),
  max: z.number().optional(),
  integer: z.boolean().optional(),
  /** Shown after the number in summaries ("W", "m²"). */
  unit: text.optional(),
});

export const BooleanAnswerSchema = z.strictObject({
  type: z.literal('boolean'),
  /** "Yes" when absent. */
  trueLabel: text.optional(),
  /** "No" when absent. */
  falseLabel: text.optional(),
});

/** An ISO date (YYYY-MM-DD) or `today`, resolved when the answer is checked. */
export const DateBoundSchema = z.union([z.iso.date(), z.literal('today')]);

export const DateAnswerSchema = z.strictObject({
  type: z.literal('date'),
  min: DateBoundSchema.optional(),
  max: DateBoundSchema.optional(),
});

export const EmailAnswerSchema = z.strictObject({ type: z.literal('email') });
export const PhoneAnswerSchema = z.strictObject({ type: z.literal('phone') });

export const AnswerSpecSchema = z.discriminatedUnion('type', [
  CategoryAnswerSchema,
  StringAnswerSchema,
  NumberAnswerSchema,
  BooleanAnswerSchema,
  DateAnswerSchema,
  EmailAnswerSchema,
  PhoneAnswerSchema,
]);

/** A rule an answer must pass before it is stored: a CEL expression over `value`, `answers` and `context`. */
export const ValidatorSchema = z.strictObject({
  check: GuardTextSchema,
  /** What the person is told when the rule fails. */
  message: text,
});

// ---------------------------------------------------------------- what every node has

/** The fields every node kind has beside its `kind`: spread into each kind's schema. */
export const nodeFields = {
  id: NodeIdSchema,
  label: text.optional(),
  ui: UiHintsSchema.optional(),
};

export const TerminalOutcomeSchema = z.enum(['handoff', 'stopped', 'completed']);

// ---------------------------------------------------------------- edges

/**
 * The outcome an edge is taken on. A question leaves on `answered`, on
 * `limiting` when a limiting value was given, on `invalid` when it gives up
 * after its failed answers (see `maxAttempts`); a confirmation on `confirmed` or `edit`; an
 * action on `done` or `error`; a subgraph on `done` (its `__exit__`); a
 * decision and a path node on `next`.
 */
export const EdgeOutcomeSchema = z.enum(['answered', 'limiting', 'invalid', 'confirmed', 'edit', 'done', 'error', 'next']);

/** The target that leaves a subgraph and returns to the node that called it. */
export const EXIT_TARGET = '__exit__';
/** The guard text of the last edge of a group: taken when no earlier guard holds. */
export const ELSE_GUARD = 'else';

/** An edge taken when no earlier one of its group is: no guard, or `else`. */
export const isElseGuard = (guard: string | undefined): boolean => guard === undefined || guard === ELSE_GUARD;

export type FlowVersion = z.infer<typeof FlowVersionSchema>;
export type CategoryAnswer = z.infer<typeof CategoryAnswerSchema>;
export type AnswerSpec = z.infer<typeof AnswerSpecSchema>;
export type AnswerType = AnswerSpec['type'];
export type Validator = z.infer<typeof ValidatorSchema>;
export type TerminalOutcome = z.infer<typeof TerminalOutcomeSchema>;
export type EdgeOutcome = z.infer<typeof EdgeOutcomeSchema>;

/** The longest text answer when the flow sets none. */
export const DEFAULT_MAX_LENGTH = 2000;

/** Whether a question must be answered (it may be skipped otherwise). */
export const isRequired = (q: { required?: boolean | undefined }): boolean => q.required !== false;

/** The labels of a yes/no answer. */
export const booleanLabels = (spec: { trueLabel?: string | undefined; falseLabel?: string | undefined }) => ({
  trueLabel: spec.trueLabel ?? 'Yes',
  falseLabel: spec.falseLabel ?? 'No',
});

/** Where a question's answer is stored. */
export const answerKey = (q: { id: string; key?: string | undefined }): string => q.key ?? q.id;
