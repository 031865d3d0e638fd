/**
 * `GET /api/graph` (issue 13) on a real socket on loopback, through
 * `startServer`: PGlite opened with Apache AGE (the `npm start` store), the
 * graph written through `openAgeGraph` on `store.sql` as a task agent's turn
 * would, read back exactly as `graphSnapshot` gives it; one graph per token
 * subject; and PostgreSQL without AGE, where flows keep working and the route
 * says why it is off.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sign } from 'hono/jwt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { graphNameFor, graphSnapshot, GraphSnapshotSchema, openAgeGraph, SHARED_GRAPH, type PropertyGraph } from '../../src/graph/index.js';
import { graphPgliteOptions } from '../../src/graph/pglite.js';
import { checkGraphSupport } from '../../src/server/graph.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { createPgliteStore } from '../../src/store/pglite.js';
import { templateDataDir } from '../helpers/pglite-template.js';
import { call, exampleFlows, serveOnLoopback, type ApiResponse } from '../helpers/http.js';
import { createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';

const SECRET = 'a-secret-of-at-least-32-bytes-for-the-graph';
const WORKFLOWS = exampleFlows().map((f) => flowWorkflow(f));

const ticket = { label: 'Ticket', key: 'TICKET-123' };
const john = { label: 'User', key: 'john.doe' };
const team = { label: 'Team', key: 'web' };

const tmpDirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gateflow-graph-http-'));
  tmpDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

function expectError(response: ApiResponse, status: number, code: string, message?: RegExp) {
  expect({ status: response.status, body: response.body }, response.text).toEqual({ status, body: { error: { code, message: expect.any(String) } } });
  if (message) expect(response.body.error.message).toMatch(message);
}

/** Writes to an owner's graph in one transaction on the server's store, as a task agent's turn does. */
const writeGraph = (server: RunningServer, owner: string | null, fn: (graph: PropertyGraph) => Promise<unknown>) =>
  server.store.sql!.transaction(async (tx) => {
    await fn(await openAgeGraph(tx, { owner }));
  });

/** The graph read directly, for comparison with the route. */
const readDirect = (server: RunningServer, owner: string | null, label?: string) =>
  server.store.sql!.transaction(async (tx) => graphSnapshot(await openAgeGraph(tx, { owner }), label === undefined ? {} : { label }));

const graphNames = async (server: RunningServer) =>
  (await server.store.sql!.query<{ name: string }>('SELECT name FROM ag_catalog.ag_graph ORDER BY name')).rows.map((r) => r.name);

/** A flow still starts and takes a turn. */
async function flowsWork(url: string, token?: string) {
  const auth = token === undefined ? {} : { token };
  const started = await call(url, '/api/flows/patient-intake/sessions', { method: 'POST', ...auth });
  expect(started.status, started.text).toBe(201);
  const turn = await call(url, `/api/sessions/${started.body.sessionId}/turns`, { json: { button: 'Yes' }, ...auth });
  expect(turn.status, turn.text).toBe(200);
  expect(turn.body.answers).toHaveProperty('1_patient_info_availability');
}

