import { quote } from './untrusted-string.js';

/** A turn that is not `{ text }` or `{ button }` as the contract says. */
export class InvalidTurnError extends Error {
  override readonly name = 'InvalidTurnError';
}

/** A turn sent to a conversation that has already reached a terminal. */
export class ConversationFinishedError extends Error {
  override readonly name = 'ConversationFinishedError';
  constructor(readonly sessionId: string) {
    super(`session ${sessionId} is finished: it takes no more turns`);
  }
}

/** A persisted snapshot that does not fit the flow it is restored with. */
export class IncompatibleSnapshotError extends Error {
  override readonly name = 'IncompatibleSnapshotError';
}

/** No flow of that id is registered. */
export class FlowNotFoundError extends Error {
  override readonly name = 'FlowNotFoundError';
  constructor(readonly flowId: string) {
    super(`no flow ${quote(flowId)} is registered`);
  }
}

/** No such session, or not one the caller may see. */
export class SessionNotFoundError extends Error {
  override readonly name = 'SessionNotFoundError';
  constructor(readonly sessionId: string) {
    super(`no session ${quote(sessionId)}`);
  }
}

/** A session that has taken as many turns as the runtime allows. */
export class TurnLimitError extends Error {
  override readonly name = 'TurnLimitError';
  constructor(
    readonly sessionId: string,
    readonly limit: number,
  ) {
    super(`session ${quote(sessionId)} has taken ${limit} turns, the most a session may take: start a new session`);
  }
}

/** A turnId already used by a different turn of the session (the same turn again is a replay). */
export class TurnIdReusedError extends Error {
  override readonly name = 'TurnIdReusedError';
  constructor(readonly turnId: string) {
    super(`turnId ${quote(turnId)} was already used for a different turn of this session: use a new turnId for a new turn`);
  }
}

/** A history page that cannot be read: `after` or `limit` out of range. */
export class InvalidPageError extends Error {
  override readonly name = 'InvalidPageError';
}
