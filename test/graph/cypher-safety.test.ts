/**
 * cypher_query runs text a model wrote: each layer is tried on its own (the
 * token check, the plan check, the rolled-back read-only savepoint, the
 * dollar quote), and the known bypasses end to end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkReadPlan,
  createGraphToolRegistry,
  CypherQueryError,
  CypherRefusedError,
  graphNameFor,
  graphSnapshot,
  openAgeGraph,
  readOnlyScope,
  type CypherLimits,
  type GraphSnapshot,
  type PropertyGraph,
} from '../../src/graph/index.js';
import type { SqlClient } from '../../src/store/sql/sql-store.js';
import { openAgeClient } from './age-client.js';

let client: SqlClient;
const owner = 'cypher-safety';
let graphName: string;

class Rollback extends Error {}
/** Runs `fn` in a transaction that is always rolled back (nothing a case does can leak into the next). */
async function inRolledBack(fn: (graph: PropertyGraph, tx: Pick<SqlClient, 'query'>) => Promise<void>, limits?: Partial<CypherLimits>): Promise<void> {
  await expect(
    client.transaction(async (tx) => {
      await fn(await openAgeGraph(tx, { owner, ...(limits ? { cypherLimits: limits } : {}) }), tx);
      throw new Rollback();
    }),
  ).rejects.toBeInstanceOf(Rollback);
}
const withGraph = <T>(fn: (graph: PropertyGraph) => Promise<T>, limits?: Partial<CypherLimits>) =>
  client.transaction(async (tx) => fn(await openAgeGraph(tx, { owner, ...(limits ? { cypherLimits: limits } : {}) })));

const seeded: GraphSnapshot = {
  nodes: [
    { label: 'Ticket', key: 'T-1', properties: { status: 'open' } },
    { label: 'Ticket', key: 'T-2', properties: { status: 'closed' } },
    { label: 'User', key: 'u', properties: {} },
  ],
  edges: [{ type: 'REPORTS', from: { label: 'User', key: 'u' }, to: { label: 'Ticket', key: 'T-1' }, properties: {} }],
};

beforeAll(async () => {
  client = await openAgeClient();
  graphName = await graphNameFor(owner);
  await withGraph(async (g) => {
    for (const node of seeded.nodes) await g.addNode(node);
    for (const edge of seeded.edges) await g.addEdge(edge);
  });
});
afterAll(() => client?.close());

const refusedBy = async (graph: PropertyGraph, text: string) => {
  const error = await graph.cypher(text).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof CypherRefusedError) return error.reason;
  if (error instanceof CypherQueryError) return `failed ${error.sqlState}`;
  if (error) throw error;
  return 'ran';
};

describe('reads run', () => {
  it('answers with named columns, vertices as { id, label, properties }', async () => {
    await withGraph(async (g) => {
      const result = await g.cypher(
        "MATCH (u:User)-[:REPORTS]->(t:Ticket) WHERE toLower(t.status) = 'open' RETURN t.key AS ticket, u, size(collect(t)) AS n",
      );
      expect(result.columns).toEqual(['ticket', 'u', 'n']);
      expect(result.rows).toEqual([{ ticket: 'T-1', u: { id: expect.any(Number), label: 'User', properties: { key: 'u' } }, n: 1 }]);
      expect(result.truncated).toBe(false);
    });
  });

  it('caps rows and says so', async () => {
    await withGraph(async (g) => {
      const result = await g.cypher('MATCH (n) RETURN n.key ORDER BY n.key');
      expect(result).toMatchObject({ rows: [{ 'n.key': 'T-1' }, { 'n.key': 'T-2' }, { 'n.key': 'u' }], truncated: false });
    });
    await withGraph(
      async (g) => {
        const capped = await g.cypher('MATCH (n) RETURN n.key ORDER BY n.key');
        expect(capped).toMatchObject({ rows: [{ 'n.key': 'T-1' }, { 'n.key': 'T-2' }], truncated: true });
      },
      { maxRows: 2 },
    );
  });

  it('leaves the transaction read-write: tools may write after a query', async () => {
    await inRolledBack(async (g) => {
      await g.cypher('MATCH (n) RETURN count(n)');
      await g.addNode({ label: 'After', key: 'a' });
      expect((await g.query({ label: 'After' })).nodes).toHaveLength(1);
    });
  });
});

