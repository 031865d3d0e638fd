/**
 * The document agent's time per message in the limits file (`"act":
 * { "maxActMs" }`, issue 27 §3): read and checked with the other caps, and
 * given to the agent a server serves, whose message then ends at it over
 * real HTTP (a model that never answers: 200 and the honest reply).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitsOptions, readServeLimits } from '../../src/cli/serve-limits.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import type { Store } from '../../src/store/types.js';
import { scriptedModel } from '../helpers/document-agent.js';
import { templateStore } from '../helpers/pglite-template.js';

const dir = mkdtempSync(join(tmpdir(), 'gateflow-act-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const refusal = (text: string) => {
  try {
    readServeLimits(file('bad.json', text), '--limits');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('not refused');
};

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
