import { GateflowError } from '../error/gateflow-error.js';
import { quote } from '../workflow/untrusted-string.js';

/** A turn that is not `{ text }` or `{ button }` as the contract says. */
export class InvalidTurnError extends GateflowError {
  override readonly name = 'InvalidTurnError';
  readonly code = 'invalid_turn';
  readonly status = 400;
}

/** A `{ button }` turn whose value is not one of the buttons the current reply offers. */
export class InvalidButtonError extends GateflowError {
  override readonly name = 'InvalidButtonError';
  readonly code = 'invalid_button';
  readonly status = 400;
  constructor(
    readonly value: string,
    readonly offered: readonly string[],
  ) {
    super(
      offered.length === 0
        ? `button ${quote(value)} is not offered: this step takes text, not a button`
        : `button ${quote(value)} is not one of the offered buttons: ${offered.map((v) => quote(v)).join(', ')}`,
    );
  }
}

/** A turn sent to a conversation that has already reached a terminal. */
export class ConversationFinishedError extends GateflowError {
  override readonly name = 'ConversationFinishedError';
  readonly code = 'session_finished';
  readonly status = 409;
  constructor(readonly sessionId: string) {
    super(`session ${sessionId} is finished: it takes no more turns`);
  }
}

/** A persisted snapshot that does not fit the flow it is restored with. */
export class IncompatibleSnapshotError extends GateflowError {
  override readonly name = 'IncompatibleSnapshotError';
  readonly code = 'incompatible_snapshot';
  readonly status = 409;
}

/** No flow of that id is registered. */
export class FlowNotFoundError extends GateflowError {
  override readonly name = 'FlowNotFoundError';
  readonly code = 'flow_not_found';
  readonly status = 404;
  constructor(readonly flowId: string) {
    super(`no flow ${quote(flowId)} is registered`);
  }
}

/** No such session, or not one the caller may see. */
export class SessionNotFoundError extends GateflowError {
  override readonly name = 'SessionNotFoundError';
  readonly code = 'session_not_found';
  readonly status = 404;
  constructor(readonly sessionId: string) {
    super(`no session ${quote(sessionId)}`);
  }
}

/** A session that has taken as many turns as the runtime allows. */
export class TurnLimitError extends GateflowError {
  override readonly name = 'TurnLimitError';
  readonly code = 'turn_limit_reached';
  readonly status = 409;
  constructor(
    readonly sessionId: string,
    readonly limit: number,
  ) {
    super(`session ${quote(sessionId)} has taken ${limit} turns, the most a session may take: start a new session`);
  }
}

/** A turnId already used by a different turn of the session (the same turn again is a replay). */
export class TurnIdReusedError extends GateflowError {
  override readonly name = 'TurnIdReusedError';
  readonly code = 'turn_id_reused';
  readonly status = 409;
  constructor(readonly turnId: string) {
    super(`turnId ${quote(turnId)} was already used for a different turn of this session: use a new turnId for a new turn`);
  }
}

/** A history page that cannot be read: `after` or `limit` out of range. */
export class InvalidPageError extends GateflowError {
  override readonly name = 'InvalidPageError';
  readonly code = 'invalid_page';
  readonly status = 400;
}

/** A session cannot be forked at that step: no such step, a workflow version no longer served, a replay that went elsewhere. */
export class ForkError extends GateflowError {
  override readonly name = 'ForkError';
  readonly code = 'fork_failed';
  readonly status = 409;
}
