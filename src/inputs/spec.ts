import { z } from 'zod';

/**
 * What a waiting state asks for: one typed input per gate. A state declares
 * its inputs in its `meta.inputs` (see `waitsFor`); the runtime opens a gate
 * for each when the state is entered. The types and their reading are a
 * flow's typed answers (src/extract/typed-value.ts): one coercion path.
 */

/** An input's name: what the value lands under in the machine's context. */
export const InputNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must start with a letter or _ and hold only letters, digits and _ (at most 64)');

/** Who answers: a role such as "manager". Absent: the person in the conversation. */
export const InputRoleSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'must be a lowercase role name such as "manager" (letters, digits, _ and -, at most 40)');

/** An ISO 8601 duration of days, hours, minutes and seconds: "PT30M", "P2D", "PT1H30M". */
export const DurationSchema = z
  .string()
  .regex(/^P(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?$/, 'must be an ISO 8601 duration such as "PT30M", "PT24H" or "P2D"')
  .refine((d) => d !== 'P' && !d.endsWith('T') && durationMs(d) > 0, 'must be an ISO 8601 duration longer than zero, such as "PT30M"');

/** The milliseconds of a duration that `DurationSchema` accepted. */
export function durationMs(duration: string): number {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(duration);
  if (!m) return Number.NaN;
  const [, d = '0', h = '0', min = '0', s = '0'] = m;
  return ((Number(d) * 24 + Number(h)) * 60 + Number(min)) * 60_000 + Math.round(Number(s) * 1000);
}

const common = {
  name: InputNameSchema.describe('What the value lands under in the context (a flow: the answer key)'),
  description: z.string().trim().min(1).max(500).describe('What the person is asked, shown beside the control').optional(),
  to: InputRoleSchema.describe('The role that answers (e.g. "manager"); absent: the person in the conversation').optional(),
  deadline: DurationSchema.describe('How long after the gate opens it may be answered; then the default is taken, or the state times out').optional(),
  passOtherText: z
    .boolean()
    .describe(
      'Words the person types that are not a value of this input go to the machine as an ordinary turn (it may drop what it waited for) instead of being refused',
    )
    .optional(),
};

export const BooleanInputSchema = z.strictObject({
  ...common,
  type: z.literal('boolean'),
  trueLabel: z.string().trim().min(1).max(60).optional(),
  falseLabel: z.string().trim().min(1).max(60).optional(),
  default: z.boolean().optional(),
});
export const NumberInputSchema = z.strictObject({
  ...common,
  type: z.literal('number'),
  min: z.number().optional(),
  max: z.number().optional(),
  unit: z.string().trim().min(1).max(20).optional(),
  default: z.number().optional(),
});
export const IntegerInputSchema = z.strictObject({
  ...common,
  type: z.literal('integer'),
  min: z.number().int().optional(),
  max: z.number().int().optional(),
  default: z.number().int().optional(),
});
export const StringInputSchema = z.strictObject({
  ...common,
  type: z.literal('string'),
  minLength: z.number().int().nonnegative().optional(),
  maxLength: z.number().int().positive().max(10_000).optional(),
  pattern: z.string().optional(),
  default: z.string().optional(),
});
export const InputOptionSchema = z.strictObject({ label: z.string().trim().min(1).max(200), value: z.string().min(1).max(200) });
export const EnumInputSchema = z.strictObject({
  ...common,
  type: z.literal('enum'),
  options: z
    .array(z.union([z.string().min(1).max(200), InputOptionSchema]))
    .min(1, 'needs at least one option')
    .describe('The values it may take: strings, or { label, value }'),
  default: z.string().optional(),
});
export const DateInputSchema = z.strictObject({
  ...common,
  type: z.literal('date'),
  min: z.union([z.iso.date(), z.literal('today')]).optional(),
  max: z.union([z.iso.date(), z.literal('today')]).optional(),
  default: z.iso.date().optional(),
});
export const EmailInputSchema = z.strictObject({ ...common, type: z.literal('email'), default: z.email().optional() });
export const JsonInputSchema = z.strictObject({
  ...common,
  type: z.literal('json'),
  schema: z.record(z.string(), z.json()).describe('The JSON Schema the value must match'),
  default: z.json().optional(),
});

/** One input a state waits for: a name, a type with its bounds, a description, an optional default and deadline. */
export const InputSpecSchema = z.discriminatedUnion('type', [
  BooleanInputSchema,
  NumberInputSchema,
  IntegerInputSchema,
  StringInputSchema,
  EnumInputSchema,
  DateInputSchema,
  EmailInputSchema,
  JsonInputSchema,
]);

export type InputSpec = z.infer<typeof InputSpecSchema>;
export type InputType = InputSpec['type'];
export type InputOption = z.infer<typeof InputOptionSchema>;

export { inputOptions } from './options.js';
