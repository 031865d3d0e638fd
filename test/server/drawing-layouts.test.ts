/**
 * Drawings laid out on the server (issue 29 §4: the machine level opens in
 * under a second): `GET /api/drawings/{id}/layout?level=` answers the
 * positions the viewer draws, made once per drawing and level and kept; the
 * other level is laid out next; listing the drawings lays nothing out.
 * `startServer` lays out in a worker thread (src/server/layout-worker.ts),
 * whose layouts are ELK's in this thread, box for box.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pathSelectionMachine } from '../../machines/path-selection.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { createRuntime, type Runtime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import { drawingSource } from '../../src/server/drawings.js';
import { workerLayouter, type WorkerLayouter } from '../../src/server/layout-worker.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { startServer } from '../../src/server/node.js';
import type { LayoutStore, Store } from '../../src/store/types.js';
import { effectiveLevel } from '../../src/viz/overlay.js';
import { templateStore } from '../helpers/pglite-template.js';
import { workflowDrawing, type WorkflowDrawing } from '../../src/viz/drawing.js';
import { layoutDrawing, type DrawingLayout } from '../../src/viz/layout.js';
import type { DrawingLevel } from '../../src/viz/overlay.js';
import { exampleFlows } from '../helpers/http.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const flows = exampleFlows().filter((f) => f.id === 'refund-approval' || f.id === 'contact-request');
const workflows = flows.map((f) => flowWorkflow(f));

const opened: Runtime[] = [];
afterEach(() => {
  for (const runtime of opened.splice(0)) runtime.close();
});

/** An app whose layouts are counted (and made by ELK in this thread, as `layoutDrawing` makes them). */
function app() {
  const made: string[] = [];
  const runtime = createRuntime({ workflows, store: createMemoryStore() });
  opened.push(runtime);
  const layout = (drawing: WorkflowDrawing, level: DrawingLevel) => {
    made.push(`${drawing.id} ${level}`);
    return layoutDrawing(drawing, level);
  };
  const served = createApp({
    runtime,
    drawings: drawingSource({ workflows: () => runtime.registered(), machines: [{ machine: pathSelectionMachine, title: 'Path selection' }], layout }),
  });
  const get = async <T>(path: string) => {
    const response = await served.request(path);
    return { status: response.status, body: (await response.json()) as T };
  };
  return { get, made };
}

const machineIds = (id: string) => workflowDrawing(workflows.find((w) => w.id === id)!).machine.states.map((s) => s.id).sort();

describe('GET /api/drawings/{id}/layout', () => {
  it('answers the machine level laid out: a box for every state, an edge for every transition', async () => {
    const { get } = app();
    const { status, body } = await get<DrawingLayout>('/api/drawings/refund-approval/layout?level=machine');
    expect(status).toBe(200);
    expect(body.level).toBe('machine');
    expect(body.boxes.map((b) => b.id).sort()).toEqual(machineIds('refund-approval'));
    const drawing = workflowDrawing(workflows.find((w) => w.id === 'refund-approval')!);
    expect(body.edges).toHaveLength(drawing.machine.transitions.length);
    expect(body.boxes.every((b) => b.width > 0 && b.height > 0 && Number.isFinite(b.x) && Number.isFinite(b.y))).toBe(true);
    expect(body.width).toBeGreaterThan(0);
  });

  it('lays each drawing out once per level, and the other level next, unasked', async () => {
    const { get, made } = app();
    const [a, b] = await Promise.all([get<DrawingLayout>('/api/drawings/contact-request/layout?level=machine'), get<DrawingLayout>('/api/drawings/contact-request/layout?level=machine')]);
    expect(b.body).toEqual(a.body);
    await expect.poll(() => made.length, { timeout: PATIENCE_MS }).toBe(2);
    const outline = await get<DrawingLayout>('/api/drawings/contact-request/layout?level=outline');
    expect(outline.body.level).toBe('outline');
    await get('/api/drawings/contact-request/layout?level=machine');
    expect(made.sort()).toEqual(['contact-request machine', 'contact-request outline']);
  });

  it('lays nothing out for a list of drawings: only a drawing that is opened, and its other level', async () => {
    const { get, made } = app();
    expect((await get('/api/drawings')).status).toBe(200);
    await get('/api/drawings/refund-approval/layout?level=outline');
    // The other level of the opened drawing follows in the background; no other drawing is laid out.
    await expect.poll(() => made.length, { timeout: PATIENCE_MS }).toBe(2);
    expect((await get('/api/drawings')).status).toBe(200);
    expect(made.sort()).toEqual(['refund-approval machine', 'refund-approval outline']);
  });

  it('refuses a level it does not draw and a drawing it does not know, saying what was wrong', async () => {
    const { get, made } = app();
    const level = await get<{ error: { code: string; message: string } }>('/api/drawings/refund-approval/layout?level=sideways');
    expect(level.status).toBe(400);
    expect(level.body.error.code).toBe('invalid_query');
    expect(level.body.error.message).toMatch(/^layout query: level: .*"outline".*"machine"/);
    const extra = await get<{ error: { code: string; message: string } }>('/api/drawings/refund-approval/layout?level=machine&zoom=2');
    expect(extra.status).toBe(400);
    expect(extra.body.error.message).toContain('zoom');
    const unknown = await get<{ error: { code: string } }>('/api/drawings/no-such-flow/layout');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('drawing_not_found');
    expect(made).toEqual([]);
  });
});

