/**
 * PostgreSQL behind a frozen link: a TCP proxy in front of the real server
 * stops forwarding (no socket closed, no error, just silence). Every store
 * call must then fail within its bound (connect + query timeouts) as
 * StoreUnavailableError, which the HTTP API answers 503 `store_unavailable`,
 * with nothing written; after the thaw everything works again. Also: the
 * server-side statement_timeout, a transaction frozen half way, opening a
 * store on an unreachable server, and reading the timeouts from the environment.
 */
import { createServer, type AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import { createApp } from '../../src/server/app.js';
import {
  DEFAULT_POSTGRES_TIMEOUTS,
  createPostgresClient,
  createPostgresStore,
  postgresTimeoutsFromEnv,
  resolvePostgresTimeouts,
} from '../../src/store/postgres.js';
import { StoreUnavailableError, type Store } from '../../src/store/types.js';
import { call, exampleFlows, serveOnLoopback, type ApiResponse, type LoopbackServer } from '../helpers/http.js';
import { TEST_DATABASE_URL, createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const TIMEOUTS = { connectMs: 1000, statementMs: 1000, queryMs: 1500 };
/** The longest one store call may take: waiting for (or opening) a connection, then the query. */
const BOUND_MS = TIMEOUTS.connectMs + TIMEOUTS.queryMs;
/*
 * The link is frozen: nothing answers, so an answer at all, with the error that names its
 * bound, shows the bound fired. How long it took is printed, not asserted (no test may depend
 * on the machine being idle); lower bounds, which load cannot break, are asserted.
 */

const INTAKE = 'patient-intake';

/** `url` (a test schema's) through the proxy, named so its server sessions can be found. */
function viaProxy(url: string, proxy: TcpProxy, applicationName: string): string {
  const u = new URL(url);
  u.hostname = proxy.host;
  u.port = String(proxy.port);
  u.searchParams.set('application_name', applicationName);
  return u.toString();
}

function upstream(): { host: string; port: number } {
  const u = new URL(TEST_DATABASE_URL!);
  return { host: u.hostname, port: Number(u.port || 5432) };
}

/** Runs `fn`, returns its result and how long it took. */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: Math.round(performance.now() - start) };
}

function expectStoreUnavailable(response: ApiResponse, what: string) {
  expect({ what, status: response.status, code: response.body?.error?.code }).toEqual({ what, status: 503, code: 'store_unavailable' });
}

