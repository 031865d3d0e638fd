/**
 * gateflow's public face, by name. Other entry points: `gateflow/react`,
 * `gateflow/testing`, `gateflow/server`, `gateflow/store`, `gateflow/pglite`,
 * `gateflow/postgres`. What is not listed here is internal.
 */

// Workflows (the contract every session runs on), the runtime and its errors:
// their faces list their exports by name.
export * from './workflow/index.js';
export * from './runtime/index.js';
// Input gates: what a waiting state declares, the events it receives, how values are read.
export * from './inputs/index.js';
export { GateflowError, isGateflowError } from './error/gateflow-error.js';

// Flow documents: authoring, checking, composing, compiling, running.
export {
  ActionNodeSchema,
  answerKey,
  AnswerKeySchema,
  AnswerSpecSchema,
  BooleanAnswerSchema,
  booleanLabels,
  CategoryAnswerSchema,
  ConfirmationNodeSchema,
  ConstraintSchema,
  DateAnswerSchema,
  DateBoundSchema,
  DecisionNodeSchema,
  InputNodeSchema,
  DEFAULT_MAX_LENGTH,
  EdgeOutcomeSchema,
  EdgeSchema,
  ELSE_GUARD,
  EmailAnswerSchema,
  EXIT_TARGET,
  FlowDocumentSchema,
  FlowIdSchema,
  FlowNodeSchema,
  FlowPathsSchema,
  FlowVersionSchema,
  GuardTextSchema,
  isElseGuard,
  isRequired,
  NodeIdSchema,
  NumberAnswerSchema,
  PathNodeSchema,
  PhoneAnswerSchema,
  QuestionNodeSchema,
  SnapshotMigrationSchema,
  StringAnswerSchema,
  SubgraphNodeSchema,
  SubgraphSchema,
  TerminalNodeSchema,
  TerminalOutcomeSchema,
  UiHintsSchema,
  ValidatorSchema,
  type ActionNode,
  type AnswerSpec,
  type AnswerType,
  type CategoryAnswer,
  type ConfirmationNode,
  type Constraint,
  type DecisionNode,
  type InputNode,
  type Edge,
  type EdgeOutcome,
  type FlowDocument,
  type FlowDocumentInput,
  type FlowNode,
  type FlowNodeKind,
  type FlowPaths,
  type FlowVersion,
  type PathNode,
  type QuestionNode,
  type SnapshotMigration,
  type Subgraph,
  type SubgraphNode,
  type TerminalNode,
  type TerminalOutcome,
  type Validator,
} from './flow/schema.js';
export { checkFlow, flowErrors, type FlowIssue } from './flow/check.js';
export { compileFlow, EXTRACT_ACTOR_ID, PATHS_ACTOR_ID, type ActionInput, type CompileOptions, type FlowMachine, type FlowMachineEvent, type FlowOutput } from './flow/compile.js';
export { DEFAULT_MAX_ATTEMPTS, UNREADABLE_TERMINAL_ID } from './flow/attempts.js';
export { SKIP_VALUE, readTypedAnswer, validateAnswer, type ReadAnswer } from './flow/answer.js';
export {
  AnswerSourceSchema,
  AnswerValueSchema,
  FlowContextSchema,
  AnswerSchema,
  initialFlowContext,
  type AnswerSource,
  type AnswerValue,
  type FlowContext,
  type FlowEvent,
  type FlowInput,
  type Answer,
} from './flow/context.js';
export { FlowDocumentError, formatProblem, type FlowDocumentProblem } from './flow/errors.js';
export { GATE_CONFIG_NODE_IDS, GateConfigSchema, GateSchema, checkGateConfig, gateConfigToFlow, isGateConfig, type Gate, type GateConfig } from './flow/gate-config.js';
export { flowGraph, type FlowGraph } from './flow/graph.js';
export { flowDocumentJsonSchema, gateConfigJsonSchema } from './flow/json-schema.js';
export { ChecklistSchema, checkChecklist, checklistToFlow, draftIrToFlow, isChecklist, isDraftIr, type Checklist } from './flow/convert.js';
export { MAX_FLOW_TEXT_BYTES, lintFlowText, parseFlowText, parseFlowValue } from './flow/parse.js';
export {
  composeFlow,
  ComposeOptionsSchema,
  FlowCompositionError,
  formatCompositionProblem,
  formatConflict,
  LAYER_LEVELS,
  LayerLevelSchema,
  LayerSchema,
  NodePatchSchema,
  PartialFlowDocumentSchema,
  type AppliedLayer,
  type ComposeOptions,
  type Composition,
  type CompositionChange,
  type CompositionConflict,
  type CompositionProblem,
  type CompositionReport,
  type Layer,
  type LayerLevel,
  type NodePatch,
  type NodeRemoval,
  type PartialFlowDocument,
} from './flow/compose.js';
export type { FlowTraceEvent, FlowTraceEventType } from './flow/trace.js';
export { GuardCompileError, MAX_GUARD_LENGTH, checkGuard, compileGuard, type CompiledGuard, type GuardKind, type GuardProblem, type GuardScope } from './flow/guards/cel.js';
export {
  ArtifactSchema,
  ButtonContextSchema,
  CompletionReasonSchema,
  CompletionSchema,
  HandoffArtifactSchema,
  ProblemStatementArtifactSchema,
  ReplySchema,
  type Artifact,
  type ButtonContext,
  type Completion,
  type CompletionReason,
  type Reply,
} from './flow/reply.js';
export { flowWorkflow, type FlowWorkflowOptions } from './flow/workflow.js';
export { createFlowRuntime, type FlowRuntimeOptions } from './flow/runtime.js';
export { restoreConversation, startConversation, type Conversation, type ConversationOptions, type PersistedConversation } from './flow/conversation.js';
export { migrateSnapshot } from './flow/migrate-snapshot.js';
export {
  BUTTONS_ONLY_MESSAGE,
  DEFAULT_COMPLETED_MESSAGE,
  DEFAULT_CONFIRMATION_PROMPT,
  DEFAULT_HANDOFF_MESSAGE,
  DEFAULT_STOP_MESSAGE,
  DEFAULT_WORKING_MESSAGE,
  NOT_UNDERSTOOD_MESSAGE,
  SKIP_LABEL,
} from './flow/messages.js';

