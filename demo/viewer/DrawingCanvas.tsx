import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';

/** What a click or a key picked in the drawing: a box or an edge, by its `data-id`. */
export interface Picked {
  kind: 'node' | 'edge';
  id: string;
}

/**
 * The classes the viewer toggles (styled by the drawing's own `<style>`), each
 * with the ids to mark: boxes active or visited, edges taken or uncovered.
 */
export interface Marks {
  nodes?: Partial<Record<'gf-active' | 'gf-visited', readonly string[]>>;
  edges?: Partial<Record<'gf-visited' | 'gf-uncovered', readonly string[]>>;
}

interface ViewBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface DrawingCanvasProps {
  /** The SVG document made by `drawingSvg` (our code, text escaped), put in as markup. */
  svg: string;
  marks: Marks;
  selected: Picked | null;
  onPick: (picked: Picked | null) => void;
  /** What the drawing shows, for screen readers. */
  label: string;
  /** Bring this box into view when it changes (the current state of a live session). */
  follow?: string | null;
}

const ZOOM_STEP = 1.25;
/** How far the pointer moves before a press is a drag, not a click. */
const DRAG_THRESHOLD = 4;
/** The smallest scale a drawing first opens at: below it, text is too small to read, and the view starts at the drawing's left instead. */
const START_SCALE = 0.85;
/** Room around the drawing (a start arrow sits just left of its box). */
const MARGIN = 24;
const MARK_CLASSES = ['gf-active', 'gf-visited', 'gf-uncovered'] as const;

/**
 * A drawing on the page: the SVG put in once per drawing, then panned (drag,
 * arrow keys) and zoomed (wheel, +/−, fit) by changing its viewBox, and its
 * boxes and edges marked by toggling classes, so nothing is drawn again.
 * Boxes and edges are focusable buttons: a click, Enter or Space picks one.
 */
