/**
 * `npm run bench` (task agent, seed 004), on PGlite in memory with Apache AGE
 * holding both the sessions and the graph:
 *
 * (a) the runtime's own cost: use case 1 (two nodes and an edge) with every
 *     step asked of a scripted model that answers at once (no network, no
 *     inference), goal after goal. Per goal: the turn's wall time. Per agent
 *     step, where a step is a state entered (an XState microstep: parse_goal,
 *     plan_step, route_tool, call_tool, evaluate, answer, done; 15 per goal):
 *     the time from entering it to entering the next; `done` runs until the
 *     turn returns (reply, snapshot and the graph writes saved in one
 *     transaction), `load` from the turn's call to parse_goal (session read, actor restored).
 * (b) model calls per use case: the offline reader first (the default, a
 *     model available for what it cannot read) against every step by the
 *     model (offline reader off), each checked against the script's graph and calls.
 *
 * (a) also gives the CPU time (user + system, process.cpuUsage) per goal and
 *     per state, and the graph operations per goal: tool runs, previews and
 *     the save's together.
 *
 * TASK_BENCH_GOALS sets how many goals (a) measures (default 150, after 5 of warm-up).
 */
import type { InspectionEvent } from 'xstate';
import { graphSnapshot, openAgeGraph, type NewNode } from '../../src/graph/index.js';
import { createGraphToolRegistry } from '../../src/graph/tools/graph-tools.js';
import { ToolRegistry } from '../../src/graph/tools/registry.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { Store } from '../../src/store/types.js';
import { taskAgentActors } from '../../src/task-agent/actors.js';
import { taskAgentWorkflow } from '../../src/task-agent/workflow.js';
import { openGraphStore, scriptedModel } from '../helpers/task-agent.js';
import { runScript, SCRIPTS, toolsOf, UC1_COMPLEX, type TaskAgentScript } from '../task-agent/scripts.js';

const GOALS = Number(process.env.TASK_BENCH_GOALS ?? 150);
const WARM_UP = 5;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (n: number) => n.toFixed(2);
/** CPU time of this process so far (user + system), in ms. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** The task agent on `store` with a scripted model answering the script's steps at once. */
function agentFor(store: Store, script: TaskAgentScript, options: { offlineReader: boolean; inspect?: (event: InspectionEvent) => void }) {
  const toolRuns = { n: 0 };
  // Every tool run counted: a graph operation, whether a preview's or the save's.
  const registry = new ToolRegistry(createGraphToolRegistry().list().map((tool) => ({ ...tool, run: (graph: Parameters<typeof tool.run>[0], args: Parameters<typeof tool.run>[1]) => (toolRuns.n++, tool.run(graph, args)) })));
  const scripted = scriptedModel({ ...script.model });
  const runtime = createRuntime({
    workflows: [taskAgentWorkflow({ registry })],
    store,
    actors: taskAgentActors({ database: store.sql!, registry, model: scripted.model, offlineReader: options.offlineReader }),
    ...(options.inspect && { inspect: options.inspect }),
  });
  return {
    runtime,
    scripted,
    toolRuns,
    seed: (...nodes: NewNode[]) =>
      store.sql!.transaction(async (tx) => {
        const graph = await openAgeGraph(tx, { owner: null });
        for (const node of nodes) await graph.addNode(node);
      }),
    graph: () => store.sql!.transaction(async (tx) => graphSnapshot(await openAgeGraph(tx, { owner: null }))),
  };
}

/** Empties the shared graph, keeping it and its labels (outside any timing). */
const emptyGraph = (store: Store) =>
  store.sql!.transaction(async (tx) => {
    const graph = await openAgeGraph(tx, { owner: null });
    for (const node of (await graphSnapshot(graph)).nodes) await graph.deleteNode({ label: node.label, key: node.key }, { detach: true });
  });