describe('workerLayouter', () => {
  let layouter: WorkerLayouter | undefined;
  afterEach(async () => {
    await layouter?.close();
    layouter = undefined;
  });

  it("lays out in a worker thread exactly as ELK in this thread does, at both levels, and again after it is closed", async () => {
    layouter = workerLayouter();
    const drawing = workflowDrawing(workflows.find((w) => w.id === 'refund-approval')!);
    for (const level of ['machine', 'outline'] as const) expect(await layouter.layout(drawing, level)).toEqual(await layoutDrawing(drawing, level));
    await layouter.close();
    // Closed, it starts a new worker for the next layout.
    expect((await layouter.layout(drawing, 'machine')).boxes.map((b) => b.id).sort()).toEqual(machineIds('refund-approval'));
  });

  it('with two workers, a layout asked for and one made ahead run at once, each as ELK in this thread lays it out', async () => {
    expect(workerLayouter().workers).toBe(1);
    layouter = workerLayouter({ workers: 2 });
    expect(layouter.workers).toBe(2);
    const drawing = workflowDrawing(workflows.find((w) => w.id === 'contact-request')!);
    const [asked, ahead] = await Promise.all([layouter.layout(drawing, 'machine', { urgent: true }), layouter.layout(drawing, 'outline')]);
    expect(asked).toEqual(await layoutDrawing(drawing, 'machine'));
    expect(ahead).toEqual(await layoutDrawing(drawing, 'outline'));
  });
});

/** A drawing source over `store`'s layouts whose layouts (ELK in this thread) are counted. */
function storedSource(store: LayoutStore, layoutCode = 'test-code') {
  const made: string[] = [];
  const source = drawingSource({
    workflows: () => workflows,
    store,
    layoutCode,
    layout: (drawing, level) => {
      made.push(`${drawing.id} ${level}`);
      return layoutDrawing(drawing, level);
    },
  });
  return { source, made };
}

/** The levels a workflow's drawing is laid out at (one for a drawing without an outline). */
const levelsOf = (id: string) => [...new Set((['machine', 'outline'] as const).map((l) => effectiveLevel(workflowDrawing(workflows.find((w) => w.id === id)!), l)))];

describe('layouts kept in the store', () => {
  it('a source started again on the same store serves the kept layout and lays nothing out', async () => {
    const store = createMemoryStore();
    const first = storedSource(store.layouts!);
    const laid = await first.source.layout('refund-approval', 'machine');
    const again = storedSource(store.layouts!);
    expect(await again.source.layout('refund-approval', 'machine')).toEqual(laid);
    // The other level is looked up in the background too: found kept, once the first source's background layout was kept.
    expect(again.made.filter((m) => m.endsWith('machine'))).toEqual([]);
  });

  it('a layout kept by other layout code is not served: laid out again under this code', async () => {
    const store = createMemoryStore();
    await storedSource(store.layouts!, 'old-code').source.layout('contact-request', 'machine');
    const now = storedSource(store.layouts!, 'new-code');
    await now.source.layout('contact-request', 'machine');
    expect(now.made).toContain('contact-request machine');
  });

  it.each([
    ['text that is not JSON', () => '{"boxes": ['],
    ['JSON that is not a layout', () => JSON.stringify({ id: 'contact-request', level: 'machine', boxes: 'none' })],
    ['another drawing\'s layout', (other: string) => other],
  ])('a kept row of %s is ignored, laid out again and replaced: never an error', async (_what, bad) => {
    const store = createMemoryStore();
    const first = storedSource(store.layouts!);
    const good = await first.source.layout('contact-request', 'machine');
    const other = JSON.stringify(await first.source.layout('refund-approval', 'machine'));
    // Every kept contact-request machine layout (one per key: find it by its body) overwritten with the bad text.
    const real = store.layouts!;
    const keys: Parameters<LayoutStore['put']>[0][] = [];
    const spying: LayoutStore = { get: (k) => (keys.push(k), real.get(k)), put: (k, b) => real.put(k, b) };
    const probe = storedSource(spying);
    await probe.source.layout('contact-request', 'machine');
    const key = keys.find((k) => k.drawingId === 'contact-request' && k.level === 'machine')!;
    await real.put(key, bad(other));

    const next = storedSource(real);
    expect(await next.source.layout('contact-request', 'machine')).toEqual(good);
    expect(next.made).toContain('contact-request machine');
    // Replaced: the source after it finds a good one.
    expect(JSON.parse((await real.get(key))!)).toEqual(good);
  });

  it('a store that fails is reported and the layout served all the same', async () => {
    const errors: unknown[] = [];
    const broken: LayoutStore = {
      get: () => Promise.reject(new Error('store down')),
      put: () => Promise.reject(new Error('store down')),
    };
    const source = drawingSource({ workflows: () => workflows, store: broken, onStoreError: (e) => errors.push(e) });
    expect((await source.layout('contact-request', 'machine')).level).toBe('machine');
    expect(errors.map((e) => (e as Error).message)).toContain('store down');
  });
});

