import { z } from 'zod';
import { PathOptionsSchema, PathPolicySchema } from '../../machines/path-policy.js';

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

const text = z.string().trim().min(1, 'must not be empty');

/** Node ids become state keys: no dots (XState paths) and no `#` (state ids). */
export const NodeIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_-]*$/, 'must use only letters, digits, "_" and "-"');

/** Answer keys are what guards read (`answers.court_size`): CEL identifiers. */
export const AnswerKeySchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an identifier: letters, digits and "_", not starting with a digit');

export const FlowIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must use only lowercase letters, digits, "_" and "-"');

export const FlowVersionSchema = z.union([z.string().trim().min(1), z.number().int().nonnegative()], {
  error: (issue) =>
    issue.input === undefined ? 'is required' : 'must be a non-empty string (such as "1.2.0") or a whole number',
});

/** A CEL expression over `answers`, `context` and `constraints` (see guards/cel.ts). */
export const GuardTextSchema = z.string().trim().min(1, 'must not be empty');

/** Hints for a visual editor and the drawings: kept in the compiled state's `meta.ui`. */
export const UiHintsSchema = z.record(z.string(), z.json());

// ---------------------------------------------------------------- answers

export const CategoryAnswerSchema = z.strictObject({
  type: z.literal('category'),
  categories: z.array(text).min(1, 'needs at least one category'),
  /** Extra words or phrases that mean a category, keyed by the category. */
  synonyms: z.record(z.string(), z.array(text)).optional(),
});

export const StringAnswerSchema = z.strictObject({
  type: z.literal('string'),
  minLength: z.number().int().nonnegative().optional(),
  /** 2000 when absent. */
  maxLength: z.number().int().positive().max(10_000).optional(),
  /** A regular expression the whole answer must match. */
  pattern: z.string().optional(),
  patternMessage: text.optional(),
});

export const NumberAnswerSchema = z.strictObject({
  type: z.literal('number'),
  min: z.number().optional(),
  max: z.number().optional(),
  integer: z.boolean().optional(),
  /** Shown after the number in summaries ("W", "m²"). */
  unit: text.optional(),
});

export const BooleanAnswerSchema = z.strictObject({
  type: z.literal('boolean'),
  /** "Yes" when absent. */
  trueLabel: text.optional(),
  /** "No" when absent. */
  falseLabel: text.optional(),
});

/** An ISO date (YYYY-MM-DD) or `today`, resolved when the answer is checked. */
export const DateBoundSchema = z.union([z.iso.date(), z.literal('today')]);

export const DateAnswerSchema = z.strictObject({
  type: z.literal('date'),
  min: DateBoundSchema.optional(),
  max: DateBoundSchema.optional(),
});

export const EmailAnswerSchema = z.strictObject({ type: z.literal('email') });
export const PhoneAnswerSchema = z.strictObject({ type: z.literal('phone') });

export const AnswerSpecSchema = z.discriminatedUnion('type', [
  CategoryAnswerSchema,
  StringAnswerSchema,
  NumberAnswerSchema,
  BooleanAnswerSchema,
  DateAnswerSchema,
  EmailAnswerSchema,
  PhoneAnswerSchema,
]);

/** A rule an answer must pass before it is stored: a CEL expression over `value`, `answers` and `context`. */
export const ValidatorSchema = z.strictObject({
  check: GuardTextSchema,
  /** What the person is told when the rule fails. */
  message: text,
});

// ---------------------------------------------------------------- nodes

const common = {
  id: NodeIdSchema,
  label: text.optional(),
  ui: UiHintsSchema.optional(),
};

export const QuestionNodeSchema = z.strictObject({
  kind: z.literal('question'),
  ...common,
  /** Where the answer is stored (`answers.<key>`); the node id when absent. */
  key: AnswerKeySchema.optional(),
  prompt: text,
  answer: AnswerSpecSchema,
  /** True when absent. An optional question can be skipped (a "Skip" button, or saying so). */
  required: z.boolean().optional(),
  /** Applicability: when this guard is false the question is passed over, unanswered. */
  when: GuardTextSchema.optional(),
  validators: z.array(ValidatorSchema).optional(),
  /**
   * Failed answers allowed (unreadable or refused turns in a row); the flow's
   * `maxAttempts` when absent, else `DEFAULT_MAX_ATTEMPTS` (3): no question
   * asks forever. A question with answer buttons (category, yes/no) then
   * offers the buttons alone (state `buttonsOnly`: a button, or a text the
   * offline matcher reads surely, still answers) and gives up at one more
   * failure; any other question gives up at the last allowed failure. Giving
   * up takes the `invalid` edge, else the flow's `fallback`, else the implicit
   * stop terminal `__unreadable__`.
   */
  maxAttempts: z.number().int().min(1).max(100).optional(),
  /** Categories that end the intake at once (through the `limiting` edge). */
  limitingValues: z.array(text).optional(),
  stopMessage: text.optional(),
});

export const ConfirmationNodeSchema = z.strictObject({
  kind: z.literal('confirmation'),
  ...common,
  prompt: text.optional(),
  confirmLabel: text.default('Looks Good'),
  editLabel: text.default('Edit Answers'),
});

export const TerminalOutcomeSchema = z.enum(['handoff', 'stopped', 'completed']);

export const TerminalNodeSchema = z.strictObject({
  kind: z.literal('terminal'),
  ...common,
  outcome: TerminalOutcomeSchema,
  message: text.optional(),
});

/** A branch point: its edges are tried in order, the first whose guard holds is taken; the last is `else`. */
export const DecisionNodeSchema = z.strictObject({
  kind: z.literal('decision'),
  ...common,
});

