import { z } from 'zod';
import { coerceInputValue, type CoercedInput, type InputValue, type JsonSchemaCheck } from './coerce-value.js';
import type { InputSpec } from './spec.js';

export { expectedValue, MAX_INPUT_TEXT, type CoercedInput, type InputValue } from './coerce-value.js';

/**
 * Reads `raw` (a JSON value from an API, or text a person typed) as a value of `spec`, or says why not
 * (see ./coerce-value.ts); a JSON input's value is checked against its JSON Schema.
 */
export function coerceInput(spec: InputSpec, raw: unknown, today: Date = new Date()): CoercedInput {
  return coerceInputValue(spec, raw, today, checkJsonSchema);
}

const checkJsonSchema: JsonSchemaCheck = (schema, value) => {
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    return { ok: false, reason: `the input's JSON Schema cannot be used (${(error as Error).message})`, given: false };
  }
  const checked = validator.safeParse(value);
  if (!checked.success)
    return {
      ok: false,
      reason: checked.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.length ? i.path.join('.') : 'the value'}: ${i.message}`)
        .join('; '),
      given: true,
    };
  return { ok: true, value: checked.data as InputValue };
};
