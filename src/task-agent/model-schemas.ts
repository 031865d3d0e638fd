import type { JSONSchema7 } from 'ai';
import type { ToolRegistry } from '../graph/tools/registry.js';
import type { GraphTool } from '../graph/tools/tool.js';
import { modelJsonSchema, modelSchema, type ModelSchema } from '../extract/object-call.js';
import { AnswerSchema, DiagnosisSchema, GoalSpecSchema, StepPlanSchema, type Answer, type Diagnosis, type GoalSpec, type StepPlan } from './schemas.js';

/**
 * The schemas the task agent's model calls are sent (issue 27 §4), converted
 * once: each tool's argument schema once per tool, the rest once per
 * registry. A grammar-constrained server can only keep a model valid where
 * the schema says what is valid, so a call (GoalSpec's `step`, StepPlan's
 * `call`) is sent as one branch per tool: `tool` is that tool's name and
 * `args` its argument schema. The answer is still checked against the loose
 * schemas of schemas.ts (any name, any object), so that a model that ignores
 * the schema meets route_tool, which says in words what was wrong, rather
 * than a bare "did not match schema".
 */
export interface TaskAgentModelSchemas {
  goalSpec: ModelSchema<GoalSpec>;
  stepPlan: ModelSchema<StepPlan>;
  diagnosis: ModelSchema<Diagnosis>;
  answer: ModelSchema<Answer>;
  /** The tools as plan_step's instructions list them (name, description, argument schema). */
  toolLines: readonly string[];
}

const byRegistry = new WeakMap<ToolRegistry, { revision: number; schemas: TaskAgentModelSchemas }>();
const byTool = new WeakMap<GraphTool, { branch: JSONSchema7; line: string }>();

function toolParts(tool: GraphTool): { branch: JSONSchema7; line: string } {
  let parts = byTool.get(tool);
  if (!parts) {
    const args = modelJsonSchema(tool.inputSchema);
    const { $schema: _drop, ...inner } = args;
    parts = {
      branch: { type: 'object', properties: { tool: { type: 'string', const: tool.name }, args: inner }, required: ['tool', 'args'], additionalProperties: false },
      line: `- ${tool.name}: ${tool.description}\n  arguments (JSON Schema): ${JSON.stringify(inner)}`,
    };
    byTool.set(tool, parts);
  }
  return parts;
}

/** One branch per tool: `{ tool: <its name>, args: <its input schema> }`. */
export function toolCallJsonSchema(registry: ToolRegistry, description?: string): JSONSchema7 {
  return { anyOf: registry.list().map((tool) => toolParts(tool).branch), ...(description && { description }) };
}

/** A converted object schema with some of its properties sent otherwise. */
const withProperties = (json: JSONSchema7, properties: Record<string, JSONSchema7>): JSONSchema7 => ({ ...json, properties: { ...json.properties, ...properties } });

export function taskAgentModelSchemas(registry: ToolRegistry): TaskAgentModelSchemas {
  const cached = byRegistry.get(registry);
  if (cached && cached.revision === registry.revision) return cached.schemas;
  const call = toolCallJsonSchema(registry, StepPlanSchema.shape.call.description);
  const schemas: TaskAgentModelSchemas = {
    goalSpec: modelSchema(
      GoalSpecSchema,
      withProperties(modelJsonSchema(GoalSpecSchema), { step: { anyOf: [call, { type: 'null' }], description: GoalSpecSchema.shape.step.description ?? '' } }),
    ),
    stepPlan: modelSchema(StepPlanSchema, withProperties(modelJsonSchema(StepPlanSchema), { call })),
    diagnosis: modelSchema(DiagnosisSchema),
    answer: modelSchema(AnswerSchema),
    toolLines: registry.list().map((tool) => toolParts(tool).line),
  };
  byRegistry.set(registry, { revision: registry.revision, schemas });
  return schemas;
}
