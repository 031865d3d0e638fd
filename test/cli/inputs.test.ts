/**
 * `gateflow inputs` and `gateflow input` (issue 12): a refund-approval session
 * is driven over HTTP to the manager's two gates on a server, then the gates
 * are listed and answered from the command line, through the store itself once
 * the server is stopped (PGlite, or PostgreSQL while the server runs) and
 * through the server (`--server`). The server runs in this process (as
 * `gateflow serve` builds it: the example flows and actors) unless the process
 * is what is checked: a directory held by a spawned `gateflow serve`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sign } from 'hono/jwt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OpenInput } from '../../src/inputs/gate.js';
import type { Reply } from '../../src/flow/reply.js';
import type { JournalTurn } from '../../src/store/types.js';
import { flowWorkflow } from '../../src/flow/index.js';
import { EXAMPLE_ACTORS } from '../../src/cli/example-actors.js';
import { extractorFromEnv } from '../../src/cli/extractor.js';
import { EXAMPLE_FLOWS_DIR, readFlowsDir } from '../../src/cli/io.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import { acquireDirectoryLock } from '../../src/store/dir-lock.js';
import { templateDataDir } from '../helpers/pglite-template.js';
import { FLOWS_DIR } from '../helpers/http.js';
import { createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';
import { cleanEnv, spawnServe, stopProcess, type ServeProcess } from '../helpers/serve-process.js';
import { cliArgs, runCli, type CliRun } from '../helpers/cli.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const APPROVED_MESSAGE = 'Good news: a manager approved a refund of 150 EUR for order AB1234.';
const UNKNOWN_GATE = 'in_zzzzzzzzzzzzzzzz';
const JWT_SECRET = 'a-test-secret-of-at-least-32-bytes-for-hs256';

type Server = ServeProcess;

interface Driven {
  sessionId: string;
  approved: OpenInput;
  amount: OpenInput;
}

const children = new Set<ChildProcessWithoutNullStreams>();
let base: string;
/** A migrated PGlite directory, copied for each test. */
let template: string;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'gateflow-cli-inputs-'));
  // With AGE enabled, as `gateflow serve` leaves a directory: no server start pays for CREATE EXTENSION.
  template = templateDataDir('graph', join(base, 'template'));
});

afterEach(async () => {
  await Promise.all([...children].map((c) => stop(c, 'SIGKILL')));
  children.clear();
});

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

function freshDir(name: string): string {
  const dir = join(base, name);
  cpSync(template, dir, { recursive: true });
  return dir;
}

/** `gateflow serve --port 0` with `env` (where its store is), resolved once it listens. */
async function startServe(env: Record<string, string>, args: string[] = []): Promise<Server> {
  const server = await spawnServe({ env, args });
  children.add(server.child);
  return server;
}

/** Servers started in this process by the test running, closed after it. */
const inProcess = new Set<RunningServer>();

afterEach(async () => {
  await Promise.all([...inProcess].map((s) => s.close()));
  inProcess.clear();
});

/**
 * The server `gateflow serve` starts (the flows of `flowsDir`, the examples by
 * default, with the example actors), in this process: where a server process
 * itself is not what is checked, this spares a Node start and a PGlite compile.
 */
async function startInProcess(options: { dataDir?: string; databaseUrl?: string; jwtSecret?: string; flowsDir?: string }): Promise<RunningServer> {
  const { extract } = await extractorFromEnv({});
  const server = await startServer({
    workflows: readFlowsDir(options.flowsDir ?? EXAMPLE_FLOWS_DIR).map((flow) => flowWorkflow(flow)),
    actors: { extract, ...EXAMPLE_ACTORS },
    port: 0,
    ...(options.dataDir !== undefined && { dataDir: options.dataDir }),
    ...(options.databaseUrl !== undefined && { databaseUrl: options.databaseUrl }),
    ...(options.jwtSecret !== undefined && { jwtSecret: options.jwtSecret }),
  });
  inProcess.add(server);
  return server;
}

/** Closes a server of this process (its store closed, its directory released). */
async function closeInProcess(server: RunningServer): Promise<void> {
  inProcess.delete(server);
  await server.close();
}

