/**
 * The seed's seven use cases (seed 004) as scripts: the person's words, the
 * graph to start from, what the model answers at each step when every step
 * goes to it (offline reader off), what the person answers to an escalation,
 * and the graph, the calls and the words expected after. One source for the
 * tests (test/task-agent/openai-server.test.ts) and the bench
 * (test/bench/task-agent.ts); `runScript` drives one through a runtime.
 *
 * The model's answers are parsed with the step's schema when this module
 * loads, so a script the agent would refuse fails at once, not mid-run.
 */
import type { GraphSnapshot, NewNode } from '../../src/graph/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { AnswerSchema, DiagnosisSchema, StepPlanSchema, type Answer, type Diagnosis, type GoalSpec, type StepPlan } from '../../src/task-agent/schemas.js';
import { goalSpec } from '../helpers/task-agent.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';

/** A model step, by its output schema's name (what `response_format.json_schema.name` says). */
export type ModelStep = 'GoalSpec' | 'StepPlan' | 'Diagnosis' | 'Answer';

export interface ScriptModel {
  GoalSpec?: GoalSpec[];
  StepPlan?: StepPlan[];
  Diagnosis?: Diagnosis[];
  Answer?: Answer[];
}

export interface TaskAgentScript {
  /** e.g. `UC1 complex goal`. */
  name: string;
  /** The seed's prompt, word for word. */
  goal: string;
  /** Nodes in the graph before the goal (committed, owner null). */
  seed?: NewNode[];
  /** The model's answer to each call of each step, in order, on the model path. */
  model: ScriptModel;
  /** The steps the model is asked, in order, on the model path (offline reader off). */
  modelSteps: ModelStep[];
  /** What the person answers to each escalation, in order (the value of its one input gate). */
  followUps: string[];
  /** What the agent says: each escalation (one per follow-up), and the last reply. */
  expectedEscalations: RegExp[];
  expectedAnswer: RegExp;
  /** The graph after (properties never hold `key`: it is the node's own field). */
  expectedGraph: GraphSnapshot;
  /** The calls tried, as `tool:ok` or `tool:failed`, in order. */
  expectedTools: string[];
}

const plan = (p: StepPlan): StepPlan => StepPlanSchema.parse(p);
const answer = (message: string): Answer => AnswerSchema.parse({ message });
// Diagnosis is parsed too when a script has one; none of the seven needs it: every failure
// they meet (an unclear goal, a contradiction, an unknown tool, an unsupported goal) is
// diagnosed by rule (src/task-agent/diagnose.ts).
export const diagnosis = (d: Diagnosis): Diagnosis => DiagnosisSchema.parse(d);

const ticket123 = { label: 'Ticket', key: 'TICKET-123', properties: { summary: 'Fix login button', status: 'open' } };
const john = { label: 'User', key: 'john.doe', properties: { name: 'John Doe' } };
const reports = { type: 'REPORTS', from: { label: 'User', key: 'john.doe' }, to: { label: 'Ticket', key: 'TICKET-123' }, properties: {} };
const ticket9 = { label: 'Ticket', key: 'TICKET-9', properties: { summary: 'Old bug', status: 'closed' } };
const TOOLS = 'add_node, add_edge, update_props, delete_node, delete_edge, query_graph, cypher_query';

export const UC1_COMPLEX: TaskAgentScript = {
  name: 'UC1 complex goal',
  goal: "Create a new 'Ticket' node with the key 'TICKET-123' and the properties 'summary: Fix login button' and 'status: open'. Then, create a new 'User' node with the key 'john.doe' and the property 'name: John Doe'. Finally, create a 'REPORTS' edge from the 'User' node to the 'Ticket' node.",
  model: {
    GoalSpec: [
      goalSpec({
        summary: 'Create Ticket TICKET-123, User john.doe and a REPORTS edge from the user to the ticket',
        entities: [
          { kind: 'node', label: 'Ticket', key: 'TICKET-123' },
          { kind: 'node', label: 'User', key: 'john.doe' },
          { kind: 'edge', label: 'REPORTS', key: null },
        ],
        constraints: [
          { subject: 'Ticket TICKET-123', property: 'summary', value: 'Fix login button' },
          { subject: 'Ticket TICKET-123', property: 'status', value: 'open' },
          { subject: 'User john.doe', property: 'name', value: 'John Doe' },
        ],
        confidence: 0.95,
      }),
    ],
    StepPlan: [
      plan({ rationale: 'The ticket first', call: { tool: 'add_node', args: { label: 'Ticket', key: 'TICKET-123', properties: { summary: 'Fix login button', status: 'open' } } }, isFinalStep: false }),
      plan({ rationale: 'Then the user', call: { tool: 'add_node', args: { label: 'User', key: 'john.doe', properties: { name: 'John Doe' } } }, isFinalStep: false }),
      plan({
        rationale: 'Finally the edge from the user to the ticket',
        call: { tool: 'add_edge', args: { type: 'REPORTS', from: { label: 'User', key: 'john.doe' }, to: { label: 'Ticket', key: 'TICKET-123' } } },
        isFinalStep: true,
      }),
    ],
    Answer: [answer("Successfully created node 'Ticket' (TICKET-123), node 'User' (john.doe), and a 'REPORTS' edge between them.")],
  },
  modelSteps: ['GoalSpec', 'StepPlan', 'StepPlan', 'StepPlan', 'Answer'],
  followUps: [],
  expectedEscalations: [],
  expectedAnswer: /create edge REPORTS from User 'john\.doe' to Ticket 'TICKET-123': done/,
  expectedGraph: { nodes: [ticket123, john], edges: [reports] },
  expectedTools: ['add_node:ok', 'add_node:ok', 'add_edge:ok'],
};

