import type { OutlineEdge, OutlineNode, WorkflowDrawing } from './drawing.js';
import { isWithin } from './label.js';
import type { DrawnTransition, MachineDrawing } from './model.js';

/**
 * What the viewer marks on a drawing: the boxes of the current state and the
 * edges no generated path took. Pure and browser-safe: it reads the drawing's
 * JSON (or its layout) and an XState state value, nothing else.
 */

/** `outline`: the flow as written, one box per node; `machine`: every state of the compiled machine. */
export type DrawingLevel = 'outline' | 'machine';

/** The level a drawing is drawn at: a drawing without an outline (a hand-written machine) is drawn at the machine level. */
export function effectiveLevel(drawing: Pick<WorkflowDrawing, 'outline'>, level: DrawingLevel): DrawingLevel {
  return level === 'outline' && drawing.outline !== null ? 'outline' : 'machine';
}

/**
 * The machine transition ids an outline edge stands for: those leaving the
 * source node's state (its state or one inside it) for the target node's state,
 * without staying inside the source. Several edges between the same two nodes
 * (outcomes, guards) share them: the machine does not say which edge a
 * transition was written as.
 */
export function outlineEdgeTransitions(edge: Pick<OutlineEdge, 'source' | 'target'>, nodes: ReadonlyMap<string, Pick<OutlineNode, 'state'>>, transitions: readonly DrawnTransition[]): string[] {
  const from = nodes.get(edge.source)?.state ?? null;
  const to = nodes.get(edge.target)?.state ?? null;
  if (from === null || to === null) return [];
  const ids = new Set<string>();
  for (const t of transitions) {
    if (t.target === null || !isWithin(t.source, from)) continue;
    if (isWithin(t.target, to) && !isWithin(t.target, from)) ids.add(t.id);
  }
  return [...ids];
}

/**
 * The ids of the states a state value makes active: the root, and every state
 * on the way to each active leaf (all regions of a parallel state). A value
 * naming a state the machine lacks (an older version) marks what it can.
 */
export function activeStateIds(machine: Pick<MachineDrawing, 'states'>, stateValue: unknown): string[] {
  const root = machine.states.find((s) => s.parent === null);
  if (!root) return [];
  const known = new Set(machine.states.map((s) => s.id));
  const active: string[] = [root.id];
  const visit = (prefix: string, value: unknown) => {
    if (typeof value === 'string') {
      const id = `${prefix}.${value}`;
      if (known.has(id)) active.push(id);
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    for (const [key, inner] of Object.entries(value)) {
      const id = `${prefix}.${key}`;
      if (!known.has(id)) continue;
      active.push(id);
      visit(id, inner);
    }
  };
  visit(root.id, stateValue);
  return active;
}

/**
 * The box ids to mark active for a state value. Machine level: the active
 * state ids. Outline level: every outline node whose state is active (the
 * group of a subflow and the node inside it alike), and a `ui.group` box
 * (no state of its own) when a node inside it is.
 */
export function activeIds(drawing: Pick<WorkflowDrawing, 'outline' | 'machine'>, level: DrawingLevel, stateValue: unknown): string[] {
  const states = activeStateIds(drawing.machine, stateValue);
  if (effectiveLevel(drawing, level) === 'machine' || drawing.outline === null) return states;
  const nodes = drawing.outline.nodes;
  const active = new Set(nodes.filter((n) => n.state !== null && states.some((id) => isWithin(id, n.state as string))).map((n) => n.id));
  // Groups without a state are active through their children, at any depth.
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const id of [...active]) {
    for (let parent = byId.get(id)?.parent ?? null; parent !== null; parent = byId.get(parent)?.parent ?? null) active.add(parent);
  }
  return nodes.filter((n) => active.has(n.id)).map((n) => n.id);
}

/** What `uncoveredEdgeIds` reads: a drawing, or its layout (whose edges carry their transitions already). */
export type CoverageSource = Pick<WorkflowDrawing, 'outline' | 'machine'> | { level: DrawingLevel; edges: readonly { id: string; transitions: readonly string[] }[] };

/**
 * The edges to mark uncovered, given the transitions no generated path took
 * (`transitions.missing` of the coverage report). Machine level: the missing
 * transitions the drawing has. Outline level: the edges standing for at least
 * one transition, none of which was taken (an edge is covered once any of its
 * transitions is: they are alternative ways of taking it).
 */
export function uncoveredEdgeIds(source: CoverageSource, level: DrawingLevel, missingTransitions: readonly string[]): string[] {
  const missing = new Set(missingTransitions);
  const edges = edgesOf(source, level);
  const ids = edges.filter((e) => e.transitions.length > 0 && e.transitions.every((t) => missing.has(t))).map((e) => e.id);
  return [...new Set(ids)];
}

function edgesOf(source: CoverageSource, level: DrawingLevel): readonly { id: string; transitions: readonly string[] }[] {
  if ('edges' in source) return source.edges;
  if (effectiveLevel(source, level) === 'machine' || source.outline === null) return source.machine.transitions.map((t) => ({ id: t.id, transitions: [t.id] }));
  const nodes = new Map(source.outline.nodes.map((n) => [n.id, n]));
  return source.outline.edges.map((e) => ({ id: e.id, transitions: outlineEdgeTransitions(e, nodes, source.machine.transitions) }));
}
