import { childrenOf, inputLines, isComposite, isWithin, transitionLabel } from './label.js';
import type { DrawnState, DrawnTransition, MachineDrawing } from './model.js';

/**
 * A Graphviz digraph. Compound and parallel states are `cluster_<id>` subgraphs
 * holding a small point node with the state's own id: it marks the initial child
 * and is where edges to and from the state attach (`lhead`/`ltail` clip them to
 * the cluster's border). Every state id is thus a node id.
 */
export function toDot(drawing: MachineDrawing): string {
  const children = childrenOf(drawing);
  const byId = new Map(drawing.states.map((s) => [s.id, s]));
  const lines = [
    `digraph ${quote(drawing.id)} {`,
    '  compound=true;',
    '  rankdir=LR;',
    '  node [shape=box, style=rounded, fontname="Helvetica"];',
    '  edge [fontname="Helvetica", fontsize=10];',
  ];

  const declare = (state: DrawnState, depth: number) => {
    const pad = '  '.repeat(depth);
    if (!isComposite(state)) {
      lines.push(`${pad}${quote(state.id)} [${attrs(nodeAttrs(state))}];`);
      return;
    }
    lines.push(`${pad}subgraph ${quote(clusterId(state.id))} {`);
    lines.push(`${pad}  label=${quote(labelText(stateLines(state)))};`);
    lines.push(`${pad}  ${quote(state.id)} [shape=point, width=0.12, label=""];`);
    if (state.initial !== null) lines.push(`${pad}  ${quote(state.id)} -> ${quote(`${state.id}.${state.initial}`)};`);
    for (const child of children.get(state.id) ?? []) declare(child, depth + 1);
    lines.push(`${pad}}`);
  };
  for (const root of children.get(null) ?? []) declare(root, 1);

  for (const t of drawing.transitions) lines.push(`  ${edge(t, byId)}`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function nodeAttrs(state: DrawnState): [string, string][] {
  const label: [string, string] = ['label', labelText(stateLines(state))];
  if (state.type === 'final') return [['shape', 'doublecircle'], label];
  if (state.type === 'history') return [['shape', 'circle'], ['label', 'H'], ['xlabel', state.key]];
  return [label];
}

/** The state's key, then one line per invoked actor, then what it waits for. */
function stateLines(state: DrawnState): string[] {
  return [state.key, ...state.invoke.map((inv) => `invoke ${inv.src}`), ...inputLines(state)];
}

function edge(t: DrawnTransition, byId: ReadonlyMap<string, DrawnState>): string {
  const target = t.target ?? t.source;
  const list: [string, string][] = [['label', transitionLabel(t)]];
  if (t.target === null) list.push(['style', 'dashed']);
  const source = byId.get(t.source);
  const head = byId.get(target);
  // Clip to a cluster's border unless the edge stays inside that cluster.
  if (source && isComposite(source) && !isWithin(target, source.id)) list.push(['ltail', clusterId(source.id)]);
  if (head && isComposite(head) && !isWithin(t.source, head.id)) list.push(['lhead', clusterId(head.id)]);
  return `${quote(t.source)} -> ${quote(target)} [${attrs(list)}];`;
}

function clusterId(stateId: string): string {
  return `cluster_${stateId}`;
}

function attrs(list: readonly [string, string][]): string {
  return list.map(([k, v]) => `${k}=${quote(v)}`).join(', ');
}

// Lines joined with a newline, which `quote` turns into DOT's `\n` line break.
function labelText(lines: readonly string[]): string {
  return lines.map(oneLine).join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A DOT double-quoted string. Only `\"` is an escape of the DOT lexer, but labels
 * read `\n`, `\l`, `\N`, … too, so a backslash is doubled to stay a backslash.
 * A newline in `text` becomes the label line break `\n`.
 */
export function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;
}