describe('the known bypasses, end to end', () => {
  const registry = createGraphToolRegistry();

  it.each([
    "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line",
    "MATCH (n) FOREACH (x IN [1] | SET n.status = 'pwned') RETURN n",
    'CALL { MATCH (n) DETACH DELETE n } RETURN 1',
    "MATCH (n) WITH n CREATE (m:Pwned {key: 'x'}) RETURN m",
    "MATCH (n) WITH n MERGE (m:Ticket {key: 'T-1'}) SET m.status = 'pwned' RETURN m",
    'MATCH (n) RETURN n.key UNION MATCH (m) DETACH DELETE m RETURN 1',
    'MATCH (n:Ticket) REMOVE n.status RETURN n',
    "MATCH (n) RETURN n // a comment ends at the line\nSET n.status = 'pwned'",
    "MATCH (n) /* CREATE */ SET /* */ n.status = 'pwned' RETURN n",
    "MATCH (n) RETURN n; MATCH (m) SET m.status = 'pwned' RETURN m",
    'RETURN pg_catalog.pg_reload_conf() AS r',
    "RETURN `pg_catalog`.`concat`('a') AS r",
    "RETURN create_barbell_graph('pwned', 3, 'V', NULL, 1, 'E', NULL) AS r",
    '$$) AS (v agtype); CREATE TABLE pwned (x int); SELECT * FROM cypher($$ RETURN 1',
  ])('refused: %s', async (query) => {
    await withGraph(async (g) => {
      const outcome = await registry.call(g, 'cypher_query', { query });
      expect(outcome).toMatchObject({ ok: false, error: { code: 'cypher_refused' } });
    });
  });

  it('a dollar quote inside a string stays in the string', async () => {
    await withGraph(async (g) => {
      for (const s of ['$$) AS (v agtype); CREATE TABLE pwned (x int); --', '$cypher$) AS (v agtype); CREATE TABLE pwned (x int); --']) {
        const result = await g.cypher(`RETURN '${s}' AS s`);
        expect(result.rows).toEqual([{ s }]);
      }
    });
    const { rows } = await client.query<{ t: string | null }>("SELECT to_regclass('pwned')::text AS t");
    expect(rows[0]?.t).toBeNull();
  });

  it('a cartesian product across the graph is refused by its planned cost', async () => {
    await withGraph(async (g) => {
      expect(await refusedBy(g, 'MATCH (a), (b), (c), (d), (e) RETURN count(*)')).toBe('too_expensive');
      // Without a statement timeout (PGlite) the cap is lower: an unconnected pair of labels is refused there, a connected one runs.
      expect(await refusedBy(g, 'MATCH (a:Ticket)<-[]-(b:User) RETURN count(*)')).toBe('ran');
    });
    await withGraph(async (g) => {
      expect(await refusedBy(g, 'MATCH (a:Ticket), (b:User) RETURN count(*)')).toBe('ran');
    }, { maxCostWithoutTimeout: 1e8 });
  });

  it('a query the database rejects is its error, for the model to read', async () => {
    await withGraph(async (g) => {
      await expect(g.cypher('MATCH (n) RETURN n.key AS')).rejects.toMatchObject({ code: 'cypher_failed', sqlState: '42601' });
    });
  });

  it('after all of it, the graph is as it was', async () => {
    expect(await withGraph((g) => graphSnapshot(g))).toEqual(seeded);
  });
});

describe('each layer on its own', () => {
  const writes = [
    "MATCH (n:Ticket) SET n.status = 'pwned' RETURN n",
    "MATCH (n:Ticket) REMOVE n.status RETURN n",
    "MATCH (n:Ticket) WITH n CREATE (m:Ticket {key: 'new'}) RETURN m",
    "MERGE (m:Ticket {key: 'T-1'}) RETURN m",
    'MATCH (n:User) DETACH DELETE n RETURN 1',
    'MATCH ()-[r:REPORTS]->() DELETE r RETURN 1',
    "MATCH (n:Ticket) RETURN n UNION MATCH (m:Ticket) SET m.status = 'pwned' RETURN m",
  ];
  const explain = async (tx: Pick<SqlClient, 'query'>, body: string) => {
    const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (FORMAT JSON) SELECT * FROM ag_catalog.cypher('${graphName}', $q$ ${body} $q$) AS (v ag_catalog.agtype)`,
    );
    return rows[0]?.['QUERY PLAN'];
  };

  it.each(writes)('the plan check refuses a write the token check never saw: %s', async (body) => {
    await inRolledBack(async (_g, tx) => {
      const plan = await explain(tx, body);
      expect(() => checkReadPlan(plan, 1e8)).toThrow(expect.objectContaining({ reason: 'write_plan' }));
    });
  });

  it('the plan check lets reads through, and refuses no plan', async () => {
    await inRolledBack(async (_g, tx) => {
      for (const body of ['MATCH (n:Ticket) RETURN n', 'MATCH (u:User)-[r]->(t) RETURN [u, r, t]', 'MATCH (n) RETURN count(n)']) {
        const plan = await explain(tx, body);
        expect(() => checkReadPlan(plan, 1e8)).not.toThrow();
      }
    });
    expect(() => checkReadPlan(undefined, 1e8)).toThrow(CypherRefusedError);
  });

  it.each(writes)('READ ONLY refuses a write that got past both checks, and the transaction goes on: %s', async (body) => {
    await client.transaction(async (tx) => {
      const graph = await openAgeGraph(tx, { owner });
      const attempt = readOnlyScope(tx, { timeoutMs: 1000 }, () =>
        tx.query(`SELECT * FROM ag_catalog.cypher('${graphName}', $q$ ${body} $q$) AS (v ag_catalog.agtype)`),
      );
      await expect(attempt).rejects.toMatchObject({ code: '25006' });
      expect(await graphSnapshot(graph)).toEqual(seeded);
      const { rows } = await tx.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
      expect(rows[0]?.transaction_read_only).toBe('off');
    });
  });
});
