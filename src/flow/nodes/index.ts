import { action } from './action.js';
import { confirmation } from './confirmation.js';
import { decision } from './decision.js';
import { input } from './input.js';
import type { AnyNodeKind } from './kind.js';
import { path } from './path.js';
import { question } from './question.js';
import { subgraph } from './subgraph.js';
import { terminal } from './terminal.js';

/**
 * The node kinds, keyed by their `kind` (a computed key: an entry cannot be
 * filed under another kind's name). The flow document's node schema is the
 * union of their schemas, in this order (schema.ts); the checker, the
 * compiler, the reply, the snapshot migration and the model-based harness
 * look a node's kind up here. To add a kind: nodes/README.md.
 */
export const NODE_KINDS = {
  [question.kind]: question,
  [confirmation.kind]: confirmation,
  [terminal.kind]: terminal,
  [decision.kind]: decision,
  [action.kind]: action,
  [subgraph.kind]: subgraph,
  [path.kind]: path,
  [input.kind]: input,
};

export type NodeKinds = typeof NODE_KINDS;
export type NodeKindName = keyof NodeKinds;

/** The registered kind named `kind`, if any (a layer of a composition may name anything). */
export function findKind(kind: string): AnyNodeKind | undefined {
  return Object.hasOwn(NODE_KINDS, kind) ? (NODE_KINDS as Record<string, AnyNodeKind>)[kind] : undefined;
}

/** The kind of a node (every node of a parsed document has a registered kind). */
export function kindOf(node: { kind: string }): AnyNodeKind {
  const kind = findKind(node.kind);
  if (!kind) throw new Error(`no node kind "${node.kind}" is registered (src/flow/nodes/index.ts)`);
  return kind;
}
