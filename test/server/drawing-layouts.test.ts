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
});
