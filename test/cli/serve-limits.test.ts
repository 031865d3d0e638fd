/**
 * `gateflow serve --limits FILE` (or GATEFLOW_LIMITS=FILE): the caps a server
 * keeps (document sizes, names and texts, counts of projects, documents,
 * chats and messages, event streams, turns per session, a task agent's goal
 * limits, the document agent's time per message) set from a JSON file without code. In-process: the file's reading
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
import { scriptedModel } from '../helpers/document-agent.js';
import { templateStore } from '../helpers/pglite-template.js';
import { openGraphStore } from '../helpers/task-agent.js';

const dir = mkdtempSync(join(tmpdir(), 'gateflow-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
/** The one line a wrong limits file is refused with. */
const refusal = (text: string) => {
  try {
    readServeLimits(file('bad.json', text), '--limits');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('not refused');
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

describe('"act" in the limits file', () => {
  it('is read beside the other caps and given to the document agent', () => {
    const caps = readServeLimits(file('ok.json', '{"act": {"maxActMs": 1500}, "maxTurnsPerSession": 3}'), '--limits');
    expect(caps.act).toEqual({ maxActMs: 1500 });
    expect(limitsOptions(caps).documentAgent).toEqual({ actLimits: { maxActMs: 1500 } });
  });

  it('is refused with the key named when wrong', () => {
    expect(refusal('{"act": {"maxActMs": 0}}')).toMatch(/act\.maxActMs: Too small/);
    expect(refusal('{"act": {"maxActMs": 600000}}')).toMatch(/act\.maxActMs: Too big: expected number to be <=100000/);
    expect(refusal('{"act": {"maxActMs": 1.5}}')).toMatch(/act\.maxActMs: Invalid input: expected int/);
    expect(refusal('{"act": {"maxMs": 10}}')).toMatch(/act: Unrecognized key: "maxMs"/);
  });
});

describe('a server started with the file\'s "act"', () => {
  let store: Store;
  let server: RunningServer;
  beforeAll(async () => {
    store = await templateStore();
    const caps = limitsOptions(readServeLimits(file('serve.json', '{"act": {"maxActMs": 300}}'), '--limits'));
    // A decision that never comes, and a model call's own limit far above the message's.
    const model = scriptedModel({ decide: [{ hang: true }] });
    server = await startServer({ workflows: [], store, port: 0, documentAgent: { ...caps.documentAgent, model: model.model, modelTimeoutMs: 60_000 } });
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
  });

  it('ends a message at it: 200, and the reply says what was not done', async () => {
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as { id?: number; chat_message?: { content: string } } };
    };
    const project = await post('/api/projects', { name: 'Slow model' });
    expect(project.status).toBe(201);
    const answer = await post('/api/agent/act', { message: 'Rewrite my notes in a friendlier tone', project_id: project.body.id });
    expect(answer.status).toBe(200);
    expect(answer.body.chat_message?.content).toMatch(/^I stopped before finishing: this message reached the time limit of 300 ms per message\.\nDone: nothing yet\.\nNot done: working out what to do\./);
  });
});
