/**
 * `npx tsx test/bench/cypher-stall.ts` (issue 27 §3): model-written Cypher
 * on PGlite with AGE, which has no statement timeout. A graph of N nodes
 * (CYPHER_BENCH_NODES, default 2000) and hostile reads: for each, how it
 * ended (rows, refused, or timed out), its wall time, and what the rest of
 * the process saw meanwhile: the longest the event loop was blocked, and how
 * long a concurrent query of another request waited.
 */
import { openAgeGraph } from '../../src/graph/index.js';
import { openGraphStore } from '../helpers/task-agent.js';

const NODES = Number(process.env.CYPHER_BENCH_NODES ?? 2000);
const QUERIES = [
  'UNWIND range(1,3000) AS a UNWIND range(1,3000) AS b RETURN count(b)',
  'UNWIND range(1,3000000) AS a RETURN count(a)',
  'MATCH (a:Item) RETURN a.key',
  'MATCH (a:Item), (b:Item) RETURN count(*)',
  'MATCH (a:Item), (b:Item) WHERE a.n + b.n = -1 RETURN a.key',
  'MATCH (a:Item), (b:Item), (c:Item) RETURN count(*)',
  'MATCH (a:Item), (b:Item) WITH a, b ORDER BY a.n * b.n DESC RETURN a.key LIMIT 1',
  'MATCH p = (a:Item)-[*]-(b:Item) RETURN count(p)',
];

const store = await openGraphStore();
try {
  await store.sql!.transaction(async (tx) => {
    await openAgeGraph(tx, { owner: null });
    await tx.query(`SELECT * FROM ag_catalog.cypher('gateflow_graph', $$ UNWIND range(1, ${NODES}) AS i CREATE (:Item {key: toString(i), n: i}) $$) AS (v ag_catalog.agtype)`);
    await tx.query(`SELECT * FROM ag_catalog.cypher('gateflow_graph', $$ MATCH (a:Item), (b:Item) WHERE b.n = a.n + 1 AND a.n < 200 CREATE (a)-[:NEXT]->(b) $$) AS (v ag_catalog.agtype)`);
  });
  console.log(`gateflow bench: model-written Cypher on PGlite + AGE, ${NODES} nodes, 199 edges`);
  const rows: Record<string, string>[] = [];
  for (const query of QUERIES) {
    let gap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      gap = Math.max(gap, now - last);
      last = now;
    }, 5);
    const t0 = performance.now();
    let other = -1;
    const read = store.sql!.transaction(async (tx) => (await openAgeGraph(tx, { owner: null })).cypher(query));
    // Another request's query, sent while the read runs.
    // (from when it was sent: the read's start, plus 1 ms)
    const concurrent = (async () => {
      await new Promise((r) => setTimeout(r, 1));
      await store.sql!.query('SELECT 1');
      other = performance.now() - t0 - 1;
    })();
    let outcome: string;
    try {
      const result = await read;
      outcome = `${result.rows.length} rows${result.truncated ? ' (cut)' : ''}`;
    } catch (error) {
      outcome = `${(error as { code?: string }).code ?? 'error'}: ${(error as Error).message.slice(0, 70)}`;
    }
    const spent = performance.now() - t0;
    // The gap up to now counts too: a ticker that never ran was blocked the whole time.
    gap = Math.max(gap, performance.now() - last);
    await concurrent;
    clearInterval(ticker);
    rows.push({ query: query.slice(0, 60), outcome, ms: spent.toFixed(0), 'event loop blocked ms': gap.toFixed(0), 'other query waited ms': other.toFixed(0) });
  }
  console.table(rows);
} finally {
  await store.close();
}
