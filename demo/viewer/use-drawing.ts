import { useEffect, useRef, useState } from 'react';
import type { WorkflowDrawing } from '../../src/viz/drawing.js';
import type { DrawingLayout } from '../../src/viz/layout.js';
import { effectiveLevel, type DrawingLevel } from '../../src/viz/overlay.js';
import { drawingSvg } from '../../src/viz/svg.js';
import { getDrawing, getLayout, listDrawings } from './api.js';

/** The two levels a drawing is shown at: the flow as written, or the compiled machine in full. */
export type Level = DrawingLevel;

/** The level asked for in the address (`?level=`), the outline by default. */
export function levelParam(params: URLSearchParams): Level {
  return params.get('level') === 'machine' ? 'machine' : 'outline';
}

/** The level a drawing is really shown at: a machine without an outline is drawn as its machine. */
export const shownLevel = effectiveLevel;

/** Keeps a parameter of the address in step with the page (a reload or a shared link shows the same). */
export function setParam(name: string, value: string | null): void {
  const url = new URL(location.href);
  if (url.searchParams.get(name) === value) return;
  if (value === null) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  history.replaceState(history.state, '', url);
}

export type Loaded<T> = { status: 'loading' } | { status: 'failed'; error: Error } | { status: 'ready'; value: T };

/** A workflow's drawing (`GET /api/drawings/{id}`), or null while no id is known. */
export function useDrawing(id: string | null): Loaded<WorkflowDrawing> | null {
  const [state, setState] = useState<Loaded<WorkflowDrawing> | null>(null);
  const revision = useRevision(id);
  useEffect(() => {
    if (id === null) return setState(null);
    let live = true;
    // A drawing read again (its flow changed) replaces the shown one when it comes: no "loading" in between.
    setState((shown) => (shown?.status === 'ready' && shown.value.id === id ? shown : { status: 'loading' }));
    getDrawing(id).then(
      // The same drawing again (the first revision seen) keeps the one shown, and its layout.
      (value) => live && setState((shown) => (shown?.status === 'ready' && JSON.stringify(shown.value) === JSON.stringify(value) ? shown : { status: 'ready', value })),
      (error: Error) => live && setState({ status: 'failed', error }),
    );
    return () => {
      live = false;
    };
  }, [id, revision]);
  return state;
}

/** How often a page looks whether its drawing changed (a flow file edited under `serve --watch`). */
const REVISION_POLL_MS = 3000;

/** The drawing's revision in `GET /api/drawings`, looked at while the page is visible: it changes when the server serves a changed flow. */
function useRevision(id: string | null): number | null {
  const [revision, setRevision] = useState<number | null>(null);
  useEffect(() => {
    if (id === null) return;
    const look = () => {
      if (document.visibilityState !== 'visible') return;
      listDrawings().then(
        (list) => setRevision(list.find((d) => d.id === id)?.revision ?? null),
        () => undefined,
      );
    };
    look();
    const timer = setInterval(look, REVISION_POLL_MS);
    return () => clearInterval(timer);
  }, [id]);
  return revision;
}

/** Where a drawing's layout came from: the server's (made once and kept there), or ELK in the page. */
export type LayoutSource = 'server' | 'browser';

/**
 * The drawing laid out at a level: the server's layout when it answers one
 * (the page then never loads ELK), laid out in the page otherwise (an older
 * server, or one without elkjs). Each level is fetched or laid out once.
 */
async function laidOut(drawing: WorkflowDrawing, level: Level): Promise<{ layout: DrawingLayout; source: LayoutSource }> {
  try {
    const layout = await getLayout(drawing.id, level);
    // A layout of another version (the flow changed between the two reads) is laid out here instead.
    if (sameBoxes(layout, drawing, level)) return { layout, source: 'server' };
  } catch {
    // The page can lay it out itself.
  }
  const { layoutDrawing } = await import('../../src/viz/layout.js');
  return { layout: await layoutDrawing(drawing, level), source: 'browser' };
}

/** Whether a layout places exactly the drawing's boxes at that level. */
function sameBoxes(layout: DrawingLayout, drawing: WorkflowDrawing, level: Level): boolean {
  const ids = level === 'outline' && drawing.outline ? drawing.outline.nodes.map((n) => n.id) : drawing.machine.states.map((s) => s.id);
  const placed = new Set(layout.boxes.map((b) => b.id));
  return layout.level === level && placed.size === ids.length && ids.every((id) => placed.has(id));
}

/** The drawing laid out and drawn as SVG markup at a level; each level is laid out once. */
export function useDrawingSvg(drawing: WorkflowDrawing | null, level: Level): Loaded<string> | null {
  // Per drawing read (a flow changed under `serve --watch` is a new drawing with the same id), per level.
  const [cache] = useState(() => new WeakMap<WorkflowDrawing, Map<string, Promise<string>>>());
  const [state, setState] = useState<Loaded<string> | null>(null);
  // The drawing id and level of the markup shown.
  const shownRef = useRef<string | null>(null);
  useEffect(() => {
    if (!drawing) {
      shownRef.current = null;
      return setState(null);
    }
    const shown = shownLevel(drawing, level);
    const key = shown;
    let levels = cache.get(drawing);
    if (!levels) cache.set(drawing, (levels = new Map()));
    const held = levels;
    let svg = held.get(key);
    if (!svg) {
      // Marks for measuring in a browser (performance.getEntriesByType('measure')): how long the layout takes, and where it was made.
      const started = performance.now();
      svg = laidOut(drawing, shown).then(({ layout, source }) => {
        const markup = drawingSvg(layout);
        performance.measure(`gateflow:layout ${shown}`, { start: started, detail: { level: shown, source } });
        return markup;
      });
      held.set(key, svg);
    }
    let live = true;
    // The same drawing read again (its flow changed under `serve --watch`) keeps the one shown until the new one is drawn: no blank frame.
    const shownKey = `${drawing.id}\n${shown}`;
    if (shownRef.current !== shownKey) setState({ status: 'loading' });
    svg.then(
      (value) => {
        if (!live) return;
        shownRef.current = shownKey;
        setState({ status: 'ready', value });
      },
      (error: Error) => {
        held.delete(key);
        if (!live) return;
        shownRef.current = null;
        setState({ status: 'failed', error });
      },
    );
    return () => {
      live = false;
    };
  }, [drawing, level, cache]);
  return state;
}
