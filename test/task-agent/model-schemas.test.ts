/**
 * What the task agent's model calls are sent (issue 27 §4): a schema that
 * tells a grammar-constrained server what is valid (`tool` one of the
 * registry's names, `args` that tool's argument schema, one branch per tool),
 * written without keywords the SDK strips with a warning (`propertyNames`),
 * and converted once per registry rather than on every call.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createGraphToolRegistry } from '../../src/graph/tools/graph-tools.js';
import { defineTool } from '../../src/graph/tools/tool.js';
import type { Store } from '../../src/store/types.js';
import { taskAgentModelSchemas } from '../../src/task-agent/model-schemas.js';
import { StepPlanSchema } from '../../src/task-agent/schemas.js';
import { respond, startOpenAICompatibleServer, type OpenAICompatibleServer, type RecordedRequest, type Responder } from '../helpers/openai-compatible-server.js';
import { openGraphStore, scriptedModel, startGoal, taskAgentRuntime } from '../helpers/task-agent.js';
import { runScript, UC1_COMPLEX } from './scripts.js';

type Json = Record<string, unknown>;
const sentSchema = (request: RecordedRequest) => (request.body as { response_format?: { json_schema?: { name?: string; schema?: Json } } }).response_format?.json_schema;
/** The `tool` constants of a call schema's branches. */
const toolsOfBranches = (call: Json | undefined) => ((call?.anyOf ?? call?.oneOf) as Json[] | undefined)?.map((b) => ((b.properties as Json).tool as Json).const);

let server: OpenAICompatibleServer;
let store: Store;
const warnings: { feature?: string }[] = [];

beforeAll(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = (o: { warnings: { feature?: string }[] }) => warnings.push(...o.warnings);
  server = await startOpenAICompatibleServer();
  store = await openGraphStore();
});
afterAll(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = undefined;
  await server?.close();
  await store?.close();
});

describe('the schemas a model is sent', () => {
  it('name every tool of the registry in a branch of its own, and carry no keyword the SDK strips with a warning', async () => {
    const queues = Object.fromEntries(Object.entries(UC1_COMPLEX.model).map(([step, answers]) => [step, [...(answers as unknown[])]]));
    const responder: Responder = (request, res) => respond.json(queues[sentSchema(request)?.name ?? '']!.shift())(request, res);
    server.enqueue(...UC1_COMPLEX.modelSteps.map(() => responder));
    const agent = taskAgentRuntime(store, { model: createOpenAI({ baseURL: server.baseURL, apiKey: 'test' }).chat('gpt-4o-mini'), offlineReader: false });

    const run = await runScript(agent, UC1_COMPLEX);
    expect(run.final.status).toBe('done');

    const names = createGraphToolRegistry().names();
    const plan = server.requests.map(sentSchema).find((s) => s?.name === 'StepPlan')!.schema!;
    const goal = server.requests.map(sentSchema).find((s) => s?.name === 'GoalSpec')!.schema!;
    expect(toolsOfBranches((plan.properties as Json).call as Json)).toEqual(names);
    // GoalSpec's step: a call (one branch per tool) or null.
    const step = (goal.properties as Json).step as Json;
    expect(((step.anyOf as Json[]).find((b) => b.anyOf) as Json | undefined) ?? step).toBeTruthy();
    expect(JSON.stringify(step)).toContain('"const":"add_edge"');
    for (const request of server.requests) expect(JSON.stringify(sentSchema(request)?.schema)).not.toContain('propertyNames');
    expect(warnings.filter((w) => w.feature?.includes('propertyNames'))).toEqual([]);
  });

  it('a branch keeps its tool\'s argument schema, properties keys included (as patternProperties)', () => {
    const plan = taskAgentModelSchemas(createGraphToolRegistry()).stepPlan.jsonSchema as Json;
    const branch = (((plan.properties as Json).call as Json).anyOf as Json[]).find((b) => ((b.properties as Json).tool as Json).const === 'add_node')!;
    const args = (branch.properties as Json).args as Json;
    expect((args.required as string[]).sort()).toEqual(['key', 'label']);
    const properties = (args.properties as Json).properties as Json;
    expect(Object.keys(properties.patternProperties as Json)).toEqual(['^[A-Za-z][A-Za-z0-9_]{0,62}$']);
    expect(properties.additionalProperties).toBe(false);
  });

  it('the answer is still checked against the loose schema: an unknown tool reaches route_tool, which says what is wrong', async () => {
    const schemas = taskAgentModelSchemas(createGraphToolRegistry());
    const answer = { rationale: 'r', call: { tool: 'teleport', args: { to: 'Mars' } }, isFinalStep: true };
    const checked = await schemas.stepPlan.validate!(answer);
    expect(checked.success).toBe(true);
    expect(StepPlanSchema.safeParse(answer).success).toBe(true);
  });

  it('are converted once per registry, and again when tools are added', () => {
    const registry = createGraphToolRegistry();
    const first = taskAgentModelSchemas(registry);
    expect(taskAgentModelSchemas(registry)).toBe(first);
    expect(first.stepPlan.jsonSchema).toBe(first.stepPlan.jsonSchema);
    registry.register(defineTool({ name: 'ping', description: 'Answers pong.', inputSchema: z.strictObject({}), readOnly: true, run: async () => 'pong' }));
    const second = taskAgentModelSchemas(registry);
    expect(second).not.toBe(first);
    expect(toolsOfBranches(((second.stepPlan.jsonSchema as Json).properties as Json).call as Json)).toContain('ping');
  });
});

describe('model output the machine could not use', () => {
  // Found by the chaos model: each contradicting value becomes a button, and a blank one made the runtime throw (HTTP 500).
  it.each([
    ['a blank value', ['open', ' ']],
    ['the same value twice', ['open', 'open']],
  ])('a contradiction with %s is the model answering outside the form: the person is asked, nothing throws', async (_what, values) => {
    const spec = {
      intent: 'create',
      summary: 'a ticket',
      entities: [],
      constraints: [],
      complexity: 'simple',
      confidence: 0.9,
      contradictions: [{ subject: 'Ticket T-1', property: 'status', values }],
      unsupportedReason: null,
      step: null,
    };
    const m = scriptedModel({ GoalSpec: [{ text: JSON.stringify(spec) }] });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false });
    const { reply } = await startGoal(agent, 'make ticket T-1 open and also open');
    expect(reply.status).toBe('waiting');
    expect(reply.message).toMatch(/could not read your request/);
    expect(reply.inputs?.[0]?.name).toBe('clarification');
  });
});
