export {
  DONE_EXTRACT,
  ERROR_EXTRACT,
  MODEL_TODAY,
  flowSearchKey,
  type FlowTestOptions,
  type FlowReplayOptions,
  UNCLEAR_TEXT,
  UNKNOWN_BUTTON,
  allStateNodes,
  allTransitions,
  flowTestEvents,
  generateFlowPaths,
  replayFlowPaths,
  type CoverageFigure,
  type FlowCoverage,
  type FlowTestEvent,
  type FlowTestPath,
} from './model-based.js';
export {
  ABSTAIN,
  EvalCaseError,
  EvalCaseSchema,
  evaluateMatcher,
  parseEvalCases,
  type EvalCase,
  type EvalFigures,
  type EvalReport,
  type EvalResult,
} from './evaluate-matcher.js';
export { answeredInContext, defaultAnswers, describeEvent, doneEvent, errorEvent, eventKey, generateMachinePaths, inputTestEvents, machineStateNodes, machineTransitions, replayMachinePaths, type MachineCoverage, type MachinePath, type MachinePathOptions, type ReplayedStep, type ReplayOptions, type StartedActor } from './machine-paths.js';
export {
  CoverageFigureSchema,
  CoverageReportSchema,
  UnreachedItemSchema,
  eventsSeen,
  flowCoverageReport,
  flowCoverageRun,
  mergeCoverage,
  unreachedItems,
  type CoverageProgress,
  type CoverageReport,
  type EventsSeen,
  type FlowCoverageOptions,
  type UnreachedItem,
} from './coverage-report.js';
export {
  CHAOS_OUTCOMES,
  ChaosModelError,
  DEFAULT_CHAOS_WEIGHTS,
  chaosModel,
  type ChaosCall,
  type ChaosModel,
  type ChaosModelOptions,
  type ChaosOutcome,
} from './chaos-model.js';
export { seededRandom, type Random } from './random.js';
export { sampleSchema, wordsOf, type SampleOptions } from './schema-sample.js';
export { SessionInvariants, violationsText, type InvariantOptions, type InvariantViolation } from './invariants.js';
export {
  CONVERSATION_FORMAT,
  ConversationFileError,
  ConversationTestSchema,
  MAX_CONVERSATION_TURNS,
  ReplyExpectationSchema,
  conversationOf,
  expectationOf,
  parseConversationTest,
  type ConversationTest,
  type ReplyExpectation,
} from './conversation-format.js';
export { describeDifference, firstDifference, runConversation, type ConversationDifference, type ConversationResult } from './conversation.js';
