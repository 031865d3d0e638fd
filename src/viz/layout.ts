import type { ElkExtendedEdge, ElkLabel, ElkNode, LayoutOptions } from 'elkjs/lib/elk-api.js';
import { importOptional } from '../error/optional-dependency.js';
import type { OutlineMark, OutlineNode, WorkflowDrawing } from './drawing.js';
import type { DrawingLayout, LayoutBox, LayoutEdge, LayoutPoint, LayoutRect } from './layout-schema.js';
import { inputLines, transitionLabel } from './label.js';
import type { DrawnState } from './model.js';
import { effectiveLevel, outlineEdgeTransitions, type DrawingLevel } from './overlay.js';

export type { DrawingLevel } from './overlay.js';

export { DrawingLayoutSchema } from './layout-schema.js';
export type { DrawingLayout, LayoutBox, LayoutEdge, LayoutPoint, LayoutRect } from './layout-schema.js';

/**
 * What decides a layout besides the drawing and the level: bump it whenever
 * this file places boxes or edges differently (a stored layout made by other
 * code is then not served; see the server's layouts in the store).
 */
export const LAYOUT_REVISION = 1;

// Text is measured with fixed per-character widths (no DOM: this runs in Node too).
export const FONT_SIZE = 12;
export const CAPTION_SIZE = 10;
export const EDGE_FONT_SIZE = 11;
const CHAR_WIDTH = 7;
const EDGE_CHAR_WIDTH = 6.4;
export const LINE_HEIGHT = 16;
export const CAPTION_HEIGHT = 13;
export const EDGE_LINE_HEIGHT = 14;
export const BOX_PADDING_X = 10;
export const BOX_PADDING_Y = 8;
const BOX_CHARS = 28;
const BOX_LINES = 3;
const EDGE_CHARS = 34;
const EDGE_LINES = 2;
const MIN_BOX_WIDTH = 96;
/** Room left of a compound's children for the initial-state arrow. */
const INITIAL_ROOM = 28;
/** Room at a box's right for its marks' badges. */
const BADGE_WIDTH = 58;

// Author positions become a grid of columns and rows this far apart (the
// positions ELK reads; only their order matters).
const HINT_COLUMN = 1000;
const HINT_ROW = 400;

const ROOT_OPTIONS: LayoutOptions = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
  'elk.spacing.nodeNode': '28',
  'elk.layered.spacing.nodeNodeBetweenLayers': '48',
  'elk.spacing.edgeLabel': '4',
  'elk.spacing.edgeNode': '16',
  'elk.layered.spacing.edgeNodeBetweenLayers': '16',
  'elk.padding': '[top=16,left=36,bottom=16,right=16]',
};

// The author's arrangement kept. Columns: each distinct x its own partition,
// partitions left to right (ELK's interactive layering would read x directly,
// but the dummy nodes of centred edge labels, which have no position, upset it).
// Rows: the order within a layer from the y of `elk.position`; back edges are
// those going right to left.
const HINTED_SCOPE_OPTIONS: LayoutOptions = {
  'elk.partitioning.activate': 'true',
  'elk.layered.cycleBreaking.strategy': 'INTERACTIVE',
  'elk.layered.crossingMinimization.semiInteractive': 'true',
  'elk.separateConnectedComponents': 'false',
};

/** A box or edge before layout: what to draw, and the ELK element that places it. */
interface PendingBox extends Omit<LayoutBox, keyof LayoutRect> {
  width: number;
  height: number;
  hint: LayoutPoint | null;
}

interface PendingEdge extends Omit<LayoutEdge, 'points' | 'labelBox'> {
  labelWidth: number;
}

interface Scene {
  boxes: PendingBox[];
  edges: PendingEdge[];
}

/**
 * Lays a drawing out with ELK (layered, left to right, groups as compound
 * nodes holding their children, edge labels placed by ELK). At the outline
 * level the authors' `ui` positions are kept where a scope has them.
 */
