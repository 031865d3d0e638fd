import type {
  ConfirmationNode,
  EdgeOutcome,
  FlowDocument,
  FlowNode,
  QuestionNode,
  TerminalNode,
} from './schema.js';

/** The outcome an edge is taken on when it names none. */
export function defaultOutcome(node: FlowNode): EdgeOutcome | undefined {
  if (node.kind === 'question') return 'answered';
  if (node.kind === 'confirmation') return 'confirmed';
  return undefined;
}

/** Outcomes a node of each kind can leave on. */
export const OUTCOMES_BY_KIND: Record<FlowNode['kind'], readonly EdgeOutcome[]> = {
  question: ['answered', 'limiting'],
  confirmation: ['confirmed', 'edit'],
  terminal: [],
};

/**
 * Lookups over a checked flow document: nodes by id, questions in the order a
 * person meets them, and where each node goes on each outcome.
 */
export interface FlowGraph {
  readonly doc: FlowDocument;
  readonly start: FlowNode;
  node(id: string): FlowNode | undefined;
  question(id: string): QuestionNode | undefined;
  /** Questions in walk order: from `start` along `answered` edges, then any others. */
  readonly questions: readonly QuestionNode[];
  readonly confirmations: readonly ConfirmationNode[];
  readonly terminals: readonly TerminalNode[];
  /** The node an outcome leads to, or undefined when the node has no such edge. */
  target(from: string, outcome: EdgeOutcome): FlowNode | undefined;
}

export function flowGraph(doc: FlowDocument): FlowGraph {
  const byId = new Map<string, FlowNode>();
  for (const node of doc.nodes) if (!byId.has(node.id)) byId.set(node.id, node);

  const targets = new Map<string, FlowNode>();
  for (const edge of doc.edges) {
    const from = byId.get(edge.from);
    const to = byId.get(edge.to);
    if (!from || !to) continue;
    const outcome = edge.on ?? defaultOutcome(from);
    const key = `${edge.from}\u0000${outcome}`;
    if (!targets.has(key)) targets.set(key, to);
  }
  const target = (from: string, outcome: EdgeOutcome) => targets.get(`${from}\u0000${outcome}`);

  const start = (doc.start !== undefined ? byId.get(doc.start) : undefined) ?? doc.nodes[0]!;
  const all = [...byId.values()];
  const questions: QuestionNode[] = [];
  const seen = new Set<string>();
  for (let node: FlowNode | undefined = start; node?.kind === 'question' && !seen.has(node.id); ) {
    seen.add(node.id);
    questions.push(node);
    node = target(node.id, 'answered');
  }
  for (const node of all) if (node.kind === 'question' && !seen.has(node.id)) questions.push(node);

  return {
    doc,
    start,
    node: (id) => byId.get(id),
    question: (id) => {
      const node = byId.get(id);
      return node?.kind === 'question' ? node : undefined;
    },
    questions,
    confirmations: all.filter((n): n is ConfirmationNode => n.kind === 'confirmation'),
    terminals: all.filter((n): n is TerminalNode => n.kind === 'terminal'),
    target,
  };
}

/** Case-insensitive lookup of a category of a question: the canonical spelling, or undefined. */
export function findCategory(question: QuestionNode, value: string): string | undefined {
  const wanted = value.trim().toLowerCase();
  return question.answer.categories.find((c) => c.toLowerCase() === wanted);
}

export function isLimitingValue(question: QuestionNode, value: string): boolean {
  const wanted = value.trim().toLowerCase();
  return (question.limitingValues ?? []).some((v) => v.toLowerCase() === wanted);
}
