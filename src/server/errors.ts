import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { GateflowError } from '../error/gateflow-error.js';

/** An error of the HTTP layer itself (a body, a header, a route): status, code and message. */
export class HttpError extends GateflowError {
  override readonly name = 'HttpError';
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    /** Seconds after which trying again may succeed (sent as `Retry-After`): a limit that frees up, not a refusal. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** What the API answers for an error: its own status and code, or 500 `internal` without details. */
export function toHttpError(error: unknown): { status: ContentfulStatusCode; code: string; message: string } {
  if (error instanceof GateflowError) return { status: error.status as ContentfulStatusCode, code: error.code, message: error.publicMessage };
  return { status: 500, code: 'internal', message: 'internal error' };
}