describe.skipIf(!hasPostgres)('PostgreSQL behind a frozen link', () => {
  let schema: TestSchema;
  let proxy: TcpProxy;
  let store: Store;
  let server: LoopbackServer;
  let admin: pg.Client;
  const appName = `gf_frozen_${process.pid}`;

  beforeAll(async () => {
    schema = await createTestSchema('gf_frozen');
    proxy = await startTcpProxy(upstream());
    store = await createPostgresStore({ connectionString: viaProxy(schema.url, proxy, appName), timeouts: TIMEOUTS });
    const runtime = createFlowRuntime({ flows: exampleFlows(), store });
    server = await serveOnLoopback(createApp({ runtime }));
    // Straight to the server, never through the proxy.
    admin = new pg.Client({ connectionString: schema.url });
    await admin.connect();
  });
  afterEach(() => {
    if (proxy.frozen) proxy.thaw();
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
    await proxy?.close();
    await admin?.end();
    await schema?.drop();
  });

  const start = async (): Promise<string> => {
    const response = await call(server.url, `/api/flows/${INTAKE}/sessions`, { json: {} });
    expect(response.status, response.text).toBe(201);
    return response.body.sessionId as string;
  };
  const turn = (sessionId: string, t: unknown) => call(server.url, `/api/sessions/${sessionId}/turns`, { json: t });
  const read = (sessionId: string) => call(server.url, `/api/sessions/${sessionId}`);
  /** What the server itself holds for a session. */
  const stored = async (sessionId: string) => {
    const { rows: s } = await admin.query<{ version: number; snapshot: unknown }>('SELECT version, snapshot FROM gateflow_sessions WHERE id = $1', [
      sessionId,
    ]);
    const { rows: j } = await admin.query<{ seq: number }>('SELECT seq FROM gateflow_journal WHERE session_id = $1 ORDER BY seq', [sessionId]);
    return { version: s[0]?.version, snapshot: s[0]?.snapshot, journal: j.map((r) => r.seq) };
  };

  it('answers a turn, a session read and the readiness check 503 store_unavailable within the bound, writes nothing, and carries on after the thaw', async () => {
    const sessionId = await start();
    expect((await turn(sessionId, { button: 'Yes' })).status).toBe(200);
    const before = await read(sessionId);
    expect(before.status).toBe(200);
    const storedBefore = await stored(sessionId);
    expect(storedBefore).toMatchObject({ version: 2, journal: [1, 2] });
    expect((await call(server.url, '/api/ready')).status).toBe(200);

    proxy.freeze();
    const frozenTurn = await timed(() => turn(sessionId, { text: 'no gaps' }));
    // The connection whose query timed out was dropped, not handed out again: the read opens a new one.
    const acceptedBeforeRead = proxy.accepted;
    const frozenRead = await timed(() => read(sessionId));
    expect(proxy.accepted).toBeGreaterThan(acceptedBeforeRead);
    const frozenReady = await timed(() => call(server.url, '/api/ready'));
    console.log(
      `frozen link: turn 503 after ${frozenTurn.ms} ms, GET session after ${frozenRead.ms} ms, GET /api/ready after ${frozenReady.ms} ms (bound ${BOUND_MS} ms)`,
    );
    expectStoreUnavailable(frozenTurn.value, 'turn');
    expectStoreUnavailable(frozenRead.value, 'GET session');
    expectStoreUnavailable(frozenReady.value, 'GET /api/ready');
    // Routes without the store do not wait for it.
    expect((await call(server.url, '/api/health')).status).toBe(200);

    proxy.thaw();
    expect((await call(server.url, '/api/ready')).body).toEqual({ status: 'ready' });
    const after = await read(sessionId);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
    expect(await stored(sessionId)).toEqual(storedBefore);

    const next = await turn(sessionId, { text: 'no gaps' });
    expect(next.status, next.text).toBe(200);
    expect(next.body.answers['2_insurance_history']).toMatchObject({ value: 'No' });
    expect(await stored(sessionId)).toMatchObject({ version: 3, journal: [1, 2, 3] });
  });

  it('answers every one of many concurrent requests while frozen within the bound: no route stalls', async () => {
    const ids = await Promise.all(Array.from({ length: 4 }, () => start()));
    for (const id of ids) expect((await turn(id, { button: 'Yes' })).status).toBe(200);
    const storedAll = async () => {
      const all = [];
      for (const id of ids) all.push(await stored(id));
      return all;
    };
    const before = await storedAll();

    proxy.freeze();
    // More store calls at once than the pool has connections (10): some wait for one.
    const requests: [string, () => Promise<ApiResponse>][] = [
      ...ids.map((id, i): [string, () => Promise<ApiResponse>] => [`turn ${i}`, () => turn(id, { text: 'no gaps' })]),
      ...ids.map((id, i): [string, () => Promise<ApiResponse>] => [`GET session ${i}`, () => read(id)]),
      ...ids.map((id, i): [string, () => Promise<ApiResponse>] => [`GET session ${i} again`, () => read(id)]),
      ['start', () => call(server.url, `/api/flows/${INTAKE}/sessions`, { json: {} })],
      ['ready', () => call(server.url, '/api/ready')],
    ];
    const results = await Promise.all(requests.map(async ([what, fn]) => ({ what, ...(await timed(fn)) })));
    console.log(`frozen link, ${results.length} concurrent requests: ${results.map((r) => `${r.what} ${r.value.status} in ${r.ms} ms`).join(', ')}`);
    for (const r of results) expectStoreUnavailable(r.value, r.what);
    // And again, on a pool whose connections were all dropped: still bounded.
    const again = await timed(() => read(ids[0]!));
    console.log(`frozen link, once more: ${again.value.status} in ${again.ms} ms`);
    expectStoreUnavailable(again.value, 'GET session, once more');

    proxy.thaw();
    expect(await storedAll()).toEqual(before);
    for (const id of ids) {
      const next = await turn(id, { text: 'no gaps' });
      expect(next.status, next.text).toBe(200);
    }
    expect((await storedAll()).map((s) => s.version)).toEqual([3, 3, 3, 3]);
  });

  it("lets the server cancel a statement that waits too long (statement_timeout, 57014) before the client's query timeout, and the pool stays usable", async () => {
    const sessionId = await start();
    const storedBefore = await stored(sessionId);
    // Another session holds the table: the store's statements wait on its lock.
    const locker = new pg.Client({ connectionString: schema.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE gateflow_sessions IN ACCESS EXCLUSIVE MODE');
      const direct = await timed(() => store.load(sessionId).then(() => null, (error: unknown) => error));
      expect(direct.value).toBeInstanceOf(StoreUnavailableError);
      expect(((direct.value as Error).cause as { code?: string }).code).toBe('57014');
      const overHttp = await timed(() => turn(sessionId, { button: 'Yes' }));
      console.log(`statement_timeout: load failed after ${direct.ms} ms, turn 503 after ${overHttp.ms} ms`);
      expectStoreUnavailable(overHttp.value, 'turn on a locked table');
      for (const { ms } of [direct, overHttp]) expect(ms).toBeGreaterThanOrEqual(TIMEOUTS.statementMs - 50);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    expect(await stored(sessionId)).toEqual(storedBefore);
    expect((await turn(sessionId, { button: 'Yes' })).status).toBe(200);
  });

  it('bounds a transaction whose link freezes half way, and drops its connection rather than reusing it', async () => {
    const name = `${appName}_tx`;
    const client = createPostgresClient({ connectionString: viaProxy(schema.url, proxy, name), max: 1, timeouts: TIMEOUTS });
    try {
      const tx = await timed(() =>
        client
          .transaction(async (q) => {
            await q.query('SELECT 1');
            proxy.freeze();
            await q.query('SELECT 2');
          })
          .then(
            () => null,
            (error: unknown) => error,
          ),
      );
      console.log(`transaction frozen half way: failed after ${tx.ms} ms: ${(tx.value as Error).message}`);
      expect(tx.value).toBeInstanceOf(Error);
      expect((tx.value as { code?: unknown }).code).toBeUndefined();
      expect((tx.value as Error).message).toMatch(/no answer from PostgreSQL within 1500 ms/);

      // Still frozen, the next transaction is bounded too; and it tries a new connection (the pool
      // holds one): had the stuck one been released to the pool, its BEGIN would queue behind the
      // unanswered query and time out as a query instead.
      const acceptedBefore = proxy.accepted;
      const frozenBegin = await timed(() => client.transaction(async () => 'never').then(() => null, (error: unknown) => error));
      expect(frozenBegin.value).toBeInstanceOf(Error);
      expect((frozenBegin.value as Error).message).toMatch(/cannot connect to PostgreSQL within 1000 ms/);
      expect(proxy.accepted).toBe(acceptedBefore + 1);

      proxy.thaw();
      // One connection in the pool: were the stuck one handed out again, this would wait behind it.
      const after = await timed(() => client.query<{ n: number }>('SELECT 3 AS n'));
      expect(after.value.rows).toEqual([{ n: 3 }]);
      expect(await client.transaction(async (q) => (await q.query<{ n: number }>('SELECT 4 AS n')).rows)).toEqual([{ n: 4 }]);
      // The server ended the frozen transaction's session (its socket closed on the thaw): no lock left held.
      let idleInTransaction = -1;
      for (let i = 0; i < 40 && idleInTransaction !== 0; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 50));
        const { rows } = await admin.query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1 AND state LIKE 'idle in transaction%'",
          [name],
        );
        idleInTransaction = Number(rows[0]!.n);
      }
      expect(idleInTransaction).toBe(0);
    } finally {
      if (proxy.frozen) proxy.thaw();
      await client.close();
    }
  });
});

