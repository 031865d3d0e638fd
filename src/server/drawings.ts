import type { BundledLayoutLookup } from './bundled-layouts.js';
import { Hono } from 'hono';
import type { AnyStateMachine } from 'xstate';
import { z } from 'zod';
import { standaloneMachineDrawing, workflowDrawing, type WorkflowDrawing } from '../viz/drawing.js';
import { DrawingLayoutSchema, LAYOUT_REVISION, layoutDrawing, type DrawingLayout } from '../viz/layout.js';
import { effectiveLevel, type DrawingLevel } from '../viz/overlay.js';
import type { LayoutKey, LayoutStore } from '../store/types.js';
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
  /**
   * The drawing laid out at a level (the positions `drawingSvg` draws), made
   * once per drawing and level and kept; the drawing's other level is laid
   * out next, in the background. Throws `HttpError` 404 for an id not drawn here.
   */
  layout(id: string, level: DrawingLevel): Promise<DrawingLayout>;
  /**
   * Lays out ahead, one at a time and never while a layout asked for runs or
   * waits, both levels of every served workflow's drawing not yet laid out
   * (nor in the store): every machine level, then every outline.
   * Resolves when done, or soon after `signal` aborts.
   */
  warm(signal?: AbortSignal): Promise<void>;
}

/** The query of `GET /api/drawings/{id}/layout`. */
export const LayoutQuerySchema = z.strictObject({ level: z.enum(['outline', 'machine']).default('outline') });

export interface DrawingSourceOptions {
  /** The workflows sessions run (read at each call: what the runtime has registered). */
  workflows: () => readonly Workflow[];
  /** Hand-written machines that are not workflows of their own (path selection, the chat session), with a title. */
  machines?: readonly { machine: AnyStateMachine; title: string }[];
  coverage?: CoverageProvider;
  /**
   * Lays a drawing out (`layoutDrawing`, ELK, or `WorkerLayouter.layout`);
   * replaced in tests to count the layouts made. `urgent`: a person asked for it.
   */
  layout?: (drawing: WorkflowDrawing, level: DrawingLevel, options: { urgent: boolean }) => Promise<DrawingLayout>;
  /** How many layouts `layout` runs at once (`WorkerLayouter.workers`); 1 by default (ELK in this thread). */
  lanes?: number;
  /**
   * Where layouts are kept across restarts (`Store.layouts`): read before
   * laying out, written after. A stored layout that does not read as one (or
   * as this drawing's) is laid out again and replaced.
   */
  store?: LayoutStore;
  /**
   * What decides a layout besides the drawing and level: the layout code's
   * revision and ELK's version (`WorkerLayouter.code`). Part of the stored
   * key, so that other layout code never serves a layout made by this one.
   */
  layoutCode?: string;
  /**
   * Layouts made at build time (`bundledLayoutLookup`), served before the
   * store and ELK are asked: found only under the full key, so a changed
   * drawing or other layout code is laid out as usual.
   */
  bundled?: BundledLayoutLookup;
  /** Errors reading or writing the stored layouts (the layout is served all the same). */
  onStoreError?: (error: unknown) => void;
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

