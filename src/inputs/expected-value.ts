import type * as z from 'zod/mini';
import { inputOptions } from './options.js';
import type { InputSpec } from './spec.js';

// Apart from ./coerce-value.ts (the typed reader, tens of KB) so that the
// browser's forms say what an input expects without loading the reader.

/** A JSON value (what a gate's value is once accepted). */
export type InputValue = z.infer<ReturnType<typeof z.json>>;

export type CoercedInput = { ok: true; value: InputValue } | { ok: false; expected: string; message: string };

/** Text longer than this is refused before it is read. */
export const MAX_INPUT_TEXT = 10_000;

/** What a value of this input must be, in words (the first half of every refusal). */
export function expectedValue(spec: InputSpec): string {
  const range = (min: number | string | undefined, max: number | string | undefined) =>
    min !== undefined && max !== undefined ? ` from ${min} to ${max}` : min !== undefined ? ` of at least ${min}` : max !== undefined ? ` of at most ${max}` : '';
  switch (spec.type) {
    case 'boolean': {
      const [yes, no] = inputOptions(spec)!;
      return `${yes!.label.toLowerCase()} or ${no!.label.toLowerCase()} (true or false)`;
    }
    case 'number':
      return `a number${range(spec.min, spec.max)}`;
    case 'integer':
      return `a whole number${range(spec.min, spec.max)}`;
    case 'string':
      return spec.maxLength !== undefined ? `text of at most ${spec.maxLength} characters` : 'text';
    case 'enum':
      return `one of ${inputOptions(spec)!.map((o) => JSON.stringify(o.value)).join(', ')}`;
    case 'date':
      return `a date (YYYY-MM-DD)${range(spec.min, spec.max)}`;
    case 'email':
      return 'an email address';
    case 'json':
      return 'JSON matching the input\'s schema';
  }
}