export const UC2_AMBIGUOUS: TaskAgentScript = {
  name: 'UC2 ambiguous request',
  goal: 'My dashboard is broken. Fix it.',
  seed: [{ label: 'Dashboard', key: 'main', properties: { status: 'broken' } }],
  model: {
    GoalSpec: [
      goalSpec({ intent: 'unclear', summary: 'Fix a broken dashboard', entities: [{ kind: 'node', label: 'Dashboard', key: null }], confidence: 0.2 }),
      goalSpec({
        intent: 'update',
        summary: 'Set the status of Dashboard main to fixed',
        entities: [{ kind: 'node', label: 'Dashboard', key: 'main' }],
        constraints: [{ subject: 'Dashboard main', property: 'status', value: 'fixed' }],
        complexity: 'simple',
        step: { tool: 'update_props', args: { target: { kind: 'node', label: 'Dashboard', key: 'main' }, set: { status: 'fixed' } } },
      }),
    ],
    Answer: [answer('The main dashboard is now marked fixed.')],
  },
  modelSteps: ['GoalSpec', 'GoalSpec', 'Answer'],
  // Explicit enough for the offline reader too.
  followUps: ["Set the status of Dashboard 'main' to 'fixed'."],
  expectedEscalations: [/I need more information to help/],
  expectedAnswer: /update node Dashboard 'main': set status = "fixed": done/,
  expectedGraph: { nodes: [{ label: 'Dashboard', key: 'main', properties: { status: 'fixed' } }], edges: [] },
  expectedTools: ['update_props:ok'],
};

export const UC3_SIMPLE: TaskAgentScript = {
  name: 'UC3 simple goal',
  goal: 'Find all open tickets.',
  seed: [ticket123, ticket9],
  model: {
    GoalSpec: [
      goalSpec({
        intent: 'query',
        summary: 'Find the Ticket nodes whose status is open',
        entities: [{ kind: 'node', label: 'Ticket', key: null }],
        constraints: [{ subject: 'Ticket nodes', property: 'status', value: 'open' }],
        complexity: 'simple',
        step: { tool: 'query_graph', args: { label: 'Ticket', where: { status: 'open' } } },
      }),
    ],
    Answer: [answer('One ticket is open: TICKET-123, Fix login button.')],
  },
  modelSteps: ['GoalSpec', 'Answer'],
  followUps: [],
  expectedEscalations: [],
  // One found: TICKET-9 is closed. (Properties are listed in the store's order.)
  expectedAnswer: /found 1: Ticket 'TICKET-123' \([^)]*status: open/,
  expectedGraph: { nodes: [ticket123, ticket9], edges: [] },
  expectedTools: ['query_graph:ok'],
};

export const UC4_UPDATE: TaskAgentScript = {
  name: 'UC4 update',
  goal: "Update the status of ticket TICKET-123 to 'in progress'.",
  seed: [ticket123],
  model: {
    GoalSpec: [
      goalSpec({
        intent: 'update',
        summary: 'Set the status of Ticket TICKET-123 to in progress',
        entities: [{ kind: 'node', label: 'Ticket', key: 'TICKET-123' }],
        constraints: [{ subject: 'Ticket TICKET-123', property: 'status', value: 'in progress' }],
        complexity: 'simple',
        step: { tool: 'update_props', args: { target: { kind: 'node', label: 'Ticket', key: 'TICKET-123' }, set: { status: 'in progress' } } },
      }),
    ],
    Answer: [answer('TICKET-123 is now in progress.')],
  },
  modelSteps: ['GoalSpec', 'Answer'],
  followUps: [],
  expectedEscalations: [],
  expectedAnswer: /update node Ticket 'TICKET-123': set status = "in progress": done/,
  expectedGraph: { nodes: [{ ...ticket123, properties: { ...ticket123.properties, status: 'in progress' } }], edges: [] },
  expectedTools: ['update_props:ok'],
};

