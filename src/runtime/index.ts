export {
  ConversationFinishedError,
  FlowNotFoundError,
  ForkError,
  IncompatibleSnapshotError,
  InvalidButtonError,
  InvalidPageError,
  InvalidTurnError,
  SessionNotFoundError,
  TurnIdReusedError,
  TurnLimitError,
} from './errors.js';
export {
  createRuntime,
  DEFAULT_HISTORY_PAGE_SIZE,
  DEFAULT_SESSION_PAGE_SIZE,
  MAX_SESSION_PAGE_SIZE,
  DEFAULT_MAX_TURNS_PER_SESSION,
  MAX_HISTORY_PAGE_SIZE,
  CANCELLED_MESSAGE,
  type Caller,
  type HistoryPage,
  type InputQuery,
  type RuntimeEvent,
  type Runtime,
  type RuntimeOptions,
  type SessionList,
  type SessionListItem,
  type SessionQuery,
  type SessionView,
} from './runtime.js';
export { isSessionId, newSessionId } from './session-id.js';
export { replayConversation, replayTurnOf, ReplayStepError, ReplayTurnSchema, type ReplayOptions, type ReplayTurn } from './replay.js';
