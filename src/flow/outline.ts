import type { ASTNode } from '@marcbachmann/cel-js';
import type { Outline, OutlineDetail, OutlineEdge, OutlineMark, OutlineNode, OutlineUi } from '../viz/drawing.js';
import type { InputSpec } from '../inputs/spec.js';
import { fallbackOf, givesUp } from './attempts.js';
import { booleanLabels } from './fields.js';
import { defaultOutcome, flowGraph, type FlowGraph, type ScopeGraph } from './graph.js';
import { guardAst, type GuardKind } from './guards/cel.js';
import { inputsOf } from './nodes/input.js';
import { placesOf, type Place } from './places.js';
import { EXIT_TARGET, answerKey, type AnswerSpec, type Edge, type FlowDocument, type FlowNode } from './schema.js';

/**
 * A flow as its author wrote it, for the drawings and the viewer: one box per
 * node per place (a subflow called from two places is drawn twice, as the
 * compiler builds it twice), each subflow call a group holding the called
 * subflow's boxes and its exit, each `ui.group` a box around its members, and
 * one edge per document edge per place, labelled with its outcome and guard.
 * Every box of a node names the machine state it compiles to (`state`), so
 * the viewer can light up the box of the current state and map coverage.
 */
export function flowOutline(doc: FlowDocument): Outline {
  const graph = flowGraph(doc);
  const places = placesOf(graph);
  const nodes: OutlineNode[] = [];
  const edges: OutlineEdge[] = [];

  /** The boxes and edges of one scope, entered at the call `call` (null: the main flow). */
  const drawScope = (scope: ScopeGraph, path: string[], call: string | null): void => {
    const prefix = path.map((id) => `${id}.`).join('');
    const exitId = `${prefix}${EXIT_TARGET}`;
    const idOf = (nodeId: string) => (nodeId === EXIT_TARGET ? exitId : `${prefix}${nodeId}`);
    // The scope's edges first, as written: the outer scope's before those of the subflows it calls.
    const counts = new Map<string, number>();
    for (const edge of scope.edges) {
      const from = scope.node(edge.from);
      if (!from) continue;
      const source = idOf(edge.from);
      const target = idOf(edge.to);
      const n = (counts.get(`${source}\u0000${target}`) ?? 0) + 1;
      counts.set(`${source}\u0000${target}`, n);
      edges.push({ id: `${source} -> ${target} #${n}`, source, target, outcome: edge.on ?? defaultOutcome(from) ?? null, guard: edge.guard ?? null, implicit: false });
    }
    // Where a question (or path node) without an `invalid` edge gives up: the main flow's fallback (see attempts.ts);
    // a question with buttons and nowhere to go does not (it keeps offering them).
    for (const node of scope.nodes) {
      if ((node.kind !== 'question' && node.kind !== 'path') || scope.edges.some((e) => e.from === node.id && e.on === 'invalid')) continue;
      if (!givesUp(doc, node, scope.edges)) continue;
      const source = idOf(node.id);
      const target = fallbackOf(doc);
      edges.push({ id: `${source} -> ${target} #gives-up`, source, target, outcome: 'invalid', guard: null, implicit: true });
    }
    const groups = new Map<string, string>();
    for (const node of scope.nodes) {
      const place = places.get(idOf(node.id))!;
      const ui = uiOf(node);
      let parent = call;
      if (ui?.group !== undefined) {
        // The group's box goes before its first member, in the scope the member is in.
        let box = groups.get(ui.group);
        if (box === undefined) {
          groups.set(ui.group, (box = `${prefix}group:${ui.group}`));
          nodes.push({ id: box, parent: call, kind: 'group', label: ui.group, group: true, state: null, marks: [], details: [], ui: null });
        }
        parent = box;
      }
      nodes.push(nodeBox(graph, place, parent, ui));
      if (node.kind === 'subgraph') {
        const sub = graph.scope(node.ref);
        if (sub) drawScope(sub, [...path, node.id], place.id);
      }
    }
    if (call !== null && scope.edges.some((e) => e.to === EXIT_TARGET))
      nodes.push({
        id: exitId,
        parent: call,
        kind: 'exit',
        label: 'exit',
        group: false,
        state: `${doc.id}.${exitId}`,
        marks: [],
        details: [{ label: 'Kind', value: 'exit' }],
        ui: null,
      });
  };
  drawScope(graph.main, [], null);

  return { nodes, edges, paths: (doc.paths?.options ?? []).map((o) => ({ id: o.id, label: o.label ?? o.id })) };
}