  // Layouts hang off the drawing they place: a drawing made again (its flow
  // changed) starts without any, and a dropped drawing takes its layouts along.
  const layouts = new WeakMap<WorkflowDrawing, Map<DrawingLevel, Layout>>();
  const lay = options.layout ?? ((drawing: WorkflowDrawing, level: DrawingLevel) => layoutDrawing(drawing, level));
  const queue = layoutQueue(options.lanes ?? 1);
  const code = options.layoutCode ?? `gateflow-layout/${LAYOUT_REVISION}`;
  const hashes = new WeakMap<WorkflowDrawing, Promise<string>>();
  const keyFor = async (made: WorkflowDrawing, level: DrawingLevel): Promise<LayoutKey> => {
    let hash = hashes.get(made);
    if (!hash) hashes.set(made, (hash = contentHash(made)));
    return { drawingId: made.id, contentHash: await hash, level, code };
  };
  const storeError = (error: unknown) => options.onStoreError?.(error);
  /** The stored layout of this key, checked; null when none, or one that does not read as this drawing's layout. */
  const stored = async (key: LayoutKey): Promise<DrawingLayout | null> => {
    const body = await options.store!.get(key).catch((error: unknown) => (storeError(error), null));
    if (body === null) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return null;
    }
    const checked = DrawingLayoutSchema.safeParse(parsed);
    return checked.success && checked.data.id === key.drawingId && checked.data.level === key.level ? checked.data : null;
  };
  const layout = (id: string, level: DrawingLevel, urgent: boolean): Promise<DrawingLayout> => {
    const made = drawing(id);
    const shown = effectiveLevel(made, level);
    let levels = layouts.get(made);
    if (!levels) layouts.set(made, (levels = new Map()));
    const held = levels;
    const kept = held.get(shown);
    if (kept) {
      if (urgent) kept.hurry();
      return kept.done;
    }
    let job: QueuedLayout | null = null;
    let hurried = urgent;
    const run = async (): Promise<DrawingLayout> => {
      // A store read does not wait in the queue: only ELK's work is one at a time.
      const key = options.store || options.bundled ? await keyFor(made, shown) : null;
      const bundled = key && options.bundled?.(key);
      if (bundled) return bundled;
      const found = key && options.store && (await stored(key));
      if (found) return found;
      job = queue.add((urgent) => lay(made, shown, { urgent }), hurried);
      const laid = await job.done;
      if (key && options.store) await options.store.put(key, JSON.stringify(laid)).catch(storeError);
      return laid;
    };
    const entry: Layout = {
      done: run(),
      hurry: () => {
        hurried = true;
        job?.hurry();
      },
    };
    // A failed layout is not kept: the next request tries again.
    entry.done.catch(() => held.get(shown) === entry && held.delete(shown));
    held.set(shown, entry);
    return entry.done;
  };
  const list = (): DrawingSummary[] => [
    ...options.workflows().map((w) => ({ id: w.id, title: w.title, version: w.version, kind: 'workflow' as const, revision: revisionOf(w) })),
    ...machines.map(({ machine, title }) => ({ id: machine.id, title, version: null, kind: 'machine' as const, revision: 0 })),
  ];
  const later = (id: string, level: DrawingLevel) => void layout(id, level, false).catch(() => undefined);

  const warm = async (signal?: AbortSignal) => {
    // Every machine level first: the slow ones to lay out (an outline takes a tenth of the time).
    for (const level of ['machine', 'outline'] as const) {
      for (const w of options.workflows()) {
        if (signal?.aborted) return;
        // One at a time: each waits for the last, and any layout asked for meanwhile goes first.
        // (A failure, even a thrown one, is the next request's to report.)
        await Promise.resolve()
          .then(() => layout(w.id, level, false))
          .catch(() => undefined);
      }
    }
  };

  return {
    warm,
    layout: (id, level) => {
      const answer = layout(id, level, true);
      later(id, level === 'machine' ? 'outline' : 'machine');
      return answer;
    },
    list,
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

/** A layout being made or made: the answer, and a way to move it to the front of the queue. */
interface Layout {
  done: Promise<DrawingLayout>;
  hurry(): void;
}

/** A layout waiting for ELK or being made. */
interface QueuedLayout {
  done: Promise<DrawingLayout>;
  /** A layout made ahead that is now asked for goes first. */
  hurry(): void;
}

/** SHA-256 of the drawing's JSON (Web Crypto: in Node and in a browser alike), hex. */
async function contentHash(drawing: WorkflowDrawing): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(drawing)));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Layouts made at most `lanes` at a time (the layouter's workers; one when ELK
 * runs in this thread, which it holds while it lays out), asked-for ones
 * before those made ahead. A layout made ahead starts only when no asked-for
 * one runs or waits, and one at a time: a lane stays free for a person's
 * request, which so never waits for work done ahead. Bounded by what it lays
 * out: two levels per drawing.
 */
function layoutQueue(lanes: number) {
  interface Job {
    run: (urgent: boolean) => Promise<DrawingLayout>;
    settle: (made: Promise<DrawingLayout>) => void;
    urgent: boolean;
  }
  const waiting: Job[] = [];
  let urgentRunning = 0;
  let aheadRunning = 0;
  const start = () => {
    while (urgentRunning + aheadRunning < Math.max(1, lanes)) {
      const at = waiting.findIndex((j) => j.urgent);
      if (at < 0 && (waiting.length === 0 || urgentRunning > 0 || aheadRunning > 0)) return;
      const [job] = waiting.splice(Math.max(at, 0), 1);
      const urgent = job!.urgent;
      if (urgent) urgentRunning++;
      else aheadRunning++;
      const done = () => {
        if (urgent) urgentRunning--;
        else aheadRunning--;
        start();
      };
      // A macrotask before each layout: requests that came meanwhile are answered first.
      setTimeout(() => {
        const made = job!.run(urgent);
        job!.settle(made);
        made.then(done, done);
      }, 0);
    }
  };
  return {
    add(run: (urgent: boolean) => Promise<DrawingLayout>, urgent: boolean): QueuedLayout {
      let settle!: (made: Promise<DrawingLayout>) => void;
      const done = new Promise<DrawingLayout>((resolve) => (settle = resolve));
      const job: Job = { run, settle, urgent };
      if (urgent) waiting.unshift(job);
      else waiting.push(job);
      start();
      return {
        done,
        hurry: () => {
          const at = waiting.indexOf(job);
          if (at < 0) return; // under way
          job.urgent = true;
          waiting.unshift(...waiting.splice(at, 1));
          start();
        },
      };
    },
  };
}

/** `GET /api/drawings`, `/api/drawings/{id}` (the JSON `gateflow viz --format json` prints) and `/api/drawings/{id}/coverage`. */
export function drawingRoutes(source: DrawingSource) {
  const routes = new Hono();
  // Nothing is laid out ahead for a list: a server does no work for drawings nobody opens.
  routes.get('/drawings', (c) => c.json({ drawings: source.list() }));
  routes.get('/drawings/:id', (c) => c.json(source.drawing(c.req.param('id'))));
  routes.get('/drawings/:id/layout', async (c) => {
    const query = LayoutQuerySchema.safeParse(c.req.query());
    if (!query.success) throw new HttpError(400, 'invalid_query', `layout query: ${query.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ')}`);
    return c.json(await source.layout(c.req.param('id'), query.data.level));
  });
  routes.get('/drawings/:id/coverage', async (c) => c.json(await source.coverage(c.req.param('id'))));
  return routes;
}