describe.skipIf(!hasPostgres)('opening a PostgreSQL store on a server that does not answer', () => {
  const PASSWORD = 'Fr0zen-S3cret@pass';
  const withPassword = (host: string, port: number) => {
    const u = new URL(TEST_DATABASE_URL!);
    u.hostname = host;
    u.port = String(port);
    u.password = encodeURIComponent(PASSWORD);
    return u.toString();
  };

  const expectUnavailableQuickly = async (connectionString: string) => {
    const opened = await timed(() =>
      createPostgresStore({ connectionString, timeouts: TIMEOUTS }).then(
        async (s) => {
          await s.close();
          return null;
        },
        (error: unknown) => error,
      ),
    );
    expect(opened.value).toBeInstanceOf(StoreUnavailableError);
    const error = opened.value as StoreUnavailableError;
    // Neither the message nor anything printed with the error holds the password.
    for (const text of [error.message, inspect(error, { depth: 10 }), String(error.stack)]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(encodeURIComponent(PASSWORD));
      expect(text).not.toContain('S3cret');
    }
    return { error, ms: opened.ms };
  };

  it('fails within the connect bound with StoreUnavailableError when the link is frozen from the start', async () => {
    const proxy = await startTcpProxy(upstream());
    proxy.freeze();
    try {
      const { error, ms } = await expectUnavailableQuickly(withPassword(proxy.host, proxy.port));
      console.log(`open through a frozen link: failed after ${ms} ms: ${error.message}`);
      expect(error.message).toMatch(/cannot connect to PostgreSQL within 1000 ms/);
      expect(error.message).toContain(`127.0.0.1:${proxy.port}`);
      expect(proxy.accepted).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }
  });

  it('fails fast with StoreUnavailableError on a closed port', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const { error, ms } = await expectUnavailableQuickly(withPassword('127.0.0.1', port));
    console.log(`open on a closed port: failed after ${ms} ms: ${error.message}`);
    expect(error.message).toMatch(/ECONNREFUSED/);
  });
});

