/**
 * Issue 27 §3: model-written Cypher is bounded on PGlite too, where no
 * statement timeout can stop a read once it runs. The plan's cost is read at
 * its most costly node (a LIMIT above a join is costed as if it stopped early,
 * though a filter that matches nothing runs the whole join: such a read of
 * 2,000 nodes took 18 s and held every request), under a lower cap where no
 * timeout works; sorts get a work_mem and a temp_file_limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReadPlan, CypherRefusedError, DEFAULT_CYPHER_LIMITS, openAgeGraph, readOnlyScope } from '../../src/graph/index.js';
import type { Store } from '../../src/store/types.js';
import { openGraphStore } from '../helpers/task-agent.js';

let store: Store;
beforeAll(async () => {
  store = await openGraphStore();
  await store.sql!.transaction(async (tx) => {
    const { name } = await openAgeGraph(tx, { owner: 'bounds' });
    await tx.query(`SELECT * FROM ag_catalog.cypher('${name}', $$ UNWIND range(1, 1000) AS i CREATE (:Item {key: toString(i), n: i}) $$) AS (v ag_catalog.agtype)`);
  });
});
afterAll(async () => {
  await store?.close();
});

const read = (query: string) => store.sql!.transaction(async (tx) => (await openAgeGraph(tx, { owner: 'bounds' })).cypher(query));

describe('Cypher reads on PGlite', () => {
  it('refuses a join that matches nothing under a LIMIT, by the cost of the join, before it runs', async () => {
    const refused = await read('MATCH (a:Item), (b:Item) WHERE a.n + b.n = -1 RETURN a.key').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CypherRefusedError);
    expect((refused as CypherRefusedError).message).toMatch(/would cost about .* \(the limit is 1\.0e\+4\)/);
  });

  it('refuses a sort of a cartesian product', async () => {
    await expect(read('MATCH (a:Item), (b:Item) WITH a, b ORDER BY a.n * b.n DESC RETURN a.key LIMIT 1')).rejects.toBeInstanceOf(CypherRefusedError);
  });

  it('still answers ordinary reads', async () => {
    const result = await read('MATCH (a:Item) WHERE a.n <= 3 RETURN a.key ORDER BY a.n');
    expect(result.rows.map((r) => Object.values(r)[0])).toEqual(['1', '2', '3']);
    const all = await read('MATCH (a:Item) RETURN count(a)');
    expect(all.rows).toHaveLength(1);
  });

  it('knows PGlite has no working timeout, and bounds the read\'s sorts', async () => {
    const seen = await store.sql!.transaction((tx) =>
      readOnlyScope(tx, DEFAULT_CYPHER_LIMITS, async (scope) => ({
        ...scope,
        ...(await tx.query<{ work_mem: string; temp_file_limit: string }>("SELECT current_setting('work_mem') AS work_mem, current_setting('temp_file_limit') AS temp_file_limit")).rows[0],
      })),
    );
    expect(seen).toEqual({ timed: false, work_mem: '4MB', temp_file_limit: '64MB' });
  });

  it('reads the cost at the most costly node of the plan, not the root', () => {
    const plan = [{ Plan: { 'Node Type': 'Limit', 'Total Cost': 455, Plans: [{ 'Node Type': 'Nested Loop', 'Total Cost': 90_235 }] } }];
    expect(() => checkReadPlan(plan, 1e4)).toThrow(/would cost about 9\.0e\+4/);
    expect(() => checkReadPlan(plan, 1e5)).not.toThrow();
  });
});
