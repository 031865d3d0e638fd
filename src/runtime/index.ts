export {
  ConversationFinishedError,
  FlowNotFoundError,
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
  DEFAULT_INPUT_PAGE_SIZE,
  MAX_INPUT_PAGE_SIZE,
  DEFAULT_MAX_TURNS_PER_SESSION,
  MAX_HISTORY_PAGE_SIZE,
  CANCELLED_MESSAGE,
  type Caller,
  type HistoryPage,
  type InputQuery,
  type InputPage,
  type RuntimeEvent,
  type Runtime,
  type RuntimeOptions,
  type SessionView,
} from './runtime.js';
export { isSessionId, newSessionId } from './session-id.js';
