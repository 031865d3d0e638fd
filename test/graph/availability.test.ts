/**
 * Where AGE is missing: PostgreSQL without it (the test server has none, as
 * Debian's packages do not), and PGlite opened without the extension. The
 * graph says so clearly; the database keeps serving everything else.
 */
import { PGlite } from '@electric-sql/pglite';
import { templateTarball } from '../helpers/pglite-template.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureGraphSupport, GraphUnavailableError, openAgeGraph, readOnlyScope } from '../../src/graph/index.js';
import { createPostgresClient } from '../../src/store/postgres.js';
import type { SqlClient } from '../../src/store/sql/sql-store.js';
import { createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';
import { pgliteClient } from './age-client.js';

const unavailable = async (work: Promise<unknown>): Promise<GraphUnavailableError> => {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GraphUnavailableError);
  return error as GraphUnavailableError;
};

describe.skipIf(!hasPostgres)('PostgreSQL without AGE', () => {
  let schema: TestSchema;
  let client: SqlClient;
  beforeAll(async () => {
    schema = await createTestSchema('gf_graph');
    client = createPostgresClient({ connectionString: schema.url, max: 2 });
    await client.query('CREATE TABLE kept (n int)');
  });
  afterAll(async () => {
    await client?.close();
    await schema?.drop();
  });

  it('ensureGraphSupport says AGE must be installed on the server, and that the rest keeps working', async () => {
    const error = await unavailable(ensureGraphSupport(client));
    expect(error).toMatchObject({ reason: 'not_installed', code: 'graph_unavailable', status: 503 });
    expect(error.message).toMatch(/install AGE on the server/);
    expect(error.message).toMatch(/Everything but the task agent's graph keeps working/);
    await client.query('INSERT INTO kept VALUES (1)');
    expect((await client.query<{ n: number }>('SELECT n FROM kept')).rows).toEqual([{ n: 1 }]);
  });

  it('opening a graph in a turn fails clearly and leaves the turn’s transaction usable', async () => {
    await client.transaction(async (tx) => {
      await tx.query('INSERT INTO kept VALUES (2)');
      expect((await unavailable(openAgeGraph(tx, { owner: 'alice' }))).reason).toBe('not_created');
      await tx.query('INSERT INTO kept VALUES (3)');
    });
    expect((await client.query<{ n: number }>('SELECT n FROM kept ORDER BY n')).rows.map((r) => r.n)).toEqual([1, 2, 3]);
  });

  it('the read-only scope stops a slow query at its timeout and refuses writes, then lets the transaction write', async () => {
    await client.transaction(async (tx) => {
      // 57014 (query_canceled) is the timeout's own error: without it the sleep would end without one.
      await expect(readOnlyScope(tx, { timeoutMs: 150 }, () => tx.query('SELECT pg_sleep(5)'))).rejects.toMatchObject({ code: '57014' });
      await expect(readOnlyScope(tx, { timeoutMs: 1000 }, () => tx.query('INSERT INTO kept VALUES (99)'))).rejects.toMatchObject({ code: '25006' });
      await tx.query('INSERT INTO kept VALUES (4)');
      const { rows } = await tx.query<{ statement_timeout: string }>('SHOW statement_timeout');
      expect(rows[0]?.statement_timeout).not.toBe('150ms');
    });
    expect((await client.query<{ n: number }>('SELECT n FROM kept ORDER BY n')).rows.map((r) => r.n)).toEqual([1, 2, 3, 4]);
  });
});

describe('PGlite opened without the age extension', () => {
  let client: SqlClient;
  beforeAll(() => {
    client = pgliteClient(new PGlite({ loadDataDir: templateTarball('plain') }));
  });
  afterAll(() => client?.close());

  it('ensureGraphSupport names the fix: open PGlite with graphPgliteOptions()', async () => {
    const error = await unavailable(ensureGraphSupport(client));
    expect(error.reason).toBe('not_installed');
    expect(error.message).toMatch(/graphPgliteOptions\(\)/);
    expect((await client.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
