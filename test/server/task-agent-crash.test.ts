/**
 * The task agent's graph changes commit with the session's snapshot (issue 13)
 * across a real crash: `gateflow serve` (PGlite with Apache AGE, a model
 * behind a local OpenAI-compatible server) is killed with SIGKILL in the
 * middle of a goal, after its first tool call (add_node) was previewed and
 * while it waits for the model to plan the second. Started again on the same
 * directory, nothing of the turn is there: not the node, not the turn. The
 * same turn sent again (same turnId) runs from the stored snapshot and
 * applies both writes once; sent once more, it is answered from the journal
 * without the model and changes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GraphSnapshot } from '../../src/graph/model.js';
import { AnswerSchema, StepPlanSchema, type StepPlan } from '../../src/task-agent/schemas.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import { fetchSession, freshDataDir } from '../helpers/browser-server.js';
import { respond, startOpenAICompatibleServer, type OpenAICompatibleServer, type RecordedRequest, type Responder } from '../helpers/openai-compatible-server.js';
import { killServers, spawnServe, type ServeProcess } from '../helpers/serve-process.js';
import { goalSpec, graphTemplate } from '../helpers/task-agent.js';
import { PATIENCE_MS } from '../helpers/patience.js';

/** A goal the offline reader does not read: every step goes to the model. */
const GOAL = 'please sort out the login ticket and its reporter';
const TURN = { text: GOAL, turnId: 'goal-1' };

const SPEC = goalSpec({
  summary: 'Create Ticket T-1 for the login problem and User ann who reported it',
  entities: [
    { kind: 'node', label: 'Ticket', key: 'T-1' },
    { kind: 'node', label: 'User', key: 'ann' },
  ],
});
const ticket = { label: 'Ticket', key: 'T-1', properties: { summary: 'Login fails', status: 'open' } };
const ann = { label: 'User', key: 'ann', properties: { name: 'Ann' } };
const PLAN_TICKET: StepPlan = StepPlanSchema.parse({ rationale: 'The ticket first', call: { tool: 'add_node', args: ticket }, isFinalStep: false });
const PLAN_USER: StepPlan = StepPlanSchema.parse({ rationale: 'Then its reporter', call: { tool: 'add_node', args: ann }, isFinalStep: true });
const ANSWER = AnswerSchema.parse({ message: 'I created ticket T-1 and user ann.' });

/** The step a request asks for: its response format's JSON schema name (GoalSpec, StepPlan, Answer). */
const stepOf = (request: RecordedRequest): string =>
  (request.body as { response_format?: { json_schema?: { name?: string } } }).response_format?.json_schema?.name ?? '?';
/** The person's side of a request: the user message (plan_step's "Done so far"). */
const promptOf = (request: RecordedRequest): string =>
  ((request.body as { messages?: { role: string; content: unknown }[] }).messages ?? [])
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');

/** Answers each request with the next answer queued for its step; `'hang'` never answers. */
function byStep(answers: Record<string, (unknown | 'hang')[]>): Responder {
  return (request, res) => {
    const next = answers[stepOf(request)]?.shift();
    if (next === 'hang') return; // the response stays open until the client goes away
    if (next === undefined) return respond.error(500, `no ${stepOf(request)} answer left`)(request, res);
    return respond.json(next)(request, res);
  };
}

type Steps = { tool: string; ok: boolean }[];
const toolsOf = (reply: ReplyEnvelope) =>
  ((reply.artifacts.find((a) => a.type === 'TASK_STEPS')?.steps as Steps | undefined) ?? []).map((s) => `${s.tool}:${s.ok ? 'ok' : 'failed'}`);
const byKey = (a: { label: string; key: string }, b: { label: string; key: string }) => `${a.label}:${a.key}`.localeCompare(`${b.label}:${b.key}`);

async function post<T>(server: ServeProcess, path: string, body: unknown = {}): Promise<{ status: number; json: T }> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(PATIENCE_MS),
  });
  return { status: response.status, json: (await response.json()) as T };
}

async function graphOf(server: ServeProcess): Promise<GraphSnapshot> {
  const response = await fetch(`${server.url}/api/graph`, { signal: AbortSignal.timeout(PATIENCE_MS) });
  expect(response.status).toBe(200);
  const graph = (await response.json()) as GraphSnapshot;
  return { nodes: [...graph.nodes].sort(byKey), edges: graph.edges };
}

