import type { AnyMachineSnapshot, AnyStateNode, AnyTransitionDefinition, InspectionEvent } from 'xstate';

/**
 * How many times each state of one actor was entered, counted microstep by
 * microstep from the actor's inspection events. A state that is active before
 * and after a step may still have been left and entered again within it (an
 * agent that escalates, is answered, and escalates again): only the count
 * tells. The runtime opens a waiting state's gates again when it was.
 */
export class EntryCounter {
  private readonly counts = new Map<string, number>();
  private active: ReadonlySet<AnyStateNode>;

  /** From the actor's snapshot before the microsteps to count (none: count from its very first). */
  constructor(initial?: AnyMachineSnapshot) {
    this.active = new Set(initial?._nodes ?? []);
  }

  /** The times the state (by node id) was entered since counting began. */
  count(stateId: string): number {
    return this.counts.get(stateId) ?? 0;
  }

  /** The counts now, to tell later which states were entered since. */
  mark(): ReadonlyMap<string, number> {
    return new Map(this.counts);
  }

  /** The states (by id) entered since `mark`, those left and entered again included. */
  enteredSince(mark: ReadonlyMap<string, number>): Set<string> {
    return new Set([...this.counts].filter(([id, n]) => n !== (mark.get(id) ?? 0)).map(([id]) => id));
  }

  /** Reads one inspection event of the counted actor (others are ignored). */
  observe(event: InspectionEvent): void {
    if (event.type !== '@xstate.microstep') return;
    const next = new Set((event.snapshot as AnyMachineSnapshot)._nodes);
    const exited = new Set<AnyStateNode>();
    for (const t of event._transitions) for (const n of exitedBy(t, this.active)) exited.add(n);
    for (const n of next) if (!this.active.has(n) || exited.has(n)) this.counts.set(n.id, this.count(n.id) + 1);
    this.active = next;
  }
}

/** The active states a transition exits (XState's exit set, without history): those within its domain. */
function exitedBy(t: AnyTransitionDefinition, active: ReadonlySet<AnyStateNode>): AnyStateNode[] {
  const targets = t.target ?? [];
  if (targets.length === 0) return [];
  const { source } = t;
  const internal = !t.reenter && targets.every((x) => x === source || isDescendant(x, source));
  const domain = internal ? source : (commonAncestor([...targets, source]) ?? (t.reenter ? undefined : source.machine.root));
  if (domain === undefined) return [...active];
  return [...active].filter((n) => isDescendant(n, domain) || (t.reenter && n === domain && domain === source));
}

function isDescendant(node: AnyStateNode, ancestor: AnyStateNode): boolean {
  for (let p = node.parent; p; p = p.parent) if (p === ancestor) return true;
  return false;
}

/** The nearest proper ancestor of the first node that holds every other one. */
function commonAncestor(nodes: readonly AnyStateNode[]): AnyStateNode | undefined {
  const [head, ...tail] = nodes;
  for (let p = head?.parent; p; p = p.parent) if (tail.every((n) => isDescendant(n, p!))) return p;
  return undefined;
}
