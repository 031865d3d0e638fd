import { expectedValue, MAX_INPUT_TEXT, type CoercedInput, type InputValue } from './expected-value.js';
import { inputOptions } from './options.js';
import { readTypedValue } from '../extract/read-typed.js';
import { typedValueSchema, type TypedSpec } from '../extract/typed-value.js';
import type { InputSpec } from './spec.js';

/**
 * An input gate's value read and checked before it is accepted (the seed's
 * Pitfall 4): "yes" → true, "42" → 42, "2026-12-01" or "1 December 2026" →
 * "2026-12-01", JSON text → the object. Text is read by the flow's offline
 * parser and every value checked by the flow's typed-value schema, so a gate
 * and a question accept the same things.
 *
 * The browser loads this module when a form first shows (src/react/typed-reader.ts:
 * the widget's forms say a refusal in the person's words), so it imports no
 * classic zod (the typed-value schemas are `zod/mini`); checking JSON against
 * an input's JSON Schema needs classic zod's `fromJSONSchema` and is given
 * by `coerceInput` (./coerce.ts), the server's and the library's entry.
 */

export { expectedValue, MAX_INPUT_TEXT, type CoercedInput, type InputValue } from './expected-value.js';

/** The typed-value spec an input maps onto (json has its own schema). */
function typedSpec(spec: Exclude<InputSpec, { type: 'json' | 'enum' }>): Exclude<TypedSpec, { type: 'category' }> {
  switch (spec.type) {
    case 'integer':
      return { type: 'number', integer: true, min: spec.min, max: spec.max };
    case 'number':
      return { type: 'number', min: spec.min, max: spec.max, unit: spec.unit };
    default:
      return spec;
  }
}

/** Checks a JSON value against an input's JSON Schema: the value accepted, or up to three reasons (paths and messages). */
export type JsonSchemaCheck = (schema: Record<string, unknown>, value: unknown) => { ok: true; value: InputValue } | { ok: false; reason: string; given: boolean };

/**
 * Reads `raw` (a JSON value from an API, or text a person typed) as a value of `spec`, or says why not.
 * A JSON input's value is checked against its schema by `checkJson`; without it (the browser) only read as JSON.
 */
export function coerceInputValue(spec: InputSpec, raw: unknown, today: Date, checkJson?: JsonSchemaCheck): CoercedInput {
  const expected = expectedValue(spec);
  // "<what was given> is not accepted: <why>. Expected <what the gate takes>." (the why may be a sentence for a person).
  const refuse = (reason: string, given = true): CoercedInput => {
    const why = /[.!?]$/.test(reason) ? reason : `${reason}.`;
    return { ok: false, expected, message: `${given ? `${shown(raw)} is not accepted: ` : ''}${why} Expected ${expected}.` };
  };
  if (raw === undefined || raw === null) return refuse('no value was given', false);
  if (typeof raw === 'string' && raw.length > MAX_INPUT_TEXT) return refuse(`the text is longer than ${MAX_INPUT_TEXT} characters`, false);

  if (spec.type === 'json') return coerceJson(spec.schema, raw, refuse, checkJson);
  if (spec.type === 'enum') {
    const said = typeof raw === 'string' ? raw.trim().toLowerCase() : null;
    const option = said === null ? undefined : inputOptions(spec)!.find((o) => String(o.value).toLowerCase() === said || o.label.toLowerCase() === said);
    return option ? { ok: true, value: option.value } : refuse('it is not one of the options');
  }

  let value: unknown = raw;
  if (typeof raw === 'string') {
    // Text is read by the same code as a flow question's answer (negative words, cents, the schema's reasons).
    // A yes/no is read with the gate's description as its question, so that sarcasm is refused as a question
    // refuses it ("yeah right" to "Approve the refund?" is no approval). (Not other types: with a question the
    // reader also drops clauses about someone else, which a free-text gate, such as an agent's clarification, may be.)
    const parsed = readTypedValue(
      typedSpec(spec),
      raw,
      {
        exact: true,
        ...(spec.type === 'boolean' && { prompt: spec.description ?? spec.name, trueLabel: spec.trueLabel ?? 'Yes', falseLabel: spec.falseLabel ?? 'No' }),
      },
      today,
    );
    if (!parsed.ok) return refuse(parsed.message);
    value = parsed.value;
  } else if (typeof raw === 'object') {
    return refuse(`it is ${Array.isArray(raw) ? 'an array' : 'an object'}`);
  }
  const checked = typedValueSchema(typedSpec(spec), today).safeParse(value);
  if (!checked.success) return refuse(checked.error.issues[0]?.message ?? 'not allowed');
  return { ok: true, value: checked.data };
}

function coerceJson(
  schema: Record<string, unknown>,
  raw: unknown,
  refuse: (reason: string, given?: boolean) => CoercedInput,
  checkJson: JsonSchemaCheck | undefined,
): CoercedInput {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return refuse(`the text is not JSON (${(error as Error).message})`);
    }
  }
  if (!checkJson) return { ok: true, value: value as InputValue };
  const checked = checkJson(schema, value);
  return checked.ok ? checked : refuse(checked.reason, checked.given);
}

/** A value as a refusal quotes it: short, one line. */
function shown(raw: unknown): string {
  const text = typeof raw === 'string' ? JSON.stringify(raw) : JSON.stringify(raw) ?? String(raw);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
