import { initialTransition, type AnyEventObject, type AnyStateMachine, type StateValue } from 'xstate';
import { z } from 'zod';
import { checkFlow } from '../flow/check.js';
import { compileFlow } from '../flow/compile.js';
import type { FlowDocument } from '../flow/schema.js';
import { ALWAYS_EVENT, machineDrawing, type DrawnTransition, type MachineDrawing } from '../viz/model.js';
import { activeIds } from './machine-paths.js';
import { MODEL_TODAY, generateFlowPaths, replayFlowPaths, type CoverageFigure, type FlowCoverage, type FlowTestOptions, type FlowTestPath } from './model-based.js';

/**
 * What `gateflow test` reports about a flow: the model-based coverage of its
 * compiled machine (src/testing/model-based.ts), and for every state and
 * transition no generated path reached, why, derived from the machine's
 * transitions and from where the paths were when each event came.
 */

// ---------------------------------------------------------------- the report

export const CoverageFigureSchema = z.object({
  covered: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  percent: z.number().min(0).max(100),
  missing: z.array(z.string()).describe('The ids of the states (or names of the transitions) no path reached'),
}) satisfies z.ZodType<CoverageFigure>;

export const UnreachedItemSchema = z.object({
  kind: z.enum(['state', 'transition']),
  /** A state id (`flow.node.asking`) or a transition name (`<source> on <event> #<n>`), as the drawing names them. */
  id: z.string(),
  reason: z.string().describe('Why no path reached it, from the machine and the paths'),
});
export type UnreachedItem = z.infer<typeof UnreachedItemSchema>;

export const CoverageReportSchema = z.object({
  flowId: z.string(),
  version: z.union([z.string(), z.number()]),
  paths: z.number().int().nonnegative().describe('How many paths were generated and replayed'),
  steps: z.number().int().nonnegative().describe('How many events the paths sent in all'),
  states: CoverageFigureSchema,
  transitions: CoverageFigureSchema,
  unreached: z.array(UnreachedItemSchema).describe('Every state, then every transition, no path reached, in the order of the drawing'),
  warnings: z.array(z.string()).describe("The flow checker's warnings (dead ends, loops that may ask nothing, subgraphs never called), as `gateflow validate` prints them"),
});
export type CoverageReport = z.infer<typeof CoverageReportSchema>;

export interface CoverageProgress {
  phase: 'generating' | 'replaying';
  /** Paths replayed so far (0 while generating). */
  done: number;
  /** Paths to replay (0 while generating). */
  total: number;
}

export interface FlowCoverageOptions extends FlowTestOptions {
  /** Told before the search and after each batch of replayed paths (the replay of a large flow takes seconds). */
  onProgress?: (progress: CoverageProgress) => void;
}

/** Paths replayed between two progress reports. */
const BATCH = 250;

/** The report, and the paths it was measured with (for `gateflow test --out`). */
export async function flowCoverageRun(doc: FlowDocument, options: FlowCoverageOptions = {}): Promise<{ report: CoverageReport; paths: FlowTestPath[] }> {
  const { onProgress, ...testOptions } = options;
  onProgress?.({ phase: 'generating', done: 0, total: 0 });
  const paths = generateFlowPaths(doc, testOptions);
  // Replayed in batches for the progress; what a batch missed and another took is covered.
  const batches: FlowCoverage[] = [];
  for (let at = 0; at < paths.length || batches.length === 0; at += BATCH) {
    onProgress?.({ phase: 'replaying', done: at, total: paths.length });
    batches.push(await replayFlowPaths(doc, paths.slice(at, at + BATCH), testOptions));
  }
  onProgress?.({ phase: 'replaying', done: paths.length, total: paths.length });
  const coverage = mergeCoverage(batches);

  const machine = compileFlow(doc, { today: () => testOptions.today ?? MODEL_TODAY });
  const seen = eventsSeen(machine, paths);
  const report: CoverageReport = {
    flowId: doc.id,
    version: doc.version,
    paths: coverage.paths,
    steps: coverage.steps,
    states: coverage.states,
    transitions: coverage.transitions,
    unreached: unreachedItems(machineDrawing(machine), coverage, seen),
    warnings: checkFlow(doc)
      .filter((issue) => issue.severity === 'warning')
      .map((issue) => issue.message),
  };
  return { report, paths };
}

