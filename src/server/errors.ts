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

/**
 * The store failed during a turn, perhaps at its commit: a commit whose
 * confirmation was lost (a dropped link, a query timeout on COMMIT) may have
 * kept the turn, so "nothing was saved" could be false. Said as it is, with
 * the safe way to find out: the same turn id is applied at most once.
 * `what` names the turn ("message", "turn"), `key` its id field, `look` where
 * to look when it had none. The store's own words stay as the cause, for the log.
 */
export function unconfirmedTurn(cause: unknown, o: { what: string; key: string; keyed: boolean; look: string }): HttpError {
  const said = `The store did not confirm that this ${o.what} was saved: it may or may not have been.`;
  const error = new HttpError(
    503,
    'store_unavailable',
    o.keyed
      ? `${said} Send it again with the same ${o.key}: if it was saved you get its answer, otherwise it is done now, never twice.`
      : `${said} ${o.look} before sending it again (a ${o.what} sent with a ${o.key.replace(/ \(.*\)$/, '')} can be sent again safely).`,
  );
  error.cause = cause;
  return error;
}
