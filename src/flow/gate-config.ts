import { z } from 'zod';
import { checkCategories, type FlowIssue } from './check.js';
import {
  FlowIdSchema,
  FlowVersionSchema,
  NodeIdSchema,
  SnapshotMigrationSchema,
  type Edge,
  type FlowDocument,
  type FlowNode,
} from './schema.js';

/**
 * The gate config of the seed document, accepted as it is written
 * (snake_case keys) and converted to a flow document: one question node per
 * gate in `gate_order`, then a confirmation, a handoff terminal, a stop
 * terminal (when some gate has limiting values), and the `unreadable` stop
 * terminal, the flow's `fallback`: where a gate goes when it could not read
 * an answer after `max_attempts` tries and its buttons offered alone.
 */

const text = z.string().trim().min(1, 'must not be empty');

export const GateSchema = z.strictObject({
  question: text,
  /** A short name for the summary. */
  label: text.optional(),
  expected_categories: z.array(text).min(1, 'needs at least one category'),
  limiting_values: z.array(text).optional(),
  stop_message: text.optional(),
  synonyms: z.record(z.string(), z.array(text)).optional(),
  /** Failed answers this gate allows before it offers its buttons alone; the config's `max_attempts` when absent. */
  max_attempts: z.number().int().min(1).max(100).optional(),
});

export const GateConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  id: FlowIdSchema,
  version: FlowVersionSchema,
  title: text.optional(),
  description: z.string().optional(),
  gate_order: z.array(NodeIdSchema).min(1, 'needs at least one gate'),
  gates: z.record(NodeIdSchema, GateSchema),
  confirmation: z
    .strictObject({ prompt: text.optional(), confirm_label: text.optional(), edit_label: text.optional() })
    .optional(),
  /** Shown when the intake is handed off. */
  handoff_message: text.optional(),
  /**
   * Failed answers (unreadable turns in a row) a gate allows before it offers
   * its buttons alone; one more failure then ends the intake at the
   * `unreadable` terminal. `DEFAULT_MAX_ATTEMPTS` (3) when absent.
   */
  max_attempts: z.number().int().min(1).max(100).optional(),
  /** Shown when the intake ends because a gate's answers could not be read. */
  unreadable_message: text.optional(),
  /** How snapshots of earlier versions map onto this one (gate keys renamed or removed). */
  migrations: z.array(SnapshotMigrationSchema).optional(),
});

export type Gate = z.infer<typeof GateSchema>;
export type GateConfig = z.infer<typeof GateConfigSchema>;

/** The ids the conversion gives the nodes it adds; a gate may not use them. */
export const GATE_CONFIG_NODE_IDS = { confirmation: 'confirmation', handoff: 'handoff', stopped: 'stopped', unreadable: 'unreadable' } as const;

/** What the `unreadable` terminal of a converted gate config says unless the config sets `unreadable_message`. */
export const DEFAULT_UNREADABLE_MESSAGE = 'I could not read the answers; a member of staff will follow up.';

export function isGateConfig(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'gate_order' in value;
}

/** The rules of a gate config that its schema cannot state field by field. */
export function checkGateConfig(config: GateConfig): FlowIssue[] {
  const issues: FlowIssue[] = [];
  const add = (path: (string | number)[], message: string) => issues.push({ path, message });
  const reserved = new Set<string>(Object.values(GATE_CONFIG_NODE_IDS));
  const ordered = new Set<string>();
  config.gate_order.forEach((key, i) => {
    if (ordered.has(key)) add(['gate_order', i], `"${key}" is listed twice`);
    ordered.add(key);
    if (!(key in config.gates)) add(['gate_order', i], `gate "${key}" is not defined in "gates"`);
  });
  for (const [key, gate] of Object.entries(config.gates)) {
    if (reserved.has(key)) add(['gates', key], `"${key}" is reserved for the node the conversion adds; rename the gate`);
    if (!ordered.has(key)) add(['gates', key], `gate "${key}" is not listed in "gate_order"`);
    checkCategories(
      { categories: gate.expected_categories, limitingValues: gate.limiting_values, synonyms: gate.synonyms },
      {
        categories: ['gates', key, 'expected_categories'],
        limitingValues: ['gates', key, 'limiting_values'],
        synonyms: ['gates', key, 'synonyms'],
      },
      add,
    );
  }
  return issues;
}

/** Converts a checked gate config to the general flow document. */
export function gateConfigToFlow(config: GateConfig): FlowDocument {
  const { confirmation, handoff, stopped, unreadable } = GATE_CONFIG_NODE_IDS;
  const nodes: FlowNode[] = [];
  const edges: Edge[] = [];
  config.gate_order.forEach((key, i) => {
    const gate = config.gates[key]!;
    const limiting = gate.limiting_values ?? [];
    nodes.push({
      kind: 'question',
      id: key,
      prompt: gate.question,
      ...(gate.label !== undefined && { label: gate.label }),
      answer: {
        type: 'category',
        categories: gate.expected_categories,
        ...(gate.synonyms !== undefined && { synonyms: gate.synonyms }),
      },
      ...(limiting.length > 0 && { limitingValues: limiting }),
      ...(gate.stop_message !== undefined && { stopMessage: gate.stop_message }),
      ...(gate.max_attempts !== undefined && { maxAttempts: gate.max_attempts }),
    });
    edges.push({ from: key, to: config.gate_order[i + 1] ?? confirmation, on: 'answered' });
    if (limiting.length > 0) edges.push({ from: key, to: stopped, on: 'limiting' });
  });
  nodes.push(
    {
      kind: 'confirmation',
      id: confirmation,
      ...(config.confirmation?.prompt !== undefined && { prompt: config.confirmation.prompt }),
      confirmLabel: config.confirmation?.confirm_label ?? 'Looks Good',
      editLabel: config.confirmation?.edit_label ?? 'Edit Answers',
    },
    {
      kind: 'terminal',
      id: handoff,
      outcome: 'handoff',
      ...(config.handoff_message !== undefined && { message: config.handoff_message }),
    },
  );
  edges.push(
    { from: confirmation, to: handoff, on: 'confirmed' },
    { from: confirmation, to: config.gate_order[0]!, on: 'edit' },
  );
  // A stop terminal only when some gate can stop: no unreachable node otherwise.
  if (config.gate_order.some((key) => (config.gates[key]?.limiting_values ?? []).length > 0))
    nodes.push({ kind: 'terminal', id: stopped, outcome: 'stopped' });
  // Every gate can fail to read its answers: the flow's fallback, after the buttons were offered alone.
  nodes.push({
    kind: 'terminal',
    id: unreadable,
    label: 'Answers unreadable',
    outcome: 'stopped',
    message: config.unreadable_message ?? DEFAULT_UNREADABLE_MESSAGE,
  });
  return {
    id: config.id,
    version: config.version,
    ...(config.title !== undefined && { title: config.title }),
    ...(config.description !== undefined && { description: config.description }),
    start: config.gate_order[0]!,
    ...(config.max_attempts !== undefined && { maxAttempts: config.max_attempts }),
    fallback: unreadable,
    nodes,
    edges,
    ...(config.migrations !== undefined && { migrations: config.migrations }),
  };
}
