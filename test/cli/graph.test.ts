/**
 * `gateflow graph` (issue 13): the graph is written through `openAgeGraph`
 * into a PGlite directory, then read by the command from the store itself and
 * from a server (`--server`, GATEFLOW_SERVER, GATEFLOW_TOKEN for a subject's
 * own graph): a spawned `gateflow serve` where its start-up lines or the
 * directory it holds are checked, one in this process otherwise; on PostgreSQL
 * without Apache AGE the server starts with one line saying the task agent is
 * off, and the command says why it cannot read.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sign } from 'hono/jwt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatEdge, formatGraph, formatNode } from '../../src/cli/graph.js';
import { ensureGraphSupport, openAgeGraph, type GraphSnapshot, type PropertyGraph } from '../../src/graph/index.js';
import { graphPgliteOptions } from '../../src/graph/pglite.js';
import { createPgliteStore } from '../../src/store/pglite.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import { templateDataDir } from '../helpers/pglite-template.js';
import { createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';
import { killServers, spawnServe, type ServeProcess } from '../helpers/serve-process.js';
import { PATIENCE_MS } from '../helpers/patience.js';
import { runCli, type CliRun } from '../helpers/cli.js';

const SECRET = 'a-test-secret-of-at-least-32-bytes-for-the-graph';

const ticket = { label: 'Ticket', key: 'TICKET-123' };
const john = { label: 'User', key: 'john.doe' };
const team = { label: 'Team', key: 'web' };

/** What the shared graph holds (nodes by label and key, edges by type): GET /api/graph's answer. */
const SHARED: GraphSnapshot = {
  nodes: [
    { ...team, properties: {} },
    { ...ticket, properties: { tags: ['ui', 'login'], status: 'open', summary: 'Fix login button' } },
    { ...john, properties: { name: 'John Doe' } },
  ],
  edges: [
    { type: 'MEMBER_OF', from: john, to: team, properties: {} },
    { type: 'REPORTS', from: john, to: ticket, properties: { since: 2024 } },
  ],
};
const ALICE: GraphSnapshot = { nodes: [{ label: 'Ticket', key: 'ALICE-1', properties: { status: 'closed' } }], edges: [] };

let base: string;
/** A PGlite directory holding the shared graph and alice's, copied for each server (one process per directory). */
let populated: string;
/** A store made without AGE and never given a graph. */
let plain: string;

async function writeGraph(dataDir: string, writes: Record<string, (g: PropertyGraph) => Promise<void>>): Promise<void> {
  const store = await createPgliteStore({ dataDir: templateDataDir('graph', dataDir), extensions: graphPgliteOptions().extensions });
  try {
    await ensureGraphSupport(store.sql!);
    for (const [owner, fn] of Object.entries(writes)) await store.sql!.transaction(async (tx) => fn(await openAgeGraph(tx, { owner: owner === '' ? null : owner })));
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'gateflow-cli-graph-'));
  populated = join(base, 'populated');
  plain = join(base, 'plain');
  await writeGraph(populated, {
    '': async (g) => {
      await g.addNode({ ...ticket, properties: { summary: 'Fix login button', status: 'open', tags: ['ui', 'login'] } });
      await g.addNode({ ...john, properties: { name: 'John Doe' } });
      await g.addNode({ ...team, properties: {} });
      await g.addEdge({ type: 'REPORTS', from: john, to: ticket, properties: { since: 2024 } });
      await g.addEdge({ type: 'MEMBER_OF', from: john, to: team });
    },
    alice: async (g) => {
      await g.addNode({ label: 'Ticket', key: 'ALICE-1', properties: { status: 'closed' } });
    },
  });
  templateDataDir('plain', plain);
});

/** Servers of this process, closed after each test. */
const inProcess = new Set<RunningServer>();
afterEach(async () => {
  await Promise.all([...inProcess].map((server) => server.close()));
  inProcess.clear();
  await killServers();
});

/** The API `gateflow serve` serves on `dataDir` (its graph, logins with `jwtSecret`), in this process: no Node start, no PGlite compile. */
async function serveInProcess(dataDir: string, jwtSecret: string): Promise<RunningServer> {
  const server = await startServer({ workflows: [], dataDir, jwtSecret, port: 0 });
  inProcess.add(server);
  return server;
}
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

let copies = 0;
const copyOf = (dir: string) => {
  const copy = join(base, `copy-${++copies}`);
  cpSync(dir, copy, { recursive: true });
  return copy;
};

