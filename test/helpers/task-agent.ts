/**
 * The task agent on a real graph for tests: PGlite with Apache AGE holding
 * both the sessions and the graph, the runtime, and a scripted model
 * (`MockLanguageModelV4`) that answers each step by its schema's name
 * (GoalSpec, StepPlan, Diagnosis, Answer) and records what it was sent.
 */
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { LanguageModel } from 'ai';
import { ensureGraphSupport, graphSnapshot, openAgeGraph, type GraphSnapshot, type NewNode } from '../../src/graph/index.js';
import { createGraphToolRegistry } from '../../src/graph/tools/graph-tools.js';
import type { GraphTool } from '../../src/graph/tools/tool.js';
import { join } from 'node:path';
import { createRuntime, type Runtime } from '../../src/runtime/runtime.js';
import type { Store } from '../../src/store/types.js';
import { taskAgentActors, type TaskAgentActorOptions } from '../../src/task-agent/actors.js';
import { taskAgentWorkflow } from '../../src/task-agent/workflow.js';
import { GoalSpecSchema, type GoalSpec } from '../../src/task-agent/schemas.js';
import { templateDataDir, templateStore } from './pglite-template.js';
import type { CallOptions } from './mock-model.js';
import type { GoalLimits } from '../../machines/task-agent.js';
import { textResult } from './mock-model.js';

/** A PGlite store (in memory) with AGE: sessions and graphs in one database. */
export async function openGraphStore(): Promise<Store> {
  const store = await templateStore('graph');
  await ensureGraphSupport(store.sql!);
  return store;
}

/** What the scripted model answers for one call of a step: an object, raw text, or an error. */
export type Scripted = Record<string, unknown> | { text: string } | { error: Error } | ((call: ModelCall) => Record<string, unknown>);

export interface ModelCall {
  /** The schema's name: GoalSpec, StepPlan, Diagnosis, Answer. */
  step: string;
  instructions: string;
  prompt: string;
}

/**
 * A model scripted per step: each call of a step takes the next answer of its
 * queue. A call with nothing left in its queue fails the test loudly.
 */
export function scriptedModel(script: Partial<Record<'GoalSpec' | 'StepPlan' | 'Diagnosis' | 'Answer', Scripted[]>>) {
  const queues = Object.fromEntries(Object.entries(script).map(([k, v]) => [k, [...(v ?? [])]])) as Record<string, Scripted[]>;
  const calls: ModelCall[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async (options: CallOptions) => {
      const format = options.responseFormat;
      const step = format?.type === 'json' && format.name ? format.name : 'text';
      const instructions = options.prompt
        .filter((m) => m.role === 'system')
        .map((m) => (typeof m.content === 'string' ? m.content : ''))
        .join('\n');
      const prompt = options.prompt
        .filter((m) => m.role === 'user')
        .flatMap((m) => m.content)
        .map((part) => (part.type === 'text' ? part.text : ''))
        .join('\n');
      const call = { step, instructions, prompt };
      calls.push(call);
      const next = queues[step]?.shift();
      if (next === undefined) throw new Error(`scripted model: no ${step} answer left (prompt: ${prompt.slice(0, 200)})`);
      if (typeof next === 'function') return textResult(JSON.stringify(next(call)));
      if ('error' in next && next.error instanceof Error) throw next.error;
      if ('text' in next && typeof next.text === 'string') return textResult(next.text);
      return textResult(JSON.stringify(next));
    },
  });
  return { model, calls, left: () => Object.fromEntries(Object.entries(queues).filter(([, q]) => q.length > 0).map(([k, q]) => [k, q.length])) };
}

export interface TaskAgentHarness {
  runtime: Runtime;
  store: Store;
  /** The owner's graph as GET /api/graph gives it. */
  graph(owner?: string | null): Promise<GraphSnapshot>;
  /** Adds nodes straight to the owner's graph (committed), as a test's starting point. */
  seed(...nodes: NewNode[]): Promise<void>;
  clock: { now: Date };
}

/** The runtime serving the task agent on `store`, with the given model (or none) and host tools. */
export function taskAgentRuntime(
  store: Store,
  options: { model?: LanguageModel; tools?: GraphTool[]; retryBudget?: number; answerWithin?: string; limits?: Partial<GoalLimits> } & Partial<Omit<TaskAgentActorOptions, 'registry' | 'model'>> = {},
): TaskAgentHarness {
  const registry = createGraphToolRegistry(...(options.tools ?? []));
  const clock = { now: new Date('2026-11-24T10:00:00.000Z') };
  const { model, tools: _tools, retryBudget, answerWithin, limits, ...actorOptions } = options;
  const runtime = createRuntime({
    workflows: [taskAgentWorkflow({ registry, ...(retryBudget !== undefined && { retryBudget }), ...(answerWithin && { answerWithin }), ...(limits && { limits }) })],
    store,
    clock: () => clock.now,
    actors: taskAgentActors({ database: store.sql!, registry, backoffMs: 1, maxBackoffMs: 5, ...actorOptions, ...(model && { model }) }),
  });
  return {
    runtime,
    store,
    clock,
    seed: (...nodes) =>
      store.sql!.transaction(async (tx) => {
        const graph = await openAgeGraph(tx, { owner: null });
        for (const node of nodes) await graph.addNode(node);
      }),
    graph: (owner = null) => store.sql!.transaction(async (tx) => graphSnapshot(await openAgeGraph(tx, { owner }))),
  };
}

/** A goal spec as the model returns it: a complex create unless said (parsed, so a script cannot drift from the schema). */
export const goalSpec = (over: Partial<GoalSpec> = {}): GoalSpec =>
  GoalSpecSchema.parse({
    intent: 'create',
    summary: 'the goal',
    entities: [],
    constraints: [],
    complexity: 'complex',
    confidence: 0.9,
    contradictions: [],
    unsupportedReason: null,
    step: null,
    ...over,
  });

/**
 * A test file's one graph store: opened before its cases (from the template, with AGE), closed after,
 * its graph emptied before each case. `set` receives the store (`let store: Store; useGraphStore((s) => (store = s));`).
 */
export function useGraphStore(set: (store: Store) => void): void {
  let store: Store | undefined;
  beforeAll(async () => {
    store = await openGraphStore();
    set(store);
  });
  afterAll(async () => {
    await store?.close();
  });
  beforeEach(() => emptyGraph(store!));
}

/** Empties the shared graph (a file's cases share one database). */
export async function emptyGraph(store: Store): Promise<void> {
  await store.sql!.query("SELECT * FROM ag_catalog.drop_graph('gateflow_graph', true)").catch(() => undefined);
}

/** Starts a task-agent session and sends it the goal. */
export async function startGoal(agent: Pick<TaskAgentHarness, 'runtime'>, text: string) {
  const { sessionId } = await agent.runtime.start('task-agent');
  return { sessionId, reply: await agent.runtime.turn(sessionId, { text }) };
}

/** A PGlite directory migrated and with AGE enabled, copied for the server so that it starts without initdb. */
export async function graphTemplate(base: string): Promise<string> {
  return templateDataDir('graph', join(base, 'template'));
}
