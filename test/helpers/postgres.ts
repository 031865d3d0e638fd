/**
 * PostgreSQL for the suites: GATEFLOW_TEST_DATABASE_URL names a server (.ci/run
 * starts one and sets it). Without it the PostgreSQL cases are skipped, unless
 * GATEFLOW_REQUIRE_POSTGRES=1, when they fail: CI must never skip them silently.
 * Each suite works in a schema of its own, dropped afterwards.
 */
import pg from 'pg';

export const TEST_DATABASE_URL = process.env.GATEFLOW_TEST_DATABASE_URL?.trim() || undefined;
export const REQUIRE_POSTGRES = process.env.GATEFLOW_REQUIRE_POSTGRES === '1';

if (REQUIRE_POSTGRES && !TEST_DATABASE_URL)
  throw new Error('GATEFLOW_REQUIRE_POSTGRES=1 but GATEFLOW_TEST_DATABASE_URL is not set');

/** True when PostgreSQL cases should run. */
export const hasPostgres = TEST_DATABASE_URL !== undefined;

export interface TestSchema {
  /** A connection string whose search_path is the new schema. */
  url: string;
  schema: string;
  drop(): Promise<void>;
}

/** Creates a fresh schema and returns a connection string that uses it. */
export async function createTestSchema(prefix = 'gf'): Promise<TestSchema> {
  if (!TEST_DATABASE_URL) throw new Error('no GATEFLOW_TEST_DATABASE_URL');
  const schema = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    schema,
    drop: async () => {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}
