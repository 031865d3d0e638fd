import { z } from 'zod';

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

/** The zod schema of a typed value: bounds, lengths, patterns and formats, each refusal worded for a person. */
export function typedValueSchema(spec: TypedSpec, today: Date = new Date()): z.ZodType<TypedSchemaValue> {
  switch (spec.type) {
    case 'category':
      return z.enum(spec.categories as [string, ...string[]], { error: `Please choose one of: ${spec.categories.join(', ')}.` });
    case 'string': {
      let s = z
        .string()
        .trim()
        .min(Math.max(1, spec.minLength ?? 1), { error: spec.minLength ? `Please write at least ${spec.minLength} characters.` : 'Please write an answer.' })
        .max(spec.maxLength ?? DEFAULT_MAX_LENGTH, { error: `Please keep your answer under ${spec.maxLength ?? DEFAULT_MAX_LENGTH} characters.` });
      if (spec.pattern !== undefined)
        s = s.regex(new RegExp(`^(?:${spec.pattern})$`, 'u'), { error: spec.patternMessage ?? 'That does not look like the expected format.' });
      return s;
    }
    case 'number': {
      let n = z.number({ error: 'Please answer with a number.' }).finite();
      if (spec.integer) n = n.int({ error: 'Please answer with a whole number.' });
      const unit = spec.unit ? ` ${spec.unit}` : '';
      if (spec.min !== undefined) n = n.min(spec.min, { error: `The number must be at least ${spec.min}${unit}.` });
      if (spec.max !== undefined) n = n.max(spec.max, { error: `The number must be at most ${spec.max}${unit}.` });
      return n;
    }
    case 'boolean': {
      const { trueLabel, falseLabel } = booleanLabels(spec);
      return z.boolean({ error: `Please answer ${trueLabel} or ${falseLabel}.` });
    }
    case 'date': {
      const bound = (b: string) => (b === 'today' ? isoDay(today) : b);
      let d: z.ZodType<string> = z.iso.date({ error: 'Please give a date such as 2026-12-01.' });
      const { min, max } = spec;
      if (min !== undefined) d = d.refine((v) => v >= bound(min), { error: `The date must be on or after ${bound(min)}.` });
      if (max !== undefined) d = d.refine((v) => v <= bound(max), { error: `The date must be on or before ${bound(max)}.` });
      return d;
    }
    case 'email':
      return z.email({ error: 'Please give an email address such as name@example.com.' });
    case 'phone':
      return z.string().regex(/^\+?\d{7,15}$/, { error: 'Please give a phone number of 7 to 15 digits.' });
  }
}
