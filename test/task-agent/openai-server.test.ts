/**
 * The seven use cases (seed 004) with every step asked of a model over real
 * HTTP: the local OpenAI-compatible server (test/helpers/openai-compatible-server.ts)
 * answers each chat completion with the script's object for the step the
 * request names (`response_format.json_schema.name`), and @ai-sdk/openai talks
 * to it as to any compatible server. The graph is asserted after each, and
 * the requests made. Then the server failing: HTTP 500 for every plan, and
 * answers that are not JSON: the agent tells the person and writes nothing.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';
import {
  respond,
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
  type RecordedRequest,
  type Responder,
} from '../helpers/openai-compatible-server.js';
import { openGraphStore, taskAgentRuntime } from '../helpers/task-agent.js';
import { runScript, SCRIPTS, toolsOf, UC1_COMPLEX, type ModelStep, type TaskAgentScript } from './scripts.js';

// The SDK warns on every request that OpenAI ignores `propertyNames` (ToolSignature.args is a
// record); that is expected here, and would bury the test output.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

let server: OpenAICompatibleServer;
let store: Store;

beforeAll(async () => {
  server = await startOpenAICompatibleServer();
  store = await openGraphStore();
});
afterAll(async () => {
  await server?.close();
  await store?.close();
});
beforeEach(async () => {
  server.reset();
  // One database for the file: each case starts from an empty graph.
  await store.sql!.query("SELECT * FROM ag_catalog.drop_graph('gateflow_graph', true)").catch(() => undefined);
});
afterEach(() => {
  // Responders queued and never asked for would hide a missing call.
  expect(server.pending()).toBe(0);
});

/** The step a request asks for: the name of its response format's JSON schema. */
const stepOf = (request: RecordedRequest): string => {
  const body = request.body as { response_format?: { type?: string; json_schema?: { name?: string } } };
  return body.response_format?.type === 'json_schema' ? (body.response_format.json_schema?.name ?? '?') : '?';
};

/** Answers each request with the script's next object for the step it names. */
function scriptedResponder(script: TaskAgentScript): Responder {
  const queues = Object.fromEntries(Object.entries(script.model).map(([step, answers]) => [step, [...(answers as unknown[])]]));
  return (request, res) => {
    const next = queues[stepOf(request)]?.shift();
    if (next === undefined) return respond.error(500, `the script has no ${stepOf(request)} answer left`)(request, res);
    return respond.json(next)(request, res);
  };
}

const agentOn = (s: OpenAICompatibleServer) =>
  taskAgentRuntime(store, { model: createOpenAI({ baseURL: s.baseURL, apiKey: 'test' }).chat('gpt-4o-mini'), offlineReader: false });

describe('the seven use cases, every step by a model over HTTP', () => {
  it.each(SCRIPTS.map((s) => [s.name, s] as const))('%s', async (_name, script) => {
    const responder = scriptedResponder(script);
    server.enqueue(...script.modelSteps.map(() => responder));
    const agent = agentOn(server);

    const run = await runScript(agent, script);

    expect(run.replies.slice(0, -1).map((r) => r.status)).toEqual(script.followUps.map(() => 'waiting'));
    run.replies.slice(0, -1).forEach((reply, i) => expect(reply.message).toMatch(script.expectedEscalations[i]!));
    expect(run.final.status).toBe('done');
    expect(run.final.message).toMatch(script.expectedAnswer);
    expect(toolsOf(run.final)).toEqual(script.expectedTools);
    expect(await agent.graph()).toEqual(script.expectedGraph);

    expect(server.requests.map(stepOf)).toEqual(script.modelSteps);
    expect(server.requests.every((r) => r.path === '/v1/chat/completions' && (r.body as { model?: string }).model === 'gpt-4o-mini')).toBe(true);
    // The model's own sentences lead the answer when one was asked for.
    const said = script.model.Answer?.[0]?.message;
    if (said) expect(run.final.message.startsWith(said)).toBe(true);
  });
});

describe('the server failing: the person is told, nothing is written', () => {
  const byStep =
    (answers: Partial<Record<ModelStep, Responder>>): Responder =>
    (request, res) =>
      (answers[stepOf(request) as ModelStep] ?? respond.error(500, 'unexpected step'))(request, res);

  it('HTTP 500 for every plan: each plan is sent twice (one SDK retry), re-planned up to the budget, then the agent asks', async () => {
    const goalSpec = UC1_COMPLEX.model.GoalSpec![0]!;
    // 1 GoalSpec, then 4 plans (the first and 3 retries of the budget), each sent twice.
    const responder = byStep({ GoalSpec: respond.json(goalSpec), StepPlan: respond.error(500, 'the model server is down') });
    server.enqueue(...Array.from({ length: 9 }, () => responder));
    const agent = agentOn(server);
    const { sessionId } = await agent.runtime.start('task-agent');

    const reply = await agent.runtime.turn(sessionId, { text: UC1_COMPLEX.goal });

    expect(server.requests.map(stepOf)).toEqual(['GoalSpec', ...Array.from({ length: 8 }, () => 'StepPlan')]);
    expect(reply.status).toBe('waiting');
    expect(reply.message).toMatch(/^I tried 4 times and could not finish: the model call failed: the model service answered with an error \(HTTP 500\).* How should I go on\? \(Or answer "stop"\.\)$/s);
    expect(toolsOf(reply)).toEqual([]);
    expect(await agent.graph()).toEqual({ nodes: [], edges: [] });

    const end = await agent.runtime.answer(reply.inputs![0]!.gateId, 'stop');
    expect(end.status).toBe('done');
    expect(end.message).toMatch(/^Stopped as you asked\.\n\nNothing was changed in the graph\.\nNot done: Create Ticket TICKET-123/);
    // No call was tried: the answer needs no model.
    expect(server.requests).toHaveLength(9);
    expect(await agent.graph()).toEqual({ nodes: [], edges: [] });
  });

  it('an answer that is not JSON: the goal is refused as malformed, nothing is planned, and the agent asks again', async () => {
    const notJson = respond.content('Sure! Here is the plan: {tool: add_node, label: Ticket');
    server.enqueue(notJson);
    const agent = agentOn(server);
    const { sessionId } = await agent.runtime.start('task-agent');

    const reply = await agent.runtime.turn(sessionId, { text: UC1_COMPLEX.goal });

    // A goal that was not read is never planned from: one request, then the person.
    expect(server.requests.map(stepOf)).toEqual(['GoalSpec']);
    expect(reply.status).toBe('waiting');
    expect(reply.message).toMatch(/^I could not read your request: the model answered outside the expected form: .*\. Send it again, or put it as an explicit command/s);
    expect(toolsOf(reply)).toEqual([]);
    expect(await agent.graph()).toEqual({ nodes: [], edges: [] });

    const end = await agent.runtime.answer(reply.inputs![0]!.gateId, 'stop');
    expect(end.status).toBe('done');
    expect(end.message).toMatch(/Nothing was changed in the graph\./);
    expect(await agent.graph()).toEqual({ nodes: [], edges: [] });
  });
});
