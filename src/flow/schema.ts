import { z } from 'zod';
import { PathOptionsSchema, PathPolicySchema } from '../../machines/path-policy.js';
import {
  AnswerKeySchema,
  EdgeOutcomeSchema,
  EXIT_TARGET,
  FlowIdSchema,
  FlowVersionSchema,
  GuardTextSchema,
  NodeIdSchema,
  UiHintsSchema,
  text,
} from './fields.js';
import { NODE_KINDS, type NodeKinds } from './nodes/index.js';

/**
 * The flow document (v1): what authors write. Nodes are the states of the
 * compiled machine; edges say where each node goes, on which outcome and
 * under which guard. A gate config (the seed's intake format) converts to one
 * of these (gate-config.ts); a flat checklist (the seed's v0) too (migrate.ts).
 *
 * Cross-field rules (edges point at nodes that exist, limiting values are
 * categories, guards type-check, ...) live in `check.ts` so that every
 * refusal carries the path of the offending field.
 */

// The building blocks (ids, answers, outcomes, ...) are in fields.ts; they are part of this module's public face.
export {
  AnswerKeySchema,
  AnswerSpecSchema,
  BooleanAnswerSchema,
  CategoryAnswerSchema,
  DEFAULT_MAX_LENGTH,
  DateAnswerSchema,
  DateBoundSchema,
  ELSE_GUARD,
  EXIT_TARGET,
  EdgeOutcomeSchema,
  EmailAnswerSchema,
  FlowIdSchema,
  FlowVersionSchema,
  GuardTextSchema,
  NodeIdSchema,
  NumberAnswerSchema,
  PhoneAnswerSchema,
  StringAnswerSchema,
  TerminalOutcomeSchema,
  UiHintsSchema,
  ValidatorSchema,
  answerKey,
  booleanLabels,
  isElseGuard,
  isRequired,
  type AnswerSpec,
  type AnswerType,
  type CategoryAnswer,
  type EdgeOutcome,
  type FlowVersion,
  type TerminalOutcome,
  type Validator,
} from './fields.js';

// ---------------------------------------------------------------- nodes

// Each node kind's schema is in its module (nodes/<kind>.ts); they are part of this module's public face.
export { ActionNodeSchema, type ActionNode } from './nodes/action.js';
export { ConfirmationNodeSchema, type ConfirmationNode } from './nodes/confirmation.js';
export { DecisionNodeSchema, type DecisionNode } from './nodes/decision.js';
export { PathNodeSchema, type PathNode } from './nodes/path.js';
export { QuestionNodeSchema, type QuestionNode } from './nodes/question.js';
export { SubgraphNodeSchema, type SubgraphNode } from './nodes/subgraph.js';
export { TerminalNodeSchema, type TerminalNode } from './nodes/terminal.js';

/** The schema of one registered node kind. */
type RegisteredNodeSchema = NodeKinds[keyof NodeKinds]['schema'];

/** A node of any registered kind (nodes/index.ts), told apart by its `kind`. */
export const FlowNodeSchema = z.discriminatedUnion(
  'kind',
  Object.values(NODE_KINDS).map((kind) => kind.schema) as [RegisteredNodeSchema, ...RegisteredNodeSchema[]],
);

// ---------------------------------------------------------------- edges

export const EdgeSchema = z.strictObject({
  from: NodeIdSchema,
  to: z.union([NodeIdSchema, z.literal(EXIT_TARGET)]),
  on: EdgeOutcomeSchema.optional(),
  /** A CEL guard; edges leaving a node on one outcome are tried in the order written. */
  guard: GuardTextSchema.optional(),
  label: text.optional(),
});

/** A reusable piece of flow, entered at `entry`, left through edges to `__exit__`. */
export const SubgraphSchema = z.strictObject({
  title: text.optional(),
  entry: NodeIdSchema,
  nodes: z.array(FlowNodeSchema).min(1, 'needs at least one node'),
  edges: z.array(EdgeSchema),
});

// ---------------------------------------------------------------- flow-level rules

/**
 * A rule over several answers, by name: `oneOf` (at least one of these keys
 * answered; with `exclusive`, the others are not asked once one is) and/or a
 * CEL `check`. Guards read it as `constraints.<name>`. With `fallback`, it is
 * enforced: a confirmation, or a completed or handoff terminal, of the main
 * flow is not entered while it fails; the flow goes to `fallback` and says
 * `message`.
 */
export const ConstraintSchema = z.strictObject({
  name: AnswerKeySchema,
  oneOf: z.array(AnswerKeySchema).min(2, 'needs at least two keys').optional(),
  exclusive: z.boolean().default(false),
  check: GuardTextSchema.optional(),
  message: text,
  fallback: NodeIdSchema.optional(),
});

/** Paths chosen with hysteresis (machines/path-selection.ts): the options, and the policy's knobs (defaults per machines/path-policy.ts). */
export const FlowPathsSchema = z.strictObject({
  options: PathOptionsSchema.refine((o) => o.length >= 2, 'needs at least two paths'),
  policy: PathPolicySchema.optional(),
});

/**
 * How a snapshot saved with an earlier version of this flow maps onto this
 * one: node ids that were renamed or removed, and the node that takes their
 * place. Answers to questions that no longer exist are dropped.
 */
export const SnapshotMigrationSchema = z.strictObject({
  from: FlowVersionSchema,
  nodes: z.record(NodeIdSchema, NodeIdSchema).default({}),
});

export const FlowDocumentSchema = z.strictObject({
  $schema: z.string().optional(),
  /** The format of this document; v1 when absent. Older formats go through `migrateFlowDocument`. */
  format: z.literal('gateflow/v1').optional(),
  id: FlowIdSchema,
  version: FlowVersionSchema,
  title: text.optional(),
  description: z.string().optional(),
  /** The first node; the first node listed when absent. */
  start: NodeIdSchema.optional(),
  nodes: z.array(FlowNodeSchema).min(1, 'needs at least one node'),
  edges: z.array(EdgeSchema),
  subgraphs: z.record(NodeIdSchema, SubgraphSchema).optional(),
  constraints: z.array(ConstraintSchema).optional(),
  paths: FlowPathsSchema.optional(),
  /**
   * Failed answers a question allows when it sets no `maxAttempts` of its own;
   * `DEFAULT_MAX_ATTEMPTS` (3) when absent. See the question's `maxAttempts`.
   */
  maxAttempts: z.number().int().min(1).max(100).optional(),
  /**
   * Where a question (or path node) goes when it gives up after its failed
   * answers and has no `invalid` edge. When absent and some question can give
   * up that way, the compiled flow ends in an implicit stop terminal,
   * `__unreadable__` (reason `stopped`).
   */
  fallback: NodeIdSchema.optional(),
  migrations: z.array(SnapshotMigrationSchema).optional(),
  ui: UiHintsSchema.optional(),
});

export type FlowNode = z.infer<typeof FlowNodeSchema>;
export type FlowNodeKind = FlowNode['kind'];
export type Edge = z.infer<typeof EdgeSchema>;
export type Subgraph = z.infer<typeof SubgraphSchema>;
export type Constraint = z.infer<typeof ConstraintSchema>;
export type FlowPaths = z.infer<typeof FlowPathsSchema>;
export type SnapshotMigration = z.infer<typeof SnapshotMigrationSchema>;
/** A flow document after parsing (defaults filled in). */
export type FlowDocument = z.infer<typeof FlowDocumentSchema>;
/** A flow document as written (defaults may be missing). */
export type FlowDocumentInput = z.input<typeof FlowDocumentSchema>;