/**
 * Runs a named actor the host provides (an HTTP call, a tool, a lookup). Its
 * output's fields are stored as answers by `assign`; a failure takes the
 * `error` edge.
 */
export const ActionNodeSchema = z.strictObject({
  kind: z.literal('action'),
  ...common,
  /** The actor's name in the registry given to `compileFlow(doc, { actors })`. */
  actor: AnswerKeySchema,
  /** Fixed input for the actor, passed beside the answers. */
  params: z.record(z.string(), z.json()).optional(),
  /** Answer key → field of the actor's output (dotted path; `""` for the whole output). */
  assign: z.record(AnswerKeySchema, z.string()).optional(),
  /** The message shown while the action runs. */
  message: text.optional(),
});

/** Calls a subflow (`subgraphs[ref]`): enters its `entry`; its `__exit__` returns here and leaves on `done`. */
export const SubgraphNodeSchema = z.strictObject({
  kind: z.literal('subgraph'),
  ...common,
  ref: NodeIdSchema,
});

/**
 * Waits until path selection locks a path (see `paths`): while it waits every
 * message is a vote. Its edges are guarded on `context.path.locked`.
 */
export const PathNodeSchema = z.strictObject({
  kind: z.literal('path'),
  ...common,
  prompt: text,
  /**
   * Messages allowed (each is a vote) before the `invalid` edge (else the
   * flow's `fallback`, else the implicit stop terminal `__unreadable__`) is
   * taken on a vote that locks no path. When absent: the votes a path needs to
   * lock (`paths.policy.lockThreshold`) plus the flow's `maxAttempts` (else
   * `DEFAULT_MAX_ATTEMPTS`), less one.
   */
  maxAttempts: z.number().int().min(1).max(100).optional(),
});

export const FlowNodeSchema = z.discriminatedUnion('kind', [
  QuestionNodeSchema,
  ConfirmationNodeSchema,
  TerminalNodeSchema,
  DecisionNodeSchema,
  ActionNodeSchema,
  SubgraphNodeSchema,
  PathNodeSchema,
]);

// ---------------------------------------------------------------- edges

/**
 * The outcome an edge is taken on. A question leaves on `answered`, on
 * `limiting` when a limiting value was given, on `invalid` when it gives up
 * after its failed answers (see `maxAttempts`); a confirmation on `confirmed` or `edit`; an
 * action on `done` or `error`; a subgraph on `done` (its `__exit__`); a
 * decision and a path node on `next`.
 */
export const EdgeOutcomeSchema = z.enum(['answered', 'limiting', 'invalid', 'confirmed', 'edit', 'done', 'error', 'next']);

/** The target that leaves a subgraph and returns to the node that called it. */
export const EXIT_TARGET = '__exit__';
/** The guard text of the last edge of a group: taken when no earlier guard holds. */
export const ELSE_GUARD = 'else';

/** An edge taken when no earlier one of its group is: no guard, or `else`. */
export const isElseGuard = (guard: string | undefined): boolean => guard === undefined || guard === ELSE_GUARD;

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

export type FlowVersion = z.infer<typeof FlowVersionSchema>;
export type CategoryAnswer = z.infer<typeof CategoryAnswerSchema>;
export type AnswerSpec = z.infer<typeof AnswerSpecSchema>;
export type AnswerType = AnswerSpec['type'];
export type Validator = z.infer<typeof ValidatorSchema>;
export type QuestionNode = z.infer<typeof QuestionNodeSchema>;
export type ConfirmationNode = z.infer<typeof ConfirmationNodeSchema>;
export type TerminalNode = z.infer<typeof TerminalNodeSchema>;
export type DecisionNode = z.infer<typeof DecisionNodeSchema>;
export type ActionNode = z.infer<typeof ActionNodeSchema>;
export type SubgraphNode = z.infer<typeof SubgraphNodeSchema>;
export type PathNode = z.infer<typeof PathNodeSchema>;
export type TerminalOutcome = z.infer<typeof TerminalOutcomeSchema>;
export type FlowNode = z.infer<typeof FlowNodeSchema>;
export type FlowNodeKind = FlowNode['kind'];
export type EdgeOutcome = z.infer<typeof EdgeOutcomeSchema>;
export type Edge = z.infer<typeof EdgeSchema>;
export type Subgraph = z.infer<typeof SubgraphSchema>;
export type Constraint = z.infer<typeof ConstraintSchema>;
export type FlowPaths = z.infer<typeof FlowPathsSchema>;
export type SnapshotMigration = z.infer<typeof SnapshotMigrationSchema>;
/** A flow document after parsing (defaults filled in). */
export type FlowDocument = z.infer<typeof FlowDocumentSchema>;
/** A flow document as written (defaults may be missing). */
export type FlowDocumentInput = z.input<typeof FlowDocumentSchema>;

/** The longest text answer when the flow sets none. */
export const DEFAULT_MAX_LENGTH = 2000;

/** Whether a question must be answered (it may be skipped otherwise). */
export const isRequired = (q: Pick<QuestionNode, 'required'>): boolean => q.required !== false;

/** The labels of a yes/no answer. */
export const booleanLabels = (spec: { trueLabel?: string | undefined; falseLabel?: string | undefined }) => ({
  trueLabel: spec.trueLabel ?? 'Yes',
  falseLabel: spec.falseLabel ?? 'No',
});

/** Where a question's answer is stored. */
export const answerKey = (q: Pick<QuestionNode, 'id' | 'key'>): string => q.key ?? q.id;
