import { z } from 'zod';
import { PropertyValueSchema } from '../graph/model.js';

/**
 * What the task agent's model steps return (seed 004): one zod schema each,
 * the single source of the model's output format, of its validation and of
 * the types the machine keeps. The offline reader returns the same shapes.
 */

/** A call of one tool: its name and arguments, checked against the registry in route_tool. */
export const ToolSignatureSchema = z.strictObject({
  tool: z.string().min(1).max(64).describe('The tool to call, by name (one of the tools listed)'),
  args: z.record(z.string(), z.unknown()).describe("The tool's arguments, as its input schema says"),
});
export type ToolSignature = z.infer<typeof ToolSignatureSchema>;

/** Something the goal is about: a node (label and key) or an edge. */
export const GoalEntitySchema = z.strictObject({
  kind: z.enum(['node', 'edge']),
  label: z.string().max(64).nullable().describe('The node label (Ticket) or the edge type (REPORTS)'),
  key: z.string().max(200).nullable().describe("The node's key, when named"),
});

/** A property value the goal asks for (`status` of `Ticket TICKET-456` is `open`). */
export const GoalConstraintSchema = z.strictObject({
  subject: z.string().max(200).describe('What it applies to, such as "Ticket TICKET-456"'),
  property: z.string().max(64),
  value: PropertyValueSchema,
});

/** Two values the goal asks for at once for one property: only the person can choose. */
export const ContradictionSchema = z.strictObject({
  subject: z.string().max(200),
  property: z.string().max(64),
  // Each becomes a button of the question asked: a blank or repeated one could not be chosen.
  values: z
    .array(z.string().trim().min(1).max(200).regex(/\S/, 'must not be blank'))
    .min(2)
    .max(5)
    .refine((values) => new Set(values).size === values.length, 'the values must differ')
    .meta({ uniqueItems: true, description: 'The values asked for, as the person wrote them (at least two different ones)' }),
});
export type Contradiction = z.infer<typeof ContradictionSchema>;

/** parse_goal's output: the person's goal, structured. */
export const GoalSpecSchema = z.strictObject({
  intent: z.enum(['create', 'update', 'delete', 'query', 'mixed', 'unsupported', 'unclear']).describe(
    'What the goal does to the graph; unsupported: outside what the tools can do (say so in unsupportedReason); unclear: too vague to act on',
  ),
  summary: z.string().max(500).describe('The goal in one sentence'),
  entities: z.array(GoalEntitySchema).max(50),
  constraints: z.array(GoalConstraintSchema).max(100),
  complexity: z.enum(['simple', 'complex']).describe('simple: one tool call does it; complex: several steps'),
  confidence: z.number().min(0).max(1).describe('How sure the reading is: below 0.5 the person is asked'),
  contradictions: z.array(ContradictionSchema).max(10).describe('Properties asked to hold two values at once'),
  unsupportedReason: z.string().max(300).nullable().describe('For unsupported: what the person asked that no tool does'),
  /** For a simple goal: the one call that does it (route_tool checks it). */
  step: ToolSignatureSchema.nullable().describe('For a simple goal: the one tool call that does it; null otherwise'),
});
export type GoalSpec = z.infer<typeof GoalSpecSchema>;

/** plan_step's output: the next call, and whether it finishes the goal. */
export const StepPlanSchema = z.strictObject({
  rationale: z.string().max(500).describe('Why this step, in one sentence'),
  call: ToolSignatureSchema,
  isFinalStep: z.boolean().describe('True when the goal is complete once this call succeeds'),
});
export type StepPlan = z.infer<typeof StepPlanSchema>;

/** How a failure is classified (seed: systematic, random, identical) and what follows. */
export const DiagnosisSchema = z.strictObject({
  kind: z.enum(['systematic', 'random', 'identical']).describe(
    'systematic: the call or the goal is wrong and retrying it unchanged fails again; random: a passing fault (timeout, store down); identical: the same failing call was tried before',
  ),
  remedy: z.enum(['retry', 'replan', 'escalate']).describe('retry: the same step after a pause; replan: a different step; escalate: ask the person'),
  explanation: z.string().max(500).describe('What went wrong, for the person and for the next plan'),
});
export type Diagnosis = z.infer<typeof DiagnosisSchema>;

/** answer's output: what the person is told. */
export const AnswerSchema = z.strictObject({
  message: z.string().min(1).max(4000).describe('The answer to the person: what was done, call by call, and what was not'),
});
export type Answer = z.infer<typeof AnswerSchema>;