export async function layoutDrawing(drawing: WorkflowDrawing, level: DrawingLevel, options: LayoutDrawingOptions = {}): Promise<DrawingLayout> {
  const drawn = effectiveLevel(drawing, level);
  const scene = drawn === 'outline' ? outlineScene(drawing) : machineScene(drawing);
  const graph = elkGraph(scene);
  // What elkjs returns is the graph it was given, laid out: an ElkNode.
  const laid = (await (options.elk ?? (await newElk())).layout(graph)) as ElkNode;
  return place(drawing, drawn, scene, laid);
}

// elkjs's bundled build runs in Node and in the browser alike (no worker);
// loaded on first use, so that importing gateflow does not load 1.5 MB of
// layout engine. It is CommonJS: its `module.exports` is the constructor, with
// `default` set to itself, which TypeScript (NodeNext) types as the module; read either.
/**
 * An ELK graph as elkjs takes and returns it (a part of its `ElkNode`), named
 * here so that gateflow's declarations need no elkjs: it is an optional peer,
 * and an app without it type-checks gateflow's types all the same.
 */
export interface ElkGraph {
  id: string;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  children?: ElkGraph[];
}

/** What lays an ELK graph out: elkjs's `ELK`, or one that runs it elsewhere (a worker thread: src/server/layout-worker.ts). */
export type ElkLayouter = { layout(graph: ElkGraph): Promise<ElkGraph> };

export interface LayoutDrawingOptions {
  /** The ELK to lay out with; by default elkjs's bundled build, in this thread. */
  elk?: ElkLayouter;
}

type ElkConstructor = new () => ElkLayouter;
async function newElk(): Promise<ElkLayouter> {
  const loaded = (await importOptional('elkjs', 'laying out drawings (SVG, the viewer)', () => import('elkjs/lib/elk.bundled.js'))) as unknown as { default: ElkConstructor & { default?: ElkConstructor } };
  const mod = loaded.default;
  return new (mod.default ?? mod)();
}

function outlineScene(drawing: WorkflowDrawing): Scene {
  const outline = drawing.outline;
  if (outline === null) throw new Error('outlineScene needs an outline');
  const nodes = new Map(outline.nodes.map((n) => [n.id, n]));
  const boxes = outline.nodes.map((node): PendingBox => {
    const lines = wrap(node.label || node.id, BOX_CHARS, BOX_LINES);
    const marks = [...node.marks];
    const final = marks.includes('terminal');
    return {
      id: node.id,
      parent: node.parent !== null && nodes.has(node.parent) ? node.parent : null,
      kind: node.kind,
      lines,
      title: outlineTitle(node),
      caption: node.kind,
      marks,
      color: node.ui?.color ?? null,
      group: node.group,
      initial: false,
      final,
      ...boxSize(lines, true, marks.some(hasBadge)),
      hint: typeof node.ui?.x === 'number' && typeof node.ui?.y === 'number' ? { x: node.ui.x, y: node.ui.y } : null,
    };
  });
  // The outcome is worth reading only when the node has several; the guard always.
  const outcomes = new Map<string, Set<string>>();
  // (The compiler's give-up edges are labelled apart: they do not make `answered` worth writing.)
  for (const e of outline.edges) if (!e.implicit) outcomes.set(e.source, (outcomes.get(e.source) ?? new Set()).add(e.outcome ?? ''));
  const edges = outline.edges
    .filter((e) => nodes.has(e.source) && nodes.has(e.target))
    .map((e): PendingEdge => {
      const parts = [(outcomes.get(e.source)?.size ?? 0) > 1 && e.outcome ? e.outcome : null, e.guard ? `[${e.guard}]` : null].filter((p): p is string => p !== null);
      const label = e.implicit ? 'gives up' : parts.length > 0 ? parts.join(' ') : null;
      return edge(e.id, e.source, e.target, outlineEdgeTransitions(e, nodes, drawing.machine.transitions), label, false, e.implicit);
    });
  return { boxes, edges };
}

function outlineTitle(node: OutlineNode): string {
  const details = node.details.map((d) => `${d.label}: ${Array.isArray(d.value) ? d.value.join(', ') : d.value}`);
  return [node.label || node.id, ...details].join('\n');
}

