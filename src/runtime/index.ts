export { buildReply, nodeIdOf } from './build-reply.js';
export {
  restoreConversation,
  startConversation,
  type Conversation,
  type ConversationOptions,
  type PersistedConversation,
} from './conversation.js';
export { ConversationFinishedError, IncompatibleSnapshotError, InvalidTurnError } from './errors.js';
export * from './messages.js';
export * from './reply.js';
export { ButtonTurnSchema, MAX_TURN_TEXT_LENGTH, TextTurnSchema, TurnSchema, parseTurn, turnToEvent, type Turn, type TurnParseResult } from './turn.js';
export { FlowNotFoundError, SessionNotFoundError } from './errors.js';
export { migrateSnapshot } from './migrate-snapshot.js';
export { createRuntime, type Caller, type FlowSummary, type Runtime, type RuntimeOptions, type SessionView } from './runtime.js';
export { isSessionId, newSessionId } from './session-id.js';
