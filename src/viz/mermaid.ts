import { childrenOf, inputLines, isComposite, transitionLabel } from './label.js';
import type { DrawnState, MachineDrawing } from './model.js';

/**
 * A Mermaid `stateDiagram-v2`: compound and parallel states as composite states
 * (parallel regions separated by `--`), `[*]` for initial and final states.
 * States are all declared first and transitions listed after them at the top
 * level, so that no transition can declare a state inside the wrong composite.
 */
export function toMermaid(drawing: MachineDrawing): string {
  const ids = mermaidIds(drawing.states);
  const idOf = (stateId: string) => ids.get(stateId) ?? mermaidId(stateId);
  const children = childrenOf(drawing);
  const lines = ['stateDiagram-v2'];

  const declare = (state: DrawnState, depth: number) => {
    const pad = '  '.repeat(depth);
    const id = idOf(state.id);
    if (!isComposite(state)) {
      lines.push(`${pad}state "${escapeMermaid(stateLabel(state))}" as ${id}`);
      for (const inv of state.invoke) lines.push(`${pad}${id} : ${escapeMermaid(`invoke ${inv.src}`)}`);
      for (const wait of inputLines(state)) lines.push(`${pad}${id} : ${escapeMermaid(wait)}`);
      return;
    }
    // A composite's own description would replace its title, so invokes and inputs go in the title.
    const invokes = state.invoke.map((inv) => ` / invoke ${inv.src}`).join('');
    const waits = inputLines(state).map((wait) => ` / ${wait}`).join('');
    lines.push(`${pad}state "${escapeMermaid(stateLabel(state) + invokes + waits)}" as ${id} {`);
    const kids = children.get(state.id) ?? [];
    if (state.initial !== null) lines.push(`${pad}  [*] --> ${idOf(`${state.id}.${state.initial}`)}`);
    kids.forEach((child, i) => {
      if (state.type === 'parallel' && i > 0) lines.push(`${pad}  --`);
      declare(child, depth + 1);
    });
    for (const child of kids) if (child.type === 'final') lines.push(`${pad}  ${idOf(child.id)} --> [*]`);
    lines.push(`${pad}}`);
  };
  for (const root of children.get(null) ?? []) declare(root, 0);

  for (const t of drawing.transitions) {
    const target = t.target ?? t.source; // targetless: a self-loop
    lines.push(`${idOf(t.source)} --> ${idOf(target)} : ${escapeMermaid(transitionLabel(t))}`);
  }
  return `${lines.join('\n')}\n`;
}

function stateLabel(state: DrawnState): string {
  return state.type === 'history' ? `${state.key} (H)` : state.key;
}

// Mermaid's lexer takes the first rule that matches, so an id that is one of
// these words (followed by a space) or starts with `default` reads as a keyword.
const RESERVED = new Set(['state', 'note', 'class', 'classdef', 'scale', 'statediagram', 'acctitle', 'accdescr', 'direction', 'end', 'as']);

/** An identifier Mermaid accepts: letters, digits and `_`, not starting with a digit or a keyword. */
export function mermaidId(stateId: string): string {
  const id = stateId.replace(/[^A-Za-z0-9_]/g, '_');
  const clash = id === '' || /^\d/.test(id) || /^default/i.test(id) || RESERVED.has(id.toLowerCase());
  return clash ? `s_${id}` : id;
}

/** Safe ids for all states; ids that sanitize alike (`a-b`, `a_b`) get `_2`, `_3`, … in document order. */
export function mermaidIds(states: readonly DrawnState[]): Map<string, string> {
  const ids = new Map<string, string>();
  const taken = new Set<string>();
  for (const state of states) {
    const base = mermaidId(state.id);
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
    taken.add(id);
    ids.set(state.id, id);
  }
  return ids;
}

// Mermaid decodes `#<code>;` entities in labels; these characters would otherwise
// end a label (`:` `;` `#` `"`), open a block (`{` `}`), start a comment (`%%`) or read as HTML.
const ESCAPES: Readonly<Record<string, string>> = {
  ':': '#58;',
  ';': '#59;',
  '#': '#35;',
  '"': '#34;',
  '{': '#123;',
  '}': '#125;',
  '<': '#60;',
  '>': '#62;',
  '%': '#37;',
};

/**
 * One line of label text that Mermaid shows as is. Entities are decoded before
 * parsing, and a `:` is always followed by a space in our lines, which keeps
 * Mermaid's `style …:#…;` rewrite away from them.
 */
export function escapeMermaid(text: string): string {
  return (
    text
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[:;#"{}<>%]/g, (c) => ESCAPES[c] ?? c)
      // Any line holding `direction LR` (any case) is read as a direction statement.
      .replace(/(directio)n(?= (?:tb|bt|rl|lr))/gi, '$1#110;')
  );
}
