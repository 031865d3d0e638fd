import * as z from 'zod/mini';

/**
 * The zod schema of a typed value: the single source of what a typed answer
 * (a flow question's `answer`) and an input gate's value may be. The spec is
 * written structurally so that flows (`AnswerSpec`) and input gates
 * (`InputSpec`, mapped by `src/inputs/coerce.ts`) both fit without either
 * importing the other.
 */
export type TypedSpec =
  | { type: 'category'; categories: readonly string[] }
  | { type: 'string'; minLength?: number | undefined; maxLength?: number | undefined; pattern?: string | undefined; patternMessage?: string | undefined }
  | { type: 'number'; min?: number | undefined; max?: number | undefined; integer?: boolean | undefined; unit?: string | undefined }
  | { type: 'boolean'; trueLabel?: string | undefined; falseLabel?: string | undefined }
  | { type: 'date'; min?: string | undefined; max?: string | undefined }
  | { type: 'email' }
  | { type: 'phone' };

export type TypedSchemaValue = string | number | boolean;

/** Free text longer than this is refused unless a spec says otherwise. */
export const DEFAULT_MAX_LENGTH = 2000;

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** "Yes" and "No" unless the spec names its own words. */
export const booleanLabels = (spec: { trueLabel?: string | undefined; falseLabel?: string | undefined }) => ({
  trueLabel: spec.trueLabel ?? 'Yes',
  falseLabel: spec.falseLabel ?? 'No',
});

/**
 * The zod schema of a typed value: bounds, lengths, patterns and formats, each refusal worded for a person.
 * Built with `zod/mini` (the same schemas, functions instead of methods): this is the one schema the chat widget
 * runs in the browser, and classic zod's methods cannot be tree-shaken (it would double the widget's bundle).
 * Check a value with `z.safeParse(schema, value)` (from `zod` or `zod/mini`).
 */
export function typedValueSchema(spec: TypedSpec, today: Date = new Date()): z.ZodMiniType<TypedSchemaValue> {
  switch (spec.type) {
    case 'category':
      return z.enum(spec.categories as [string, ...string[]], { error: `Please choose one of: ${spec.categories.join(', ')}.` });
    case 'string':
      return z.string().check(
        z.trim(),
        z.minLength(Math.max(1, spec.minLength ?? 1), { error: spec.minLength ? `Please write at least ${spec.minLength} characters.` : 'Please write an answer.' }),
        z.maxLength(spec.maxLength ?? DEFAULT_MAX_LENGTH, { error: `Please keep your answer under ${spec.maxLength ?? DEFAULT_MAX_LENGTH} characters.` }),
        ...(spec.pattern !== undefined
          ? [z.regex(new RegExp(`^(?:${spec.pattern})$`, 'u'), { error: spec.patternMessage ?? 'That does not look like the expected format.' })]
          : []),
      );
    case 'number': {
      const unit = spec.unit ? ` ${spec.unit}` : '';
      return z.number({ error: 'Please answer with a number.' }).check(
        ...(spec.integer ? [z.int({ error: 'Please answer with a whole number.' })] : []),
        ...(spec.min !== undefined ? [z.minimum(spec.min, { error: `The number must be at least ${spec.min}${unit}.` })] : []),
        ...(spec.max !== undefined ? [z.maximum(spec.max, { error: `The number must be at most ${spec.max}${unit}.` })] : []),
      );
    }
    case 'boolean': {
      const { trueLabel, falseLabel } = booleanLabels(spec);
      return z.boolean({ error: `Please answer ${trueLabel} or ${falseLabel}.` });
    }
    case 'date': {
      const bound = (b: string) => (b === 'today' ? isoDay(today) : b);
      const { min, max } = spec;
      return z.iso.date({ error: 'Please give a date such as 2026-12-01.' }).check(
        ...(min !== undefined ? [z.refine<string>((v) => v >= bound(min), { error: `The date must be on or after ${bound(min)}.` })] : []),
        ...(max !== undefined ? [z.refine<string>((v) => v <= bound(max), { error: `The date must be on or before ${bound(max)}.` })] : []),
      );
    }
    case 'email':
      return z.email({ error: 'Please give an email address such as name@example.com.' });
    case 'phone':
      return z.string().check(z.regex(/^\+?\d{7,15}$/, { error: 'Please give a phone number of 7 to 15 digits.' }));
  }
}