describe('warming: laid out ahead', () => {
  it('lays out every served workflow at each of its levels, once; opening one then lays nothing out', async () => {
    const store = createMemoryStore();
    const { source, made } = storedSource(store.layouts!);
    await source.warm();
    const expected = workflows.flatMap((w) => levelsOf(w.id).map((l) => `${w.id} ${l}`));
    expect([...made].sort()).toEqual(expected.sort());
    await source.layout('contact-request', 'machine');
    await source.layout('refund-approval', 'outline');
    expect(made).toHaveLength(expected.length);
    // Started again on the same store: nothing left to lay out.
    const again = storedSource(store.layouts!);
    await again.source.warm();
    expect(again.made).toEqual([]);
  });

  it('a layout asked for meanwhile goes before every warmed one not yet under way', async () => {
    const { source, made } = storedSource(createMemoryStore().layouts!);
    const warming = source.warm();
    const last = workflows.at(-1)!.id;
    await source.layout(last, 'outline');
    await warming;
    // The first warmed layout may be under way when the request comes; the one asked for comes next at the latest.
    expect(made.indexOf(`${last} outline`)).toBeLessThanOrEqual(1);
  });

  it("a layout asked for while one made ahead is under way starts at once, beside it; nothing more is made ahead until it is done", async () => {
    // Layouts that finish only when let go: what starts when is seen without any clock.
    const started: string[] = [];
    const held: (() => void)[] = [];
    let letGo = false;
    const source = drawingSource({
      workflows: () => workflows,
      lanes: 2,
      layout: (drawing, level, how) => {
        started.push(`${drawing.id} ${level}${how?.urgent ? ' (asked)' : ''}`);
        const go = new Promise<void>((resolve) => (letGo ? resolve() : held.push(resolve)));
        return go.then(() => layoutDrawing(drawing, level));
      },
    });
    const [first, second] = workflows.map((w) => w.id) as [string, string];
    const warming = source.warm();
    await expect.poll(() => started, { timeout: PATIENCE_MS }).toEqual([`${first} machine`]);
    // Asked for while the first layout made ahead is held: it starts without waiting for it.
    const asked = source.layout(second, 'outline');
    await expect.poll(() => started, { timeout: PATIENCE_MS }).toEqual([`${first} machine`, `${second} outline (asked)`]);
    // The one made ahead done; the next made ahead (the asked drawing's machine level, queued) waits while the asked one runs.
    held.shift()!();
    await source.layout(first, 'machine');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual([`${first} machine`, `${second} outline (asked)`]);
    letGo = true;
    for (const go of held.splice(0)) go();
    expect((await asked).level).toBe('outline');
    await warming;
    expect(started.slice(2)).toEqual([`${second} machine`, `${first} outline`]);
  });

  it('stops when its signal aborts', async () => {
    const { source, made } = storedSource(createMemoryStore().layouts!);
    const stop = new AbortController();
    stop.abort();
    await source.warm(stop.signal);
    expect(made).toEqual([]);
  });
});

describe('startServer with warmLayouts', () => {
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  it('lays the served flows out once listening, into the store; a server started again on it lays nothing out', async () => {
    store = await templateStore();
    const count = async () => (await store!.sql!.query<{ n: number }>('SELECT count(*)::int AS n FROM gateflow_layouts')).rows[0]!.n;
    const rows = async () => (await store!.sql!.query<{ drawing_id: string; level: string; n: string }>('SELECT drawing_id, level, n FROM gateflow_layouts ORDER BY n')).rows;
    const expected = workflows.reduce((n, w) => n + levelsOf(w.id).length, 0);
    const first = await startServer({ workflows, store, port: 0, warmLayouts: true });
    try {
      await expect.poll(count, { timeout: PATIENCE_MS }).toBe(expected);
    } finally {
      await first.close();
    }
    const kept = await rows();
    const again = await startServer({ workflows, store, port: 0 });
    try {
      for (const w of workflows) for (const level of levelsOf(w.id)) {
        const response = await fetch(`${again.url}/api/drawings/${w.id}/layout?level=${level}`);
        expect(response.status).toBe(200);
        expect(((await response.json()) as DrawingLayout).level).toBe(level);
      }
      // Served from the store: no row was written again (a layout made anew is kept with a new n).
      expect(await rows()).toEqual(kept);
    } finally {
      await again.close();
    }
  });
});
