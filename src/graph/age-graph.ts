import type { z } from 'zod';
import { agParams, parseAgtype, type AgValue } from './agtype.js';
import { DEFAULT_CYPHER_LIMITS, runReadOnlyCypher, type CypherLimits, type CypherResult } from './cypher-query.js';
import { dollarQuoted } from './cypher-text.js';
import {
  DuplicateEdgeError,
  DuplicateNodeError,
  EdgeNotFoundError,
  GraphCapReachedError,
  GraphInputError,
  GraphUnavailableError,
  LabelKindConflictError,
  NodeHasEdgesError,
  NodeNotFoundError,
} from './errors.js';
import { graphNameFor, isGraphName } from './graph-name.js';
import {
  EdgeRefSchema,
  issuesOf,
  KEY_PROPERTY,
  LabelSchema,
  NewEdgeSchema,
  NewNodeSchema,
  NodeRefSchema,
  PropertyChangeSchema,
  type EdgeRef,
  type GraphEdge,
  type GraphNode,
  type NewEdge,
  type NewNode,
  type NodeRef,
  type Properties,
  type PropertyChange,
} from './model.js';
import { GraphQuerySchema, type GraphQuery, type GraphQueryResult, type PropertyGraph } from './property-graph.js';
import { inSavepoint, type GraphSql } from './sql-scope.js';

export interface AgeGraphOptions {
  /** The sessions' owner (a token subject); null without auth: one shared graph. */
  owner: string | null;
  /** Bounds on cypher_query (defaults: DEFAULT_CYPHER_LIMITS). */
  cypherLimits?: Partial<CypherLimits>;
  /** How large one owner's graph may grow (defaults: DEFAULT_GRAPH_LIMITS). */
  graphLimits?: Partial<GraphLimits>;
  /** Adds made in the same unit of work that this transaction does not see (a task agent's preview), counted against the caps. */
  reserved?: { nodes: number; edges: number };
}

/** How many nodes and edges one owner's graph may hold: an add past one is refused (`GraphCapReachedError`). */
export interface GraphLimits {
  maxNodes: number;
  maxEdges: number;
}

export const DEFAULT_GRAPH_LIMITS: Readonly<GraphLimits> = { maxNodes: 100_000, maxEdges: 500_000 };

/**
 * Opens the owner's graph inside the caller's transaction (created on first
 * use), so that every change commits or rolls back with the session's turn.
 * Puts ag_catalog at the end of this transaction's search_path (AGE looks up
 * its operators there) and loads AGE's library, which must happen before the
 * first cypher() call on a connection is parsed. Needs `ensureGraphSupport`
 * to have succeeded once.
 */
export async function openAgeGraph(sql: GraphSql, options: AgeGraphOptions): Promise<PropertyGraph> {
  const graph = await graphNameFor(options.owner);
  await inSavepoint(sql, async () => {
    let present: boolean;
    try {
      const { rows } = await sql.query<{ present: boolean }>(
        `SELECT set_config('search_path', CASE WHEN 'ag_catalog' = ANY (current_schemas(false)) THEN current_setting('search_path')
                  ELSE concat_ws(', ', nullif(current_setting('search_path'), ''), 'ag_catalog') END, true) IS NOT NULL AS path_set,
                'null'::ag_catalog.agtype IS NOT NULL AS age_loaded,
                EXISTS (SELECT 1 FROM ag_catalog.ag_graph WHERE name = $1) AS present`,
        [graph],
      );
      present = rows[0]?.present === true;
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === '3F000' || code === '42704' || code === '42P01')
        throw new GraphUnavailableError('not_created', (error as Error).message);
      throw error;
    }
    if (present) return;
    // Two first turns of one owner at once: one creates, the other waits and finds it.
    await sql.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`gateflow graph ${graph}`]);
    const { rows } = await sql.query<{ present: boolean }>('SELECT EXISTS (SELECT 1 FROM ag_catalog.ag_graph WHERE name = $1) AS present', [graph]);
    if (rows[0]?.present !== true) await sql.query('SELECT ag_catalog.create_graph($1)', [graph]);
  });
  return new AgeGraph(sql, graph, { ...DEFAULT_CYPHER_LIMITS, ...options.cypherLimits }, { ...DEFAULT_GRAPH_LIMITS, ...options.graphLimits }, options.reserved ?? { nodes: 0, edges: 0 });
}

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;
/**
 * A label, edge type or property name as Cypher text: the one place a name
 * enters a query (AGE takes none as a parameter). The schemas checked it
 * already; checked again here, where it matters, and quoted.
 */
function ident(value: string): string {
  if (!IDENTIFIER.test(value)) throw new Error(`internal: ${JSON.stringify(value)} reached Cypher text unchecked`);
  return `\`${value}\``;
}

