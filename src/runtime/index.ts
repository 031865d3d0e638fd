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
export { MAX_TURN_TEXT_LENGTH, TurnSchema, turnToEvent, type Turn } from './turn.js';
export { FlowNotFoundError, SessionNotFoundError } from './errors.js';
export { migrateSnapshot } from './migrate-snapshot.js';
export { createRuntime, type Caller, type FlowSummary, type Runtime, type RuntimeOptions, type SessionView } from './runtime.js';
export { newSessionId } from './session-id.js';