function machineScene(drawing: WorkflowDrawing): Scene {
  const { states, transitions } = drawing.machine;
  const byId = new Map(states.map((s) => [s.id, s]));
  const hasChildren = new Set(states.flatMap((s) => (s.parent === null ? [] : [s.parent])));
  const boxes = states.map((state): PendingBox => {
    const group = hasChildren.has(state.id);
    const parent = state.parent === null ? null : byId.get(state.parent);
    const full = stateLines(state);
    const lines = full.flatMap((line, i) => wrap(line, BOX_CHARS, i === 0 ? BOX_LINES : 2));
    const marks: OutlineMark[] = state.inputs.length > 0 ? ['input'] : [];
    return {
      id: state.id,
      parent: state.parent,
      kind: state.type,
      lines,
      title: [state.id, ...full.slice(1), ...(state.tags.length > 0 ? [`tags: ${state.tags.join(', ')}`] : [])].join('\n'),
      caption: state.type === 'parallel' ? 'parallel' : state.type === 'history' ? 'history' : null,
      marks,
      color: null,
      group,
      initial: parent !== undefined && parent !== null && parent.type !== 'parallel' && parent.initial === state.key,
      final: state.type === 'final',
      ...boxSize(lines, state.type === 'parallel' || state.type === 'history', marks.length > 0),
      hint: null,
    };
  });
  const edges = transitions.map((t) => edge(t.id, t.source, t.target ?? t.source, [t.id], transitionLabel(t), t.target === null));
  return { boxes, edges };
}

/** A state's key, the actors it invokes, and what it waits for. */
function stateLines(state: DrawnState): string[] {
  return [state.key, ...state.invoke.map((inv) => `invoke ${inv.src}`), ...inputLines(state)];
}

function edge(id: string, source: string, target: string, transitions: string[], label: string | null, targetless: boolean, implicit = false): PendingEdge {
  const labelLines = label === null ? [] : wrap(label, EDGE_CHARS, EDGE_LINES);
  const labelWidth = Math.ceil(Math.max(0, ...labelLines.map((l) => l.length)) * EDGE_CHAR_WIDTH) + 4;
  return { id, source, target, transitions, label, labelLines, targetless, implicit, labelWidth };
}

function hasBadge(mark: OutlineMark): boolean {
  return mark === 'input' || mark === 'path' || mark === 'limiting';
}

function boxSize(lines: readonly string[], caption: boolean, badge: boolean): { width: number; height: number } {
  const chars = Math.max(0, ...lines.map((l) => l.length));
  return {
    width: Math.max(MIN_BOX_WIDTH, Math.ceil(chars * CHAR_WIDTH) + 2 * BOX_PADDING_X + (badge ? BADGE_WIDTH : 0)),
    height: 2 * BOX_PADDING_Y + (caption ? CAPTION_HEIGHT : 0) + lines.length * LINE_HEIGHT,
  };
}

/**
 * Greedy word wrap to `width` characters, at most `max` lines; a word longer
 * than a line is cut, and text beyond the last line ends it with an ellipsis.
 */
export function wrap(text: string, width: number, max: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').filter((w) => w.length > 0);
  const lines: string[] = [];
  let current = '';
  for (let word of words) {
    while (word.length > width) {
      if (current) lines.push(current);
      lines.push(word.slice(0, width));
      word = word.slice(width);
      current = '';
    }
    if (!current) current = word;
    else if (current.length + 1 + word.length <= width) current += ` ${word}`;
    else {
      lines.push(current);
      current = word;
    }
  }
  if (current) lines.push(current);
  if (lines.length <= max) return lines.length > 0 ? lines : [''];
  const kept = lines.slice(0, max);
  const last = kept[max - 1] as string;
  kept[max - 1] = `${last.length >= width ? last.slice(0, width - 1) : last}…`;
  return kept;
}

const elkId = (id: string) => `n:${id}`;

