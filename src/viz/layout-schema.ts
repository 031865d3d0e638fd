import { z } from 'zod';

/**
 * A drawing laid out (what `layoutDrawing` makes and `drawingSvg` draws), as a
 * zod schema: the types below are read from it, and a layout read back from a
 * store is checked with it before it is served.
 */
const Point = z.object({ x: z.number(), y: z.number() });
const Rect = Point.extend({ width: z.number().nonnegative(), height: z.number().nonnegative() });
const Mark = z.enum(['start', 'input', 'path', 'limiting', 'terminal']);

export const LayoutBoxSchema = Rect.extend({
  /** Outline level: the outline node id; machine level: the state id. */
  id: z.string(),
  parent: z.string().nullable(),
  /** Outline level: the node kind (`question`, `group`, ...); machine level: the state type (`atomic`, `compound`, `final`, ...). */
  kind: z.string(),
  /** The label as drawn: wrapped, long ones cut with an ellipsis. */
  lines: z.array(z.string()),
  /** The full text (label, then details), shown on hover. */
  title: z.string(),
  /** A small line above the label (the node kind), or null. */
  caption: z.string().nullable(),
  marks: z.array(Mark),
  /** The author's `ui.color`, or null. */
  color: z.string().nullable(),
  /** Whether it holds other boxes (its label sits at its top). */
  group: z.boolean(),
  /** A machine state its parent enters first (drawn with an initial-state arrow). */
  initial: z.boolean(),
  /** A final machine state (drawn double-bordered, as a `terminal` node is). */
  final: z.boolean(),
});

export const LayoutEdgeSchema = z.object({
  /** Outline level: the outline edge id; machine level: the transition id (the edges of one transition to several targets share it). */
  id: z.string(),
  source: z.string(),
  target: z.string(),
  /** The machine transition ids it stands for (coverage marks an edge through them). */
  transitions: z.array(z.string()),
  /** The polyline, start to end (the arrowhead at the end). */
  points: z.array(Point),
  /** The full label, or null. */
  label: z.string().nullable(),
  labelLines: z.array(z.string()),
  /** Where its label goes (top left corner), or null. */
  labelBox: Rect.nullable(),
  /** A targetless machine transition (actions only), drawn as a dashed self-loop. */
  targetless: z.boolean(),
  /** An outline edge the compiler adds (a question giving up), not one the author wrote: drawn dashed. */
  implicit: z.boolean(),
});

/**
 * A drawing laid out: absolute coordinates for every box and edge, ready to be
 * drawn as SVG (src/viz/svg.ts) in Node or in the browser. Plain JSON.
 */
export const DrawingLayoutSchema = z.object({
  id: z.string(),
  title: z.string().nullable(),
  /** The level drawn: `machine` for a drawing without an outline, whatever was asked. */
  level: z.enum(['outline', 'machine']),
  width: z.number().nonnegative(),
  height: z.number().nonnegative(),
  /** Parents before their children (the painting order). */
  boxes: z.array(LayoutBoxSchema),
  edges: z.array(LayoutEdgeSchema),
});

export type LayoutPoint = z.infer<typeof Point>;
export type LayoutRect = z.infer<typeof Rect>;
export type LayoutBox = z.infer<typeof LayoutBoxSchema>;
export type LayoutEdge = z.infer<typeof LayoutEdgeSchema>;
export type DrawingLayout = z.infer<typeof DrawingLayoutSchema>;