describe('GET /api/graph on PGlite with Apache AGE (startServer, no auth: one shared graph)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ workflows: WORKFLOWS, port: 0, dataDir: templateDataDir('graph', join(tempDir(), 'db')) });
  });
  afterAll(() => server?.close());

  it('the store holds graphs: startServer reports AGE and its version', () => {
    expect(server.graph).toEqual({ available: true, version: expect.stringMatching(/^\d+\.\d+/) });
  });

  it('an empty graph is { nodes: [], edges: [] }, and reading it creates no graph', async () => {
    const response = await call(server.url, '/api/graph');
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ nodes: [], edges: [] });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await graphNames(server)).toEqual([]);
  });

  it('gives the nodes and edges a turn wrote, exactly as graphSnapshot reads them', async () => {
    await writeGraph(server, null, async (g) => {
      await g.addNode({ ...ticket, properties: { summary: 'Fix login button', status: 'open', tags: ['ui', 'login'] } });
      await g.addNode({ ...john, properties: { name: 'John Doe' } });
      await g.addNode({ ...team, properties: {} });
      await g.addEdge({ type: 'REPORTS', from: john, to: ticket, properties: { since: 2024 } });
      await g.addEdge({ type: 'MEMBER_OF', from: john, to: team });
    });
    const response = await call(server.url, '/api/graph');
    expect(response.status, response.text).toBe(200);
    const expected = {
      nodes: [
        { ...team, properties: {} },
        { ...ticket, properties: { summary: 'Fix login button', status: 'open', tags: ['ui', 'login'] } },
        { ...john, properties: { name: 'John Doe' } },
      ],
      edges: [
        { type: 'MEMBER_OF', from: john, to: team, properties: {} },
        { type: 'REPORTS', from: john, to: ticket, properties: { since: 2024 } },
      ],
    };
    expect(response.body).toEqual(expected);
    expect(response.body).toEqual(await readDirect(server, null));
    expect(GraphSnapshotSchema.parse(response.body)).toEqual(expected);
    expect(await graphNames(server)).toEqual([SHARED_GRAPH]);
  });

  it('?label= gives the nodes of that label and the edges touching them', async () => {
    const tickets = await call(server.url, '/api/graph?label=Ticket');
    expect(tickets.status, tickets.text).toBe(200);
    expect(tickets.body).toEqual({
      nodes: [{ ...ticket, properties: { summary: 'Fix login button', status: 'open', tags: ['ui', 'login'] } }],
      edges: [{ type: 'REPORTS', from: john, to: ticket, properties: { since: 2024 } }],
    });
    expect(tickets.body).toEqual(await readDirect(server, null, 'Ticket'));
    expect((await call(server.url, '/api/graph?label=User')).body.edges).toHaveLength(2);
    expect((await call(server.url, '/api/graph?label=Nobody')).body).toEqual({ nodes: [], edges: [] });
  });

  it('a malformed label, a misspelt parameter or a label given twice is 400 invalid_query, saying what is wrong', async () => {
    expectError(await call(server.url, '/api/graph?label=1Ticket'), 400, 'invalid_query', /label "1Ticket" a label must start with a letter/);
    expectError(await call(server.url, `/api/graph?label=${encodeURIComponent("Ticket`) DETACH DELETE n //")}`), 400, 'invalid_query', /a label must start/);
    expectError(await call(server.url, '/api/graph?lable=Ticket'), 400, 'invalid_query', /unknown query parameter "lable" \(did you mean label\?\)/);
    expectError(await call(server.url, '/api/graph?label=Ticket&label=User'), 400, 'invalid_query', /give label once, not 2 times/);
    // Nothing was changed by them.
    expect((await call(server.url, '/api/graph')).body.nodes).toHaveLength(3);
  });

  it('takes GET only', async () => {
    const response = await call(server.url, '/api/graph', { method: 'POST', json: {} });
    expectError(response, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('the OpenAPI document describes the route with the Graph schema', async () => {
    const doc = (await call(server.url, '/api/openapi.json')).body;
    const get = doc.paths['/api/graph'].get;
    expect(get.parameters).toEqual([expect.objectContaining({ name: 'label', in: 'query', required: false })]);
    expect(get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Graph' });
    expect(get.responses['503'].description).toMatch(/graph_unavailable/);
    expect(doc.components.schemas.Graph).toEqual(z.toJSONSchema(GraphSnapshotSchema, { io: 'output', unrepresentable: 'any' }));
  });

  it('a store that is down is 503 store_unavailable, as on the other routes (run last: it closes the store)', async () => {
    await server.store.close();
    expectError(await call(server.url, '/api/graph'), 503, 'store_unavailable', /the session store is unavailable/);
  });
});

describe('GET /api/graph with JWT auth: one graph per token subject', () => {
  let server: RunningServer;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    server = await startServer({ workflows: WORKFLOWS, port: 0, dataDir: templateDataDir('graph', join(tempDir(), 'db')), jwtSecret: SECRET });
    tokens.alice = await sign({ sub: 'alice' }, SECRET);
    tokens.bob = await sign({ sub: 'bob' }, SECRET);
  });
  afterAll(() => server?.close());

  it("each subject sees their own graph, never another's, and the shared graph is nobody's", async () => {
    await writeGraph(server, 'alice', async (g) => {
      await g.addNode({ ...ticket, properties: { owner: 'alice' } });
      await g.addNode({ ...john, properties: {} });
      await g.addEdge({ type: 'REPORTS', from: john, to: ticket });
    });
    await writeGraph(server, null, (g) => g.addNode({ label: 'Ticket', key: 'SHARED-1', properties: {} }));

    const alice = await call(server.url, '/api/graph', { token: tokens.alice! });
    expect(alice.status, alice.text).toBe(200);
    expect(alice.body).toEqual({
      nodes: [
        { ...ticket, properties: { owner: 'alice' } },
        { ...john, properties: {} },
      ],
      edges: [{ type: 'REPORTS', from: john, to: ticket, properties: {} }],
    });
    expect(alice.body).toEqual(await readDirect(server, 'alice'));

    const namesBefore = await graphNames(server);
    const bob = await call(server.url, '/api/graph', { token: tokens.bob! });
    expect(bob.status, bob.text).toBe(200);
    expect(bob.body).toEqual({ nodes: [], edges: [] });
    // Bob's read created no graph for him.
    expect(await graphNames(server)).toEqual(namesBefore);
    expect(namesBefore).not.toContain(await graphNameFor('bob'));
    expect(namesBefore).toContain(await graphNameFor('alice'));

    expect((await call(server.url, '/api/graph?label=Ticket', { token: tokens.alice! })).body.nodes).toEqual([{ ...ticket, properties: { owner: 'alice' } }]);
  });

  it('without a token it is 401, like every other route', async () => {
    expectError(await call(server.url, '/api/graph'), 401, 'unauthorized');
  });

  it('the OpenAPI document lists 401 and the bearer scheme for it', async () => {
    const doc = (await call(server.url, '/api/openapi.json')).body;
    expect(Object.keys(doc.paths['/api/graph'].get.responses)).toContain('401');
    expect(doc.paths['/api/graph'].get.security).toEqual([{ bearer: [] }]);
  });
});

describe.skipIf(!hasPostgres)('PostgreSQL without Apache AGE: the graph is off, flows keep working', () => {
  let schema: TestSchema;
  let server: RunningServer;
  const internalErrors = vi.fn();
  beforeAll(async () => {
    schema = await createTestSchema('gf_graph_http');
    server = await startServer({ workflows: WORKFLOWS, port: 0, databaseUrl: schema.url });
  });
  afterAll(async () => {
    await server?.close();
    await schema?.drop();
  });

  it('startServer serves anyway and says why the graph is off', () => {
    expect(server.graph).toEqual({
      available: false,
      reason: 'the PostgreSQL server has no Apache AGE extension (install it on the server: https://age.apache.org)',
    });
  });

  it('GET /api/graph is 503 graph_unavailable with the reason, and it is not logged as an internal error', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(internalErrors);
    try {
      const response = await call(server.url, '/api/graph');
      expectError(response, 503, 'graph_unavailable', /^the graph is unavailable: the PostgreSQL server has no Apache AGE extension .*; flows keep working$/);
      expectError(await call(server.url, '/api/graph?label=Ticket'), 503, 'graph_unavailable');
      // A malformed query is still the caller's mistake first.
      expectError(await call(server.url, '/api/graph?label=9'), 400, 'invalid_query');
    } finally {
      spy.mockRestore();
    }
    expect(internalErrors).not.toHaveBeenCalled();
  });

  it('flows start and take turns', async () => {
    await flowsWork(server.url);
    expect((await call(server.url, '/api/ready')).status).toBe(200);
  });
});