/** The box of a node at its place. */
function nodeBox(graph: FlowGraph, place: Place, parent: string | null, ui: OutlineUi | null): OutlineNode {
  const { node } = place;
  return {
    id: place.id,
    parent,
    kind: node.kind,
    label: labelOf(graph, node),
    group: node.kind === 'subgraph',
    state: `${graph.doc.id}.${place.id}`,
    marks: marksOf(graph, place),
    details: detailsOf(graph, place),
    ui,
  };
}

/** The text in a box: the node's label (without the colon a summary shows after it), a call's subflow title, else its id. */
function labelOf(graph: FlowGraph, node: FlowNode): string {
  const label = node.label?.replace(/\s*:\s*$/, '');
  if (label) return label;
  if (node.kind === 'subgraph') return graph.doc.subgraphs?.[node.ref]?.title ?? node.ref;
  return node.id;
}

/** The hints the drawings read (position, group, colour), of the types they need; null when it has none. */
function uiOf(node: FlowNode): OutlineUi | null {
  const ui = node.ui ?? {};
  const hints: OutlineUi = {
    ...(typeof ui.x === 'number' && { x: ui.x }),
    ...(typeof ui.y === 'number' && { y: ui.y }),
    ...(typeof ui.group === 'string' && ui.group !== '' && { group: ui.group }),
    ...(typeof ui.color === 'string' && ui.color !== '' && { color: ui.color }),
  };
  return Object.keys(hints).length > 0 ? hints : null;
}

function marksOf(graph: FlowGraph, place: Place): OutlineMark[] {
  const { node } = place;
  const marks: OutlineMark[] = [];
  if (place.path.length === 0 && node === graph.start) marks.push('start');
  if (node.kind === 'input') marks.push('input');
  if (node.kind === 'path' || guardsOf(place).some(([text, kind]) => readsPath(text, kind))) marks.push('path');
  if (node.kind === 'question' && (node.limitingValues ?? []).length > 0) marks.push('limiting');
  if (node.kind === 'terminal') marks.push('terminal');
  return marks;
}

/** Every CEL text at a node: its applicability, its validators, the guards of the edges leaving it. */
function guardsOf({ node, scope }: Place): [string, GuardKind][] {
  const found: [string, GuardKind][] = [];
  if (node.kind === 'question') {
    if (node.when !== undefined) found.push([node.when, 'guard']);
    for (const v of node.validators ?? []) found.push([v.check, 'validator']);
  }
  for (const edge of scope.edges) if (edge.from === node.id && edge.guard !== undefined && edge.guard !== 'else') found.push([edge.guard, 'guard']);
  return found;
}

/** Whether a guard reads the path selection (`context.path...`), read from its syntax tree. */
function readsPath(text: string, kind: GuardKind): boolean {
  let ast: ASTNode;
  try {
    ast = guardAst(text, kind);
  } catch {
    return false;
  }
  const isContext = (n: unknown) => isAst(n) && n.op === 'id' && n.args === 'context';
  const visit = (n: unknown): boolean => {
    if (Array.isArray(n)) return n.some(visit);
    if (!isAst(n)) return false;
    if (n.op === '.' && Array.isArray(n.args) && isContext(n.args[0]) && n.args[1] === 'path') return true;
    if (n.op === '[]' && Array.isArray(n.args) && isContext(n.args[0]) && isAst(n.args[1]) && n.args[1].op === 'value' && n.args[1].args === 'path') return true;
    return visit(n.args);
  };
  return visit(ast);
}

const isAst = (n: unknown): n is { op: string; args: unknown } => typeof n === 'object' && n !== null && 'op' in n && typeof (n as { op: unknown }).op === 'string';

/**
 * What the viewer shows when a box is clicked, in this order when present:
 * kind, prompt, buttons, answer type and key, limiting values, applicability,
 * guards, validators, attempts, actor, inputs, message, outcome, subflow.
 */
