import { z } from 'zod';
import type { FlowIssue } from './check.js';
import { AnswerKeySchema, FlowIdSchema, FlowVersionSchema, type Edge, type FlowDocumentInput, type FlowNode } from './schema.js';

/**
 * Older formats, upgraded to flow documents v1:
 *
 * - the seed's flat checklist (v0): questions with `key`, `prompt`,
 *   `required`, `priority` and `dependencies`, asked lowest priority first
 *   once their dependencies are answered;
 * - the seed's draft IR: nodes typed by `type` rather than `kind`, dotted ids.
 *
 * Gate configs have their own converter (gate-config.ts). Each converter
 * checks its input first, so problems point into what the author wrote.
 */

const text = z.string().trim().min(1, 'must not be empty');

export const ChecklistQuestionSchema = z.strictObject({
  key: AnswerKeySchema,
  prompt: text,
  required: z.boolean().default(true),
  /** Lower is asked first; ties are broken by key, so the order never depends on the file. */
  priority: z.number().default(0),
  /** Keys that must be answered before this question applies. */
  dependencies: z.array(AnswerKeySchema).default([]),
  label: text.optional(),
});

export const ChecklistSchema = z.strictObject({
  $schema: z.string().optional(),
  id: FlowIdSchema,
  version: FlowVersionSchema.default(0),
  title: text.optional(),
  description: z.string().optional(),
  questions: z.array(ChecklistQuestionSchema).min(1, 'needs at least one question'),
});

export type Checklist = z.infer<typeof ChecklistSchema>;

export function isChecklist(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Array.isArray((value as { questions?: unknown }).questions) && !('nodes' in value);
}

/** The checklist's rules a schema cannot state: keys unique, dependencies known and acyclic. */
export function checkChecklist(list: Checklist): FlowIssue[] {
  const issues: FlowIssue[] = [];
  const index = new Map<string, number>();
  list.questions.forEach((q, i) => {
    if (index.has(q.key)) issues.push({ path: ['questions', i, 'key'], message: `duplicate key "${q.key}" (also questions[${index.get(q.key)}])` });
    else index.set(q.key, i);
  });
  list.questions.forEach((q, i) =>
    q.dependencies.forEach((dep, j) => {
      if (!index.has(dep)) issues.push({ path: ['questions', i, 'dependencies', j], message: `no question has the key "${dep}"` });
      if (dep === q.key) issues.push({ path: ['questions', i, 'dependencies', j], message: `"${q.key}" depends on itself` });
    }),
  );
  if (issues.length > 0) return issues;
  const order = askingOrder(list);
  if (order.length < list.questions.length) {
    const stuck = list.questions.filter((q) => !order.includes(q)).map((q) => q.key);
    issues.push({ path: ['questions'], message: `dependencies form a cycle: ${stuck.join(', ')}` });
  }
  return issues;
}

/**
 * The order the v0 engine asked in: repeatedly the lowest-priority question
 * (then lowest key) whose dependencies come earlier. A question whose
 * dependencies were skipped (optional and unanswered) is passed over by its `when`.
 */
function askingOrder(list: Checklist): Checklist['questions'] {
  const left = [...list.questions].sort((a, b) => a.priority - b.priority || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const order: Checklist['questions'] = [];
  const placed = new Set<string>();
  while (left.length > 0) {
    const i = left.findIndex((q) => q.dependencies.every((d) => placed.has(d)));
    if (i < 0) break;
    const [q] = left.splice(i, 1);
    order.push(q!);
    placed.add(q!.key);
  }
  return order;
}

/** Converts a checked checklist: one free-text question per entry in asking order, a review, a completed end. */
export function checklistToFlow(list: Checklist): FlowDocumentInput {
  const order = askingOrder(list);
  const nodes: FlowNode[] = order.map((q) => ({
    kind: 'question',
    id: q.key,
    key: q.key,
    prompt: q.prompt,
    ...(q.label !== undefined && { label: q.label }),
    answer: { type: 'string' },
    ...(!q.required && { required: false }),
    ...(q.dependencies.length > 0 && { when: q.dependencies.map((d) => `has(answers.${d})`).join(' && ') }),
  }));
  nodes.push(
    { kind: 'confirmation', id: 'review', confirmLabel: 'Looks Good', editLabel: 'Edit Answers' },
    { kind: 'terminal', id: 'done', outcome: 'completed' },
  );
  const edges: Edge[] = order.map((q, i) => ({ from: q.key, to: order[i + 1]?.key ?? 'review' }));
  edges.push({ from: 'review', to: 'done', on: 'confirmed' }, { from: 'review', to: order[0]!.key, on: 'edit' });
  return {
    format: 'gateflow/v1',
    id: list.id,
    version: list.version,
    ...(list.title !== undefined && { title: list.title }),
    ...(list.description !== undefined && { description: list.description }),
    nodes,
    edges,
  };
}

// ---------------------------------------------------------------- the seed's draft IR

/** A document in the seed's draft IR: nodes carry `type` (question, decision, ...), not `kind`. */
export function isDraftIr(value: unknown): boolean {
  const nodes = (value as { nodes?: unknown } | null)?.nodes;
  return Array.isArray(nodes) && nodes.some((n) => typeof n === 'object' && n !== null && 'type' in n && !('kind' in n));
}

type Json = Record<string, unknown>;

/**
 * Upgrades the seed's draft IR: `type` becomes `kind`, a question without an
 * answer spec takes free text, a terminal without an outcome completes. Ids
 * are kept as the author wrote them (`q.intent`, `sg.led`): every message,
 * trace and drawing names them so. Everything else is kept for the v1
 * checks to judge.
 */
export function draftIrToFlow(value: Json): unknown {
  const id = (s: unknown) => s;
  const node = (n: Json): Json => {
    const { type, id: nodeId, ref, ...rest } = n;
    const out: Json = { kind: type, id: id(nodeId), ...rest };
    if (ref !== undefined) out.ref = id(ref);
    if (type === 'question' && out.answer === undefined) out.answer = { type: 'string' };
    if (type === 'terminal' && out.outcome === undefined) out.outcome = 'completed';
    return out;
  };
  const edge = (e: Json): Json => ({ ...e, from: id(e.from), to: id(e.to), ...(e.guard === null && { guard: undefined }) });
  const scope = (s: Json) => ({
    ...s,
    ...(Array.isArray(s.nodes) && { nodes: (s.nodes as Json[]).map((n) => (n && typeof n === 'object' && 'type' in n ? node(n) : n)) }),
    ...(Array.isArray(s.edges) && { edges: (s.edges as Json[]).map((e) => (e && typeof e === 'object' ? edge(e) : e)) }),
    ...('entry' in s && { entry: id(s.entry) }),
  });
  const { subgraphs, ...top } = value;
  const flowId = typeof top.id === 'string' ? top.id.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+/, '') : top.id;
  return JSON.parse(
    JSON.stringify({
      ...scope(top),
      id: flowId,
      format: 'gateflow/v1',
      ...(typeof top.start === 'string' && { start: id(top.start) }),
      ...(typeof subgraphs === 'object' && subgraphs !== null
        ? { subgraphs: Object.fromEntries(Object.entries(subgraphs as Record<string, Json>).map(([k, s]) => [id(k), scope(s)])) }
        : {}),
    }),
  );
}