export const UC5_HALLUCINATION: TaskAgentScript = {
  name: 'UC5 hallucinated tool',
  goal: 'Use the `send_email` tool to notify the team about the new ticket.',
  model: {
    // The model takes the person's tool name at its word: route_tool is what refuses it.
    GoalSpec: [
      goalSpec({
        intent: 'mixed',
        summary: 'Notify the team about the new ticket by email',
        complexity: 'simple',
        step: { tool: 'send_email', args: { to: 'team', subject: 'New ticket' } },
      }),
    ],
    Answer: [answer("I did not send anything: I have no send_email tool.")],
  },
  modelSteps: ['GoalSpec', 'Answer'],
  followUps: ['stop'],
  expectedEscalations: [new RegExp(`I'm sorry, I don't have a \`send_email\` tool\\. What I can do: ${TOOLS}\\.`)],
  expectedAnswer: /Stopped as you asked\.[\s\S]*call send_email: not done[\s\S]*Nothing was changed in the graph\./,
  expectedGraph: { nodes: [], edges: [] },
  expectedTools: ['send_email:failed'],
};

export const UC6_CONTRADICTION: TaskAgentScript = {
  name: 'UC6 contradiction',
  goal: "Create a new ticket with the key 'TICKET-456' and the status 'open'. The ticket should be closed.",
  model: {
    // The one call as asked first; the person's choice replaces the contested value in it.
    GoalSpec: [
      goalSpec({
        summary: 'Create Ticket TICKET-456',
        entities: [{ kind: 'node', label: 'Ticket', key: 'TICKET-456' }],
        complexity: 'simple',
        contradictions: [{ subject: 'Ticket TICKET-456', property: 'status', values: ['open', 'closed'] }],
        step: { tool: 'add_node', args: { label: 'Ticket', key: 'TICKET-456', properties: { status: 'open' } } },
      }),
    ],
    Answer: [answer('Created TICKET-456 as closed.')],
  },
  modelSteps: ['GoalSpec', 'Answer'],
  followUps: ['closed'],
  expectedEscalations: [/both 'open' and 'closed'\. Which should it be\?/],
  expectedAnswer: /create node Ticket 'TICKET-456': done/,
  expectedGraph: { nodes: [{ label: 'Ticket', key: 'TICKET-456', properties: { status: 'closed' } }], edges: [] },
  expectedTools: ['add_node:ok'],
};

export const UC7_OUT_OF_SCOPE: TaskAgentScript = {
  name: 'UC7 out of scope',
  goal: "What's the weather like in London?",
  model: {
    GoalSpec: [
      goalSpec({
        intent: 'unsupported',
        summary: 'The weather in London',
        complexity: 'simple',
        confidence: 0.95,
        unsupportedReason: "I can't provide weather information",
      }),
    ],
  },
  // No call was tried, so the answer needs no model: the escalation's words are the answer.
  modelSteps: ['GoalSpec'],
  followUps: [],
  expectedEscalations: [],
  expectedAnswer: /^I'm sorry, I am a graph agent: .*I can't provide weather information\.$/,
  expectedGraph: { nodes: [], edges: [] },
  expectedTools: [],
};

export const SCRIPTS: readonly TaskAgentScript[] = [UC1_COMPLEX, UC2_AMBIGUOUS, UC3_SIMPLE, UC4_UPDATE, UC5_HALLUCINATION, UC6_CONTRADICTION, UC7_OUT_OF_SCOPE];

type Steps = { tool: string; ok: boolean }[];
/** The calls a reply lists (its TASK_STEPS artifact), as `tool:ok` or `tool:failed`. */
export const toolsOf = (reply: ReplyEnvelope): string[] =>
  ((reply.artifacts.find((a) => a.type === 'TASK_STEPS')?.steps as Steps | undefined) ?? []).map((s) => `${s.tool}:${s.ok ? 'ok' : 'failed'}`);

export interface ScriptRun {
  sessionId: string;
  /** The reply to the goal, then one per follow-up. */
  replies: ReplyEnvelope[];
  final: ReplyEnvelope;
}

/**
 * Drives a script: seeds the graph, starts a session, sends the goal, and
 * answers each escalation's one input gate with the next follow-up. Throws
 * when the agent does not wait where the script has a follow-up.
 */
export async function runScript(agent: { runtime: Runtime; seed(...nodes: NewNode[]): Promise<void> }, script: TaskAgentScript): Promise<ScriptRun> {
  if (script.seed?.length) await agent.seed(...script.seed);
  const { sessionId } = await agent.runtime.start('task-agent');
  const replies = [await agent.runtime.turn(sessionId, { text: script.goal })];
  for (const value of script.followUps) {
    const last = replies.at(-1)!;
    const gate = last.inputs?.[0];
    if (last.status !== 'waiting' || !gate)
      throw new Error(`${script.name}: expected the agent to wait for "${value}", but it is ${last.status}: ${last.message}`);
    replies.push(await agent.runtime.answer(gate.gateId, value));
  }
  return { sessionId, replies, final: replies.at(-1)! };
}