function parse<S extends z.ZodType>(schema: S, value: unknown, operation: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new GraphInputError(operation, issuesOf(result.error));
  return result.data;
}

const asObject = (value: AgValue | undefined): Record<string, AgValue> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
const asText = (value: AgValue | undefined): string => (typeof value === 'string' ? value : JSON.stringify(value ?? null));

/** A node from AGE's properties: the key is the node's identity, the rest its properties. */
function toNode(label: AgValue | undefined, stored: AgValue | undefined): GraphNode {
  const { [KEY_PROPERTY]: key, ...properties } = asObject(stored);
  return { label: asText(label), key: asText(key), properties: properties as Properties };
}

/** `{key: $key, `a`: $p0, …}` and its parameters. */
function propertyMap(properties: Properties, withKey: boolean): { text: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = {};
  const entries = Object.entries(properties).map(([name, value], i) => {
    params[`p${i}`] = value;
    return `${ident(name)}: $p${i}`;
  });
  if (withKey) entries.unshift(`${KEY_PROPERTY}: $key`);
  return { text: entries.length ? ` {${entries.join(', ')}}` : '', params };
}

/** The property graph in an Apache AGE graph, one per owner, through the caller's transaction. */
class AgeGraph implements PropertyGraph {
  constructor(
    private readonly sql: GraphSql,
    readonly name: string,
    private readonly limits: CypherLimits,
    private readonly size: GraphLimits,
    private readonly reserved: { nodes: number; edges: number },
  ) {
    if (!isGraphName(name)) throw new Error(`not a graph name: ${name}`);
  }

  /** Runs Cypher we wrote (names checked by `ident`, values as parameters) returning one value per row. */
  private async run(body: string, params: Record<string, unknown> = {}, limit?: number): Promise<AgValue[]> {
    const text = `SELECT * FROM ag_catalog.cypher('${this.name}', ${dollarQuoted(body)}, $1) AS (v ag_catalog.agtype)${limit === undefined ? '' : ' LIMIT $2'}`;
    const { rows } = await this.sql.query<{ v: string | null }>(text, limit === undefined ? [agParams(params)] : [agParams(params), limit]);
    return rows.map((row) => parseAgtype(row.v));
  }

  private async count(body: string, params: Record<string, unknown>): Promise<number> {
    const [n] = await this.run(body, params);
    return typeof n === 'number' ? n : Number(n ?? 0);
  }