/**
 * The coverage report of a flow: every path the model-based search generates,
 * replayed on a live actor, and what no path reached with its reason. Takes
 * seconds on a large flow (led-sales: some 6000 paths).
 */
export async function flowCoverageReport(doc: FlowDocument, options: FlowCoverageOptions = {}): Promise<CoverageReport> {
  return (await flowCoverageRun(doc, options)).report;
}

/** One coverage from the coverages of disjoint batches of paths over the same machine. */
export function mergeCoverage(parts: FlowCoverage[]): FlowCoverage {
  const first = parts[0];
  if (!first) throw new Error('mergeCoverage: no coverage to merge');
  const merge = (pick: (c: FlowCoverage) => CoverageFigure): CoverageFigure => {
    // Missing from the whole: missing from every batch. The order stays the machine's.
    const missing = pick(first).missing.filter((id) => parts.every((p) => pick(p).missing.includes(id)));
    const total = pick(first).total;
    const covered = total - missing.length;
    return { covered, total, percent: total === 0 ? 100 : Math.round((covered / total) * 10000) / 100, missing };
  };
  return {
    flowId: first.flowId,
    paths: parts.reduce((n, p) => n + p.paths, 0),
    steps: parts.reduce((n, p) => n + p.steps, 0),
    states: merge((c) => c.states),
    transitions: merge((c) => c.transitions),
  };
}

// ---------------------------------------------------------------- where the events came

/** For each state id: the event types that came while it was active (at rest, before the event). */
export type EventsSeen = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Where the paths were when each event came: every path starts in the
 * machine's initial state, and after step `i` is at rest in `expected[i]`.
 */
export function eventsSeen(machine: AnyStateMachine, paths: readonly { events: readonly AnyEventObject[]; expected: readonly StateValue[] }[], input?: unknown): EventsSeen {
  const [initial] = initialTransition(machine, input as never);
  const start = (initial as { value: StateValue }).value;
  const seen = new Map<string, Set<string>>();
  const activeCache = new Map<string, string[]>();
  const active = (value: StateValue) => {
    const key = JSON.stringify(value);
    let ids = activeCache.get(key);
    if (!ids) activeCache.set(key, (ids = activeIds(machine.id, value)));
    return ids;
  };
  for (const path of paths)
    path.events.forEach((event, i) => {
      for (const id of active(i === 0 ? start : path.expected[i - 1]!)) {
        let types = seen.get(id);
        if (!types) seen.set(id, (types = new Set()));
        types.add(event.type);
      }
    });
  return seen;
}

// ---------------------------------------------------------------- the reasons

/** Whether an event type matches a transition's event descriptor (`*` and `prefix.*` wildcards as XState reads them). */
function matches(descriptor: string, type: string): boolean {
  if (descriptor === type || descriptor === '*') return true;
  return descriptor.endsWith('.*') && type.startsWith(descriptor.slice(0, -1));
}

/** Events the machine raises itself (a compound state finishing): no path sends them. */
const isInternal = (event: string) => event === ALWAYS_EVENT || event.startsWith('xstate.done.state.') || event === 'xstate.init';

/**
 * Why each state and transition the coverage misses was not reached, in
 * the drawing's order (states, then transitions). A state: its parent was
 * not reached either; no transition leads into it; or the ones that do were
 * never taken. A transition: its source was not reached; an earlier
 * unguarded candidate for its event always wins; the event never came while
 * its source was active; or its guard never held there.
 */