function detailsOf(graph: FlowGraph, place: Place): OutlineDetail[] {
  const { node, scope } = place;
  const details: OutlineDetail[] = [{ label: 'Kind', value: node.kind }];
  const add = (label: string, value: string | string[] | undefined) => {
    if (value !== undefined && value.length > 0) details.push({ label, value });
  };
  add('Prompt', 'prompt' in node ? node.prompt : undefined);
  if (node.kind === 'confirmation') add('Buttons', [node.confirmLabel, node.editLabel]);
  if (node.kind === 'question') {
    add('Answer type', answerTypeText(node.answer) + (node.required === false ? ', optional' : ''));
    add('Answer key', `answers.${answerKey(node)}`);
    add('Limiting values', node.limitingValues);
    add('Stop message', node.stopMessage);
    add('When', node.when);
  }
  add(
    'Guards',
    scope.edges.filter((e) => e.from === node.id).map((e) => guardLine(e, node)),
  );
  if (node.kind === 'question') add('Validators', (node.validators ?? []).map((v) => `${v.check} — ${v.message}`));
  if ((node.kind === 'question' || node.kind === 'path') && node.maxAttempts !== undefined) add('Max attempts', String(node.maxAttempts));
  if (node.kind === 'action')
    add('Actor', [
      node.actor,
      ...(node.params !== undefined ? [`params: ${JSON.stringify(node.params)}`] : []),
      ...(node.assign !== undefined ? [`assign: ${Object.entries(node.assign).map(([key, field]) => `${key} ← ${field === '' ? '(the whole output)' : field}`).join(', ')}`] : []),
    ]);
  if (node.kind === 'input') add('Inputs', inputsOf(node).map(inputText));
  add('Message', 'message' in node ? node.message : undefined);
  if (node.kind === 'terminal') add('Outcome', node.outcome);
  if (node.kind === 'subgraph') {
    const title = graph.doc.subgraphs?.[node.ref]?.title;
    add('Subflow', title !== undefined ? `${node.ref} (${title})` : node.ref);
  }
  return details;
}

/** An edge as the node's details list it: `on answered [answers.venue == 'sports_court'] → court_size`. */
function guardLine(edge: Edge, from: FlowNode): string {
  const outcome = edge.on ?? defaultOutcome(from);
  return `${outcome !== undefined ? `on ${outcome} ` : ''}${edge.guard !== undefined ? `[${edge.guard}] ` : ''}→ ${edge.to}`;
}

/** A range as written: `50–10000`, `≥ 50`, `≤ 10000`, or nothing. */
const range = (min: number | string | undefined, max: number | string | undefined): string =>
  min !== undefined && max !== undefined ? ` ${min}–${max}` : min !== undefined ? ` ≥ ${min}` : max !== undefined ? ` ≤ ${max}` : '';

/** An answer's type and rules in one line: `category: buy_led, support`, `number 50–10000 m², integer`. */
function answerTypeText(spec: AnswerSpec): string {
  switch (spec.type) {
    case 'category':
      return `category: ${spec.categories.join(', ')}`;
    case 'number':
      return `number${range(spec.min, spec.max)}${spec.unit !== undefined ? ` ${spec.unit}` : ''}${spec.integer ? ', integer' : ''}${spec.exact ? ', exact' : ''}`;
    case 'string': {
      const parts = ['string'];
      if (spec.minLength !== undefined || spec.maxLength !== undefined) parts.push(`${range(spec.minLength, spec.maxLength).trim()} characters`);
      if (spec.pattern !== undefined) parts.push(`pattern ${spec.pattern}`);
      if (spec.format === 'person_name') parts.push('a person\'s name');
      return parts.join(', ');
    }
    case 'boolean': {
      const { trueLabel, falseLabel } = booleanLabels(spec);
      return `boolean (${trueLabel} / ${falseLabel})`;
    }
    case 'date':
      return `date${spec.min !== undefined ? ` from ${spec.min}` : ''}${spec.max !== undefined ? ` until ${spec.max}` : ''}`;
    case 'phone':
      return spec.country !== undefined ? `phone (${spec.country})` : 'phone';
    case 'email':
      return 'email';
  }
}

/** An input of an input node in one line: `approved: boolean (Approve / Decline), from manager within PT24H — Approve the refund?`. */
function inputText(input: InputSpec): string {
  let type: string;
  switch (input.type) {
    case 'boolean':
      type = `boolean (${input.trueLabel ?? 'Yes'} / ${input.falseLabel ?? 'No'})`;
      break;
    case 'number':
      type = `number${range(input.min, input.max)}${input.unit !== undefined ? ` ${input.unit}` : ''}`;
      break;
    case 'integer':
      type = `integer${range(input.min, input.max)}`;
      break;
    case 'enum':
      type = `enum: ${input.options.map((o) => (typeof o === 'string' ? o : o.value)).join(', ')}`;
      break;
    case 'date':
      type = `date${input.min !== undefined ? ` from ${input.min}` : ''}${input.max !== undefined ? ` until ${input.max}` : ''}`;
      break;
    case 'string':
      type = `string${input.pattern !== undefined ? `, pattern ${input.pattern}` : ''}`;
      break;
    default:
      type = input.type;
  }
  const who = input.to !== undefined ? `from ${input.to}` : 'from the person in the conversation';
  const within = input.deadline !== undefined ? ` within ${input.deadline}` : '';
  const fallback = input.default !== undefined ? `, default ${JSON.stringify(input.default)}` : '';
  return `${input.name}: ${type}, ${who}${within}${fallback}${input.description !== undefined ? ` — ${input.description}` : ''}`;
}