// Reading free text: the offline matcher and model extraction.
export { createExtractActor, type ExtractActorOptions } from './extract/actor.js';
export { classifyConfirmation } from './extract/match-confirmation.js';
export { MAX_MATCH_TEXT_LENGTH, matchCategory, type AbstainReason, type MatchableQuestion, type MatchResult } from './extract/match-category.js';
export { UNKNOWN, extractWithModel, type ModelExtractionOptions } from './extract/model.js';
export { DEFAULT_MODEL_ID, modelFromEnv, type ModelConfig } from './extract/model-from-env.js';
export { extractOffline } from './extract/offline.js';
export {
  ExtractionInputSchema,
  ExtractionOutputSchema,
  type ExtractedValue,
  type ExtractionFailureReason,
  type ExtractionQuestion,
  type ExtractionInput,
  type ExtractionOutput,
  type ExtractionSource,
} from './extract/types.js';
export { parseTypedAnswer, type TypedAnswerType, type TypedParse, type TypedParseOptions, type TypedValue } from './extract/parse-typed.js';

// Path selection with hysteresis: the policy (machines/path-policy.ts) and its choosers.
export {
  DEFAULT_PATH_POLICY,
  NO_PATH,
  PathOptionSchema,
  PathOptionsSchema,
  PathPolicyError,
  PathPolicySchema,
  parsePathOptions,
  parsePathPolicy,
  pathPolicyWarnings,
  type ChooseInput,
  type PathChoice,
  type PathOption,
  type PathOptionInput,
  type PathPolicy,
  type PathPolicyInput,
  type PathState,
  type PathTurn,
  type PathVote,
  type VoteOutcome,
} from '../machines/path-policy.js';
export { choosePathOffline, createKeywordChooser } from './paths/offline-chooser.js';
export { choosePathWithModel, createModelChooser, type ModelChooserOptions } from './paths/model-chooser.js';

// Drawings of any machine.
export { drawMachine, type DrawingFormat } from './viz/index.js';
export { machineDrawing, type DrawnInput, type DrawnInvoke, type DrawnState, type DrawnStateType, type DrawnTransition, type MachineDrawing } from './viz/model.js';
export { toMermaid } from './viz/mermaid.js';
export { toDot } from './viz/dot.js';
export { DRAWING_FORMAT, drawingSvg, layoutDrawing, standaloneMachineDrawing, workflowDrawing } from './viz/index.js';
export type { DrawingLayout, DrawingLevel, Outline, OutlineEdge, OutlineNode, WorkflowDrawing } from './viz/index.js';
export { flowOutline } from './flow/index.js';
