import { needsUnreadableTerminal, unreadableTerminal } from './attempts.js';
import { NODE_KINDS, findKind } from './nodes/index.js';
import {
  EXIT_TARGET,
  answerKey,
  type ConfirmationNode,
  type Edge,
  type EdgeOutcome,
  type FlowDocument,
  type FlowNode,
  type QuestionNode,
  type TerminalNode,
} from './schema.js';

/** The outcome an edge is taken on when it names none: its kind's first (none for a terminal, or a kind not registered). */
export function defaultOutcome(node: Pick<FlowNode, 'kind'> | { kind: string }): EdgeOutcome | undefined {
  return findKind(node.kind)?.outcomes[0];
}

/** Outcomes a node of each kind can leave on (each kind's `outcomes`). */
export const OUTCOMES_BY_KIND = Object.fromEntries(Object.values(NODE_KINDS).map((kind) => [kind.kind, kind.outcomes])) as Record<
  FlowNode['kind'],
  readonly EdgeOutcome[]
>;

/** The nodes and edges of the main flow (`ref` null) or of one subgraph. */
export interface ScopeGraph {
  /** The subgraph's name, or null for the main flow. */
  readonly ref: string | null;
  readonly nodes: readonly FlowNode[];
  readonly edges: readonly Edge[];
  /** The node entered first. */
  readonly entry: FlowNode;
  node(id: string): FlowNode | undefined;
  /** The edges leaving `from` on `outcome`, in the order written (first true guard wins). */
  edgesFrom(from: string, outcome: EdgeOutcome): readonly Edge[];
}

/**
 * Lookups over a checked flow document: nodes by id (main flow and
 * subgraphs), questions in the order a person meets them, and where each node
 * goes on each outcome.
 */
export interface FlowGraph {
  readonly doc: FlowDocument;
  readonly main: ScopeGraph;
  readonly start: FlowNode;
  /** The subgraph named `ref`. */
  scope(ref: string | null): ScopeGraph | undefined;
  /** A node of the main flow. */
  node(id: string): FlowNode | undefined;
  /** A question of the main flow by node id, or of any scope by answer key. */
  question(idOrKey: string): QuestionNode | undefined;
  /**
   * Every question, main flow and subgraphs: from `start` along `answered`
   * edges first, then the others in the order written.
   */
  readonly questions: readonly QuestionNode[];
  readonly confirmations: readonly ConfirmationNode[];
  readonly terminals: readonly TerminalNode[];
  /** The node the first edge on an outcome leads to, in the main flow. */
  target(from: string, outcome: EdgeOutcome): FlowNode | undefined;
}

function scopeGraph(ref: string | null, nodes: readonly FlowNode[], edges: readonly Edge[], entryId: string | undefined): ScopeGraph {
  const byId = new Map<string, FlowNode>();
  for (const node of nodes) if (!byId.has(node.id)) byId.set(node.id, node);
  const groups = new Map<string, Edge[]>();
  for (const edge of edges) {
    const from = byId.get(edge.from);
    if (!from) continue;
    const key = `${edge.from}\u0000${edge.on ?? defaultOutcome(from)}`;
    const group = groups.get(key) ?? [];
    group.push(edge);
    groups.set(key, group);
  }
  return {
    ref,
    nodes,
    edges,
    entry: (entryId !== undefined ? byId.get(entryId) : undefined) ?? nodes[0]!,
    node: (id) => byId.get(id),
    edgesFrom: (from, outcome) => groups.get(`${from}\u0000${outcome}`) ?? [],
  };
}

export function flowGraph(doc: FlowDocument): FlowGraph {
  // A question that gives up with nowhere to go ends the flow here (see attempts.ts): a node of the graph, not of the document.
  const mainNodes = needsUnreadableTerminal(doc) ? [...doc.nodes, unreadableTerminal()] : doc.nodes;
  const main = scopeGraph(null, mainNodes, doc.edges, doc.start);
  const scopes = new Map<string, ScopeGraph>();
  for (const [ref, sub] of Object.entries(doc.subgraphs ?? {})) scopes.set(ref, scopeGraph(ref, sub.nodes, sub.edges, sub.entry));

  const target = (from: string, outcome: EdgeOutcome) => {
    const edge = main.edgesFrom(from, outcome)[0];
    return edge && edge.to !== EXIT_TARGET ? main.node(edge.to) : undefined;
  };

  // Walk order: along the first `answered` edge from the start, into subgraphs as they are called.
  const questions: QuestionNode[] = [];
  const seen = new Set<FlowNode>();
  const walk = (scope: ScopeGraph, from: FlowNode | undefined, depth: number) => {
    for (let node = from; node && !seen.has(node) && depth < 32; ) {
      seen.add(node);
      if (node.kind === 'question') questions.push(node);
      if (node.kind === 'subgraph') {
        const sub = scopes.get(node.ref);
        if (sub) walk(sub, sub.entry, depth + 1);
      }
      const outcome = defaultOutcome(node);
      const next = outcome ? scope.edgesFrom(node.id, outcome)[0] : undefined;
      node = next && next.to !== EXIT_TARGET ? scope.node(next.to) : undefined;
    }
  };
  walk(main, main.entry, 0);
  const all = [...main.nodes, ...[...scopes.values()].flatMap((s) => s.nodes)];
  for (const node of all) if (node.kind === 'question' && !seen.has(node)) questions.push(node);
  const byKey = new Map<string, QuestionNode>();
  for (const q of questions) if (!byKey.has(answerKey(q))) byKey.set(answerKey(q), q);

  return {
    doc,
    main,
    start: main.entry,
    scope: (ref) => (ref === null ? main : scopes.get(ref)),
    node: main.node,
    question: (idOrKey) => {
      const node = main.node(idOrKey);
      return node?.kind === 'question' ? node : byKey.get(idOrKey);
    },
    questions,
    confirmations: all.filter((n): n is ConfirmationNode => n.kind === 'confirmation'),
    terminals: all.filter((n): n is TerminalNode => n.kind === 'terminal'),
    target,
  };
}

// Question helpers, kept here for the names this module always exported.
export { categoriesOf, findCategory, isLimitingValue } from './nodes/question.js';
