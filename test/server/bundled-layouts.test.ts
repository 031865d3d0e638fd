/**
 * Issue 29 §4: the machine level of an example flow opens in under a second,
 * also on a fresh server whose layout worker has not warmed up (ELK's first
 * machine level there takes seconds). The example flows' layouts are made at
 * build time (`npm run build:layouts`) and served under their full key; a
 * changed drawing or other layout code is laid out as usual.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledLayouts } from '../../src/cli/drawings.js';
import { BUNDLED_LAYOUTS_FILE } from '../../src/cli/io.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { bundledLayoutLookup } from '../../src/server/bundled-layouts.js';
import { drawingRoutes, drawingSource } from '../../src/server/drawings.js';
import { workerLayouter } from '../../src/server/layout-worker.js';
import type { WorkflowDrawing } from '../../src/viz/drawing.js';
import type { DrawingLayout } from '../../src/viz/layout.js';
import type { DrawingLevel } from '../../src/viz/overlay.js';
import type { LayoutKey } from '../../src/store/types.js';
import { exampleFlows } from '../helpers/http.js';

// The code `gateflow serve` keys its layouts by (creating the layouter starts no worker).
const { code } = workerLayouter();

/** A source over these flows with the bundled layouts, whose own layouts are counted and made up. */
function source(flows: ReturnType<typeof exampleFlows>, bundled = bundledLayouts(() => undefined)) {
  const laidOut: string[] = [];
  const workflows = flows.map((f) => flowWorkflow(f));
  const layout = async (drawing: WorkflowDrawing, level: DrawingLevel): Promise<DrawingLayout> => {
    laidOut.push(`${drawing.id} ${level}`);
    return { id: drawing.id, level, width: 1, height: 1, boxes: [], edges: [] } as unknown as DrawingLayout;
  };
  return { laidOut, drawings: drawingSource({ workflows: () => workflows, layout, layoutCode: code, ...(bundled && { bundled }) }) };
}

describe('bundled layouts of the example flows', () => {
  it('are current: every example flow is served at both levels without laying anything out (else run npm run build:layouts)', async () => {
    const flows = exampleFlows();
    const { laidOut, drawings } = source(flows);
    for (const flow of flows)
      for (const level of ['machine', 'outline'] as const) {
        const served = await drawings.layout(flow.id, level);
        expect(served.id).toBe(flow.id);
        expect(served.boxes.length).toBeGreaterThan(0);
      }
    expect(laidOut, 'layouts missing from machines/layouts.generated.json: run npm run build:layouts').toEqual([]);
  });

  it('are served over HTTP as the layout of the drawing', async () => {
    const { laidOut, drawings } = source(exampleFlows());
    const res = await drawingRoutes(drawings).request('/drawings/patient-intake/layout?level=machine');
    expect(res.status).toBe(200);
    const body = (await res.json()) as DrawingLayout;
    expect(body).toMatchObject({ id: 'patient-intake', level: 'machine' });
    expect(laidOut).not.toContain('patient-intake machine');
  });

  it('never serve a changed flow: its drawing is laid out as usual', async () => {
    const flows = exampleFlows().map((f) => (f.id === 'refund-approval' ? { ...f, title: `${f.title} (changed)` } : f));
    const { laidOut, drawings } = source(flows);
    const served = await drawings.layout('refund-approval', 'machine');
    expect(laidOut).toContain('refund-approval machine');
    expect(served.boxes).toEqual([]);
  });

  it('are found only under their key: other layout code, another hash or level find nothing', () => {
    const file = JSON.parse(readFileSync(BUNDLED_LAYOUTS_FILE, 'utf8')) as { layouts: LayoutKey[] };
    const key = file.layouts[0]!;
    const lookup = bundledLayouts(() => undefined)!;
    expect(lookup(key)).not.toBeNull();
    expect(lookup({ ...key, code: key.code.replace(/^gateflow-layout\/\d+/u, 'gateflow-layout/999') })).toBeNull();
    expect(lookup({ ...key, code: key.code.replace(/gateflow@\S+/u, 'gateflow@9.9.9') })).toBeNull();
    expect(lookup({ ...key, contentHash: 'a'.repeat(64) })).toBeNull();
    expect(lookup({ ...key, level: key.level === 'machine' ? 'outline' : 'machine' })?.level).not.toBe(key.level);
  });

  it('are found whichever elkjs an app has installed, or none (they were made by the one gateflow pins)', () => {
    const file = JSON.parse(readFileSync(BUNDLED_LAYOUTS_FILE, 'utf8')) as { layouts: LayoutKey[] };
    const key = file.layouts[0]!;
    expect(key.code).toMatch(/ elkjs@\d/u);
    const lookup = bundledLayouts(() => undefined)!;
    expect(lookup({ ...key, code: key.code.replace(/elkjs@\S+$/u, 'elkjs@?') })).not.toBeNull();
    expect(lookup({ ...key, code: key.code.replace(/elkjs@\S+$/u, 'elkjs@0.13.0') })).not.toBeNull();
  });

  it('a malformed file is named and left out: the server lays out as asked', () => {
    expect(() => bundledLayoutLookup({ layouts: [{ drawingId: 'x' }] })).toThrow(/bundled layouts: layouts\.0\.contentHash/);
    const dir = mkdtempSync(join(tmpdir(), 'gateflow-bundled-'));
    const file = join(dir, 'layouts.json');
    writeFileSync(file, '{"layouts": [');
    const warned: string[] = [];
    expect(bundledLayouts((line) => warned.push(line), file)).toBeUndefined();
    expect(warned.join('\n')).toMatch(/the bundled layouts in .*layouts\.json were not read/);
    expect(bundledLayouts((line) => warned.push(line), join(dir, 'missing.json'))).toBeUndefined();
    expect(warned).toHaveLength(1);
    expect(BUNDLED_LAYOUTS_FILE).toMatch(/machines\/layouts\.generated\.json$/);
  });
});
