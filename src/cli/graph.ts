import type { Writable } from 'node:stream';
import type { GraphEdge, GraphNode, GraphSnapshot, NodeRef, PropertyValue } from '../graph/model.js';
import { StoreUnavailableError } from '../store/types.js';
import { CliError } from './io.js';
import { serverRequester, type ServerAccess } from './inputs-source.js';
import { openLocalStore, type LocalStoreLocation } from './local-store.js';

/**
 * `gateflow graph`: the task agent's graph, read from the store itself (the
 * PGlite directory `serve` uses, opened with Apache AGE, or PostgreSQL) or
 * from a running server (`GET /api/graph`). `--json` prints exactly what the
 * API answers; otherwise one line per node (`Ticket TICKET-123 {status:
 * open}`) and per edge (`User john.doe -REPORTS-> Ticket TICKET-123`).
 */

/** Where the graph is read. */
export type GraphReader = (query: { label?: string | undefined }) => Promise<GraphSnapshot>;

/**
 * The shared graph in the store (the terminal's user has no token: they see
 * what a caller without auth sees). A store without AGE is one line and exit 1,
 * with the reason the server would give.
 */
export function localGraphReader(location: LocalStoreLocation): GraphReader {
  return async (query) => {
    // Loaded here: the other commands need neither AGE nor the graph.
    const [{ graphPgliteOptions }, { checkGraphSupport, readSnapshot }] = await Promise.all([import('../graph/pglite.js'), import('../server/graph.js')]);
    const store = await openLocalStore(location, { pgliteExtensions: graphPgliteOptions().extensions });
    try {
      const status = await checkGraphSupport(store);
      if (!status.available) throw new CliError(`gateflow: the graph is unavailable: ${status.reason}`, 1);
      return await readSnapshot(store.sql!, null, query.label === undefined ? {} : { label: query.label });
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw new CliError(`gateflow: ${error.message}`, 1);
      throw error;
    } finally {
      await store.close();
    }
  };
}

/** The caller's graph on a server: the token's subject's own, or the shared one without auth. */
export function remoteGraphReader(access: ServerAccess): GraphReader {
  const request = serverRequester(access);
  return (query) => request<GraphSnapshot>('GET', `/api/graph${query.label === undefined ? '' : `?${new URLSearchParams({ label: query.label })}`}`);
}

const write = (out: Writable, text: string) => out.write(text.endsWith('\n') ? text : `${text}\n`);

/** `gateflow graph`: the listing, or with `json` the snapshot as one line of JSON. */
export async function runGraph(read: GraphReader, query: { label?: string | undefined }, options: { json: boolean }, out: Writable): Promise<number> {
  const snapshot = await read(query);
  write(out, options.json ? terminalSafe(JSON.stringify(snapshot)) : formatGraph(snapshot, query.label));
  return 0;
}

/** Nodes, then edges, one per line under a count; an empty graph says so. */
export function formatGraph(snapshot: GraphSnapshot, label?: string): string {
  const { nodes, edges } = snapshot;
  if (nodes.length === 0 && edges.length === 0) return label === undefined ? 'the graph is empty' : `no ${label} nodes in the graph`;
  const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  return [
    `${count(nodes.length, 'node')}${label === undefined ? '' : ` labelled ${label}`}`,
    ...nodes.map((n) => `  ${formatNode(n)}`),
    count(edges.length, 'edge'),
    ...edges.map((e) => `  ${formatEdge(e)}`),
  ].join('\n');
}

/** `Ticket TICKET-123 {status: open}` */
export function formatNode(node: GraphNode): string {
  return `${ref(node)}${formatProperties(node.properties)}`;
}

/** `User john.doe -REPORTS-> Ticket TICKET-123`, with the edge's properties after it. */
export function formatEdge(edge: GraphEdge): string {
  return `${ref(edge.from)} -${edge.type}-> ${ref(edge.to)}${formatProperties(edge.properties)}`;
}

/** A key with a space in it is quoted: the next word of a line is the edge or the properties. */
const ref = (node: NodeRef) => `${node.label} ${/\s/.test(node.key) ? quoted(node.key) : text(node.key)}`;

function formatProperties(properties: Record<string, PropertyValue>): string {
  const entries = Object.entries(properties);
  if (entries.length === 0) return '';
  return ` {${entries.map(([name, value]) => `${name}: ${Array.isArray(value) ? `[${value.map(scalar).join(', ')}]` : scalar(value)}`).join(', ')}}`;
}

const scalar = (value: string | number | boolean) => (typeof value === 'string' ? text(value) : String(value));

/**
 * Text as it is when it reads unambiguously on one line; JSON-quoted when it
 * could be taken for a number, a yes/no or the listing's punctuation, or holds
 * anything a terminal would act on (control characters, escapes, bidi marks):
 * the graph's values come from a model and from people.
 */
function text(value: string): string {
  const plain = /^[^\s\p{C}"'{}[\],][^\p{C}"{}[\],]*$/u.test(value) && !/\s$/.test(value) && !LOOKS_TYPED.test(value);
  return plain ? value : quoted(value);
}

const quoted = (value: string) => terminalSafe(JSON.stringify(value));

/**
 * JSON text with every character of \p{C} as a `\uXXXX` escape: the same
 * JSON value, but nothing a terminal acts on (JSON.stringify escapes C0
 * controls only; DEL, C1 controls such as CSI and bidi marks pass).
 */
const terminalSafe = (json: string) => json.replace(/\p{C}/gu, unicodeEscape);

const LOOKS_TYPED = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/;
const unicodeEscape = (c: string) =>
  Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