  /** Serializes writers of one node or edge identity across transactions, so that the check-then-create below is safe. */
  private async lock(...identity: string[]): Promise<void> {
    await this.sql.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [JSON.stringify([this.name, ...identity])]);
  }

  /** AGE keeps one table per label: a name used for nodes cannot name edges, nor the reverse. */
  private async claimLabel(label: string, kind: 'v' | 'e'): Promise<void> {
    const { rows } = await this.sql.query<{ kind: string }>(
      'SELECT l.kind FROM ag_catalog.ag_label l JOIN ag_catalog.ag_graph g ON g.graphid = l.graph WHERE g.name = $1 AND l.name = $2',
      [this.name, label],
    );
    const existing = rows[0]?.kind;
    if (existing !== undefined && existing !== kind) throw new LabelKindConflictError(label, existing === 'v' ? 'nodes' : 'edges');
  }

  /**
   * Refuses an add past the cap: AGE keeps every label's rows in tables that inherit
   * `_ag_label_vertex` / `_ag_label_edge`, so one count (of at most the cap's rows) sees them all.
   */
  private async checkRoom(kind: 'maxNodes' | 'maxEdges'): Promise<void> {
    const max = this.size[kind];
    const table = kind === 'maxNodes' ? '_ag_label_vertex' : '_ag_label_edge';
    const { rows } = await this.sql.query<{ n: string | number }>(`SELECT count(*) AS n FROM (SELECT 1 FROM "${this.name}".${table} LIMIT $1) x`, [max]);
    const reserved = kind === 'maxNodes' ? this.reserved.nodes : this.reserved.edges;
    if (Number(rows[0]?.n ?? 0) + reserved >= max) throw new GraphCapReachedError(kind, max);
  }

  private async nodeExists(ref: NodeRef): Promise<boolean> {
    return (await this.count(`MATCH (n:${ident(ref.label)} {key: $key}) RETURN count(n)`, { key: ref.key })) > 0;
  }

  /** `(a:From {key: $from})-[r:TYPE]->(b:To {key: $to})` and its parameters. */
  private edgePattern(ref: EdgeRef): { text: string; params: Record<string, unknown> } {
    return {
      text: `(a:${ident(ref.from.label)} {key: $from})-[r:${ident(ref.type)}]->(b:${ident(ref.to.label)} {key: $to})`,
      params: { from: ref.from.key, to: ref.to.key },
    };
  }

  async addNode(input: NewNode): Promise<GraphNode> {
    const node = parse(NewNodeSchema, input, 'add_node');
    return inSavepoint(this.sql, async () => {
      await this.claimLabel(node.label, 'v');
      await this.lock('node', node.label, node.key);
      if (await this.nodeExists(node)) throw new DuplicateNodeError({ label: node.label, key: node.key });
      await this.checkRoom('maxNodes');
      const map = propertyMap(node.properties, true);
      const [stored] = await this.run(`CREATE (n:${ident(node.label)}${map.text}) RETURN properties(n)`, { ...map.params, key: node.key });
      return toNode(node.label, stored);
    });
  }

  async addEdge(input: NewEdge): Promise<GraphEdge> {
    const edge = parse(NewEdgeSchema, input, 'add_edge');
    return inSavepoint(this.sql, async () => {
      await this.claimLabel(edge.type, 'e');
      for (const end of [edge.from, edge.to]) if (!(await this.nodeExists(end))) throw new NodeNotFoundError(end);
      await this.lock('edge', edge.type, edge.from.label, edge.from.key, edge.to.label, edge.to.key);
      const ref = { type: edge.type, from: edge.from, to: edge.to };
      const pattern = this.edgePattern(ref);
      if ((await this.count(`MATCH ${pattern.text} RETURN count(r)`, pattern.params)) > 0) throw new DuplicateEdgeError(ref);
      await this.checkRoom('maxEdges');
      const map = propertyMap(edge.properties, false);
      const [stored] = await this.run(
        `MATCH (a:${ident(edge.from.label)} {key: $from}), (b:${ident(edge.to.label)} {key: $to})
         CREATE (a)-[r:${ident(edge.type)}${map.text}]->(b) RETURN properties(r)`,
        { ...map.params, ...pattern.params },
      );
      return { ...ref, properties: asObject(stored) as Properties };
    });
  }

  /** `SET x.`a` = $s0, … REMOVE x.`b`, …` and its parameters. */
  private changeClauses(variable: string, change: PropertyChange): { text: string; params: Record<string, unknown> } {
    const params: Record<string, unknown> = {};
    const sets = Object.entries(change.set ?? {}).map(([name, value], i) => {
      params[`s${i}`] = value;
      return `${variable}.${ident(name)} = $s${i}`;
    });
    const removes = (change.unset ?? []).map((name) => `${variable}.${ident(name)}`);
    return { text: `${sets.length ? ` SET ${sets.join(', ')}` : ''}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`, params };
  }

  async updateNode(refInput: NodeRef, changeInput: PropertyChange): Promise<GraphNode> {
    const ref = parse(NodeRefSchema, refInput, 'update_props');
    const change = parse(PropertyChangeSchema, changeInput, 'update_props');
    return inSavepoint(this.sql, async () => {
      const clauses = this.changeClauses('n', change);
      const [stored] = await this.run(`MATCH (n:${ident(ref.label)} {key: $key})${clauses.text} RETURN properties(n)`, { ...clauses.params, key: ref.key });
      if (stored === undefined) throw new NodeNotFoundError(ref);
      return toNode(ref.label, stored);
    });
  }

  async updateEdge(refInput: EdgeRef, changeInput: PropertyChange): Promise<GraphEdge> {
    const ref = parse(EdgeRefSchema, refInput, 'update_props');
    const change = parse(PropertyChangeSchema, changeInput, 'update_props');
    return inSavepoint(this.sql, async () => {
      const pattern = this.edgePattern(ref);
      const clauses = this.changeClauses('r', change);
      const [stored] = await this.run(`MATCH ${pattern.text}${clauses.text} RETURN properties(r)`, { ...clauses.params, ...pattern.params });
      if (stored === undefined) throw new EdgeNotFoundError(ref);
      return { ...ref, properties: asObject(stored) as Properties };
    });
  }

  async deleteNode(refInput: NodeRef, options: { detach?: boolean } = {}): Promise<{ edgesDeleted: number }> {
    const ref = parse(NodeRefSchema, refInput, 'delete_node');
    return inSavepoint(this.sql, async () => {
      const node = `(n:${ident(ref.label)} {key: $key})`;
      const [counts] = await this.run(`MATCH ${node} OPTIONAL MATCH (n)-[r]-() RETURN [count(DISTINCT id(n)), count(DISTINCT id(r))]`, { key: ref.key });
      const [nodes = 0, edges = 0] = Array.isArray(counts) ? counts.map(Number) : [];
      if (nodes === 0) throw new NodeNotFoundError(ref);
      if (edges > 0 && options.detach !== true) throw new NodeHasEdgesError(ref, edges);
      // DETACH always: AGE's plain DELETE of a vertex with edges does not refuse (checked on 1.7).
      await this.run(`MATCH ${node} DETACH DELETE n`, { key: ref.key });
      return { edgesDeleted: edges };
    });
  }

  async deleteEdge(refInput: EdgeRef): Promise<void> {
    const ref = parse(EdgeRefSchema, refInput, 'delete_edge');
    return inSavepoint(this.sql, async () => {
      const pattern = this.edgePattern(ref);
      if ((await this.count(`MATCH ${pattern.text} RETURN count(r)`, pattern.params)) === 0) throw new EdgeNotFoundError(ref);
      await this.run(`MATCH ${pattern.text} DELETE r`, pattern.params);
    });
  }

  async query(input: GraphQuery): Promise<GraphQueryResult> {
    const query = parse(GraphQuerySchema, input, 'query_graph');
    const params: Record<string, unknown> = {};
    const conditions = Object.entries(query.where ?? {}).map(([name, value], i) => {
      params[`w${i}`] = value;
      return `n.${ident(name)} = $w${i}`;
    });
    if (query.key !== undefined) params.key = query.key;
    let body = `MATCH (n${query.label ? `:${ident(query.label)}` : ''}${query.key !== undefined ? ' {key: $key}' : ''})`;
    if (conditions.length) body += ` WHERE ${conditions.join(' AND ')}`;
    const around = query.neighbours;
    if (around) {
      const edge = `[r${around.type ? `:${ident(around.type)}` : ''}]`;
      const other = `(m${around.label ? `:${ident(around.label)}` : ''})`;
      const path = around.direction === 'out' ? `(n)-${edge}->${other}` : around.direction === 'in' ? `(n)<-${edge}-${other}` : `(n)-${edge}-${other}`;
      body += ` OPTIONAL MATCH ${path}
        RETURN [label(n), properties(n), type(r), start_id(r) = id(n), properties(r), label(m), properties(m)]
        ORDER BY label(n), n.key, type(r), label(m), m.key`;
    } else body += ' RETURN [label(n), properties(n)] ORDER BY label(n), n.key';
    return inSavepoint(this.sql, async () => {
      const rows = await this.run(body, params, query.limit + 1);
      const nodes = new Map<string, GraphNode>();
      const edges = new Map<string, GraphEdge>();
      const addNode = (node: GraphNode) => nodes.set(JSON.stringify([node.label, node.key]), node);
      for (const row of rows.slice(0, query.limit)) {
        const [label, stored, type, outgoing, edgeProps, otherLabel, otherStored] = Array.isArray(row) ? row : [];
        const node = toNode(label, stored);
        addNode(node);
        if (type === null || type === undefined) continue;
        const other = toNode(otherLabel, otherStored);
        addNode(other);
        const [from, to] = outgoing === true ? [node, other] : [other, node];
        const edge: GraphEdge = {
          type: asText(type),
          from: { label: from.label, key: from.key },
          to: { label: to.label, key: to.key },
          properties: asObject(edgeProps) as Properties,
        };
        edges.set(JSON.stringify([edge.type, edge.from, edge.to]), edge);
      }
      return { nodes: [...nodes.values()], edges: [...edges.values()], truncated: rows.length > query.limit };
    });
  }

  async cypher(text: string): Promise<CypherResult> {
    return runReadOnlyCypher(this.sql, this.name, text, this.limits);
  }

  async listNodes(options: { label?: string } = {}): Promise<GraphNode[]> {
    const label = options.label === undefined ? undefined : parse(LabelSchema, options.label, 'graph snapshot');
    return inSavepoint(this.sql, async () => {
      const rows = await this.run(`MATCH (n${label ? `:${ident(label)}` : ''}) RETURN [label(n), properties(n)] ORDER BY label(n), n.key`);
      return rows.map((row) => (Array.isArray(row) ? toNode(row[0], row[1]) : toNode(null, null)));
    });
  }

  async listEdges(options: { label?: string } = {}): Promise<GraphEdge[]> {
    const label = options.label === undefined ? undefined : parse(LabelSchema, options.label, 'graph snapshot');
    return inSavepoint(this.sql, async () => {
      const rows = await this.run(
        `MATCH (a)-[r]->(b)${label ? ' WHERE label(a) = $label OR label(b) = $label' : ''}
         RETURN [type(r), label(a), a.key, label(b), b.key, properties(r)]
         ORDER BY type(r), label(a), a.key, label(b), b.key`,
        label ? { label } : {},
      );
      return rows.map((row) => {
        const [type, fromLabel, fromKey, toLabel, toKey, properties] = Array.isArray(row) ? row : [];
        return {
          type: asText(type),
          from: { label: asText(fromLabel), key: asText(fromKey) },
          to: { label: asText(toLabel), key: asText(toKey) },
          properties: asObject(properties) as Properties,
        };
      });
    });
  }
}
