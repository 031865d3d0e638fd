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
export { FlowNotFoundError, InvalidPageError, SessionNotFoundError, TurnIdReusedError, TurnLimitError } from './errors.js';
export { migrateSnapshot } from './migrate-snapshot.js';
export {
  createRuntime,
  DEFAULT_HISTORY_PAGE_SIZE,
  DEFAULT_MAX_TURNS_PER_SESSION,
  MAX_HISTORY_PAGE_SIZE,
  type Caller,
  type FlowSummary,
  type HistoryPage,
  type Runtime,
  type RuntimeOptions,
  type SessionView,
} from './runtime.js';
export { isWellFormed, quote } from './untrusted-string.js';
export { isSessionId, newSessionId } from './session-id.js';
