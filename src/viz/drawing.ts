import type { AnyStateMachine } from 'xstate';
import type { WorkflowVersion } from '../workflow/reply.js';
import type { Workflow } from '../workflow/types.js';
import { machineDrawing, type MachineDrawing } from './model.js';

/**
 * The drawing of a workflow or a hand-written machine, at two levels: the
 * outline (the flow as its author wrote it: one box per node) and the
 * compiled machine in full. `gateflow viz --format json` writes exactly this,
 * `GET /api/drawings/{id}` answers it, and the viewer and `--format svg`
 * draw from it alone.
 */
export interface WorkflowDrawing {
  format: typeof DRAWING_FORMAT;
  id: string;
  title: string | null;
  /** The workflow's version; null for a machine that is not a workflow (path selection, the chat session). */
  version: WorkflowVersion | null;
  /** `workflow`: sessions run it; `machine`: a hand-written machine drawn for reading (it runs inside others). */
  kind: 'workflow' | 'machine';
  /** The flow as written; null for a hand-written machine (its machine is its outline). */
  outline: Outline | null;
  machine: MachineDrawing;
}

/** The version of the drawing's JSON shape. */
export const DRAWING_FORMAT = 'gateflow.drawing/1';

/** A flow as its author wrote it: its nodes (subflows called are groups holding theirs) and edges. */
export interface Outline {
  nodes: OutlineNode[];
  edges: OutlineEdge[];
  /** The paths a conversation may lock onto (a flow's `paths`), or none. */
  paths: OutlinePath[];
}

export interface OutlineNode {
  /** Unique in the outline: the node's place (`led.court_size`: its id, after the ids of the subflow calls it lies in). */
  id: string;
  /** The group it is drawn in (a subflow call, a `ui.group`); null at the top. */
  parent: string | null;
  /** The node kind (`question`, `decision`, `subgraph`, `exit`, ...), or `group` for a `ui.group` box. */
  kind: string;
  /** The text in its box. */
  label: string;
  /** Whether it holds other nodes (a subflow call, a `ui.group`). */
  group: boolean;
  /** The machine state it compiles to (an id in `machine.states`); null for a box with no state of its own (a `ui.group`). */
  state: string | null;
  /** What the viewer marks: `start`, `input` (waits for a typed value), `path` (reads the locked path), `limiting` (may stop the flow early), `terminal`. */
  marks: OutlineMark[];
  /** Shown when the node is clicked, in order: prompt, answer type, guards, validators, actors, inputs, ... */
  details: OutlineDetail[];
  /** The author's hints: position, group, colour. */
  ui: OutlineUi | null;
}

export type OutlineMark = 'start' | 'input' | 'path' | 'limiting' | 'terminal';

export interface OutlineDetail {
  label: string;
  value: string | string[];
}

export interface OutlineUi {
  x?: number;
  y?: number;
  group?: string;
  color?: string;
}

export interface OutlineEdge {
  /** Unique in the outline: `<source> -> <target> #<n>`. */
  id: string;
  source: string;
  target: string;
  /** The outcome it is taken on (`answered`, `done`, `error`, `confirmed`, `edit`, ...), as written or its kind's default. */
  outcome: string | null;
  /** The guard as written (`answers.venue == 'sports_court'`, `else`), or null. */
  guard: string | null;
  /**
   * Added by the compiler, not written: a question that uses up its attempts
   * with no `invalid` edge gives up to the flow's `fallback` (or the
   * "Answers unreadable" ending).
   */
  implicit: boolean;
}

export interface OutlinePath {
  id: string;
  label: string;
}

/** A workflow's drawing: its outline when it has one, and its machine (built without the host's actors: drawing runs nothing). */
export function workflowDrawing(workflow: Workflow): WorkflowDrawing {
  return {
    format: DRAWING_FORMAT,
    id: workflow.id,
    title: workflow.title,
    version: workflow.version,
    kind: 'workflow',
    outline: workflow.outline?.() ?? null,
    machine: machineDrawing(workflow.machine({ actors: {} })),
  };
}

/** A hand-written machine that is not a workflow of its own (path selection, the chat session), drawn for reading. */
export function standaloneMachineDrawing(machine: AnyStateMachine, title: string | null = null): WorkflowDrawing {
  return { format: DRAWING_FORMAT, id: machine.id, title, version: null, kind: 'machine', outline: null, machine: machineDrawing(machine) };
}
