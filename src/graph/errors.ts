import { GateflowError } from '../error/gateflow-error.js';
import { quote } from '../workflow/untrusted-string.js';
import type { EdgeRef, NodeRef } from './model.js';

const nodeText = (ref: NodeRef) => `${ref.label} ${quote(ref.key, 80)}`;
const edgeText = (ref: EdgeRef) => `${ref.type} from ${nodeText(ref.from)} to ${nodeText(ref.to)}`;

const UNAVAILABLE = {
  not_installed:
    'the graph needs Apache AGE, which this database does not have: on PostgreSQL, install AGE on the server (https://age.apache.org); with PGlite, open it with graphPgliteOptions()',
  not_enabled: 'the graph needs Apache AGE: the server has it, but it could not be enabled; run CREATE EXTENSION age as a privileged user',
  not_created: 'the graph needs Apache AGE, which is not enabled in this database: call ensureGraphSupport at start',
} as const;

/**
 * The database cannot hold the graph: Apache AGE is not installed on the
 * PostgreSQL server, or PGlite was opened without it. The task agent says so
 * at start; everything else keeps working.
 */
export class GraphUnavailableError extends GateflowError {
  override readonly name = 'GraphUnavailableError';
  readonly code = 'graph_unavailable';
  readonly status = 503;
  constructor(
    /**
     * `not_installed`: the server (or PGlite) has no AGE; `not_enabled`: it has,
     * but `CREATE EXTENSION age` failed; `not_created`: the extension is not in
     * this database (ensureGraphSupport was not run at start).
     */
    readonly reason: 'not_installed' | 'not_enabled' | 'not_created',
    readonly detail: string,
  ) {
    super(`${UNAVAILABLE[reason]} (${detail}). Everything but the task agent's graph keeps working`);
  }
}

/** A write that would grow the owner's graph past this server's cap (409): nothing was written. */
export class GraphCapReachedError extends GateflowError {
  override readonly name = 'GraphCapReachedError';
  readonly code = 'graph_cap_reached';
  readonly status = 409;
  constructor(
    readonly cap: 'maxNodes' | 'maxEdges',
    readonly max: number,
  ) {
    super(`the graph holds ${max.toLocaleString('en-US')} ${cap === 'maxNodes' ? 'nodes' : 'edges'} already, this server's cap (${cap}); nothing was added`);
  }
}

export class NodeNotFoundError extends GateflowError {
  override readonly name = 'NodeNotFoundError';
  readonly code = 'graph_node_not_found';
  readonly status = 404;
  constructor(readonly node: NodeRef) {
    super(`no node ${nodeText(node)} in the graph`);
  }
}

export class EdgeNotFoundError extends GateflowError {
  override readonly name = 'EdgeNotFoundError';
  readonly code = 'graph_edge_not_found';
  readonly status = 404;
  constructor(readonly edge: EdgeRef) {
    super(`no edge ${edgeText(edge)} in the graph`);
  }
}

/** A node's key is unique per label. */
export class DuplicateNodeError extends GateflowError {
  override readonly name = 'DuplicateNodeError';
  readonly code = 'graph_duplicate_node';
  readonly status = 409;
  constructor(readonly node: NodeRef) {
    super(`a node ${nodeText(node)} already exists (keys are unique per label): change it with update_props`);
  }
}

/** One edge per type between the same two nodes, in one direction. */
export class DuplicateEdgeError extends GateflowError {
  override readonly name = 'DuplicateEdgeError';
  readonly code = 'graph_duplicate_edge';
  readonly status = 409;
  constructor(readonly edge: EdgeRef) {
    super(`the edge ${edgeText(edge)} already exists: change it with update_props`);
  }
}

/** delete_node without `detach` on a node that still has edges. */
export class NodeHasEdgesError extends GateflowError {
  override readonly name = 'NodeHasEdgesError';
  readonly code = 'graph_node_has_edges';
  readonly status = 409;
  constructor(
    readonly node: NodeRef,
    readonly edges: number,
  ) {
    super(`node ${nodeText(node)} still has ${edges} edge${edges === 1 ? '' : 's'}: delete them first, or ask for detach to delete them with it`);
  }
}

/** A name used for nodes cannot name edges in the same graph, nor the reverse (AGE keeps one table per label). */
export class LabelKindConflictError extends GateflowError {
  override readonly name = 'LabelKindConflictError';
  readonly code = 'graph_label_kind_conflict';
  readonly status = 409;
  constructor(
    readonly label: string,
    readonly usedFor: 'nodes' | 'edges',
  ) {
    super(`${quote(label, 64)} already names ${usedFor} in this graph; use another name for ${usedFor === 'nodes' ? 'the edge type' : 'the node label'}`);
  }
}

/** Why a Cypher query was refused before it ran. */
export type CypherRefusal =
  | 'empty'
  | 'too_long'
  | 'unterminated'
  | 'parameter'
  | 'several_statements'
  | 'write'
  | 'function'
  | 'no_return'
  | 'return_star'
  | 'too_many_columns'
  | 'write_plan'
  | 'too_expensive'
  | 'too_much_work';

/** cypher_query refused the text: it only reads, with the functions Cypher offers. */
export class CypherRefusedError extends GateflowError {
  override readonly name = 'CypherRefusedError';
  readonly code = 'cypher_refused';
  readonly status = 400;
  constructor(
    readonly reason: CypherRefusal,
    detail: string,
    /** Where in the query text (a character offset), when one place is to blame. */
    readonly at?: number,
  ) {
    super(`cypher_query refused the query${at === undefined ? '' : ` at character ${at}`}: ${detail}`);
  }
}

/** The database rejected or stopped a Cypher query (a syntax error, a type error, the time limit). */
export class CypherQueryError extends GateflowError {
  override readonly name = 'CypherQueryError';
  readonly code = 'cypher_failed';
  readonly status = 400;
  constructor(
    detail: string,
    /** The SQLSTATE, e.g. 42601 (syntax), 57014 (time limit). */
    readonly sqlState: string | undefined,
  ) {
    super(`cypher_query failed: ${detail}`);
  }
}

/** No tool of that name is registered (a model asked for one that does not exist). */
export class ToolNotFoundError extends GateflowError {
  override readonly name = 'ToolNotFoundError';
  readonly code = 'tool_not_found';
  readonly status = 404;
  constructor(
    readonly tool: string,
    readonly available: readonly string[],
  ) {
    super(`no tool ${quote(tool, 64)}; the tools are ${available.join(', ') || '(none)'}`);
  }
}

/** Arguments that do not fit the tool's schema. */
export class ToolInputError extends GateflowError {
  override readonly name = 'ToolInputError';
  readonly code = 'tool_invalid_input';
  readonly status = 400;
  constructor(
    readonly tool: string,
    readonly issues: readonly { path: string; message: string }[],
  ) {
    super(`invalid arguments for ${tool}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`);
  }
}

/** Two tools registered under one name. */
export class DuplicateToolError extends GateflowError {
  override readonly name = 'DuplicateToolError';
  readonly code = 'tool_duplicate';
  readonly status = 500;
  constructor(readonly tool: string) {
    super(`a tool named ${quote(tool, 64)} is already registered`);
  }
}

/** Arguments a graph operation cannot take (a host calling the graph directly; tools say ToolInputError). */
export class GraphInputError extends GateflowError {
  override readonly name = 'GraphInputError';
  readonly code = 'graph_invalid_input';
  readonly status = 400;
  constructor(
    readonly operation: string,
    readonly issues: readonly { path: string; message: string }[],
  ) {
    super(`invalid ${operation}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`);
  }
}