/** Stops a server (SIGTERM: it closes its store and releases the directory). */
async function stop(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  children.delete(child);
  await stopProcess(child, signal);
}

/**
 * One `gateflow ...` command, in this process (what it prints and returns,
 * against a store or a server of another process). `gateflowProcess` runs it
 * as a process of its own where the process is what is checked: a directory
 * held by another command (here, this process).
 */
function gateflow(args: string[], env: Record<string, string>): Promise<CliRun> {
  return runCli(args, { env });
}

/** Not spawnSync: blocking this process's event loop would leave fetch's kept-alive sockets to the server unread. */
async function gateflowProcess(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, cliArgs(...args), { cwd: ROOT, env: cleanEnv(env) });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end();
  const status = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { status, stdout, stderr };
}

async function call<T>(url: string, method: 'GET' | 'POST', path: string, body?: unknown, token?: string): Promise<{ status: number; json: T }> {
  const headers: Record<string, string> = {};
  if (method === 'POST') headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(method === 'POST' && { body: JSON.stringify(body ?? {}) }),
    signal: AbortSignal.timeout(PATIENCE_MS),
  });
  return { status: response.status, json: (await response.json()) as T };
}

/** A refund of 150 EUR through the chat, confirmed: the session waits for the manager's two gates. */
async function driveToWait(url: string, token?: string): Promise<Driven> {
  const started = await call<{ sessionId: string }>(url, 'POST', '/api/flows/refund-approval/sessions', {}, token);
  expect(started.status).toBe(201);
  const { sessionId } = started.json;
  let reply: Reply | undefined;
  for (const turn of [{ text: 'AB1234' }, { text: '150' }, { text: 'it arrived broken' }, { button: 'confirm' }]) {
    const r = await call<Reply>(url, 'POST', `/api/sessions/${sessionId}/turns`, turn, token);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    reply = r.json;
  }
  expect(reply!.state).toEqual({ manager_approval: 'waiting' });
  const inputs = (reply as Reply & { inputs: OpenInput[] }).inputs;
  expect(inputs.map((g) => g.name)).toEqual(['approved', 'approved_amount']);
  return { sessionId, approved: inputs[0]!, amount: inputs[1]! };
}

const tableRows = (stdout: string) => stdout.trimEnd().split('\n');
const rowOf = (stdout: string, gateId: string) => tableRows(stdout).find((line) => line.startsWith(gateId));
/** The gates `inputs --json` printed; a run that failed says why (its stderr) rather than "not JSON". */
function parseList(run: { status: number | null; stdout: string; stderr: string }): OpenInput[] {
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as OpenInput[];
}

/**
 * The same walk through the CLI against any source: the table, the JSON, the
 * filters, a refused value, the two answers, an unknown and a closed gate.
 * `where` are the options naming the source (`--server URL`, or none).
 */