/** One `gateflow ...` command, in this process (against a store or a server of another process). */
function gateflow(args: string[], env: Record<string, string>): Promise<CliRun> {
  return runCli(args, { env });
}


const ok = (run: CliRun) => {
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
};

/** The server's start-up lines, all of them (they may come in several chunks). */
async function startLines(server: ServeProcess): Promise<string[]> {
  const deadline = Date.now() + PATIENCE_MS;
  while (!/gateflow: flows: /.test(server.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return server.output().split('\n').filter((line) => line.startsWith('gateflow: '));
}

const LISTING = [
  '3 nodes',
  '  Team web',
  '  Ticket TICKET-123 {tags: [ui, login], status: open, summary: Fix login button}',
  '  User john.doe {name: John Doe}',
  '2 edges',
  '  User john.doe -MEMBER_OF-> Team web',
  '  User john.doe -REPORTS-> Ticket TICKET-123 {since: 2024}',
].join('\n');

describe('gateflow graph on the store itself (PGlite, opened with Apache AGE)', () => {
  it(
    'prints the shared graph as a listing, as JSON, and by label',
    async () => {
      const env = { GATEFLOW_DB_DIR: populated };
      expect(ok(await gateflow(['graph'], env))).toBe(`${LISTING}\n`);
      const json = ok(await gateflow(['graph', '--json'], env));
      expect(json.trimEnd().split('\n')).toHaveLength(1);
      expect(JSON.parse(json)).toEqual(SHARED);
      expect(ok(await gateflow(['graph', '--label', 'Ticket'], env))).toBe(
        [
          '1 node labelled Ticket',
          '  Ticket TICKET-123 {tags: [ui, login], status: open, summary: Fix login button}',
          '1 edge',
          '  User john.doe -REPORTS-> Ticket TICKET-123 {since: 2024}',
          '',
        ].join('\n'),
      );
      expect(JSON.parse(ok(await gateflow(['graph', '--json', '--label', 'Team'], env)))).toEqual({
        nodes: [{ ...team, properties: {} }],
        edges: [{ type: 'MEMBER_OF', from: john, to: team, properties: {} }],
      });
    },
  );

  it(
    'a store made without AGE holds an empty graph; a label nobody uses finds nothing',
    async () => {
      const env = { GATEFLOW_DB_DIR: copyOf(plain) };
      expect(ok(await gateflow(['graph'], env))).toBe('the graph is empty\n');
      expect(JSON.parse(ok(await gateflow(['graph', '--json'], env)))).toEqual({ nodes: [], edges: [] });
      expect(ok(await gateflow(['graph', '--label', 'Nobody'], { GATEFLOW_DB_DIR: populated }))).toBe('no Nobody nodes in the graph\n');
    },
  );

  it(
    'a malformed label is a usage error (exit 2) before any store is opened; a missing store is exit 1',
    async () => {
      const missing = join(base, 'missing');
      const bad = await gateflow(['graph', '--label', '1Ticket'], { GATEFLOW_DB_DIR: missing });
      expect(bad).toMatchObject({ status: 2, stdout: '' });
      expect(bad.stderr).toBe('gateflow graph: --label "1Ticket" a label must start with a letter and hold only letters, digits and _ (at most 63)\n');
      const none = await gateflow(['graph'], { GATEFLOW_DB_DIR: missing });
      expect(none.status).toBe(1);
      expect(none.stderr).toMatch(/^gateflow: no gateflow store in .*missing: set GATEFLOW_DB_DIR/);
    },
  );
});

describe('gateflow graph through a server', () => {
  it(
    'serve reports AGE at start; --server and GATEFLOW_SERVER print what the store itself printed; the held directory points to --server',
    async () => {
      const dataDir = copyOf(populated);
      const server = await spawnServe({ env: { GATEFLOW_DB_DIR: dataDir } });
      expect(await startLines(server)).toContainEqual(expect.stringMatching(/^gateflow: graph: Apache AGE \d+\.\d+\S* \(GET \/api\/graph\)/));
      expect(JSON.parse(ok(await gateflow(['graph', '--json', '--server', server.url], {})))).toEqual(SHARED);
      expect(ok(await gateflow(['graph'], { GATEFLOW_SERVER: server.url }))).toBe(`${LISTING}\n`);
      expect(JSON.parse(ok(await gateflow(['graph', '--json', '--label', 'User'], { GATEFLOW_SERVER: server.url })))).toEqual({
        nodes: [{ ...john, properties: { name: 'John Doe' } }],
        edges: SHARED.edges,
      });
      // The server's process holds the directory; the command (run here) is refused.
      const held = await gateflow(['graph'], { GATEFLOW_DB_DIR: dataDir });
      expect(held.status).toBe(1);
      expect(held.stderr).toMatch(/a server holds this store: ask it instead with --server URL/);
    },
  );

  it(
    "with logins, GATEFLOW_TOKEN reads the subject's own graph; without a token the server's refusal is the one line",
    async () => {
      const server = await serveInProcess(copyOf(populated), SECRET);
      const alice = await sign({ sub: 'alice' }, SECRET);
      const bob = await sign({ sub: 'bob' }, SECRET);
      expect(JSON.parse(ok(await gateflow(['graph', '--json', '--server', server.url], { GATEFLOW_TOKEN: alice })))).toEqual(ALICE);
      expect(ok(await gateflow(['graph', '--server', server.url], { GATEFLOW_TOKEN: alice }))).toBe('1 node\n  Ticket ALICE-1 {status: closed}\n0 edges\n');
      expect(ok(await gateflow(['graph', '--server', server.url], { GATEFLOW_TOKEN: bob }))).toBe('the graph is empty\n');
      const anonymous = await gateflow(['graph', '--server', server.url], {});
      expect(anonymous.status).toBe(1);
      expect(anonymous.stderr).toMatch(/^gateflow: .*\(set GATEFLOW_TOKEN\)\n$/);
    },
  );
});

describe.skipIf(!hasPostgres)('PostgreSQL without Apache AGE', () => {
  let schema: TestSchema;
  beforeAll(async () => {
    schema = await createTestSchema('gf_cli_graph');
  });
  afterAll(() => schema?.drop());

  it(
    'serve starts with one line saying the task agent is off, flows answer, and gateflow graph says why it cannot read',
    async () => {
      const server = await spawnServe({ env: { DATABASE_URL: schema.url } });
      const off = (await startLines(server)).filter((line) => /^gateflow: (task agent|graph)/.test(line));
      expect(off).toEqual([
        'gateflow: task agent off: the PostgreSQL server has no Apache AGE extension (install it on the server: https://age.apache.org); flows keep working',
      ]);
      const started = await fetch(`${server.url}/api/flows/patient-intake/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(started.status).toBe(201);

      const remote = await gateflow(['graph', '--server', server.url], {});
      expect(remote).toMatchObject({ status: 1, stdout: '' });
      expect(remote.stderr).toBe(
        'gateflow: the graph is unavailable: the PostgreSQL server has no Apache AGE extension (install it on the server: https://age.apache.org); flows keep working\n',
      );
      const local = await gateflow(['graph', '--json'], { DATABASE_URL: schema.url });
      expect(local).toMatchObject({ status: 1, stdout: '' });
      expect(local.stderr).toBe(
        'gateflow: the graph is unavailable: the PostgreSQL server has no Apache AGE extension (install it on the server: https://age.apache.org)\n',
      );
    },
  );
});

describe('the listing (formatGraph)', () => {
  it('prints plain text as it is and quotes what could be misread or acted on by a terminal', () => {
    expect(formatNode({ label: 'Ticket', key: 'TICKET-123', properties: { status: 'open' } })).toBe('Ticket TICKET-123 {status: open}');
    expect(formatEdge({ type: 'REPORTS', from: john, to: ticket, properties: {} })).toBe('User john.doe -REPORTS-> Ticket TICKET-123');
    expect(formatNode({ label: 'Person', key: 'John Doe', properties: { count: '42', n: 42, flag: 'true', ok: false, due: '2026-12-01' } })).toBe(
      'Person "John Doe" {count: "42", n: 42, flag: "true", ok: false, due: 2026-12-01}',
    );
    expect(formatNode({ label: 'Note', key: 'n1', properties: { text: '\u001b[31mred\u009b[2J', bidi: 'a\u202eb', list: ['a, b', 'c'], empty: '' } })).toBe(
      'Note n1 {text: "\\u001b[31mred\\u009b[2J", bidi: "a\\u202eb", list: ["a, b", c], empty: ""}',
    );
    expect(formatGraph({ nodes: [], edges: [] })).toBe('the graph is empty');
    expect(formatGraph({ nodes: [], edges: [] }, 'Ticket')).toBe('no Ticket nodes in the graph');
  });
});
