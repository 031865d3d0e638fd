import { publicModelFailure } from './public-failure.js';
import {
  JSONParseError,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  Output,
  TypeValidationError,
  extractJsonMiddleware,
  generateText,
  wrapLanguageModel,
  type LanguageModel,
} from 'ai';
import type { z } from 'zod';
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

/**
 * One structured model call as gateflow makes them: `generateText` with
 * `Output.object`, code fences stripped (some compatible servers add them),
 * a deadline that holds on Node 20, and no exception: a failure is a value.
 */
export async function generateObjectSafely<Schema extends z.ZodType>(
  request: { instructions: string; prompt: string; schema: Schema; name: string },
  options: ObjectCallOptions,
): Promise<ObjectCallResult<z.infer<Schema>>> {
  const deadline = deadlineSignal(options.timeoutMs ?? 15_000, options.abortSignal);
  try {
    const result = await generateText({
      model:
        typeof options.model === 'string'
          ? options.model
          : wrapLanguageModel({ model: options.model, middleware: extractJsonMiddleware() }),
      instructions: request.instructions,
      prompt: request.prompt,
      output: Output.object({ schema: request.schema, name: request.name }),
      maxRetries: options.maxRetries ?? 1,
      ...(options.temperature !== undefined && { temperature: options.temperature }),
      abortSignal: deadline.signal,
      ...(options.providerOptions && { providerOptions: options.providerOptions }),
    });
    return { ok: true, output: result.output as z.infer<Schema> };
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