/** Drops the shared graph: the next goal starts from nothing. */
const dropGraph = (store: Store) => store.sql!.query("SELECT * FROM ag_catalog.drop_graph('gateflow_graph', true)").catch(() => undefined);

const same = (a: unknown, b: unknown) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
const sortKeys = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(sortKeys) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, sortKeys(x)])) : v;

async function runtimeCost(store: Store) {
  const goals: number[] = [];
  const starts: number[] = [];
  const perState = new Map<string, number[]>();
  const allSteps: number[] = [];
  const goalCpu: number[] = [];
  const cpuPerState = new Map<string, number[]>();
  let graphOpsPerGoal = 0;
  let stepsPerGoal = 0;
  let toolCallsPerGoal = 0;
  let modelCallsPerGoal = 0;

  for (let i = 0; i < WARM_UP + GOALS; i++) {
    const entered: { state: string; at: number; cpu: number }[] = [];
    let recording = false;
    const agent = agentFor(store, UC1_COMPLEX, {
      offlineReader: false,
      inspect: (event) => {
        const value = event.type === '@xstate.microstep' ? (event.snapshot as { value?: unknown }).value : undefined;
        if (recording && typeof value === 'string') entered.push({ state: value, at: performance.now(), cpu: cpuMs() });
      },
    });
    const t0 = performance.now();
    const { sessionId } = await agent.runtime.start('task-agent');
    const t1 = performance.now();
    const c1 = cpuMs();
    recording = true;
    const reply = await agent.runtime.turn(sessionId, { text: UC1_COMPLEX.goal });
    const t2 = performance.now();
    const c2 = cpuMs();
    recording = false;
    agent.runtime.close();
    if (reply.status !== 'done' || !same(toolsOf(reply), UC1_COMPLEX.expectedTools)) throw new Error(`UC1 did not complete: ${reply.message}`);
    if (i === WARM_UP && !same(await agent.graph(), UC1_COMPLEX.expectedGraph)) throw new Error('UC1 left another graph than expected');
    await emptyGraph(store);
    if (i < WARM_UP) continue;

    starts.push(t1 - t0);
    goals.push(t2 - t1);
    goalCpu.push(c2 - c1);
    graphOpsPerGoal = agent.toolRuns.n;
    entered.forEach((mark, k) => cpuPerState.set(mark.state, [...(cpuPerState.get(mark.state) ?? []), (entered[k + 1]?.cpu ?? c2) - mark.cpu]));
    stepsPerGoal = entered.length;
    toolCallsPerGoal = toolsOf(reply).length;
    modelCallsPerGoal = agent.scripted.calls.length;
    const marks = [{ state: 'load', at: t1 }, ...entered];
    marks.forEach((mark, k) => {
      const spent = (marks[k + 1]?.at ?? t2) - mark.at;
      perState.set(mark.state, [...(perState.get(mark.state) ?? []), spent]);
      if (mark.state !== 'load') allSteps.push(spent);
    });
  }

  goals.sort((a, b) => a - b);
  starts.sort((a, b) => a - b);
  allSteps.sort((a, b) => a - b);
  console.log(
    `(a) runtime cost: use case 1, every step by a scripted model answering at once (${modelCallsPerGoal} model calls/goal), ` +
      `${GOALS} goals after ${WARM_UP} of warm-up; a step = a state entered (${stepsPerGoal}/goal), ${toolCallsPerGoal} tool calls/goal`,
  );
  console.table([
    { what: 'goal (one turn)', 'p50 ms': ms(percentile(goals, 50)), 'p95 ms': ms(percentile(goals, 95)) },
    { what: 'agent step (any state)', 'p50 ms': ms(percentile(allSteps, 50)), 'p95 ms': ms(percentile(allSteps, 95)) },
    { what: 'goal / states entered', 'p50 ms': ms(percentile(goals, 50) / stepsPerGoal), 'p95 ms': ms(percentile(goals, 95) / stepsPerGoal) },
    { what: 'goal / tool calls', 'p50 ms': ms(percentile(goals, 50) / toolCallsPerGoal), 'p95 ms': ms(percentile(goals, 95) / toolCallsPerGoal) },
    { what: 'session start', 'p50 ms': ms(percentile(starts, 50)), 'p95 ms': ms(percentile(starts, 95)) },
  ]);
  goalCpu.sort((a, b) => a - b);
  console.log(`CPU (user + system) per goal: p50 ${ms(percentile(goalCpu, 50))} ms, p95 ${ms(percentile(goalCpu, 95))} ms; graph operations (tool runs) per goal: ${graphOpsPerGoal}`);
  const order = ['load', 'parse_goal', 'plan_step', 'route_tool', 'call_tool', 'evaluate', 'answer', 'done'];
  console.log('time in each state, from entering it to entering the next (done: until the turn returns, the save included):');
  console.table(
    [...perState.entries()]
      .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
      .map(([state, samples]) => {
        const sorted = [...samples].sort((a, b) => a - b);
        const cpu = [...(cpuPerState.get(state) ?? [0])].sort((a, b) => a - b);
        return { state, 'per goal': samples.length / GOALS, 'p50 ms': ms(percentile(sorted, 50)), 'p95 ms': ms(percentile(sorted, 95)), 'CPU p50 ms': ms(percentile(cpu, 50)), 'CPU p95 ms': ms(percentile(cpu, 95)) };
      }),
  );
}