function elkGraph(scene: Scene): ElkNode {
  const children = new Map<string | null, PendingBox[]>();
  for (const box of scene.boxes) children.set(box.parent, [...(children.get(box.parent) ?? []), box]);
  const parentOf = new Map(scene.boxes.map((b) => [b.id, b.parent]));
  const hints = scopeHints(scene, children, parentOf);

  const node = (box: PendingBox): ElkNode => {
    const inner = children.get(box.id) ?? [];
    const hint = hints.get(box.id);
    const position = hint ? { x: hint.x, y: hint.y } : {};
    const placed: LayoutOptions = hint ? { 'elk.position': `(${hint.x},${hint.y})`, 'elk.partitioning.partition': String(hint.partition) } : {};
    if (inner.length === 0) return { id: elkId(box.id), width: box.width, height: box.height, ...position, layoutOptions: placed };
    const top = 2 * BOX_PADDING_Y + (box.caption ? CAPTION_HEIGHT : 0) + box.lines.length * LINE_HEIGHT;
    const left = inner.some((c) => c.initial || c.marks.includes('start')) ? INITIAL_ROOM : 14;
    return {
      id: elkId(box.id),
      ...position,
      layoutOptions: {
        ...placed,
        'elk.padding': `[top=${top},left=${left},bottom=14,right=14]`,
        'elk.nodeSize.constraints': 'MINIMUM_SIZE',
        'elk.nodeSize.minimum': `(${box.width}, ${box.height})`,
        ...(inner.some((c) => hints.has(c.id)) ? HINTED_SCOPE_OPTIONS : {}),
      },
      children: inner.map(node),
    };
  };
  const top = children.get(null) ?? [];
  const edges = scene.edges.map((e, i): ElkExtendedEdge => {
    const labels: ElkLabel[] = e.labelLines.length > 0 ? [{ id: `l${i}`, text: e.label ?? '', width: e.labelWidth, height: e.labelLines.length * EDGE_LINE_HEIGHT }] : [];
    return { id: `e${i}`, sources: [elkId(e.source)], targets: [elkId(e.target)], labels, layoutOptions: { 'elk.edgeLabels.placement': 'CENTER' } };
  });
  return {
    id: 'root',
    layoutOptions: { ...ROOT_OPTIONS, ...(top.some((c) => hints.has(c.id)) ? HINTED_SCOPE_OPTIONS : {}) },
    children: top.map(node),
    edges,
  };
}

/** Where a box goes in a scope with author positions: its pseudo position and its column (partition). */
interface ScopeHint extends LayoutPoint {
  partition: number;
}

/**
 * Positions for the boxes of each scope (the children of one box) where some
 * carry the author's x/y: those become a grid (one column per distinct x, one
 * row per distinct y), and the others are put next to a neighbour they are
 * linked with (after a predecessor, or before a successor), so ELK lays them
 * out around the author's arrangement. Each distinct column is a partition.
 * Scopes without hints get none: ELK chooses freely.
 */
