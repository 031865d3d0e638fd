import { z } from 'zod';

/**
 * The flow document: what authors write. Nodes are the states of the compiled
 * machine; edges say where each node goes and on which outcome.
 *
 * Cross-field rules (limiting values must be categories, edges must point at
 * existing nodes, ...) live in `check.ts` so that every refusal carries the path
 * of the offending field.
 */

const text = z.string().trim().min(1, 'must not be empty');

/** Node ids become state keys: no dots (XState paths) and no `#` (state ids). */
export const NodeIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_-]*$/, 'must use only letters, digits, "_" and "-"');

export const FlowIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must use only lowercase letters, digits, "_" and "-"');

export const FlowVersionSchema = z.union([z.string().trim().min(1), z.number().int().nonnegative()], {
  error: (issue) =>
    issue.input === undefined ? 'is required' : 'must be a non-empty string (such as "1.2.0") or a whole number',
});

export const CategoryAnswerSchema = z.strictObject({
  type: z.literal('category'),
  categories: z.array(text).min(1, 'needs at least one category'),
  /** Extra words or phrases that mean a category, keyed by the category. */
  synonyms: z.record(z.string(), z.array(text)).optional(),
});

export const QuestionNodeSchema = z.strictObject({
  kind: z.literal('question'),
  id: NodeIdSchema,
  prompt: text,
  /** A short name for the summary; the prompt is used when absent. */
  label: text.optional(),
  answer: CategoryAnswerSchema,
  /** Categories that end the intake at once (through the `limiting` edge). */
  limitingValues: z.array(text).optional(),
  stopMessage: text.optional(),
});

export const ConfirmationNodeSchema = z.strictObject({
  kind: z.literal('confirmation'),
  id: NodeIdSchema,
  prompt: text.optional(),
  confirmLabel: text.default('Looks Good'),
  editLabel: text.default('Edit Answers'),
});

export const TerminalOutcomeSchema = z.enum(['handoff', 'stopped', 'completed']);

export const TerminalNodeSchema = z.strictObject({
  kind: z.literal('terminal'),
  id: NodeIdSchema,
  outcome: TerminalOutcomeSchema,
  message: text.optional(),
});

export const FlowNodeSchema = z.discriminatedUnion('kind', [
  QuestionNodeSchema,
  ConfirmationNodeSchema,
  TerminalNodeSchema,
]);

/**
 * The outcome an edge is taken on. A question leaves on `answered` or, when a
 * limiting value was given, on `limiting`; a confirmation on `confirmed` or `edit`.
 */
export const EdgeOutcomeSchema = z.enum(['answered', 'limiting', 'confirmed', 'edit']);

export const EdgeSchema = z.strictObject({
  from: NodeIdSchema,
  to: NodeIdSchema,
  on: EdgeOutcomeSchema.optional(),
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
  id: FlowIdSchema,
  version: FlowVersionSchema,
  title: text.optional(),
  description: z.string().optional(),
  /** The first node; the first node listed when absent. */
  start: NodeIdSchema.optional(),
  nodes: z.array(FlowNodeSchema).min(1, 'needs at least one node'),
  edges: z.array(EdgeSchema),
  migrations: z.array(SnapshotMigrationSchema).optional(),
});

export type FlowVersion = z.infer<typeof FlowVersionSchema>;
export type CategoryAnswer = z.infer<typeof CategoryAnswerSchema>;
export type QuestionNode = z.infer<typeof QuestionNodeSchema>;
export type ConfirmationNode = z.infer<typeof ConfirmationNodeSchema>;
export type TerminalNode = z.infer<typeof TerminalNodeSchema>;
export type TerminalOutcome = z.infer<typeof TerminalOutcomeSchema>;
export type FlowNode = z.infer<typeof FlowNodeSchema>;
export type EdgeOutcome = z.infer<typeof EdgeOutcomeSchema>;
export type Edge = z.infer<typeof EdgeSchema>;
export type SnapshotMigration = z.infer<typeof SnapshotMigrationSchema>;
/** A flow document after parsing (defaults filled in). */
export type FlowDocument = z.infer<typeof FlowDocumentSchema>;
/** A flow document as written (defaults may be missing). */
export type FlowDocumentInput = z.input<typeof FlowDocumentSchema>;