describe('PostgreSQL timeouts', () => {
  it('default to a few seconds, the query timeout above the statement timeout', () => {
    expect(resolvePostgresTimeouts()).toEqual({ connectMs: 3000, statementMs: 5000, queryMs: 6000, idleInTransactionMs: 10_000 });
    expect(resolvePostgresTimeouts()).toEqual(DEFAULT_POSTGRES_TIMEOUTS);
    expect(resolvePostgresTimeouts({ statementMs: 20_000 }).queryMs).toBe(21_000);
    expect(resolvePostgresTimeouts({ statementMs: 0 }).queryMs).toBe(6000);
    expect(resolvePostgresTimeouts({ statementMs: 2 ** 31 - 1 }).queryMs).toBe(2 ** 31 - 1);
    expect(resolvePostgresTimeouts({ queryMs: 0, connectMs: 250 })).toMatchObject({ queryMs: 0, connectMs: 250, statementMs: 5000 });
  });

  it('refuses timeouts that are not whole milliseconds', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      expect(() => resolvePostgresTimeouts({ connectMs: bad })).toThrow(/timeouts\.connectMs must be whole milliseconds/);
      expect(() => createPostgresClient({ connectionString: 'postgres://127.0.0.1/x', timeouts: { queryMs: bad } })).toThrow(RangeError);
    }
  });

  it('are read from GATEFLOW_PG_*_TIMEOUT_MS, unset or empty variables left to the defaults', () => {
    expect(postgresTimeoutsFromEnv({})).toEqual({});
    expect(
      postgresTimeoutsFromEnv({
        GATEFLOW_PG_CONNECT_TIMEOUT_MS: '1500',
        GATEFLOW_PG_STATEMENT_TIMEOUT_MS: ' 8000 ',
        GATEFLOW_PG_QUERY_TIMEOUT_MS: '0',
        GATEFLOW_PG_IGNORED: 'x',
      }),
    ).toEqual({ connectMs: 1500, statementMs: 8000, queryMs: 0 });
    expect(postgresTimeoutsFromEnv({ GATEFLOW_PG_STATEMENT_TIMEOUT_MS: '', GATEFLOW_PG_QUERY_TIMEOUT_MS: '  ' })).toEqual({});
    expect(resolvePostgresTimeouts(postgresTimeoutsFromEnv({ GATEFLOW_PG_STATEMENT_TIMEOUT_MS: '2000' }))).toMatchObject({
      statementMs: 2000,
      queryMs: 3000,
    });
  });

  it('refuses an invalid variable with a message naming it and its value', () => {
    const cases: [string, string][] = [
      ['GATEFLOW_PG_CONNECT_TIMEOUT_MS', 'abc'],
      ['GATEFLOW_PG_STATEMENT_TIMEOUT_MS', '-5'],
      ['GATEFLOW_PG_QUERY_TIMEOUT_MS', '1.5'],
      ['GATEFLOW_PG_QUERY_TIMEOUT_MS', '3s'],
      ['GATEFLOW_PG_CONNECT_TIMEOUT_MS', '1e3'],
      ['GATEFLOW_PG_STATEMENT_TIMEOUT_MS', '99999999999'],
    ];
    for (const [name, value] of cases) {
      let message = '';
      try {
        postgresTimeoutsFromEnv({ [name]: value });
      } catch (error) {
        expect(error).toBeInstanceOf(Error);
        message = (error as Error).message;
      }
      expect(message, `${name}=${value}`).toContain(name);
      expect(message, `${name}=${value}`).toContain(JSON.stringify(value));
    }
  });
});
