/**
 * The task agent (seed 004): a goal parsed, planned step by step, each call
 * routed through the tool registry and run on the owner's property graph,
 * evaluated, diagnosed and retried or escalated to the person, and answered.
 * The machine is machines/task-agent.ts; this folder holds its actors, its
 * schemas, the offline reader and the workflow that saves its graph changes.
 */
export { taskAgentActors, type TaskAgentActorOptions } from './actors.js';
export { backoffMs, diagnoseByRule } from './diagnose.js';
export { commitWrites, GraphChangedError, previewCall, ToolTimeoutError } from './graph-steps.js';
export { taskAgentHost, type TaskAgentHostOptions } from './host.js';
export { readGoalOffline, type OfflineReading } from './offline-reader.js';
export {
  AnswerSchema,
  ContradictionSchema,
  DiagnosisSchema,
  GoalSpecSchema,
  StepPlanSchema,
  ToolSignatureSchema,
  type Answer,
  type Contradiction,
  type Diagnosis,
  type GoalSpec,
  type StepPlan,
  type ToolSignature,
} from './schemas.js';
export { describeStep, summarizeSteps } from './summary.js';
export { DEFAULT_GOAL_LIMITS, goalOutcome, type GoalLimits, type GoalOutcome } from '../../machines/task-agent.js';
export { TASK_AGENT_GREETING, TASK_AGENT_ID, taskAgentWorkflow, type TaskAgentWorkflowOptions } from './workflow.js';