async function modelCalls(store: Store) {
  const rows: Record<string, string | number>[] = [];
  for (const script of SCRIPTS) {
    const row: Record<string, string | number> = { 'use case': script.name };
    for (const offlineReader of [true, false]) {
      await dropGraph(store);
      const agent = agentFor(store, script, { offlineReader });
      const t0 = performance.now();
      const run = await runScript(agent, script);
      const spent = performance.now() - t0;
      agent.runtime.close();
      const ok = run.final.status === 'done' && same(toolsOf(run.final), script.expectedTools) && same(await agent.graph(), script.expectedGraph) && script.expectedAnswer.test(run.final.message);
      const path = offlineReader ? 'offline reader' : 'model path';
      row[`${path}: calls`] = agent.scripted.calls.length;
      row[`${path}: steps asked`] = agent.scripted.calls.map((c) => c.step).join(' ') || '-';
      row[`${path}: ms`] = Math.round(spent);
      row[`${path}: outcome`] = ok ? 'as expected' : `UNEXPECTED: ${run.final.message.slice(0, 60)}`;
    }
    rows.push(row);
  }
  console.log('(b) model calls per use case (the person\'s follow-ups included): offline reader first (default, model available) vs every step by the model');
  console.table(rows.map((r) => ({ 'use case': r['use case'], 'offline reader': r['offline reader: calls'], 'model path': r['model path: calls'], 'offline reader: steps asked': r['offline reader: steps asked'], 'model path: steps asked': r['model path: steps asked'] })));
  console.log('graph, calls and answer against the script; ms: the whole script (graph seeded and created anew, follow-ups included)');
  console.table(rows.map((r) => ({ 'use case': r['use case'], 'offline reader': `${r['offline reader: outcome']}, ${r['offline reader: ms']} ms`, 'model path': `${r['model path: outcome']}, ${r['model path: ms']} ms` })));
  const total = (path: string) => rows.reduce((n, r) => n + Number(r[`${path}: calls`]), 0);
  console.log(`model calls for the seven: ${total('offline reader')} with the offline reader, ${total('model path')} with every step by the model`);
}

// The SDK's warnings are not the bench's output.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
const began = performance.now();
const store = await openGraphStore();
console.log('gateflow bench: task agent (seed 004) on PGlite in memory with Apache AGE (sessions and graph in one database)');
try {
  await runtimeCost(store);
  await modelCalls(store);
} finally {
  await store.close();
}
console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} cores, ${((performance.now() - began) / 1000).toFixed(1)} s`);
