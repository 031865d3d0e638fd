import type { z } from 'zod';
import type { FlowIssue, IssuePath } from './check.js';
import { FlowDocumentSchema, type FlowDocument } from './schema.js';

/**
 * A flow document with shape errors, made checkable: the pieces the schema
 * refused (a node, an edge, a constraint, an optional field) are left out, so
 * that `gateflow validate` can report the flow's other problems in the same
 * run instead of hiding them behind the first shape error. The caller maps
 * the checker's issues back (`restore`): paths to the indexes the author
 * wrote, and issues that only follow from a piece left out (an edge to a node
 * that was refused) dropped, as the shape error already says it.
 */

export interface Salvaged {
  doc: FlowDocument;
  /** A checker issue on `doc` as an issue on the document as written; null when it follows from a piece left out. */
  restore(issue: FlowIssue): FlowIssue | null;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Lists whose elements are left out one by one: where they are, relative to the document. */
const LISTS = ['nodes', 'edges', 'constraints'] as const;

/** Top-level fields that must be there: written in when refused so that the rest can be checked. */
const STAND_INS: Record<string, unknown> = { id: 'flow', version: 1 };

/** Rounds of leaving out: a piece left out cannot make another refused, so two suffice; a bound all the same. */
const MAX_ROUNDS = 4;

/**
 * The document with every refused piece left out, or null when what is left
 * cannot be checked (no object, no list of nodes, nothing valid in it).
 */
export function salvageFlow(value: unknown, issues: readonly z.core.$ZodIssue[]): Salvaged | null {
  if (!isObject(value)) return null;
  const doc: Json = structuredClone(value);
  // For each list (by its path, joined), the index each kept element had as written.
  const origin = new Map<string, number[]>();
  // Node ids and edge ends of what was left out: issues naming them follow from it.
  const removedIds = new Set<string>();

  const listAt = (path: readonly (string | number)[]): unknown[] | undefined => {
    let at: unknown = doc;
    for (const part of path) at = isObject(at) ? at[part as string] : Array.isArray(at) ? at[part as number] : undefined;
    return Array.isArray(at) ? at : undefined;
  };
  const trackList = (path: readonly (string | number)[]) => {
    const key = path.join('/');
    const list = listAt(path);
    if (list && !origin.has(key)) origin.set(key, list.map((_, i) => i));
    return list;
  };
  const noteRemoved = (element: unknown) => {
    if (!isObject(element)) return;
    for (const field of ['id', 'from', 'to'])
      if (typeof element[field] === 'string') removedIds.add(element[field] as string);
  };

  let pending = issues;
  for (let round = 0; round < MAX_ROUNDS && pending.length > 0; round++) {
    // Left out at the end of the round, from the highest index, so that earlier indexes stay right.
    const drop = new Map<string, Set<number>>();
    for (const issue of pending) {
      const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
      const [top, second, third, fourth] = path;
      if (top === undefined) {
        // Unknown top-level keys: left out; anything else about the whole document cannot be worked around.
        if (issue.code !== 'unrecognized_keys') return null;
        for (const key of issue.keys) delete doc[key];
        continue;
      }
      if ((LISTS as readonly string[]).includes(top as string) && typeof second === 'number') {
        addDrop(drop, [top], second);
        continue;
      }
      if (top === 'subgraphs' && typeof second === 'string') {
        if ((third === 'nodes' || third === 'edges') && typeof fourth === 'number') addDrop(drop, [top, second, third], fourth);
        else {
          const subgraphs = doc.subgraphs;
          if (isObject(subgraphs)) {
            const sub = subgraphs[second];
            if (isObject(sub) && Array.isArray(sub.nodes)) sub.nodes.forEach(noteRemoved);
            removedIds.add(second);
            delete subgraphs[second];
          }
        }
        continue;
      }
      if (top === 'nodes') return null; // not a list, or an empty one: nothing to check
      if (typeof top === 'string' && top in STAND_INS) doc[top] = STAND_INS[top];
      else if (typeof top === 'string') {
        if (top === 'start' || top === 'fallback') {
          if (typeof doc[top] === 'string') removedIds.add(doc[top] as string);
        }
        if (top === 'edges') doc.edges = [];
        else delete doc[top];
      }
    }
    for (const [key, indexes] of drop) {
      const path = key.split('/').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
      const list = trackList(path);
      const kept = origin.get(key);
      if (!list || !kept) continue;
      for (const i of [...indexes].sort((a, b) => b - a)) {
        noteRemoved(list[i]);
        list.splice(i, 1);
        kept.splice(i, 1);
      }
    }
    const parsed = FlowDocumentSchema.safeParse(doc);
    if (parsed.success) return { doc: parsed.data, restore: (issue) => restore(issue, origin, removedIds) };
    pending = parsed.error.issues;
  }
  return null;
}

function addDrop(drop: Map<string, Set<number>>, path: (string | number)[], index: number): void {
  const key = path.join('/');
  const set = drop.get(key) ?? new Set<number>();
  set.add(index);
  drop.set(key, set);
}

/** The issue on the document as written: its list indexes mapped back; null when it names something left out. */
function restore(issue: FlowIssue, origin: ReadonlyMap<string, number[]>, removedIds: ReadonlySet<string>): FlowIssue | null {
  if (issue.node !== undefined && removedIds.has(issue.node)) return null;
  for (const id of removedIds) if (issue.message.includes(`"${id}"`)) return null;
  const path: IssuePath = [];
  for (const [i, part] of issue.path.entries()) {
    const kept = typeof part === 'number' ? origin.get(issue.path.slice(0, i).join('/')) : undefined;
    path.push(kept ? (kept[part as number] ?? part) : part);
  }
  return { ...issue, path };
}
