export { defaultTurnEvent, defineWorkflow, statusOf, type DefineWorkflowOptions, type StateReply, type TurnEvent } from './define.js';
export {
  ArtifactEnvelopeSchema,
  ButtonSchema,
  CompletionEnvelopeSchema,
  ReplyEnvelopeSchema,
  SessionStatusSchema,
  WorkflowVersionSchema,
  type Button,
  type ReplyEnvelope,
  type SessionStatus,
  type WorkflowVersion,
} from './reply.js';
export { DEFAULT_SETTLE_TIMEOUT_MS, openSession, type OpenSessionOptions, type WorkflowSession } from './session.js';
export { BUSY_TAG, waitUntilSettled } from './settle.js';
export { ButtonTurnSchema, MAX_TURN_TEXT_LENGTH, TextTurnSchema, TurnSchema, parseTurn, type Turn, type TurnParseResult } from './turn.js';
export type { ReplyOf, SessionIdentity, Workflow, WorkflowStep, WorkflowHost, WorkflowSummary } from './types.js';
export { isWellFormed, quote } from './untrusted-string.js';