function scopeHints(scene: Scene, children: ReadonlyMap<string | null, PendingBox[]>, parentOf: ReadonlyMap<string, string | null>): Map<string, ScopeHint> {
  const result = new Map<string, ScopeHint>();
  // An edge seen from a scope: its ends lifted to that scope's children.
  const lift = (id: string, scope: string | null): string | null => {
    let current: string | null = id;
    while (current !== null && parentOf.has(current) && parentOf.get(current) !== scope) current = parentOf.get(current) ?? null;
    return current !== null && parentOf.get(current) === scope ? current : null;
  };
  for (const [scope, members] of children) {
    const hinted = members.filter((m) => m.hint !== null);
    if (hinted.length === 0) continue;
    const xs = [...new Set(hinted.map((m) => (m.hint as LayoutPoint).x))].sort((a, b) => a - b);
    const ys = [...new Set(hinted.map((m) => (m.hint as LayoutPoint).y))].sort((a, b) => a - b);
    const placed = new Map<string, LayoutPoint>();
    for (const m of hinted) {
      const hint = m.hint as LayoutPoint;
      placed.set(m.id, { x: xs.indexOf(hint.x) * HINT_COLUMN, y: ys.indexOf(hint.y) * HINT_ROW });
    }
    const links = scene.edges.flatMap((e) => {
      const s = lift(e.source, scope);
      const t = lift(e.target, scope);
      return s !== null && t !== null && s !== t ? [{ s, t }] : [];
    });
    let changed = true;
    while (changed) {
      changed = false;
      for (const m of members) {
        if (placed.has(m.id)) continue;
        const before = links.filter((l) => l.t === m.id && placed.has(l.s)).map((l) => placed.get(l.s) as LayoutPoint);
        const after = links.filter((l) => l.s === m.id && placed.has(l.t)).map((l) => placed.get(l.t) as LayoutPoint);
        const near = before.length > 0 ? { x: Math.max(...before.map((p) => p.x)) + HINT_COLUMN / 2, y: (before[0] as LayoutPoint).y + 1 } : after.length > 0 ? { x: Math.min(...after.map((p) => p.x)) - HINT_COLUMN / 2, y: (after[0] as LayoutPoint).y + 1 } : null;
        if (near === null) continue;
        placed.set(m.id, near);
        changed = true;
      }
    }
    // Unlinked to anything placed: after everything else.
    const end = Math.max(...[...placed.values()].map((p) => p.x)) + HINT_COLUMN;
    members.forEach((m, i) => {
      if (!placed.has(m.id)) placed.set(m.id, { x: end, y: i * HINT_ROW });
    });
    const columns = [...new Set([...placed.values()].map((p) => p.x))].sort((a, b) => a - b);
    for (const [id, p] of placed) result.set(id, { ...p, partition: columns.indexOf(p.x) });
  }
  return result;
}

function place(drawing: WorkflowDrawing, level: DrawingLevel, scene: Scene, laid: ElkNode): DrawingLayout {
  const absolute = new Map<string, LayoutRect>();
  const visit = (node: ElkNode, ox: number, oy: number) => {
    const x = ox + (node.x ?? 0);
    const y = oy + (node.y ?? 0);
    absolute.set(node.id, { x, y, width: node.width ?? 0, height: node.height ?? 0 });
    for (const child of node.children ?? []) visit(child, x, y);
  };
  visit(laid, 0, 0);
  const origin = (container: string | undefined): LayoutPoint => absolute.get(container ?? 'root') ?? { x: 0, y: 0 };

  const boxes = scene.boxes.map(({ hint: _hint, ...box }): LayoutBox => {
    const rect = absolute.get(elkId(box.id)) ?? { x: 0, y: 0, width: box.width, height: box.height };
    return { ...box, ...rect };
  });
  const laidEdges = new Map((laid.edges ?? []).map((e) => [e.id, e as ElkExtendedEdge & { container?: string }]));
  const edges = scene.edges.map(({ labelWidth: _w, ...e }, i): LayoutEdge => {
    const out = laidEdges.get(`e${i}`);
    const o = origin(out?.container);
    const points = (out?.sections ?? []).flatMap((s, j) => [...(j === 0 ? [s.startPoint] : []), ...(s.bendPoints ?? []), s.endPoint]).map((p) => ({ x: o.x + p.x, y: o.y + p.y }));
    const label = out?.labels?.[0];
    const labelBox = label && e.labelLines.length > 0 ? { x: o.x + (label.x ?? 0), y: o.y + (label.y ?? 0), width: label.width ?? 0, height: label.height ?? 0 } : null;
    return { ...e, points, labelBox };
  });
  return { id: drawing.id, title: drawing.title, level, width: Math.ceil(laid.width ?? 0), height: Math.ceil(laid.height ?? 0), boxes: ordered(boxes), edges };
}

/** Parents before children, otherwise in the given order. */
function ordered(boxes: LayoutBox[]): LayoutBox[] {
  const parents = new Map(boxes.map((b) => [b.id, b.parent]));
  const depth = (box: LayoutBox): number => {
    let d = 0;
    for (let p = box.parent; p !== null && parents.has(p) && d < boxes.length; p = parents.get(p) ?? null) d++;
    return d;
  };
  const depths = new Map(boxes.map((b) => [b.id, depth(b)]));
  return [...boxes].sort((a, b) => (depths.get(a.id) ?? 0) - (depths.get(b.id) ?? 0));
}
