/**
 * A hand-written machine (not a flow document) through every way in: the
 * runtime on PGlite (restored across a reopen), the HTTP API, `gateflow chat
 * --json`, beside the flows. (`useConversation` drives it in the browser
 * suite, test/browser/workflow.test.ts.) The contract the agents use.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { createPgliteStore } from '../../src/store/pglite.js';
import { templateDataDir } from '../helpers/pglite-template.js';
import { ReplyEnvelopeSchema } from '../../src/workflow/reply.js';
import { greetingWorkflow } from '../fixtures/greeting-workflow.js';
import { call, serveOnLoopback } from '../helpers/http.js';
import { patientIntakeFlow } from '../helpers/intake.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('a hand-written workflow', () => {
  it('runs through the runtime on PGlite: replies in the envelope, host actors replace its own, a reopen restores it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateflow-workflow-'));
    dirs.push(dir);
    const calls: string[] = [];
    // The host provides the machine's I/O by the name it gave it.
    const actors = { composeGreeting: fromPromise<string, { name: string }>(async ({ input }) => (calls.push(input.name), `Welcome, ${input.name}.`)) };
    let store = await createPgliteStore({ dataDir: templateDataDir('plain', dir) });
    let sessionId: string;
    try {
      const runtime = createRuntime({ workflows: [greetingWorkflow], store, actors });
      expect(runtime.workflows()).toEqual([{ id: 'greeting', version: 1, title: 'Greeting' }]);
      const started = await runtime.start('greeting');
      sessionId = started.sessionId;
      expect(started.reply).toMatchObject({ flowId: 'greeting', flowVersion: 1, state: 'askingName', status: 'active', message: 'What is your name?', buttons: null });
      const confirming = await runtime.turn(sessionId, { text: '  Ada ', turnId: 'name' });
      expect(confirming).toMatchObject({ state: 'confirming', message: 'Is "Ada" right?', completion: { isComplete: false, reason: 'awaiting_confirmation' } });
      expect(ReplyEnvelopeSchema.parse(confirming)).toEqual(confirming);
      // A replay answers from the journal, as for flows.
      expect(await runtime.turn(sessionId, { text: '  Ada ', turnId: 'name' })).toEqual(confirming);
    } finally {
      await store.close();
    }

    store = await createPgliteStore({ dataDir: dir });
    try {
      const runtime = createRuntime({ workflows: [greetingWorkflow], store, actors });
      const greeted = await runtime.turn(sessionId, { button: 'yes' });
      expect(greeted).toMatchObject({
        state: 'greeted',
        status: 'done',
        message: 'Welcome, Ada.',
        artifacts: [{ type: 'GREETING', name: 'Ada', greeting: 'Welcome, Ada.' }],
        completion: { isComplete: true, reason: 'completed' },
      });
      expect(calls).toEqual(['Ada']);
      await expect(runtime.turn(sessionId, { button: 'yes' })).rejects.toMatchObject({ code: 'session_finished', status: 409 });
      const view = await runtime.session(sessionId);
      expect(view.history.map((e) => e.reply.state)).toEqual(['askingName', 'confirming', 'greeted']);
    } finally {
      await store.close();
    }
  });

  it('a failing actor ends the session with status failed', async () => {
    const runtime = createRuntime({
      workflows: [greetingWorkflow],
      store: createMemoryStore(),
      actors: { composeGreeting: fromPromise<string>(async () => Promise.reject(new Error('no greetings left'))) },
    });
    const { sessionId } = await runtime.start('greeting');
    await runtime.turn(sessionId, { text: 'Bob' });
    expect(await runtime.turn(sessionId, { button: 'yes' })).toMatchObject({ state: 'failed', status: 'failed', completion: { isComplete: true, reason: 'failed' } });
  });

  it('is served over HTTP beside the flows: listed, started, answered, read', async () => {
    const runtime = createRuntime({ workflows: [flowWorkflow(patientIntakeFlow()), greetingWorkflow], store: createMemoryStore() });
    const server = await serveOnLoopback(createApp({ runtime }));
    try {
      expect((await call(server.url, '/api/flows')).body.flows.map((f: { id: string }) => f.id)).toEqual(['patient-intake', 'greeting']);
      const started = await call(server.url, '/api/flows/greeting/sessions', { json: {} });
      expect(started.status).toBe(201);
      const { sessionId } = started.body;
      expect((await call(server.url, `/api/sessions/${sessionId}/turns`, { json: { text: 'Grace' } })).body.state).toBe('confirming');
      const invalid = await call(server.url, `/api/sessions/${sessionId}/turns`, { json: { txt: 'x' } });
      expect(invalid.status).toBe(400);
      const done = await call(server.url, `/api/sessions/${sessionId}/turns`, { json: { button: 'yes' } });
      expect(done.body).toMatchObject({ status: 'done', message: 'Hello, Grace!' });
      const session = await call(server.url, `/api/sessions/${sessionId}`);
      expect(session.body.history).toHaveLength(3);
      expect(session.body.reply).toEqual(done.body);
    } finally {
      await server.close();
    }
  });

  it('chats in the terminal: gateflow chat <module> --json', () => {
    const root = new URL('../../', import.meta.url).pathname;
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'chat', 'test/fixtures/greeting-workflow.ts', '--json'], {
      cwd: root,
      env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
      input: '{"text":"Lin"}\n{"button":"maybe"}\n{"button":"yes"}\n',
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.state ?? (l.error as { code: string }).code)).toEqual(['askingName', 'confirming', 'invalid_button', 'greeted']);
    expect(lines[3]).toMatchObject({ status: 'done', message: 'Hello, Lin!' });
  });

  it('a module that exports no workflow is refused with one line', () => {
    const root = new URL('../../', import.meta.url).pathname;
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'chat', 'test/helpers/patience.ts', '--json'], {
      cwd: root,
      env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
      input: '',
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/its default export is not a workflow \(make it with defineWorkflow\)/);
  });
});
