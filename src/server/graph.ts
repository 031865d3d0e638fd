import { z } from 'zod';
import { openAgeGraph } from '../graph/age-graph.js';
import { ensureGraphSupport } from '../graph/availability.js';
import { GraphUnavailableError } from '../graph/errors.js';
import { graphNameFor } from '../graph/graph-name.js';
import { LabelSchema, type GraphSnapshot } from '../graph/model.js';
import { graphSnapshot } from '../graph/snapshot.js';
import { StoreUnavailableError, type SqlDatabase, type SqlTransaction, type Store } from '../store/types.js';
import { HttpError } from './errors.js';

/**
 * The task agent's graph seen from outside (`GET /api/graph`, `gateflow
 * graph`): whether the store can hold graphs, found once at start, and the
 * owner's graph read in one read-only transaction. A store without Apache AGE
 * keeps serving flows; only the graph answers 503 `graph_unavailable`.
 */

/** Whether the store holds graphs: AGE's version, or why not (one sentence an operator can act on). */
export type GraphStatus = { available: true; version: string } | { available: false; reason: string };

/** `GET /api/graph`'s query (and `gateflow graph --label`): a misspelt or malformed label is refused, not ignored. */
export const GraphQueryParamsSchema = z.strictObject({
  label: LabelSchema.optional().describe('Only nodes with this label, and the edges touching them'),
});
export type GraphQueryParams = z.infer<typeof GraphQueryParamsSchema>;

/** Where the graph is read: an owner's snapshot, or 503 `graph_unavailable` saying why not. */
export interface GraphSource {
  readonly status: GraphStatus;
  /** The owner's graph (null: the shared graph of a server without auth), as `graphSnapshot` gives it. */
  snapshot(owner: string | null, query: GraphQueryParams): Promise<GraphSnapshot>;
}

/**
 * Checks at start that the store can hold graphs (`ensureGraphSupport`, then
 * AGE's library loaded once, which an extension row alone does not prove: a
 * PGlite directory opened without AGE still lists it). A store without AGE is
 * a status, not a failure; an outage while checking is a store outage.
 */
export async function checkGraphSupport(store: Store): Promise<GraphStatus> {
  const sql = store.sql;
  if (!sql) return { available: false, reason: `the ${store.kind} store is not a SQL database and holds no graph` };
  try {
    const { version } = await ensureGraphSupport(sql);
    await sql.transaction(async (tx) => {
      try {
        await tx.query("SELECT 'null'::ag_catalog.agtype IS NOT NULL AS loaded");
      } catch (error) {
        throw new GraphUnavailableError('not_installed', (error as Error).message);
      }
    });
    return { available: true, version };
  } catch (error) {
    if (error instanceof GraphUnavailableError) return { available: false, reason: unavailableReason(error, sql.kind) };
    if (error instanceof StoreUnavailableError) throw error;
    throw new StoreUnavailableError(`${sql.kind} store: checking for Apache AGE failed: ${(error as Error).message}`, { cause: error });
  }
}

/** Why the graph is off, for the start-up line and the 503: what is missing and what to do. */
function unavailableReason(error: GraphUnavailableError, kind: string): string {
  if (kind === 'postgres' && error.reason === 'not_installed')
    return 'the PostgreSQL server has no Apache AGE extension (install it on the server: https://age.apache.org)';
  if (kind === 'postgres' && error.reason === 'not_enabled')
    return `the PostgreSQL server has Apache AGE but it could not be enabled (${error.detail}): run CREATE EXTENSION age as a privileged user`;
  if (kind === 'pglite' && error.reason === 'not_installed') return `PGlite was opened without Apache AGE (${error.detail}): open it with graphPgliteOptions()`;
  return error.message;
}

/** The graph of a SQL store whose status was checked at start. */
export function storeGraphSource(store: Store, status: GraphStatus): GraphSource {
  const sql = store.sql;
  return {
    status,
    async snapshot(owner, query) {
      if (!status.available || !sql) throw graphUnavailable(status);
      try {
        return await readSnapshot(sql, owner, query);
      } catch (error) {
        if (error instanceof GraphUnavailableError || error instanceof HttpError || error instanceof StoreUnavailableError) throw error;
        // The store says whether it was an outage (503 store_unavailable) or this read that failed.
        await store.ping();
        throw error;
      }
    },
  };
}

/** A server whose store holds no graph (or one built without a graph source). */
export function noGraphSource(reason: string): GraphSource {
  const status: GraphStatus = { available: false, reason };
  return {
    status,
    snapshot: async () => {
      throw graphUnavailable(status);
    },
  };
}

const graphUnavailable = (status: GraphStatus) =>
  new HttpError(503, 'graph_unavailable', `the graph is unavailable: ${status.available ? 'no graph store' : status.reason}; flows keep working`);

/** SQLSTATEs of a missing AGE catalog: the extension was dropped since start. */
const NO_CATALOG = new Set(['3F000', '42P01', '42704']);

/**
 * The owner's graph in one read-only transaction: a GET writes nothing, so a
 * graph nobody has written yet is empty here rather than created.
 */
export async function readSnapshot(sql: SqlDatabase, owner: string | null, query: GraphQueryParams): Promise<GraphSnapshot> {
  const name = await graphNameFor(owner);
  return sql.transaction(async (tx) => {
    await tx.query('SET TRANSACTION READ ONLY');
    if (!(await graphExists(tx, name))) return { nodes: [], edges: [] };
    const graph = await openAgeGraph(tx, { owner });
    return graphSnapshot(graph, query.label === undefined ? {} : { label: query.label });
  });
}

async function graphExists(tx: SqlTransaction, name: string): Promise<boolean> {
  try {
    const { rows } = await tx.query<{ present: boolean }>('SELECT EXISTS (SELECT 1 FROM ag_catalog.ag_graph WHERE name = $1) AS present', [name]);
    return rows[0]?.present === true;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && NO_CATALOG.has(code)) throw new GraphUnavailableError('not_created', (error as Error).message);
    throw error;
  }
}
