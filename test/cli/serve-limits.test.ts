/**
 * `gateflow serve --limits FILE` (or GATEFLOW_LIMITS=FILE): the caps a server
 * keeps (document sizes, names and texts, counts of projects, documents,
 * chats and messages, event streams, turns per session, a task agent's goal
 * limits) set from a JSON file without code. In-process: the file's reading
 * and checking, `main` refusing a wrong file with one line (before anything
 * starts), and a server started with what the file says.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { limitsOptions, readServeLimits, serveLimits } from '../../src/cli/serve-limits.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { DEFAULT_DOCUMENT_LIMITS } from '../../src/documents/limits.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import type { Store } from '../../src/store/types.js';
import { openGraphStore } from '../helpers/task-agent.js';

const dir = mkdtempSync(join(tmpdir(), 'gateflow-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const LIMITS = {
  documents: { maxContentBytes: 2048, maxProjectsPerOwner: 1 },
  goal: { maxSteps: 1, maxGoalMs: 30_000 },
  graph: { maxNodes: 5 },
  eventStreams: { perCaller: 2 },
  maxTurnsPerSession: 3,
};

describe('the limits file', () => {
  it('reads each cap it names, and nothing else', () => {
    // The document caps not named come back as their defaults (the schema's); the others are left out.
    expect(readServeLimits(file('ok.json', JSON.stringify(LIMITS)), '--limits')).toMatchObject(LIMITS);
    expect(limitsOptions(readServeLimits(file('ok.json', JSON.stringify(LIMITS)), '--limits'))).toEqual({
      server: { eventStreams: { perCaller: 2 }, maxTurnsPerSession: 3 },
      taskAgent: { limits: { maxSteps: 1, maxGoalMs: 30_000 }, graphLimits: { maxNodes: 5 } },
      documentAgent: { limits: { ...DEFAULT_DOCUMENT_LIMITS, maxContentBytes: 2048, maxProjectsPerOwner: 1 } },
    });
    expect(limitsOptions(undefined)).toEqual({ server: {}, taskAgent: {}, documentAgent: {} });
  });

  it('is --limits, else the file GATEFLOW_LIMITS names, else none', () => {
    const a = file('a.json', '{"maxTurnsPerSession": 5}');
    const b = file('b.json', '{"maxTurnsPerSession": 6}');
    expect(serveLimits(a, { GATEFLOW_LIMITS: b })).toEqual({ maxTurnsPerSession: 5 });
    expect(serveLimits(undefined, { GATEFLOW_LIMITS: b })).toEqual({ maxTurnsPerSession: 6 });
    expect(serveLimits(undefined, { GATEFLOW_LIMITS: ' ' })).toBeUndefined();
  });

  it('refuses a wrong file with one line naming the file and the key', () => {
    const refusal = (text: string) => {
      try {
        readServeLimits(file('bad.json', text), '--limits');
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refusal('{"documents": {"maxContentByte": 10}}')).toMatch(/^gateflow serve: --limits .*bad\.json: documents: Unrecognized key: "maxContentByte"$/);
    expect(refusal('{"goal": {"maxGoalMs": -1}}')).toMatch(/goal\.maxGoalMs: Too small/);
    expect(refusal('{"documents": {"defaultDocumentPage": 500, "maxDocumentPage": 10}}')).toMatch(/defaultDocumentPage is larger than maxDocumentPage/);
    expect(refusal('{"maxTurnsPerSession": 3,')).toMatch(/bad\.json is not JSON/);
    expect(refusal('[1]')).toMatch(/\(the file\): Invalid input: expected object/);
    expect(() => readServeLimits(join(dir, 'absent.json'), 'GATEFLOW_LIMITS')).toThrow(/^gateflow serve: GATEFLOW_LIMITS .*absent\.json cannot be read \(ENOENT\)$/);
  });

  it('is in serve\'s help', () => {
    expect(COMMANDS.serve.options.limits.description).toMatch(/maxProjectsPerOwner.*maxGoalMs.*maxNodes.*perCaller.*maxTurnsPerSession/);
  });

  it('stops `gateflow serve` before it starts anything, with exit code 2 and one line', async () => {
    const stderr = new PassThrough();
    let said = '';
    stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const streams = { stdin: new PassThrough(), stdout: new PassThrough(), stderr };
    const code = await main(['serve', '--port', '0', '--agents', 'none', '--limits', file('typo.json', '{"goals": {}}')], { GATEFLOW_DB_DIR: join(dir, 'never-made') }, streams);
    expect(code).toBe(2);
    expect(said.trim()).toMatch(/^gateflow serve: --limits .*typo\.json: \(the file\): Unrecognized key: "goals"$/);
  });
});

/** The fields of the answers read below. */
interface Answer {
  sessionId: string;
  message: string;
  completion: { reason: string };
  error: { code: string; message: string };
}

describe('a server started with the file\'s caps', () => {
  let store: Store;
  let server: RunningServer;
  beforeAll(async () => {
    store = await openGraphStore();
    const caps = limitsOptions(readServeLimits(file('serve.json', JSON.stringify(LIMITS)), '--limits'));
    server = await startServer({ workflows: [], store, port: 0, ...caps.server, taskAgent: caps.taskAgent, documentAgent: caps.documentAgent });
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
  });
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Answer };
  };

  it('keeps the document caps', async () => {
    expect((await post('/api/projects', { name: 'One' })).status).toBe(201);
    const second = await post('/api/projects', { name: 'Two' });
    expect(second.status).toBe(409);
    expect(second.body.error.message).toMatch(/maxProjectsPerOwner/);
    const openapi = await (await fetch(`${server.url}/api/openapi.json`)).text();
    expect(openapi).toContain('a document\'s content at most 2 KB (2,048 bytes) (maxContentBytes)');
  });

  it('keeps the goal limits and the turns per session', async () => {
    const { sessionId } = (await post('/api/flows/task-agent/sessions', {})).body;
    // Two calls read offline; the goal may take one step.
    const reply = await post(`/api/sessions/${sessionId}/turns`, { text: 'Create a Ticket node with key T-1, then create a Ticket node with key T-2' });
    expect(reply.status).toBe(200);
    expect(reply.body.completion.reason).toBe('limit');
    expect(reply.body.message).toMatch(/the limit of 1 steps per goal/);
    const { sessionId: other } = (await post('/api/flows/task-agent/sessions', {})).body;
    for (const text of ['Fix my dashboard', 'something', 'else']) expect((await post(`/api/sessions/${other}/turns`, { text })).status).toBe(200);
    const fourth = await post(`/api/sessions/${other}/turns`, { text: 'more' });
    expect(fourth.status).toBe(409);
    expect(fourth.body.error.code).toBe('turn_limit_reached');
  });
});
