/**
 * The task agent's drawing against the seed's Mermaid graph (seed 004), edge
 * for edge: the compiled machine's transitions, with the routing diamonds
 * (route_after_parse_goal, route_after_evaluate, route_after_diagnose)
 * folded into the guarded transitions that implement them.
 */
import { describe, expect, it } from 'vitest';
import { machineDrawing } from '../../src/viz/model.js';
import { taskAgentMachine } from '../../machines/task-agent.js';

/** The seed's graph, verbatim. */
const SEED_MERMAID = `graph TD
    A[START] --> B(parse_goal);
    B --> C{route_after_parse_goal};
    C -- Simple Goal --> D(route_tool);
    C -- Complex Goal --> E(plan_step);
    C -- Error --> F(diagnose);
    E --> D;
    D --> G(call_tool);
    G --> H(evaluate);
    H --> I{route_after_evaluate};
    I -- Success & Not Complete --> E;
    I -- Success & Complete --> J(answer);
    I -- Error & Retries Left --> F;
    I -- Error & No Retries --> K(escalate);
    F --> L{route_after_diagnose};
    L -- Retry --> E;
    L -- Escalate --> K;
    K --> J;
    J --> M[END];`;

/** The seed's routing function of each diamond, and each outcome label as the guard's `route` param. */
const ROUTERS: Record<string, string> = { route_after_parse_goal: 'routeAfterParseGoal', route_after_evaluate: 'routeAfterEvaluate', route_after_diagnose: 'routeAfterDiagnose' };
const ROUTES: Record<string, string> = {
  'Simple Goal': 'simple',
  'Complex Goal': 'complex',
  Error: 'error',
  'Success & Not Complete': 'continue',
  'Success & Complete': 'complete',
  'Error & Retries Left': 'retry',
  'Error & No Retries': 'escalate',
  Retry: 'retry',
  Escalate: 'escalate',
};

/**
 * Edges the machine has beyond the seed's drawing, each required elsewhere:
 * route_tool → diagnose is the seed's own text ("If validation fails, it
 * routes to diagnose"); escalate → plan_step and escalate → parse_goal are
 * the "the answer goes back into planning as a clarified goal" (a
 * contradiction settled, a goal put in other words).
 */
// The last: issue 27's limits per goal (a diagnosis once a limit is reached answers at once).
// The last two: a goal whose time ran out during the model call ends there (issue 27 §3).
const BEYOND_THE_SEED = ['route_tool -> diagnose', 'escalate -> plan_step', 'escalate -> parse_goal', 'diagnose -> answer', 'parse_goal -> answer', 'plan_step -> answer'];

interface Edge {
  from: string;
  to: string;
  /** `routeAfterX(route=…)`, for an edge out of a routing diamond. */
  guard: string | null;
}

/** The seed's edges with the diamonds folded in: `B --> C{r}` and `C -- x --> D` become B → D guarded by r(x). */
function seedEdges(text: string): Edge[] {
  const names = new Map<string, string>();
  const diamonds = new Map<string, string>();
  const raw: { from: string; to: string; label: string | null }[] = [];
  const node = (token: string) => {
    const m = /^(\w+)(?:\[(\w+)\]|\((\w+)\)|\{(\w+)\})?$/.exec(token.trim())!;
    const [, id, box, round, diamond] = m;
    if (box ?? round) names.set(id!, (box ?? round)!);
    if (diamond) diamonds.set(id!, diamond);
    return id!;
  };
  for (const line of text.split('\n').slice(1)) {
    const m = /^\s*(.+?)\s*(?:--\s*(.+?)\s*)?-->\s*(.+?);$/.exec(line);
    if (!m) throw new Error(`unread Mermaid line: ${line}`);
    raw.push({ from: node(m[1]!), label: m[2] ?? null, to: node(m[3]!) });
  }
  const edges: Edge[] = [];
  for (const e of raw) {
    if (diamonds.has(e.to)) continue;
    if (diamonds.has(e.from)) {
      const router = ROUTERS[diamonds.get(e.from)!]!;
      for (const into of raw.filter((r) => r.to === e.from))
        edges.push({ from: names.get(into.from)!, to: names.get(e.to)!, guard: `${router}(route=${ROUTES[e.label!]})` });
    } else edges.push({ from: names.get(e.from)!, to: names.get(e.to)!, guard: null });
  }
  return edges;
}

/** The machine's transitions as edges between the seed's names: idle is START, done is END. */
function machineEdges(): Edge[] {
  const drawing = machineDrawing(taskAgentMachine);
  const name = (id: string) => ({ idle: 'START', done: 'END' })[id.split('.').at(-1)!] ?? id.split('.').at(-1)!;
  return drawing.transitions
    .filter((t) => t.target !== null)
    .map((t) => ({ from: name(t.source), to: name(t.target!), guard: t.guard && /^routeAfter/.test(t.guard) ? t.guard : null }));
}

const pair = (e: Edge) => `${e.from} -> ${e.to}`;
const unique = (xs: string[]) => [...new Set(xs)].sort();

describe('task-agent against the seed’s Mermaid graph', () => {
  const seed = seedEdges(SEED_MERMAID);
  const machine = machineEdges();

  it('reads the seed: 15 edges once the three routing diamonds are folded in', () => {
    expect(seed).toHaveLength(15);
    expect(seed).toContainEqual({ from: 'parse_goal', to: 'route_tool', guard: 'routeAfterParseGoal(route=simple)' });
    expect(seed).toContainEqual({ from: 'diagnose', to: 'escalate', guard: 'routeAfterDiagnose(route=escalate)' });
  });

  it('has the seed’s nodes as states', () => {
    const states = machineDrawing(taskAgentMachine).states.slice(1).map((s) => s.key);
    expect(states).toEqual(['idle', 'parse_goal', 'plan_step', 'route_tool', 'call_tool', 'evaluate', 'diagnose', 'escalate', 'answer', 'done']);
  });

  it('has every edge of the seed, and beyond it only the three the seed’s text and the issue ask for', () => {
    expect(unique(machine.map(pair))).toEqual(unique([...seed.map(pair), ...BEYOND_THE_SEED]));
  });

  it('routes each diamond’s outcome with the seed’s routing function as a named guard', () => {
    const routed = machine.filter((e) => e.guard !== null);
    for (const edge of seed.filter((e) => e.guard !== null)) expect(routed, `${pair(edge)} [${edge.guard}]`).toContainEqual(edge);
    // …and no routed edge that the seed does not draw.
    for (const edge of routed) expect(seed, `${pair(edge)} [${edge.guard}]`).toContainEqual(edge);
  });

  it('would notice a missing edge', () => {
    const withoutRetry = machine.filter((e) => !(e.from === 'diagnose' && e.to === 'plan_step'));
    expect(unique(withoutRetry.map(pair))).not.toEqual(unique([...seed.map(pair), ...BEYOND_THE_SEED]));
  });
});
