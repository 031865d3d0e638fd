import type { DrawnState, DrawnTransition, MachineDrawing } from './model.js';

/** `event [guard]`, with delayed events shortened to `after <delay>`. */
export function transitionLabel(t: DrawnTransition): string {
  const event = eventLabel(t.event);
  return t.guard === null ? event : `${event} [${t.guard}]`;
}

// XState names delayed events `xstate.after.<delay>.<stateId>`.
function eventLabel(event: string): string {
  const after = /^xstate\.after\.(\d+(?:\.\d+)?|[^.]+)\./.exec(event);
  return after ? `after ${after[1]}` : event;
}

/**
 * What a waiting state waits for, one line per role and deadline:
 * `waits for manager (PT24H): approved (boolean), approved_amount (number)`;
 * `the person` when an input names no role. None for a state that does not wait.
 */
export function inputLines(state: Pick<DrawnState, 'inputs'>): string[] {
  const groups = new Map<string, string[]>();
  for (const input of state.inputs) {
    const who = `waits for ${input.to ?? 'the person'}${input.deadline === null ? '' : ` (${input.deadline})`}`;
    groups.set(who, [...(groups.get(who) ?? []), `${input.name} (${input.type})`]);
  }
  return [...groups].map(([who, names]) => `${who}: ${names.join(', ')}`);
}

/** Children of each state id, in document order; the key `null` holds the root. */
export function childrenOf(drawing: MachineDrawing): Map<string | null, DrawnState[]> {
  const children = new Map<string | null, DrawnState[]>();
  for (const state of drawing.states) {
    const siblings = children.get(state.parent);
    if (siblings) siblings.push(state);
    else children.set(state.parent, [state]);
  }
  return children;
}

/** Whether `id` is `ancestor` or lies inside it. */
export function isWithin(id: string, ancestor: string): boolean {
  return id === ancestor || id.startsWith(`${ancestor}.`);
}

export function isComposite(state: DrawnState): boolean {
  return state.type === 'compound' || state.type === 'parallel';
}
