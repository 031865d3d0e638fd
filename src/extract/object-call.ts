import { publicModelFailure } from './public-failure.js';
import {
  JSONParseError,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  Output,
  TypeValidationError,
  extractJsonMiddleware,
  generateText,
  jsonSchema,
  wrapLanguageModel,
  type JSONSchema7,
  type LanguageModel,
  type Schema,
} from 'ai';
import { z } from 'zod';
import { deadlineSignal } from './deadline.js';

export interface ObjectCallOptions {
  model: LanguageModel;
  /** The whole call, retries included. */
  timeoutMs?: number;
  maxRetries?: number;
  /** The model's sampling temperature (the provider's default unless said). */
  temperature?: number;
  abortSignal?: AbortSignal;
  /** Passed to the provider as is (e.g. `{ openai: { strictJsonSchema: false } }` for a schema with free-form objects). */
  providerOptions?: Parameters<typeof generateText>[0]['providerOptions'];
}

/** Why a model call gave nothing usable: it failed, or it answered outside the schema. */
export interface ObjectCallFailure {
  reason: 'model_error' | 'invalid_output';
  /** What may be shown to a person or put in an answer: the kind of failure, no provider text (see `publicModelFailure`). */
  message: string;
  /** The provider's error as it came (name and message, at most 500 characters): for logs and traces only, never a reply. */
  detail: string;
}

export type ObjectCallResult<T> = { ok: true; output: T } | { ok: false; failure: ObjectCallFailure };

/** A schema as a model call is sent it: its JSON Schema (converted once) and its check. */
export type ModelSchema<T> = Schema<T>;

const converted = new WeakMap<z.ZodType, ModelSchema<unknown>>();
const jsonOf = new WeakMap<z.ZodType, JSONSchema7>();

/**
 * A zod schema as model calls are sent it, converted to JSON Schema once (the
 * conversion was most of a task agent goal's CPU when made on every call).
 * `sent` is the JSON Schema the model sees when it is not `checked`'s own:
 * a stricter one that tells a constrained server what is valid, while the
 * answer is checked against `checked`.
 */
export function modelSchema<T>(checked: z.ZodType<T>, sent?: JSONSchema7): ModelSchema<T> {
  const known = sent ? undefined : converted.get(checked);
  if (known) return known as ModelSchema<T>;
  const schema = jsonSchema<T>(() => sent ?? modelJsonSchema(checked), {
    validate: async (value) => {
      const result = await checked.safeParseAsync(value);
      return result.success ? { success: true, value: result.data } : { success: false, error: result.error };
    },
  });
  if (!sent) converted.set(checked, schema as ModelSchema<unknown>);
  return schema;
}

/** The JSON Schema a model is sent for a zod schema, converted once per schema (treat it as read-only). */
export function modelJsonSchema(schema: z.ZodType): JSONSchema7 {
  let json = jsonOf.get(schema);
  if (!json) jsonOf.set(schema, (json = jsonSchemaOf(schema)));
  return json;
}

/**
 * JSON Schema as the SDK makes it from zod (draft 7, input side, closed
 * objects), written with the keywords servers support: a record's
 * `propertyNames` (which OpenAI's provider strips, with a warning on every
 * call, and many grammar builders ignore) becomes `patternProperties` with
 * the same value schema, or goes when it only says "a string" (every JSON key
 * is one); `oneOf` becomes `anyOf` (zod's discriminated unions have branches
 * that exclude each other already).
 */
function jsonSchemaOf(schema: z.ZodType): JSONSchema7 {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    const names = o.propertyNames as Record<string, unknown> | undefined;
    if (names && typeof names === 'object' && names.type === 'string') {
      const rest = Object.keys(names).filter((k) => k !== 'type' && k !== 'description' && k !== 'pattern');
      if (rest.length === 0) {
        delete o.propertyNames;
        if (typeof names.pattern === 'string' && !o.patternProperties) {
          o.patternProperties = { [names.pattern]: o.additionalProperties ?? {} };
          o.additionalProperties = false;
        }
      }
    }
    if (Array.isArray(o.oneOf) && !o.anyOf) {
      o.anyOf = o.oneOf;
      delete o.oneOf;
    }
    if (o.type === 'object' && o.properties && o.additionalProperties === undefined) o.additionalProperties = false;
    for (const value of Object.values(o)) visit(value);
  };
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' });
  visit(json);
  return json as JSONSchema7;
}

/**
 * One structured model call as gateflow makes them: `generateText` with
 * `Output.object`, code fences stripped (some compatible servers add them),
 * a deadline that holds on Node 20, and no exception: a failure is a value.
 */
export async function generateObjectSafely<T>(
  request: { instructions: string; prompt: string; schema: z.ZodType<T> | ModelSchema<T>; name: string },
  options: ObjectCallOptions,
): Promise<ObjectCallResult<T>> {
  const schema = request.schema instanceof z.ZodType ? modelSchema(request.schema) : request.schema;
  const deadline = deadlineSignal(options.timeoutMs ?? 15_000, options.abortSignal);
  try {
    const result = await generateText({
      model:
        typeof options.model === 'string'
          ? options.model
          : wrapLanguageModel({ model: options.model, middleware: extractJsonMiddleware() }),
      instructions: request.instructions,
      prompt: request.prompt,
      output: Output.object({ schema, name: request.name }),
      maxRetries: options.maxRetries ?? 1,
      ...(options.temperature !== undefined && { temperature: options.temperature }),
      abortSignal: deadline.signal,
      ...(options.providerOptions && { providerOptions: options.providerOptions }),
    });
    return { ok: true, output: result.output as T };
  } catch (error) {
    // Past the deadline the SDK reports whatever it was doing ("Delay was aborted"): the deadline is the cause.
    if (deadline.signal.aborted) {
      const cause = deadline.signal.reason ?? error;
      return { ok: false, failure: { reason: 'model_error', message: publicModelFailure(cause, 'model_error'), detail: describe(cause) } };
    }
    const reason = failureReason(error);
    return { ok: false, failure: { reason, message: publicModelFailure(error, reason), detail: describe(error) } };
  } finally {
    deadline.clear();
  }
}

/** The model answered, but not as the schema says; anything else is a failed call. */
function failureReason(error: unknown): ObjectCallFailure['reason'] {
  const output = [NoObjectGeneratedError, NoOutputGeneratedError, JSONParseError, TypeValidationError];
  return output.some((kind) => kind.isInstance(error)) ? 'invalid_output' : 'model_error';
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 500);
  return String(error).slice(0, 500);
}
