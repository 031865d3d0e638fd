export { checkFlow, flowErrors, type FlowIssue } from './check.js';
export {
  EXTRACT_ACTOR_ID,
  PATHS_ACTOR_ID,
  acceptedValues,
  compileFlow,
  extractionInput,
  missingActionActor,
  noModelExtractActor,
  type ActionInput,
  type CompileOptions,
  type FlowMachine,
  type FlowMachineEvent,
  type FlowOutput,
} from './compile.js';
export { activeNode, type ActiveNode } from './active-node.js';
export {
  BUTTONS_ONLY_STATE,
  DEFAULT_MAX_ATTEMPTS,
  UNREADABLE_TERMINAL_ID,
  UNREADABLE_TERMINAL_MESSAGE,
  attemptBudget,
  fallbackOf,
  flowMaxAttempts,
  hasAnswerButtons,
  needsUnreadableTerminal,
} from './attempts.js';
export { SKIP_VALUE, answerSchema, readTypedAnswer, validateAnswer, type ReadAnswer } from './answer.js';
export * from './context.js';
export { FlowDocumentError, formatProblem, type FlowDocumentProblem } from './errors.js';
export { DEFAULT_UNREADABLE_MESSAGE, GATE_CONFIG_NODE_IDS, GateConfigSchema, GateSchema, checkGateConfig, gateConfigToFlow, isGateConfig, type Gate, type GateConfig } from './gate-config.js';
export { categoriesOf, findCategory, flowGraph, isLimitingValue, type FlowGraph, type ScopeGraph } from './graph.js';
export { flowDocumentJsonSchema, gateConfigJsonSchema } from './json-schema.js';
export { ChecklistSchema, checkChecklist, checklistToFlow, draftIrToFlow, isChecklist, isDraftIr, type Checklist } from './convert.js';
export { NODE_KINDS, findKind, kindOf, type NodeKindName, type NodeKinds } from './nodes/index.js';
export type {
  AnyNodeKind,
  CompileContext,
  EdgeCheckContext,
  NodeCheckContext,
  NodeKind,
  NodeReply,
  ReplyInput,
  ResumeInput,
  StateConfig,
  TestEventInput,
  Transition,
} from './nodes/kind.js';
export { MAX_FLOW_TEXT_BYTES, lintFlowText, parseFlowText, parseFlowValue } from './parse.js';
export * from './schema.js';
export * from './compose.js';
export type { FlowTraceEvent, FlowTraceEventType } from './trace.js';
export { GuardCompileError, MAX_GUARD_LENGTH, checkGuard, compileGuard, type CompiledGuard, type GuardKind, type GuardProblem, type GuardScope } from './guards/cel.js';
export { flowWorkflow, type FlowWorkflowOptions } from './workflow.js';
export { flowOutline } from './outline.js';
export { createFlowRuntime, type FlowRuntimeOptions } from './runtime.js';
export { restoreConversation, startConversation, type Conversation, type ConversationOptions, type PersistedConversation } from './conversation.js';
export * from './reply.js';
export { buildReply, nodeIdOf } from './build-reply.js';
export * from './messages.js';
export { migrateSnapshot } from './migrate-snapshot.js';