describe('checkGraphSupport: AGE must load, not only be listed', () => {
  it('a PGlite directory where AGE was enabled, opened without it, is unavailable and says how to open it', async () => {
    const dataDir = join(tempDir(), 'db');
    const withAge = await createPgliteStore({ dataDir: templateDataDir('graph', dataDir), extensions: graphPgliteOptions().extensions });
    try {
      expect(await checkGraphSupport(withAge)).toEqual({ available: true, version: expect.stringMatching(/^\d+\.\d+/) });
    } finally {
      await withAge.close();
    }
    const without = await createPgliteStore({ dataDir });
    try {
      // The extension is still listed in the directory's catalog: ensureGraphSupport alone would call it available.
      expect((await without.sql!.query<{ extname: string }>("SELECT extname FROM pg_extension WHERE extname = 'age'")).rows).toHaveLength(1);
      const status = await checkGraphSupport(without);
      expect(status).toEqual({ available: false, reason: expect.stringMatching(/^PGlite was opened without Apache AGE \(.*"age".*\): open it with graphPgliteOptions\(\)$/) });
      await without.ping();
    } finally {
      await without.close();
    }
  });
});

describe('an app without a graph store (the in-memory store)', () => {
  it('answers GET /api/graph with 503 graph_unavailable and keeps serving flows', async () => {
    const runtime = createRuntime({ workflows: WORKFLOWS, store: createMemoryStore() });
    const server = await serveOnLoopback(createApp({ runtime }));
    try {
      expectError(await call(server.url, '/api/graph'), 503, 'graph_unavailable', /^the graph is unavailable: this server was started without a graph store; flows keep working$/);
      await flowsWork(server.url);
    } finally {
      await server.close();
      runtime.close();
    }
  });
});
