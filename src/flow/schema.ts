import { z } from 'zod';
import { PathOptionsSchema, PathPolicySchema } from '../../machines/path-policy.js';
import {
  AnswerKeySchema,
  AnswerSpecSchema,
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
export { InputNodeSchema, type InputNode } from './nodes/input.js';
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
  from: NodeIdSchema.meta({ description: 'The id of the node the edge leaves.', examples: ['ask_name'] }),
  to: z
    .union([NodeIdSchema, z.literal(EXIT_TARGET)])
    .meta({ description: 'The id of the node the edge goes to; "__exit__" leaves a subgraph.', examples: ['review'] }),
  on: EdgeOutcomeSchema.describe('The outcome the edge is taken on: "answered", "limiting" or "invalid" (a question), "confirmed" or "edit" (a confirmation), "done" or "error" (an action), "done" (a subgraph), "next" (a decision or path). Its node\'s first outcome when absent.').optional(),
  /** A CEL guard; edges leaving a node on one outcome are tried in the order written. */
  guard: GuardTextSchema.meta({
    description: 'A CEL guard over `answers`, `context` and `constraints`: edges leaving a node on one outcome are tried in the order written; the last is "else" (or has none).',
    examples: ["answers.guests >= 50.0", 'else'],
  }).optional(),
  label: text.describe('A name for the edge in drawings.').optional(),
});

/** A reusable piece of flow, entered at `entry`, left through edges to `__exit__`. */
export const SubgraphSchema = z.strictObject({
  title: text.describe('A name for the subgraph in drawings.').optional(),
  entry: NodeIdSchema.meta({ description: 'The id of the node the subgraph starts at.', examples: ['venue'] }),
  nodes: z.array(FlowNodeSchema).min(1, 'needs at least one node').describe('The subgraph\'s nodes (ids unique within it).'),
  edges: z.array(EdgeSchema).describe('The subgraph\'s edges; an edge to "__exit__" returns to the node that called it.'),
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
  name: AnswerKeySchema.meta({ description: 'The constraint\'s name: guards read it as constraints.<name>.', examples: ['contact_given'] }),
  oneOf: z.array(AnswerKeySchema).min(2, 'needs at least two keys').meta({ description: 'Answer keys of which at least one must be answered.', examples: [['email', 'phone']] }).optional(),
  exclusive: z.boolean().describe('true: once one of `oneOf` is answered, the others are not asked.').default(false),
  check: GuardTextSchema.meta({ description: 'A CEL expression over `answers` and `context` that must hold.', examples: ['answers.guests <= 200.0'] }).optional(),
  message: text.describe('What the person is told when the constraint fails.'),
  fallback: NodeIdSchema.describe('With it the constraint is enforced: a review or successful end is not entered while it fails; the flow goes to this node (of the main flow).').optional(),
});

/** Paths chosen with hysteresis (machines/path-selection.ts): the options, and the policy's knobs (defaults per machines/path-policy.ts). */
export const FlowPathsSchema = z.strictObject({
  options: PathOptionsSchema.refine((o) => o.length >= 2, 'needs at least two paths').describe('The paths a conversation may take (at least two).'),
  policy: PathPolicySchema.describe('How votes lock a path; every knob has a default.').optional(),
});

/**
 * How a snapshot saved with an earlier version of this flow maps onto this
 * one: node ids that were renamed or removed, and the node that takes their
 * place. Answers to questions that no longer exist are dropped.
 */
export const SnapshotMigrationSchema = z.strictObject({
  from: FlowVersionSchema.describe('The earlier version whose snapshots this maps.'),
  nodes: z.record(NodeIdSchema, NodeIdSchema).describe('Old node id → the node of this version that takes its place.').default({}),
});

export const FlowDocumentSchema = z.strictObject({
  $schema: z.string().describe('The JSON Schema this document follows (for editors): `gateflow schema` prints it.').optional(),
  /** The format of this document; v1 when absent. Older formats go through `migrateFlowDocument`. */
  format: z.literal('gateflow/v1').describe('The format of this document: "gateflow/v1" (the default).').optional(),
  id: FlowIdSchema.meta({ description: 'The flow\'s id: lowercase letters, digits, "_" and "-".', examples: ['patient-intake'] }),
  version: FlowVersionSchema.meta({ description: 'The flow\'s version: sessions are stored with it.', examples: ['1.0.0', 1] }),
  title: text.describe('A name people see (the demo page lists flows by it).').optional(),
  description: z.string().describe('What the flow is for, for authors.').optional(),
  /** The first node; the first node listed when absent. */
  start: NodeIdSchema.describe('The id of the first node; the first node listed when absent.').optional(),
  nodes: z.array(FlowNodeSchema).min(1, 'needs at least one node').describe('The nodes of the main flow, each with its `kind`.'),
  edges: z.array(EdgeSchema).describe('Where each node goes: { from, to, on?, guard? }.'),
  subgraphs: z.record(NodeIdSchema, SubgraphSchema).describe('Reusable pieces of flow by name, called by subgraph nodes.').optional(),
  constraints: z.array(ConstraintSchema).describe('Rules over several answers, read by guards as constraints.<name>.').optional(),
  paths: FlowPathsSchema.describe('Paths chosen with hysteresis, for path nodes (read by guards as context.path).').optional(),
  /**
   * Failed answers a question allows when it sets no `maxAttempts` of its own;
   * `DEFAULT_MAX_ATTEMPTS` (3) when absent. See the question's `maxAttempts`.
   */
  maxAttempts: z.number().int().min(1).max(100).describe('Failed answers a question allows when it sets no maxAttempts of its own; 3 when absent.').optional(),
  /**
   * Where a question (or path node) goes when it gives up after its failed
   * answers and has no `invalid` edge. When absent, a question keeps asking,
   * and a path node that can give up ends the compiled flow in an implicit
   * stop terminal, `__unreadable__` (reason `stopped`).
   */
  fallback: NodeIdSchema.describe('Where a question that gives up goes when it has no `invalid` edge; when absent a question keeps asking, and a path node ends in a stop terminal.').optional(),
  migrations: z.array(SnapshotMigrationSchema).describe('How sessions saved with earlier versions continue on this one.').optional(),
  ui: UiHintsSchema.describe('Hints for a visual editor and the drawings.').optional(),
  /**
   * Answers the host gives when a session starts, by answer key: a start
   * fact of that name (`context`) that fits its answer type is stored as the
   * answer before the first node. Guards may read only keys a question, an
   * action or an input gives.
   */
  inputs: z
    .record(AnswerKeySchema, AnswerSpecSchema)
    .meta({
      description: 'Answers the host gives at start, by answer key: a start fact of that name that fits the type is stored as the answer. Guards may read only keys a question, an action or an input gives.',
      examples: [{ plan: { type: 'category', categories: ['basic', 'pro'] } }],
    })
    .optional(),
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
