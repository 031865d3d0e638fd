import { GateflowError } from '../error/gateflow-error.js';
import { quote } from '../workflow/untrusted-string.js';

/** No such project, or one of another owner: the same answer, so ids reveal nothing. */
export class ProjectNotFoundError extends GateflowError {
  override readonly name = 'ProjectNotFoundError';
  readonly code = 'project_not_found';
  readonly status = 404;
  constructor(readonly projectId: number) {
    super(`no project ${projectId}`);
  }
}

/** No such document, or one in another owner's project. */
export class DocumentNotFoundError extends GateflowError {
  override readonly name = 'DocumentNotFoundError';
  readonly code = 'document_not_found';
  readonly status = 404;
  constructor(readonly documentId: number) {
    super(`no document ${documentId}`);
  }
}

/** No such chat. */
export class ChatNotFoundError extends GateflowError {
  override readonly name = 'ChatNotFoundError';
  readonly code = 'chat_not_found';
  readonly status = 404;
  constructor(readonly chatId: number) {
    super(`no chat ${chatId}`);
  }
}

/**
 * The project already has a document of that name (ignoring case): it names
 * the existing one, so that a caller can offer to edit it instead.
 */
export class DuplicateDocumentNameError extends GateflowError {
  override readonly name = 'DuplicateDocumentNameError';
  readonly code = 'duplicate_document_name';
  readonly status = 409;
  constructor(
    readonly projectId: number,
    readonly existingId: number,
    readonly existingName: string,
  ) {
    super(`project ${projectId} already has a document named ${quote(existingName, 80)} (document ${existingId})`);
  }
}

/** The document changed since it was read: nothing was written; read it again and redo the edit. */
export class DocumentVersionConflictError extends GateflowError {
  override readonly name = 'DocumentVersionConflictError';
  readonly code = 'document_version_conflict';
  readonly status = 409;
  constructor(
    readonly documentId: number,
    readonly expectedVersion: number,
    readonly currentVersion: number,
  ) {
    super(`document ${documentId} is at version ${currentVersion}, not ${expectedVersion}: it changed since it was read, nothing was saved`);
  }
}

/** A value the document store does not take (an empty name, a NUL character…): nothing was written. */
export class InvalidDocumentInputError extends GateflowError {
  override readonly name = 'InvalidDocumentInputError';
  readonly code = 'invalid_document_input';
  readonly status = 400;
  constructor(readonly issues: { path: string; message: string }[]) {
    super(`invalid document input: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`);
  }
}

/**
 * The act sent with this key (turn id or Idempotency-Key) and no chat is
 * still under way, here or on another server, past the time a send waits for
 * it: nothing was done by this one. Sent again after `retryAfterSeconds`, it
 * answers what the first applied.
 */
export class ActInProgressError extends GateflowError {
  override readonly name = 'ActInProgressError';
  readonly code = 'turn_in_progress';
  readonly status = 409;
  constructor(
    readonly turnId: string,
    readonly retryAfterSeconds: number,
  ) {
    super(
      `the message with turn_id ${quote(turnId, 80)} is still being handled (it was sent before, to this server or another): nothing was done again; send it again in ${retryAfterSeconds} s to get its answer`,
    );
  }
}
