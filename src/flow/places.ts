import type { FlowGraph, ScopeGraph } from './graph.js';
import { kindOf } from './nodes/index.js';
import { EXIT_TARGET, type Edge, type FlowNode } from './schema.js';

/**
 * Where nodes sit in a compiled flow: a subgraph called from two places has
 * two places. What a message at a question is offered to answer is
 * extraction.ts.
 */

/** A node where it sits in the compiled machine: main flow or inside subgraph calls. */
export interface Place {
  /**
   * Node ids from the root, joined by "." as written (`led.court_size`,
   * `sg.led.q.size`): what traces and messages name. A dotted id never
   * reads as a place inside a subgraph call (check.ts), so this is unique.
   */
  id: string;
  node: FlowNode;
  scope: ScopeGraph;
  /** Ids of the subgraph nodes above it. */
  path: string[];
}

/** Every node's place, through subgraph calls (subgraph references are acyclic: checked). */
function registerPlaces(graph: FlowGraph, scope: ScopeGraph, path: string[], places: Map<string, Place>): void {
  for (const node of scope.nodes) {
    const id = [...path, node.id].join('.');
    places.set(id, { id, node, scope, path });
    if (node.kind === 'subgraph') {
      const sub = graph.scope(node.ref);
      if (sub) registerPlaces(graph, sub, [...path, node.id], places);
    }
  }
}

/** The category question at `p` and those after it along first `answered` edges in its scope. */
export function laterPlaces(p: Place, places: Map<string, Place>): Place[] {
  const found: Place[] = [];
  const seen = new Set<string>();
  for (let at: Place | undefined = p; at && at.node.kind === 'question' && at.node.answer.type === 'category' && !seen.has(at.id); ) {
    seen.add(at.id);
    found.push(at);
    const edge: Edge | undefined = at.scope.edgesFrom(at.node.id, 'answered')[0];
    at = edge && edge.to !== EXIT_TARGET ? places.get([...at.path, edge.to].join('.')) : undefined;
  }
  return found;
}

/** Only a question some earlier model-allowed question can answer may be entered answered. */
export function canBeAnsweredEarly(graph: FlowGraph, p: Place, places: Map<string, Place>): boolean {
  for (const other of places.values()) {
    if (other === p || other.node.kind !== 'question' || other.scope !== p.scope) continue;
    if (other.path.length === 0 && other.node.id === graph.start.id) continue;
    if (laterPlaces(other, places).includes(p)) return true;
  }
  return false;
}

const placesByGraph = new WeakMap<FlowGraph, Map<string, Place>>();

/** A node id as one key of an XState target path: its dots escaped (`q.intent` → `q\.intent`). */
export const escapeStateKey = (id: string): string => id.replaceAll('.', '\\.');

/** A place or target path written with escaped dots (`sg\.led.q\.size`) as a place id (`sg.led.q.size`). */
export const unescapeStateKeys = (path: string): string => path.replace(/\\(.)/g, '$1');

/** Every place of a flow, by place id: built once per graph. */
export function placesOf(graph: FlowGraph): Map<string, Place> {
  let places = placesByGraph.get(graph);
  if (!places) {
    places = new Map();
    registerPlaces(graph, graph.main, [], places);
    placesByGraph.set(graph, places);
  }
  return places;
}

export { isAtOrInside } from './nodes/shared.js';

/**
 * The nodes a flow may pass through from the node at `place` (a main-flow
 * node id, or a path into subgraph calls), that node included: through every
 * edge, into every subgraph called, and on after each call returns.
 */
export function nodesFrom(graph: FlowGraph, place: string): FlowNode[] {
  const nodes: FlowNode[] = [];
  const seen = new Set<string>();
  const walk = (scope: ScopeGraph, starts: string[]) => {
    const queue = [...starts];
    while (queue.length > 0) {
      const id = queue.shift()!;
      if (seen.has(`${scope.ref} ${id}`)) continue;
      seen.add(`${scope.ref} ${id}`);
      const node = scope.node(id);
      if (!node) continue;
      nodes.push(node);
      if (node.kind === 'subgraph') {
        const sub = graph.scope(node.ref);
        if (sub) walk(sub, [sub.entry.id]);
      }
      for (const edge of scope.edges) if (edge.from === id && edge.to !== EXIT_TARGET) queue.push(edge.to);
    }
  };
  // The target may be inside subgraph calls: walk from it in its scope, then on from each caller.
  const target = placesOf(graph).get(unescapeStateKeys(place));
  if (!target) return [];
  let scope = graph.main;
  const callers: { scope: ScopeGraph; id: string }[] = [];
  for (const id of target.path) {
    const node = scope.node(id);
    if (node?.kind !== 'subgraph') break;
    callers.push({ scope, id });
    scope = graph.scope(node.ref) ?? scope;
  }
  walk(target.scope, [target.node.id]);
  // After the subgraph returns: what follows each call (not the call itself, entered before the target).
  for (const caller of callers.reverse())
    walk(
      caller.scope,
      caller.scope.edges.filter((e) => e.from === caller.id && e.to !== EXIT_TARGET).map((e) => e.to),
    );
  return nodes;
}

/**
 * The answer keys a flow may set again from the node at `place`: its
 * questions' keys and its actions' assigned keys, on every node it may pass.
 */
export function answersFrom(graph: FlowGraph, place: string): string[] {
  // A question's key, an action's assigned keys: whatever answers its kind sets.
  return [...new Set(nodesFrom(graph, place).flatMap((node) => kindOf(node).answerKeys?.(node) ?? []))].sort();
}

const changeableByGraph = new WeakMap<FlowGraph, Map<string, string[]>>();

/**
 * The answers a person may change at the summary (a confirmation node) at
 * `place`: the questions its `edit` edges lead back through. Built once per
 * flow and place (every question of the flow and the summary's reply ask).
 */
export function changeableAt(graph: FlowGraph, place: string): string[] {
  let byPlace = changeableByGraph.get(graph);
  if (!byPlace) changeableByGraph.set(graph, (byPlace = new Map()));
  let keys = byPlace.get(place);
  if (!keys) {
    const p = placesOf(graph).get(place);
    const again = p?.node.kind === 'confirmation' ? p.scope.edgesFrom(p.node.id, 'edit').flatMap((e) => answersFrom(graph, [...p.path, e.to].join('.'))) : [];
    keys = [...new Set(again)].filter((key) => graph.question(key) !== undefined);
    byPlace.set(place, keys);
  }
  return keys;
}
