import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { FlowDocumentError } from '../flow/errors.js';
import {
  ConversationFinishedError,
  FlowNotFoundError,
  IncompatibleSnapshotError,
  InvalidPageError,
  InvalidTurnError,
  SessionNotFoundError,
  TurnIdReusedError,
  TurnLimitError,
} from '../runtime/errors.js';
import { ConflictError, StoreUnavailableError } from '../store/types.js';

/** An error the API answers with: status, a stable code, and a message saying what was wrong. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Maps library errors to the API's statuses and codes. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof InvalidTurnError) return new HttpError(400, 'invalid_turn', error.message);
  if (error instanceof InvalidPageError) return new HttpError(400, 'invalid_page', error.message);
  if (error instanceof TurnLimitError) return new HttpError(409, 'turn_limit_reached', error.message);
  if (error instanceof TurnIdReusedError) return new HttpError(409, 'turn_id_reused', error.message);
  if (error instanceof FlowNotFoundError) return new HttpError(404, 'flow_not_found', error.message);
  if (error instanceof SessionNotFoundError) return new HttpError(404, 'session_not_found', error.message);
  if (error instanceof ConversationFinishedError) return new HttpError(409, 'session_finished', error.message);
  if (error instanceof IncompatibleSnapshotError) return new HttpError(409, 'incompatible_snapshot', error.message);
  if (error instanceof ConflictError)
    return new HttpError(409, 'conflict', `the session changed while this turn was applied, too often: ${error.message}`);
  if (error instanceof StoreUnavailableError)
    return new HttpError(503, 'store_unavailable', 'the session store is unavailable; nothing was saved, try again');
  if (error instanceof FlowDocumentError) return new HttpError(500, 'invalid_flow', error.message);
  return new HttpError(500, 'internal', 'internal error');
}