export function unreachedItems(drawing: MachineDrawing, coverage: Pick<FlowCoverage, 'states' | 'transitions'>, seen: EventsSeen): UnreachedItem[] {
  const missingStates = new Set(coverage.states.missing);
  const missingTransitions = new Set(coverage.transitions.missing);
  const states = new Map(drawing.states.map((s) => [s.id, s]));
  // One entry per transition (a transition to several targets is drawn once per target).
  const transitions = new Map<string, DrawnTransition & { targets: string[] }>();
  for (const t of drawing.transitions) {
    const kept = transitions.get(t.id);
    if (kept) {
      if (t.target !== null) kept.targets.push(t.target);
    } else transitions.set(t.id, { ...t, targets: t.target === null ? [] : [t.target] });
  }
  const candidates = (source: string, event: string) => [...transitions.values()].filter((t) => t.source === source && t.event === event).sort((a, b) => a.order - b.order);

  const targeting = (id: string, inside: boolean) =>
    [...transitions.values()].filter((t) => t.targets.some((target) => target === id || (inside && target.startsWith(`${id}.`)))).map((t) => t.id);
  /** Transitions that enter `id` without naming it: they enter a parent whose initial child it is (or a parallel parent), up the chain. */
  const waysInByDefault = (id: string): string[] => {
    const state = states.get(id);
    const parent = state?.parent ? states.get(state.parent) : undefined;
    if (!parent || !state || (parent.initial !== state.key && parent.type !== 'parallel')) return [];
    return [...targeting(parent.id, false), ...waysInByDefault(parent.id)];
  };
  /** The transitions that enter `id`: those targeting it or a state inside it, and those entering it by default. */
  const waysIn = (id: string) => [...new Set([...targeting(id, true), ...waysInByDefault(id)])];

  const stateReason = (id: string): string => {
    const parent = states.get(id)?.parent ?? null;
    if (parent !== null && missingStates.has(parent)) return `inside ${parent}, which no path reaches`;
    const into = waysIn(id);
    if (into.length === 0) return 'no transition leads to it';
    const untaken = into.filter((t) => missingTransitions.has(t));
    return `the transitions into it were never taken: ${(untaken.length > 0 ? untaken : into).join(', ')}`;
  };

  const transitionReason = (t: DrawnTransition): string => {
    if (missingStates.has(t.source)) return `its source ${t.source} is never reached`;
    const earlier = candidates(t.source, t.event).filter((c) => c.order < t.order);
    const winner = earlier.find((c) => c.guard === null);
    const what = t.event === ALWAYS_EVENT ? 'eventless transition' : `transition for ${t.event}`;
    if (winner) return `an earlier ${what} from ${t.source} always wins (${winner.id})`;
    const came = isInternal(t.event) || [...(seen.get(t.source) ?? [])].some((type) => matches(t.event, type));
    if (!came) return `no generated event ${t.event} in ${t.source}`;
    const takenFirst = earlier.filter((c) => !missingTransitions.has(c.id)).map((c) => c.id);
    const first = takenFirst.length > 0 ? `: ${takenFirst.join(', ')}` : '';
    if (t.guard !== null)
      return `its guard [${t.guard}] was false every time the paths were in ${t.source}${takenFirst.length > 0 ? `, or an earlier ${what} was taken first${first}` : ''}`;
    return takenFirst.length > 0 ? `an earlier ${what} from ${t.source} was taken every time${first}` : `a state inside ${t.source} took ${t.event} every time`;
  };

  return [
    ...drawing.states.filter((s) => missingStates.has(s.id)).map((s) => ({ kind: 'state' as const, id: s.id, reason: stateReason(s.id) })),
    ...[...transitions.values()].filter((t) => missingTransitions.has(t.id)).map((t) => ({ kind: 'transition' as const, id: t.id, reason: transitionReason(t) })),
  ];
}
