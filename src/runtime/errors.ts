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
    super(`no flow "${flowId}" is registered`);
  }
}

/** No such session, or not one the caller may see. */
export class SessionNotFoundError extends Error {
  override readonly name = 'SessionNotFoundError';
  constructor(readonly sessionId: string) {
    super(`no session "${sessionId}"`);
  }
}