async function turn(server: ServeProcess, sessionId: string): Promise<ReplyEnvelope> {
  const { status, json } = await post<ReplyEnvelope>(server, `/api/sessions/${sessionId}/turns`, TURN);
  expect(status, JSON.stringify(json)).toBe(200);
  return json;
}

describe('the task agent when gateflow serve is killed with SIGKILL mid-goal (PGlite with AGE, a model over HTTP)', () => {
  let base: string;
  let template: string;
  let model: OpenAICompatibleServer;

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'gateflow-task-agent-crash-'));
    [template, model] = await Promise.all([graphTemplate(base), startOpenAICompatibleServer()]);
  });
  afterEach(async () => {
    await killServers();
  });
  afterAll(async () => {
    await killServers();
    await model?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it(
    'leaves nothing of the previewed step after the crash; the turn sent again applies each write once, and once more applies nothing',
    async () => {
      const dir = freshDataDir(template, base, 'db');
      const env = { GATEFLOW_DB_DIR: dir, OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'test', GATEFLOW_MODEL: 'test-model' };
      let server = await spawnServe({ env });
      expect(server.output()).toContain('task agent: task-agent (offline reader, then the model)');

      const started = await post<{ sessionId: string; reply: ReplyEnvelope }>(server, '/api/flows/task-agent/sessions');
      expect(started.status).toBe(201);
      const { sessionId, reply: opening } = started.json;

      // The model reads the goal, plans the ticket, and never answers the second plan.
      const first = byStep({ GoalSpec: [SPEC], StepPlan: [PLAN_TICKET, 'hang'] });
      model.enqueue(first, first, first);
      const inFlight = post(server, `/api/sessions/${sessionId}/turns`, TURN).then(
        () => 'answered',
        () => 'dropped',
      );
      const until = Date.now() + PATIENCE_MS;
      while (model.requests.length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(model.requests.map(stepOf)).toEqual(['GoalSpec', 'StepPlan', 'StepPlan']);
      // The second plan is told the first call ran and succeeded: add_node was previewed before the kill.
      expect(promptOf(model.requests[2]!)).toContain(`Done so far:\n1. add_node ${JSON.stringify(ticket)}: ok`);

      await server.kill();
      expect(server.child.signalCode).toBe('SIGKILL');
      // The client saw the connection drop, not a reply.
      expect(await inFlight).toBe('dropped');

      // Restarted on the same directory, with a model that now answers every step.
      model.reset();
      server = await spawnServe({ env });
      expect(await graphOf(server)).toEqual({ nodes: [], edges: [] });
      const before = await fetchSession(server.url, sessionId);
      expect(before.history).toHaveLength(1);
      expect(before.history[0]!.turn).toBeNull();
      expect(before.reply).toEqual(opening);
      // Nothing ran the turn again on its own.
      expect(model.requests).toHaveLength(0);

      const second = byStep({ GoalSpec: [SPEC], StepPlan: [PLAN_TICKET, PLAN_USER], Answer: [ANSWER] });
      model.enqueue(second, second, second, second);
      const done = await turn(server, sessionId);
      expect(done.status).toBe('done');
      expect(done.completion).toMatchObject({ isComplete: true, reason: 'completed' });
      expect(done.message.startsWith(ANSWER.message)).toBe(true);
      expect(toolsOf(done)).toEqual(['add_node:ok', 'add_node:ok']);
      // The turn ran again from the stored snapshot: nothing was done when it planned the first step.
      expect(model.requests.map(stepOf)).toEqual(['GoalSpec', 'StepPlan', 'StepPlan', 'Answer']);
      expect(promptOf(model.requests[1]!)).toContain('Nothing done yet.');
      expect(model.pending()).toBe(0);
      const graph = await graphOf(server);
      expect(graph).toEqual({ nodes: [ticket, ann], edges: [] });

      // Sent once more with the same turnId: the stored reply, no model call, nothing applied again.
      expect(await turn(server, sessionId)).toEqual(done);
      expect(model.requests).toHaveLength(4);
      expect(await graphOf(server)).toEqual(graph);
      const after = await fetchSession(server.url, sessionId);
      expect(after.history).toHaveLength(2);
      expect(after.history.map((e) => e.turn?.turnId ?? null)).toEqual([null, TURN.turnId]);
      expect(after.history[1]!.reply).toEqual(done);
    },
  );
});