async function walkThrough(env: Record<string, string>, where: string[], a: Driven, b: Driven): Promise<void> {
  // The table: a header, then one line per gate with its type hint, the role it waits for and the deadline.
  const table = await gateflow(['inputs', ...where], env);
  expect(table.status, table.stderr).toBe(0);
  const rows = tableRows(table.stdout);
  expect(rows[0]).toMatch(/^GATE\s+SESSION\s+WORKFLOW\s+NAME\s+TYPE\s+TO\s+DEADLINE\s+DESCRIPTION$/);
  expect(rows).toHaveLength(5);
  const approvedRow = rowOf(table.stdout, a.approved.gateId);
  expect(approvedRow).toMatch(new RegExp(`^${a.approved.gateId}\\s+${a.sessionId}\\s+refund-approval\\s+approved\\s+approve/decline\\s+manager\\s+`));
  expect(approvedRow).toMatch(/\(in (1d 0h|23h \d+m)\)\s+Approve the refund\?$/);
  expect(rowOf(table.stdout, a.amount.gateId)).toMatch(/\s+approved_amount\s+number >= 0 EUR\s+manager\s+.*Approved amount \(EUR\)$/);
  expect(rowOf(table.stdout, b.approved.gateId)).toContain(b.sessionId);

  // --json: the gates as the server lists them.
  const json = await gateflow(['inputs', '--json', ...where], env);
  expect(json.status, json.stderr).toBe(0);
  const listed = parseList(json);
  expect(listed).toHaveLength(4);
  const approved = listed.find((g) => g.gateId === a.approved.gateId)!;
  expect(approved).toEqual(a.approved);
  expect(approved).toMatchObject({
    sessionId: a.sessionId,
    workflowId: 'refund-approval',
    name: 'approved',
    type: 'boolean',
    description: 'Approve the refund?',
    options: [
      { label: 'Approve', value: true },
      { label: 'Decline', value: false },
    ],
    to: 'manager',
  });
  expect(Date.parse(approved.deadline!) - Date.parse(approved.openedAt)).toBe(24 * 3600_000);
  expect(listed.find((g) => g.gateId === a.amount.gateId)).toEqual(a.amount);

  // Filters.
  const onlyA = parseList(await gateflow(['inputs', '--json', '--session', a.sessionId, ...where], env));
  expect(onlyA.map((g) => g.gateId)).toEqual([a.approved.gateId, a.amount.gateId]);
  expect(parseList(await gateflow(['inputs', '--json', '--workflow', 'refund-approval', ...where], env))).toHaveLength(4);
  const other = await gateflow(['inputs', '--workflow', 'patient-intake', ...where], env);
  expect(other.status).toBe(0);
  expect(other.stdout).toBe('no open input gates\n');

  // A value the boolean does not take: refused with what it expects, and nothing changes.
  const maybe = await gateflow(['input', a.approved.gateId, 'maybe', ...where], env);
  expect(maybe.status).toBe(1);
  expect(maybe.stdout).toBe('');
  expect(maybe.stderr).toMatch(/^gateflow: input "approved" \(gate in_\w+\) still waits: "maybe" is not accepted: .*Expected approve or decline/);
  expect(maybe.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(parseList(await gateflow(['inputs', '--json', '--session', a.sessionId, ...where], env))).toEqual(onlyA);

  // "yes": the approval is taken, the amount still waits (its id printed to answer next).
  const yes = await gateflow(['input', a.approved.gateId, 'yes', ...where], env);
  expect(yes.status, yes.stderr).toBe(0);
  expect(yes.stdout).toContain("needs a manager's approval");
  expect(yes.stdout).toMatch(new RegExp(`still waiting for:\\n  ${a.amount.gateId}  approved_amount \\(number >= 0 EUR\\) for manager`));
  expect(yes.stdout).not.toContain(a.approved.gateId);

  // "150": the last gate; the customer's new reply is the approved terminal.
  const amount = await gateflow(['input', a.amount.gateId, '150', ...where], env);
  expect(amount.status, amount.stderr).toBe(0);
  expect(amount.stdout).toContain(APPROVED_MESSAGE);
  expect(amount.stdout).toContain('finished: completed');
  expect(amount.stdout).not.toContain('still waiting for');

  // An unknown gate and an answered one: one line, exit 1.
  const unknown = await gateflow(['input', UNKNOWN_GATE, 'yes', ...where], env);
  expect(unknown.status).toBe(1);
  expect(unknown.stderr).toBe(`gateflow: no input gate "${UNKNOWN_GATE}"\n`);
  const closed = await gateflow(['input', a.approved.gateId, 'no', ...where], env);
  expect(closed.status).toBe(1);
  expect(closed.stderr).toBe(`gateflow: input gate "${a.approved.gateId}" is closed (answered): it takes no answer\n`);

  // Only the other session's gates are left.
  expect(parseList(await gateflow(['inputs', '--json', ...where], env)).map((g) => g.gateId)).toEqual([b.approved.gateId, b.amount.gateId]);
}

/** The answered session as the server has it: finished on the approved terminal, each gate's answer journaled once. */
async function expectApproved(url: string, a: Driven, token?: string): Promise<void> {
  const { status, json } = await call<{ reply: Reply & { status: string }; history: { turn: JournalTurn | null }[] }>(
    url,
    'GET',
    `/api/sessions/${a.sessionId}`,
    undefined,
    token,
  );
  expect(status).toBe(200);
  expect(json.reply.status).toBe('done');
  expect(json.reply.message).toContain(APPROVED_MESSAGE);
  expect(json.history.map((e) => e.turn).slice(5)).toEqual([
    { input: a.approved.gateId, name: 'approved', value: true, by: null },
    { input: a.amount.gateId, name: 'approved_amount', value: 150, by: null },
  ]);
}

describe('gateflow inputs / gateflow input', () => {
  it(
    'lists and answers the gates in the PGlite store of a stopped server',
    async () => {
      const dir = freshDir('local');
      const env = { GATEFLOW_DB_DIR: dir };
      let server = await startInProcess({ dataDir: dir });
      const a = await driveToWait(server.url);
      const b = await driveToWait(server.url);
      await closeInProcess(server);

      await walkThrough(env, [], a, b);

      // The answers are in the store: the server started again finds the session finished.
      server = await startInProcess({ dataDir: dir });
      await expectApproved(server.url, a);
    },
  );

  it(
    'talks to a running server with --server (or GATEFLOW_SERVER), and without it says the store is held by one',
    async () => {
      const dir = freshDir('remote');
      const server = await startServe({ GATEFLOW_DB_DIR: dir });
      const a = await driveToWait(server.url);
      const b = await driveToWait(server.url);

      // The server's process holds the directory; the command (run here) is refused.
      for (const args of [['inputs'], ['input', a.approved.gateId, 'yes']]) {
        const held = await gateflow(args, { GATEFLOW_DB_DIR: dir });
        expect(held.status).toBe(1);
        expect(held.stdout).toBe('');
        expect(held.stderr).toContain(`PGlite directory ${dir} is in use by process ${server.child.pid}`);
        expect(held.stderr).toMatch(/a server holds this store: ask it instead with --server URL/);
      }

      await walkThrough({ GATEFLOW_DB_DIR: dir }, ['--server', server.url], a, b);
      await expectApproved(server.url, a);

      // GATEFLOW_SERVER is --server's default.
      const viaEnv = await gateflow(['inputs', '--json'], { GATEFLOW_DB_DIR: dir, GATEFLOW_SERVER: server.url });
      expect(viaEnv.status, viaEnv.stderr).toBe(0);
      expect(parseList(viaEnv).map((g) => g.gateId)).toEqual([b.approved.gateId, b.amount.gateId]);
    },
  );

  it(
    'sends GATEFLOW_TOKEN to a server with auth: a manager sees and answers the gates addressed to "manager"',
    async () => {
      const server = await startInProcess({ dataDir: freshDir('auth'), jwtSecret: JWT_SECRET });
      const customer = await sign({ sub: 'alice' }, JWT_SECRET);
      const a = await driveToWait(server.url, customer);
      const where = ['--server', server.url];

      const anonymous = await gateflow(['inputs', ...where], {});
      expect(anonymous.status).toBe(1);
      expect(anonymous.stderr).toMatch(/^gateflow: .*\(set GATEFLOW_TOKEN\)\n$/);

      // Another customer sees no gate, and cannot answer one they cannot see.
      const bob = { GATEFLOW_TOKEN: await sign({ sub: 'bob' }, JWT_SECRET) };
      expect((await gateflow(['inputs', ...where], bob)).stdout).toBe('no open input gates\n');
      expect((await gateflow(['input', a.approved.gateId, 'yes', ...where], bob)).stderr).toBe(`gateflow: no input gate "${a.approved.gateId}"\n`);

      const manager = { GATEFLOW_TOKEN: await sign({ sub: 'mia', roles: ['manager'] }, JWT_SECRET) };
      expect(parseList(await gateflow(['inputs', '--json', ...where], manager))).toEqual([a.approved, a.amount]);
      const approved = await gateflow(['input', a.approved.gateId, 'approve', ...where], manager);
      expect(approved.status).toBe(0);
      // The manager answered another person's session: the server tells them the gate's outcome, not the session's reply.
      expect(approved.stdout).toBe(`answered approved (${a.approved.gateId}): true\n`);
      const done = await gateflow(['input', a.amount.gateId, '150', '--json', ...where], manager);
      expect(done.status, done.stderr).toBe(0);
      expect(JSON.parse(done.stdout)).toEqual({ gateId: a.amount.gateId, name: 'approved_amount', status: 'answered', value: 150 });

      const seen = await call<{ reply: Reply & { status: string; inputs: OpenInput[] }; history: { turn: JournalTurn | null }[] }>(
        server.url,
        'GET',
        `/api/sessions/${a.sessionId}`,
        undefined,
        customer,
      );
      expect(seen.json.reply).toMatchObject({ sessionId: a.sessionId, status: 'done', inputs: [], completion: { isComplete: true, reason: 'completed' } });
      expect(seen.json.reply.message).toContain(APPROVED_MESSAGE);
      expect(seen.json.history.map((e) => e.turn).slice(5)).toEqual([
        { input: a.approved.gateId, name: 'approved', value: true, by: 'mia' },
        { input: a.amount.gateId, name: 'approved_amount', value: 150, by: 'mia' },
      ]);
    },
  );

  it(
    'fires a deadline that passed while no server ran: the gate is no longer listed nor answered',
    async () => {
      const dir = freshDir('deadline');
      const flows = join(base, 'flows-short');
      mkdirSync(flows, { recursive: true });
      const doc = JSON.parse(readFileSync(join(FLOWS_DIR, 'refund-approval.json'), 'utf8')) as { nodes: { id: string; deadline?: string }[] };
      doc.nodes.find((n) => n.id === 'manager_approval')!.deadline = 'PT2S';
      writeFileSync(join(flows, 'refund-approval.json'), JSON.stringify(doc));
      const env = { GATEFLOW_DB_DIR: dir };
      const server = await startInProcess({ dataDir: dir, flowsDir: flows });
      const a = await driveToWait(server.url);
      // Stopped before the deadline; it passes while nothing runs.
      await closeInProcess(server);
      const wait = Date.parse(a.approved.deadline!) + 500 - Date.now();
      await new Promise((r) => setTimeout(r, Math.max(0, wait)));

      const answer = await gateflow(['input', a.approved.gateId, 'yes', '--flows', flows], env);
      expect(answer.status).toBe(1);
      expect(answer.stderr).toBe(`gateflow: input gate "${a.approved.gateId}" is closed (timed out): it takes no answer\n`);
      const list = await gateflow(['inputs', '--flows', flows], env);
      expect(list.status, list.stderr).toBe(0);
      expect(list.stdout).toBe('no open input gates\n');
    },
  );

  it('says so when the PGlite directory holds no store, instead of creating an empty one there', async () => {
    const missing = join(base, 'no-such-store');
    const result = await gateflow(['inputs'], { GATEFLOW_DB_DIR: missing });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `gateflow: no gateflow store in ${missing}: set GATEFLOW_DB_DIR to the directory gateflow serve uses (DATABASE_URL for PostgreSQL), or ask a running server with --server URL\n`,
    );
    expect(() => readFileSync(join(missing, 'PG_VERSION'))).toThrow();
  });

  it('says another command holds the directory (not a server) when it is not gateflow serve', async () => {
    const dir = freshDir('held-by-command');
    // A process that is not `gateflow serve` holds the directory (as a second `gateflow input` would): this test's own process.
    const lock = acquireDirectoryLock(dir);
    try {
      expect(process.argv.join(' ')).not.toMatch(/\bserve\b/);
      const result = await gateflowProcess(['inputs'], { GATEFLOW_DB_DIR: dir });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`is in use by process ${process.pid}`);
      expect(result.stderr).toContain('gateflow: another gateflow command holds this store: try again once it has finished');
      expect(result.stderr).not.toContain('a server holds this store');
    } finally {
      lock.release();
    }
  });

  describe.skipIf(!hasPostgres)('on PostgreSQL', () => {
    let schema: TestSchema;
    beforeAll(async () => {
      schema = await createTestSchema('gf_cli_inputs');
    });
    afterAll(async () => {
      await schema?.drop();
    });

    it(
      'answers from the command line while the server runs on the same database',
      async () => {
        const env = { DATABASE_URL: schema.url };
        const server = await startInProcess({ databaseUrl: schema.url });
        const a = await driveToWait(server.url);
        const b = await driveToWait(server.url);
        // Not --server: the CLI opens the database itself, next to the running server.
        await walkThrough(env, [], a, b);
        await expectApproved(server.url, a);
      },
    );
  });
});