export function DrawingCanvas({ svg, marks, selected, onPick, label, follow = null }: DrawingCanvasProps) {
  const host = useRef<HTMLDivElement>(null);
  const full = useRef<ViewBox | null>(null);
  const [view, setView] = useState<ViewBox | null>(null);
  const drag = useRef<{ x: number; y: number; moved: boolean; pointer: number } | null>(null);
  // Whether the person panned or zoomed since the drawing was opened (or last fitted), and what is shown: a drawing
  // drawn again under the same label (its flow changed under `serve --watch`) keeps a view they moved, and is
  // opened anew (fitted) otherwise.
  const moved = useRef(false);
  const shownLabel = useRef<string | null>(null);
  const move = (next: (v: ViewBox) => ViewBox) => {
    moved.current = true;
    setView((v) => (v ? next(v) : v));
  };

  const svgElement = () => host.current?.querySelector('svg') ?? null;

  // The markup, once per drawing: sized to the frame, its parts made focusable, the view fitted.
  useLayoutEffect(() => {
    const frame = host.current;
    if (!frame) return;
    frame.innerHTML = svg;
    const element = frame.querySelector('svg');
    if (!element) return;
    const box = readViewBox(element);
    full.current = box;
    element.setAttribute('width', '100%');
    element.setAttribute('height', '100%');
    element.setAttribute('preserveAspectRatio', 'xMidYMid meet');
    element.setAttribute('role', 'group');
    element.setAttribute('aria-label', label);
    for (const part of Array.from(element.querySelectorAll<SVGGElement>('.gf-node[data-id], .gf-edge[data-id]'))) {
      part.setAttribute('tabindex', '0');
      part.setAttribute('role', 'button');
      const kind = part.classList.contains('gf-node') ? 'box' : 'edge';
      const text = partText(part);
      part.setAttribute('aria-label', text ? `${kind} ${text}` : `${kind} ${part.dataset.id ?? ''}`);
    }
    // Edges are thin lines: each gets a wide transparent twin under it, so a click near one picks it.
    for (const line of Array.from(element.querySelectorAll<SVGPathElement>('.gf-edge path.gf-line'))) {
      const hit = line.cloneNode() as SVGPathElement;
      hit.setAttribute('class', 'gv-hit');
      line.before(hit);
    }
    // Where the drawing starts: the flow's start dot, else the leftmost initial-state dot (drawings run left to right).
    const dots = Array.from(element.querySelectorAll<SVGCircleElement>('.gf-start circle, .gf-initial circle'), (c) => ({
      x: c.cx.baseVal.value,
      y: c.cy.baseVal.value,
      flow: c.parentElement?.classList.contains('gf-start') === true,
    }));
    const start = dots.find((d) => d.flow) ?? dots.reduce<(typeof dots)[number] | null>((left, d) => (left === null || d.x < left.x ? d : left), null);
    const redrawn = shownLabel.current === label;
    shownLabel.current = label;
    if (!(redrawn && moved.current)) {
      moved.current = false;
      setView(startView(box, frame.getBoundingClientRect(), start));
    }
    // For measuring in a browser: when a drawing is on the page (its time from the page's start).
    performance.mark('gateflow:drawing-shown', { detail: { label } });
  }, [svg, label]);

  useLayoutEffect(() => {
    const element = svgElement();
    if (element && view) element.setAttribute('viewBox', `${view.x} ${view.y} ${view.w} ${view.h}`);
  }, [view, svg]);

  // Marks: every class cleared, then set on the ids given (ids of parts not drawn are ignored).
  useLayoutEffect(() => {
    const element = svgElement();
    if (!element) return;
    for (const name of MARK_CLASSES) for (const part of Array.from(element.querySelectorAll(`.${name}`))) part.classList.remove(name);
    const mark = (kind: string, byClass: Partial<Record<string, readonly string[]>> = {}) => {
      for (const [name, ids] of Object.entries(byClass))
        for (const id of ids ?? []) for (const part of Array.from(element.querySelectorAll(`${kind}[data-id="${CSS.escape(id)}"]`))) part.classList.add(name);
    };
    mark('.gf-node', marks.nodes);
    mark('.gf-edge', marks.edges);
    for (const part of Array.from(element.querySelectorAll('.gf-selected'))) part.classList.remove('gf-selected');
    if (selected) {
      const kind = selected.kind === 'node' ? '.gf-node' : '.gf-edge';
      for (const part of Array.from(element.querySelectorAll(`${kind}[data-id="${CSS.escape(selected.id)}"]`))) part.classList.add('gf-selected');
    }
  }, [marks, selected, svg]);

  // The followed box (a live session's current state) is brought into view when it is not wholly in it, moving as
  // little as keeps a margin round it: the boxes it came from stay in sight.
  // In the drawing's units (its boxes have no transforms), against the latest view: right after the first view is set too.
  useEffect(() => {
    const element = svgElement();
    if (!element || !follow) return;
    const part = element.querySelector<SVGGraphicsElement>(`.gf-node[data-id="${CSS.escape(follow)}"]`);
    if (!part) return;
    const b = part.getBBox();
    setView((v) => (v ? { ...v, x: shiftToShow(v.x, v.w, b.x, b.width), y: shiftToShow(v.y, v.h, b.y, b.height) } : v));
  }, [follow, svg]);

  // The wheel zooms about the pointer; the listener is not passive, so the page does not scroll meanwhile.
  useEffect(() => {
    const frame = host.current;
    if (!frame) return;
    const onWheel = (event: WheelEvent) => {
      const element = svgElement();
      if (!element) return;
      event.preventDefault();
      const point = toUser(element, event.clientX, event.clientY);
      const factor = Math.exp(-event.deltaY * 0.0015);
      if (point) move((v) => zoomAbout(v, point, factor));
    };
    frame.addEventListener('wheel', onWheel, { passive: false });
    return () => frame.removeEventListener('wheel', onWheel);
  }, []);

  const zoomCentre = (factor: number) => move((v) => zoomAbout(v, { x: v.x + v.w / 2, y: v.y + v.h / 2 }, factor));
  const fit = () => {
    if (!full.current) return;
    // Fitted, the view follows the drawing again.
    moved.current = false;
    setView(full.current);
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    drag.current = { x: event.clientX, y: event.clientY, moved: false, pointer: event.pointerId };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    const element = svgElement();
    if (!d || !element || d.pointer !== event.pointerId) return;
    const dx = event.clientX - d.x;
    const dy = event.clientY - d.y;
    if (!d.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    if (!d.moved) {
      d.moved = true;
      // Captured only once it is a drag: a plain click still reaches the box under the pointer.
      event.currentTarget.setPointerCapture(event.pointerId);
    }
    const scale = unitsPerPixel(element);
    d.x = event.clientX;
    d.y = event.clientY;
    move((v) => ({ ...v, x: v.x - dx * scale, y: v.y - dy * scale }));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (d?.moved && event.currentTarget.hasPointerCapture(event.pointerId)) event.currentTarget.releasePointerCapture(event.pointerId);
  };
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const wasDrag = drag.current?.moved === true;
    drag.current = null;
    if (wasDrag) return;
    onPick(pickedAt(event.target));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const element = svgElement();
    if ((event.key === 'Enter' || event.key === ' ') && event.target !== event.currentTarget) {
      const picked = pickedAt(event.target);
      if (picked) {
        event.preventDefault();
        onPick(picked);
      }
      return;
    }
    if (!element) return;
    const step = 40 * unitsPerPixel(element);
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const by = moves[event.key];
    if (by) {
      event.preventDefault();
      move((v) => ({ ...v, x: v.x + by[0], y: v.y + by[1] }));
    } else if (event.key === '+' || event.key === '=') zoomCentre(ZOOM_STEP);
    else if (event.key === '-') zoomCentre(1 / ZOOM_STEP);
    else if (event.key === '0') fit();
  };

  return (
    <div className="gv-canvas-wrap">
      <div className="gv-zoom" role="toolbar" aria-label="Zoom">
        <button type="button" onClick={() => zoomCentre(ZOOM_STEP)} aria-label="Zoom in" title="Zoom in (+)">
          +
        </button>
        <button type="button" onClick={() => zoomCentre(1 / ZOOM_STEP)} aria-label="Zoom out" title="Zoom out (−)">
          −
        </button>
        <button type="button" onClick={fit} title="Show the whole drawing (0)">
          Fit
        </button>
      </div>
      <div
        ref={host}
        className="gv-canvas"
        tabIndex={0}
        aria-label={`${label}: drag or use the arrow keys to move, the wheel or + and − to zoom`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onClick={onClick}
        onKeyDown={onKeyDown}
        data-view={view ? `${round(view.x)} ${round(view.y)} ${round(view.w)} ${round(view.h)}` : undefined}
      />
    </div>
  );
}

/**
 * Where a view along one axis (`start`, `size`) starts so that a box (`at`,
 * `length`) is inside it with a margin: unchanged when it already is, moved
 * just enough otherwise, centred on a box too big for it.
 */
function shiftToShow(start: number, size: number, at: number, length: number): number {
  const margin = Math.min(size * 0.15, Math.max(0, (size - length) / 2));
  if (at >= start + margin && at + length <= start + size - margin) return start;
  if (length + 2 * margin > size) return at + length / 2 - size / 2;
  return at < start + margin ? at - margin : at + length + margin - size;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** The box or edge a click or key landed on (the innermost one: a box inside a group is that box). */
function pickedAt(target: EventTarget | null): Picked | null {
  if (!(target instanceof Element)) return null;
  const part = target.closest<SVGGElement>('.gf-node[data-id], .gf-edge[data-id]');
  if (!part?.dataset.id) return null;
  return { kind: part.classList.contains('gf-node') ? 'node' : 'edge', id: part.dataset.id };
}

/** The words of a box or an edge label (its own text, not its children's boxes). */
function partText(part: Element): string {
  const texts = Array.from(part.children)
    .filter((child) => child.tagName.toLowerCase() === 'text' || child.tagName.toLowerCase() === 'title')
    .map((child) => child.textContent?.trim() ?? '')
    .filter(Boolean);
  return texts.join(' ').replace(/\s+/g, ' ');
}

function readViewBox(element: SVGSVGElement): ViewBox {
  const box = element.viewBox.baseVal;
  const given =
    box && box.width > 0 && box.height > 0
      ? { x: box.x, y: box.y, w: box.width, h: box.height }
      : { x: 0, y: 0, w: Number.parseFloat(element.getAttribute('width') ?? '') || 800, h: Number.parseFloat(element.getAttribute('height') ?? '') || 600 };
  return { x: given.x - MARGIN, y: given.y - MARGIN, w: given.w + 2 * MARGIN, h: given.h + 2 * MARGIN };
}

/**
 * The first view: the whole drawing when it fits at a readable scale; else
 * the part where it starts at that scale (its start dot near the left, a
 * third of the way down; the drawing's left and top when it has none),
 * centred where the drawing is smaller than the frame. A machine's first
 * state can sit far down its compound box: opening at the box's top showed
 * an empty frame.
 */
function startView(full: ViewBox, frame: DOMRect, start: { x: number; y: number } | null): ViewBox {
  if (frame.width <= 0 || frame.height <= 0) return full;
  if (Math.min(frame.width / full.w, frame.height / full.h) >= START_SCALE) return full;
  const w = frame.width / START_SCALE;
  const h = frame.height / START_SCALE;
  const within = (at: number, size: number, low: number, span: number) => Math.min(Math.max(at, low), low + span - size);
  const x = full.w <= w ? full.x - (w - full.w) / 2 : start ? within(start.x - MARGIN * 2, w, full.x, full.w) : full.x;
  const y = full.h <= h ? full.y - (h - full.h) / 2 : start ? within(start.y - h / 3, h, full.y, full.h) : full.y;
  return { x, y, w, h };
}

/** The drawing's units per screen pixel at the current view. */
function unitsPerPixel(element: SVGSVGElement): number {
  const matrix = element.getScreenCTM();
  return matrix && matrix.a !== 0 ? 1 / matrix.a : 1;
}

/** A point on the screen in the drawing's units. */
function toUser(element: SVGSVGElement, clientX: number, clientY: number): { x: number; y: number } | null {
  const matrix = element.getScreenCTM();
  if (!matrix) return null;
  const p = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
  return { x: p.x, y: p.y };
}

function zoomAbout(v: ViewBox, point: { x: number; y: number }, factor: number): ViewBox {
  const k = Math.min(Math.max(factor, 0.05), 20);
  return { x: point.x - (point.x - v.x) / k, y: point.y - (point.y - v.y) / k, w: v.w / k, h: v.h / k };
}
