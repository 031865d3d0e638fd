/**
 * What the viewer reads over HTTP (issue 15) on a real socket on loopback:
 * `GET /api/drawings` and `/api/drawings/{id}` (byte for byte what
 * `gateflow viz --format json` prints), coverage where there is some, each
 * step's trace in the session's history (PGlite: it survives a restart), the
 * `session.stepped` announcement, and ownership of sessions with JWTs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sign } from 'hono/jwt';
import { afterEach, describe, expect, it } from 'vitest';
import { pathSelectionMachine } from '../../machines/path-selection.js';
import { runViz } from '../../src/cli/viz.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { createRuntime, type Runtime, type RuntimeEvent } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import { drawingSource } from '../../src/server/drawings.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { createPgliteStore } from '../../src/store/pglite.js';
import { templateDataDir } from '../helpers/pglite-template.js';
import type { Store } from '../../src/store/types.js';
import { call, exampleFlows, serveOnLoopback, type LoopbackServer } from '../helpers/http.js';

const SECRET = 'a-secret-of-at-least-32-bytes-for-drawings';
const LED = exampleFlows().find((f) => f.id === 'led-sales')!;
const CONTACT = exampleFlows().find((f) => f.id === 'contact-request')!;
const workflows = [flowWorkflow(LED), flowWorkflow(CONTACT)];

const open: { server: LoopbackServer; runtime: Runtime; store: Store }[] = [];
afterEach(async () => {
  for (const { server, runtime, store } of open.splice(0)) {
    await server.close();
    runtime.close();
    await store.close();
  }
});

async function serve(options: { store?: Store; jwt?: boolean; coverage?: (id: string) => Promise<object> | null } = {}) {
  const store = options.store ?? createMemoryStore();
  const runtime = createRuntime({ workflows, store });
  const app = createApp({
    runtime,
    ...(options.jwt && { jwtSecret: SECRET }),
    drawings: drawingSource({
      workflows: () => runtime.registered(),
      machines: [{ machine: pathSelectionMachine, title: 'Path selection' }],
      ...(options.coverage && { coverage: options.coverage }),
    }),
  });
  const server = await serveOnLoopback(app);
  open.push({ server, runtime, store });
  return { url: server.url, runtime, store };
}

const token = (sub: string) => sign({ sub, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET, 'HS256');

describe('GET /api/drawings', () => {
  it('lists the workflows served and the machines drawn beside them', async () => {
    const { url } = await serve();
    const list = await call(url, '/api/drawings');
    expect(list.status).toBe(200);
    expect(list.body.drawings).toEqual([
      { id: 'led-sales', title: LED.title, version: LED.version, kind: 'workflow', revision: expect.any(Number) },
      { id: 'contact-request', title: CONTACT.title, version: CONTACT.version, kind: 'workflow', revision: expect.any(Number) },
      { id: 'pathSelection', title: 'Path selection', version: null, kind: 'machine', revision: 0 },
    ]);
  });

  it('answers a drawing with the JSON `gateflow viz --format json` prints, byte for byte', async () => {
    const { url } = await serve();
    const http = await call(url, '/api/drawings/led-sales');
    let printed = '';
    await runViz('led-sales', 'json', 'outline', { write: (t: string) => (printed += t) });
    expect(http.status).toBe(200);
    expect(http.body).toEqual(JSON.parse(printed));
    expect(http.body.format).toBe('gateflow.drawing/1');
    expect(http.body.outline.nodes.map((n: { id: string }) => n.id)).toContain('led.court_size');
    const machine = await call(url, '/api/drawings/pathSelection');
    expect(machine.body).toMatchObject({ kind: 'machine', outline: null, version: null });
    expect(machine.body.machine.states.length).toBeGreaterThan(1);
  });

  it('refuses an unknown drawing, and coverage where none is measured, with what was wrong', async () => {
    const { url } = await serve();
    const unknown = await call(url, '/api/drawings/no-such-flow');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toEqual({ code: 'drawing_not_found', message: 'no workflow or machine "no-such-flow" is drawn here' });
    const none = await call(url, '/api/drawings/pathSelection/coverage');
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('coverage_unavailable');
  });

  it('computes coverage once per workflow version, and tries again after a failure', async () => {
    const asked: string[] = [];
    let fail = true;
    const { url } = await serve({
      coverage: (id) => {
        asked.push(id);
        if (fail) {
          fail = false;
          return Promise.reject(new Error('the child died'));
        }
        return Promise.resolve({ flowId: id, transitions: { percent: 100 } });
      },
    });
    expect((await call(url, '/api/drawings/contact-request/coverage')).status).toBe(500);
    const [a, b] = await Promise.all([call(url, '/api/drawings/contact-request/coverage'), call(url, '/api/drawings/contact-request/coverage')]);
    expect(a.body).toEqual({ flowId: 'contact-request', transitions: { percent: 100 } });
    expect(b.body).toEqual(a.body);
    expect((await call(url, '/api/drawings/contact-request/coverage')).status).toBe(200);
    expect(asked).toEqual(['contact-request', 'contact-request']);
  });
});

describe("a session's trace and steps, for the session view", () => {
  it('keeps what the flow emitted in each step with its journal entry, across a restart (PGlite)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateflow-trace-'));
    try {
      const first = await serve({ store: await createPgliteStore({ dataDir: templateDataDir('plain', dir) }) });
      const started = await call(first.url, '/api/flows/led-sales/sessions', { json: {} });
      const id = started.body.sessionId as string;
      await call(first.url, `/api/sessions/${id}/turns`, { json: { button: 'buy_led' } });
      await call(first.url, `/api/sessions/${id}/turns`, { json: { text: 'a tennis court' } });
      const { server, runtime, store } = open.pop()!;
      await server.close();
      runtime.close();
      await store.close();

      const again = await serve({ store: await createPgliteStore({ dataDir: dir }) });
      const session = await call(again.url, `/api/sessions/${id}?trace=true`);
      expect((await call(again.url, `/api/sessions/${id}`)).body.history[0]).not.toHaveProperty('trace');
      expect((await call(again.url, `/api/sessions/${id}?trace=yes`)).body.error.code).toBe('invalid_query');
      expect(session.status).toBe(200);
      const [opening, intent, venue] = session.body.history;
      expect(opening.trace).toContainEqual({ type: 'node.enter', node: 'intent', kind: 'question' });
      expect(intent.trace).toContainEqual(expect.objectContaining({ type: 'answer.committed', node: 'intent', key: 'intention', value: 'buy_led' }));
      expect(intent.trace).toContainEqual(
        expect.objectContaining({ type: 'guard.evaluated', node: 'intent', guards: [{ guard: "answers.intention == 'buy_led'", result: true }], target: 'led' }),
      );
      expect(venue.trace).toContainEqual(expect.objectContaining({ type: 'answer.committed', node: 'led.venue', value: 'sports_court' }));
      expect(venue.reply.state).toEqual({ led: { court_size: 'asking' } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('announces every saved step as session.stepped, with its seq and status', async () => {
    const { url, runtime } = await serve();
    const events: RuntimeEvent[] = [];
    const stop = runtime.subscribe((e) => events.push(e));
    const started = await call(url, '/api/flows/contact-request/sessions', { json: {} });
    const id = started.body.sessionId as string;
    await call(url, `/api/sessions/${id}/turns`, { json: { text: 'Ada Lovelace' } });
    await call(url, `/api/sessions/${id}/turns`, { json: { text: 'no' } });
    await expect.poll(() => events.filter((e) => e.type === 'session.stepped').length).toBe(2);
    stop();
    expect(events.filter((e) => e.type === 'session.stepped').map((e) => [e.sessionId, e.data.seq])).toEqual([
      [id, 2],
      [id, 3],
    ]);
    // A refused turn saves nothing and announces nothing.
    const refused = await call(url, `/api/sessions/${id}/turns`, { json: { button: 'nonsense' } });
    expect(refused.status).toBe(400);
    expect((await call(url, `/api/sessions/${id}`)).body.history).toHaveLength(3);
  });

  it("shows a session's trace to its owner only", async () => {
    const { url } = await serve({ jwt: true });
    const ada = await token('ada');
    const started = await call(url, '/api/flows/contact-request/sessions', { json: {}, token: ada });
    const id = started.body.sessionId as string;
    expect((await call(url, `/api/sessions/${id}?trace=true`, { token: ada })).body.history[0].trace).toContainEqual(expect.objectContaining({ type: 'node.enter' }));
    const other = await call(url, `/api/sessions/${id}?trace=true`, { token: await token('bob') });
    expect(other.status).toBe(404);
    expect(other.text).not.toContain('node.enter');
    expect((await call(url, '/api/drawings/contact-request')).status).toBe(401);
  });
});
