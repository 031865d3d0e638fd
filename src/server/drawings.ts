import { Hono } from 'hono';
import type { AnyStateMachine } from 'xstate';
import { z } from 'zod';
import { standaloneMachineDrawing, workflowDrawing, type WorkflowDrawing } from '../viz/drawing.js';
import type { Workflow } from '../workflow/types.js';
import { HttpError } from './errors.js';

/** One entry of `GET /api/drawings`. */
export const DrawingSummarySchema = z.object({
  id: z.string(),
  title: z.string().nullable(),
  version: z.union([z.string(), z.number()]).nullable().describe("The workflow's version; null for a machine that is not a workflow"),
  kind: z.enum(['workflow', 'machine']).describe('workflow: sessions run it; machine: a hand-written machine drawn for reading'),
  revision: z.number().int().describe('Changes when the workflow is registered again (serve --watch): its drawing is to be read again'),
});
export type DrawingSummary = z.infer<typeof DrawingSummarySchema>;
export const DrawingListSchema = z.object({ drawings: z.array(DrawingSummarySchema) });

/**
 * The model-based coverage of a workflow (`gateflow test`), or null when it
 * has none (only flow documents generate their paths). It may take seconds.
 */
export type CoverageProvider = (workflowId: string) => Promise<object> | null;

/** What the viewer draws: the served workflows, hand-written machines beside them, and coverage where there is some. */
export interface DrawingSource {
  list(): DrawingSummary[];
  /** Throws `HttpError` 404 `drawing_not_found` for an id it does not draw. */
  drawing(id: string): WorkflowDrawing;
  /** Throws `HttpError` 404 `coverage_unavailable` for a drawing without coverage. */
  coverage(id: string): Promise<object>;
}

export interface DrawingSourceOptions {
  /** The workflows sessions run (read at each call: what the runtime has registered). */
  workflows: () => readonly Workflow[];
  /** Hand-written machines that are not workflows of their own (path selection, the chat session), with a title. */
  machines?: readonly { machine: AnyStateMachine; title: string }[];
  coverage?: CoverageProvider;
}

/**
 * Drawings made once per workflow version and kept; coverage computed once
 * per workflow version (a request that comes while it runs waits for the same
 * run) and kept when it succeeds.
 */
export function drawingSource(options: DrawingSourceOptions): DrawingSource {
  const drawings = new Map<string, WorkflowDrawing>();
  const coverage = new Map<string, Promise<object>>();
  const machines = options.machines ?? [];
  const workflow = (id: string) => options.workflows().find((w) => w.id === id);
  // A workflow registered again under the same version (a flow file changed under `serve --watch`) is drawn again.
  const registrations = new WeakMap<Workflow, number>();
  let registered = 0;
  const revisionOf = (w: Workflow) => {
    let n = registrations.get(w);
    if (n === undefined) registrations.set(w, (n = ++registered));
    return n;
  };
  const keyOf = (id: string) => {
    const w = workflow(id);
    return w ? `${id}@${String(w.version)}#${revisionOf(w)}` : id;
  };

  const drawing = (id: string): WorkflowDrawing => {
    const key = keyOf(id);
    const kept = drawings.get(key);
    if (kept) return kept;
    const w = workflow(id);
    const m = w ? undefined : machines.find((x) => x.machine.id === id);
    if (!w && !m) throw new HttpError(404, 'drawing_not_found', `no workflow or machine "${id.slice(0, 100)}" is drawn here`);
    const made = w ? workflowDrawing(w) : standaloneMachineDrawing(m!.machine, m!.title);
    // One drawing per workflow id: an earlier registration's goes.
    for (const k of drawings.keys()) if (k.startsWith(`${id}@`)) drawings.delete(k);
    drawings.set(key, made);
    return made;
  };

  return {
    list: () => [
      ...options.workflows().map((w) => ({ id: w.id, title: w.title, version: w.version, kind: 'workflow' as const, revision: revisionOf(w) })),
      ...machines.map(({ machine, title }) => ({ id: machine.id, title, version: null, kind: 'machine' as const, revision: 0 })),
    ],
    drawing,
    coverage: (id) => {
      drawing(id); // 404 for an id not drawn here
      const key = keyOf(id);
      const kept = coverage.get(key);
      if (kept) return kept;
      const running = options.coverage?.(id) ?? null;
      if (!running) throw new HttpError(404, 'coverage_unavailable', `"${id}" has no generated paths: coverage is measured for flow documents`);
      // A failed run is not kept: the next request tries again.
      const held = running.catch((error: unknown) => {
        coverage.delete(key);
        throw error;
      });
      coverage.set(key, held);
      return held;
    },
  };
}

/** `GET /api/drawings`, `/api/drawings/{id}` (the JSON `gateflow viz --format json` prints) and `/api/drawings/{id}/coverage`. */
export function drawingRoutes(source: DrawingSource) {
  const routes = new Hono();
  routes.get('/drawings', (c) => c.json({ drawings: source.list() }));
  routes.get('/drawings/:id', (c) => c.json(source.drawing(c.req.param('id'))));
  routes.get('/drawings/:id/coverage', async (c) => c.json(await source.coverage(c.req.param('id'))));
  return routes;
}
