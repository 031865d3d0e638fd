/**
 * The input node kind (src/flow/nodes/input.ts): a state that declares what it
 * waits for in its `meta.inputs`, stores each `input.answered` for it (in any
 * order), leaves on `done` with the last one (guards reading the values) and
 * on `timeout` with `input.timedOut`; person turns change nothing there; a
 * restored snapshot continues where it waited. Its checks, its JSON Schema,
 * its reply, and 100% model-based coverage of machines/flows/refund-approval.json.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type Snapshot } from 'xstate';
import type { InputAnsweredEvent, InputTimedOutEvent } from '../../../src/inputs/events.js';
import { declaredInputs } from '../../../src/inputs/declared.js';
import { buildReply } from '../../../src/flow/build-reply.js';
import { compileFlow } from '../../../src/flow/compile.js';
import { startConversation } from '../../../src/flow/conversation.js';
import { flowGraph } from '../../../src/flow/graph.js';
import { flowDocumentJsonSchema } from '../../../src/flow/json-schema.js';
import type { FlowDocument, FlowDocumentInput } from '../../../src/flow/schema.js';
import type { FlowTraceEvent } from '../../../src/flow/trace.js';
import { generateFlowPaths, replayFlowPaths } from '../../../src/testing/model-based.js';
import { TODAY, eventsAt, flow, issues, load, refused, roundTrip } from '../helpers.js';

/** A refund above 100 waits for a manager; at most 100 is approved at once. */
const GATED: FlowDocumentInput = {
  id: 'gated',
  version: 1,
  nodes: [
    { kind: 'question', id: 'amount', prompt: 'How much?', answer: { type: 'number', min: 1, unit: 'EUR' } },
    { kind: 'decision', id: 'size' },
    {
      kind: 'input',
      id: 'approval',
      to: 'manager',
      deadline: 'PT24H',
      message: 'Your refund of {answers.amount} needs a manager.',
      inputs: [
        { name: 'approved', type: 'boolean', description: 'Approve the refund?' },
        { name: 'approved_amount', type: 'number', min: 0, description: 'Approved amount' },
      ],
    },
    { kind: 'terminal', id: 'auto', outcome: 'completed', message: 'Approved at once.' },
    { kind: 'terminal', id: 'yes', outcome: 'completed', message: 'Approved: {answers.approved_amount}.' },
    { kind: 'terminal', id: 'no', outcome: 'completed', message: 'Declined.' },
    { kind: 'terminal', id: 'late', outcome: 'handoff', message: 'A person takes over.' },
  ],
  edges: [
    { from: 'amount', to: 'size' },
    { from: 'size', to: 'approval', guard: 'answers.amount > 100.0' },
    { from: 'size', to: 'auto', guard: 'else' },
    { from: 'approval', to: 'yes', on: 'done', guard: 'answers.approved && answers.approved_amount > 0.0' },
    { from: 'approval', to: 'no', on: 'done', guard: 'else' },
    { from: 'approval', to: 'late', on: 'timeout' },
  ],
};

const STATE = 'gated.approval';
const answered = (name: string, value: unknown, remaining: string[], state = STATE): InputAnsweredEvent =>
  ({ type: 'input.answered', gateId: `in_${name}`, state, name, value, by: 'boss', remaining }) as InputAnsweredEvent;
const timedOut = (names: string[], state = STATE): InputTimedOutEvent => ({ type: 'input.timedOut', state, names });

/** The flow started and driven to the input node (an amount of 250), with its trace. */
function atGate(doc: FlowDocumentInput = GATED) {
  const machine = compileFlow(doc, { today: () => TODAY });
  const actor = createActor(machine);
  const trace: FlowTraceEvent[] = [];
  actor.on('*', (e) => trace.push(e as FlowTraceEvent));
  actor.start();
  actor.send({ type: 'user.text', text: '250' });
  expect(actor.getSnapshot().value).toEqual({ approval: 'waiting' });
  const graph = flowGraph(flow(doc));
  return { machine, actor, trace, reply: () => buildReply(graph, actor.getSnapshot(), 's1') };
}
const valuesOf = (actor: ReturnType<typeof atGate>['actor']) => Object.fromEntries(Object.entries(actor.getSnapshot().context.answers).map(([k, a]) => [k, a.value]));

describe('input nodes: the machine', () => {
  it('declare their inputs in the state meta, with the node-level role and deadline applied to those that name none', () => {
    const doc: FlowDocumentInput = {
      ...GATED,
      nodes: GATED.nodes.map((n) =>
        n.id === 'approval' && n.kind === 'input' ? { ...n, inputs: [...n.inputs, { name: 'note', type: 'string', to: 'auditor', deadline: 'PT1H' }] } : n,
      ),
    };
    const { actor } = atGate(doc);
    expect(declaredInputs(actor.getSnapshot())).toEqual([
      {
        state: STATE,
        inputs: [
          { name: 'approved', type: 'boolean', description: 'Approve the refund?', to: 'manager', deadline: 'PT24H' },
          { name: 'approved_amount', type: 'number', min: 0, description: 'Approved amount', to: 'manager', deadline: 'PT24H' },
          { name: 'note', type: 'string', to: 'auditor', deadline: 'PT1H' },
        ],
      },
    ]);
    expect(compileFlow(doc).root.states.approval!.meta).toMatchObject({ node: 'approval', kind: 'input', place: 'approval' });
  });

  it('take the answers in any order; each is stored as it comes; the last leaves on done and the guards read the values', () => {
    for (const order of [
      ['approved', 'approved_amount'],
      ['approved_amount', 'approved'],
    ]) {
      const { actor, trace } = atGate();
      const values: Record<string, unknown> = { approved: true, approved_amount: 180 };
      actor.send(answered(order[0]!, values[order[0]!], [order[1]!]));
      expect(actor.getSnapshot().value, `after ${order[0]}`).toEqual({ approval: 'waiting' });
      expect(actor.getSnapshot().context.answers[order[0]!]).toEqual({ value: values[order[0]!], confidence: 1, source: 'input', raw: JSON.stringify(values[order[0]!]) });
      actor.send(answered(order[1]!, values[order[1]!], []));
      expect(actor.getSnapshot().value, order.join(' then ')).toBe('yes');
      expect(valuesOf(actor)).toEqual({ amount: 250, approved: true, approved_amount: 180 });
      expect(trace.filter((e) => e.type === 'answer.committed' && e.source === 'input').map((e) => (e as { key: string }).key)).toEqual(order);
    }
  });

  it('leave on the done edge whose guard holds for the values given', () => {
    const ends: Record<string, unknown> = {};
    for (const [approved, amount] of [
      [true, 90],
      [false, 90],
      [true, 0],
    ] as const) {
      const { actor, reply } = atGate();
      actor.send(answered('approved', approved, ['approved_amount']));
      actor.send(answered('approved_amount', amount, []));
      ends[`${approved} ${amount}`] = [actor.getSnapshot().value, reply().message];
    }
    expect(ends).toEqual({ 'true 90': ['yes', 'Approved: 90.'], 'false 90': ['no', 'Declined.'], 'true 0': ['no', 'Declined.'] });
  });

  it('stay after a partial answer, the reply still waiting for the rest', () => {
    const { actor, reply } = atGate();
    expect(reply()).toMatchObject({
      message: 'Your refund of 250 EUR needs a manager.\n\nWaiting for a manager: Approve the refund?, Approved amount.',
      buttons: null,
      buttonContext: null,
      completion: { isComplete: false, reason: 'awaiting_input', readyForHandoff: false },
    });
    actor.send(answered('approved_amount', 120, ['approved']));
    expect(actor.getSnapshot().value).toEqual({ approval: 'waiting' });
    expect(reply().message).toBe('Your refund of 250 EUR needs a manager.\n\nWaiting for a manager: Approve the refund?');
    expect(reply().completion.reason).toBe('awaiting_input');
  });

  it('ignore answers for another state, to a name they do not have, or with a value the input does not allow', () => {
    const { actor, trace } = atGate();
    const before = trace.length;
    actor.send(answered('approved', true, [], 'gated.other'));
    actor.send(answered('approved_amount_x', 5, []));
    actor.send(answered('approved', 'maybe', []));
    actor.send(answered('approved_amount', -5, []));
    actor.send(answered('approved_amount', { amount: 5 }, []));
    expect(actor.getSnapshot().value).toEqual({ approval: 'waiting' });
    expect(valuesOf(actor)).toEqual({ amount: 250 });
    expect(trace.slice(before)).toEqual([]);
  });

  it('leave on timeout when a deadline passes; a timeout for another state changes nothing', () => {
    const { actor, reply } = atGate();
    actor.send(timedOut(['approved'], 'gated.other'));
    expect(actor.getSnapshot().value).toEqual({ approval: 'waiting' });
    actor.send(answered('approved', true, ['approved_amount']));
    actor.send(timedOut(['approved_amount']));
    expect(actor.getSnapshot().value).toBe('late');
    expect(actor.getSnapshot().output).toEqual({ outcome: 'handoff', terminal: 'late', stoppedBy: null });
    expect(reply().completion).toEqual({ isComplete: true, reason: 'handed_off', readyForHandoff: true });
  });

  it("change nothing on the person's turns: no answer, no attempt, the same waiting reply", () => {
    const { actor, trace, reply } = atGate();
    const waiting = reply();
    const context = actor.getSnapshot().context;
    const before = trace.length;
    for (const turn of [
      { type: 'user.text', text: 'yes, approve it' },
      { type: 'user.text', text: '250' },
      { type: 'user.button', value: 'true' },
    ] as const)
      actor.send(turn);
    expect(actor.getSnapshot().value).toEqual({ approval: 'waiting' });
    expect(actor.getSnapshot().context).toEqual(context);
    expect(trace.slice(before)).toEqual([]);
    expect(reply()).toEqual(waiting);
  });

  it('continue from a restored snapshot: nothing before the wait runs again, and the answers finish it', () => {
    const { machine, actor } = atGate();
    actor.send(answered('approved', true, ['approved_amount']));
    const saved = roundTrip(actor.getPersistedSnapshot()) as Snapshot<unknown>;
    actor.stop();
    const restored = createActor(machine, { snapshot: saved as never });
    const trace: FlowTraceEvent[] = [];
    restored.on('*', (e) => trace.push(e as FlowTraceEvent));
    restored.start();
    expect(restored.getSnapshot().value).toEqual({ approval: 'waiting' });
    expect(trace).toEqual([]);
    expect(declaredInputs(restored.getSnapshot()).map((d) => d.state)).toEqual([STATE]);
    restored.send(answered('approved_amount', 200, []));
    expect(restored.getSnapshot().value).toBe('yes');
    expect(trace.map((e) => e.type)).toEqual(['answer.committed', 'node.exit', 'guard.evaluated', 'node.enter', 'node.exit']);
    expect(Object.fromEntries(Object.entries(restored.getSnapshot().context.answers).map(([k, a]) => [k, a.value]))).toEqual({ amount: 250, approved: true, approved_amount: 200 });
  });

  it('wait for the person in the conversation when no role is named, and need no timeout edge without a deadline', () => {
    const doc: FlowDocumentInput = {
      id: 'own',
      version: 1,
      nodes: [
        { kind: 'input', id: 'pick', inputs: [{ name: 'day', type: 'date', description: 'Your preferred day' }, { name: 'size', type: 'enum', options: ['S', 'M', 'L'] }] },
        { kind: 'terminal', id: 'end', outcome: 'completed', message: 'Size {answers.size} on {answers.day}.' },
      ],
      edges: [{ from: 'pick', to: 'end', on: 'done' }],
    };
    const machine = compileFlow(doc, { today: () => TODAY });
    const actor = createActor(machine).start();
    const graph = flowGraph(flow(doc));
    expect(buildReply(graph, actor.getSnapshot(), 's').message).toBe('Waiting for your answer: Your preferred day, size.');
    expect(machine.root.states.pick!.states.waiting!.on['input.timedOut']).toBeUndefined();
    actor.send(answered('size', 'XL', [], 'own.pick'));
    actor.send(answered('size', 'M', ['day'], 'own.pick'));
    actor.send(answered('day', '2026-12-01', [], 'own.pick'));
    expect(actor.getSnapshot().value).toBe('end');
    expect(buildReply(graph, actor.getSnapshot(), 's').message).toBe('Size M on 2026-12-01.');
  });
});

describe('input nodes: checks', () => {
  const gated = (): FlowDocumentInput & { nodes: Record<string, unknown>[]; edges: Record<string, unknown>[] } => roundTrip(GATED) as never;
  const gate = (d: ReturnType<typeof gated>) => d.nodes[2] as { inputs: Record<string, unknown>[] } & Record<string, unknown>;

  it('the example and the fixture are sound', () => {
    expect(issues(GATED)).toEqual([]);
    expect(issues(load('refund-approval.json'))).toEqual([]);
  });

  it('refuse json inputs: a flow answer is text, a number or yes/no', () => {
    const d = gated();
    gate(d).inputs.push({ name: 'details', type: 'json', schema: { type: 'object' } });
    expect(issues(d)).toEqual([
      {
        path: ['nodes', 2, 'inputs', 2, 'type'],
        message:
          'input "details" is json: a flow\'s answers are text, numbers and yes/no, so its inputs are boolean, number, integer, string, enum, date, email (json inputs are for machines written in code)',
        node: 'approval',
      },
    ]);
  });

  it('need a done edge, and a timeout edge when an input has a deadline and no default', () => {
    const noDone = gated();
    noDone.edges = noDone.edges.filter((e) => e.on !== 'done');
    expect(issues(noDone)).toContainEqual({ path: ['nodes', 2], message: 'input "approval" has no "done" edge to continue on once every input is answered', node: 'approval' });

    const noTimeout = gated();
    noTimeout.edges = noTimeout.edges.filter((e) => e.on !== 'timeout');
    noTimeout.nodes = noTimeout.nodes.filter((n) => n.id !== 'late');
    expect(issues(noTimeout)).toEqual([{ path: ['nodes', 2, 'deadline'], message: 'input "approval" has a deadline but no "timeout" edge to follow when it passes with no answer', node: 'approval' }]);

    // A deadline of one input only: the error points at it.
    const own = roundTrip(noTimeout);
    delete gate(own).deadline;
    gate(own).inputs[1]!.deadline = 'PT2H';
    expect(issues(own)).toEqual([{ path: ['nodes', 2, 'inputs', 1, 'deadline'], message: 'input "approval" has a deadline but no "timeout" edge to follow when it passes with no answer', node: 'approval' }]);
  });

  it('refuse a timeout edge that is never taken: no deadline, or every input with one has a default', () => {
    const noDeadline = gated();
    delete gate(noDeadline).deadline;
    const message = 'input "approval" has a "timeout" edge but can never time out: no input has a deadline without a default';
    expect(issues(noDeadline)).toEqual([{ path: ['nodes', 2], message, node: 'approval' }]);
    const defaults = gated();
    gate(defaults).inputs[0]!.default = false;
    gate(defaults).inputs[1]!.default = 0;
    expect(issues(defaults)).toEqual([{ path: ['nodes', 2], message, node: 'approval' }]);
  });

  it('refuse a duration that is not ISO 8601, and a role or a name that is not one', () => {
    const d = gated();
    gate(d).deadline = '24 hours';
    expect(refused(d)).toEqual([
      { pointer: '/nodes/2/deadline', message: 'must be an ISO 8601 duration such as "PT30M", "PT24H" or "P2D"' },
      { pointer: '/nodes/2/deadline', message: 'must be an ISO 8601 duration longer than zero, such as "PT30M"' },
    ]);
    const zero = gated();
    gate(zero).deadline = 'PT0S';
    expect(refused(zero)).toEqual([{ pointer: '/nodes/2/deadline', message: 'must be an ISO 8601 duration longer than zero, such as "PT30M"' }]);
    const role = gated();
    gate(role).to = 'The Manager';
    expect(refused(role).map((p) => p.pointer)).toEqual(['/nodes/2/to']);
    const name = gated();
    gate(name).inputs[0]!.name = 'approved?';
    expect(refused(name).map((p) => p.pointer)).toEqual(['/nodes/2/inputs/0/name']);
    const none = gated();
    gate(none).inputs = [];
    expect(refused(none)).toEqual([{ pointer: '/nodes/2/inputs', message: 'needs at least one input' }]);
  });

  it('refuse a name given twice: in the node, beside a question key, a declared input or an action, and in two input nodes (once)', () => {
    const twice = gated();
    gate(twice).inputs[1]!.name = 'approved';
    expect(issues(twice)).toContainEqual({ path: ['nodes', 2, 'inputs', 1, 'name'], message: 'duplicate answer key "approved" (also at /nodes/2/inputs/0/name)', node: 'approval' });

    const question = gated();
    gate(question).inputs[1]!.name = 'amount';
    expect(issues(question)).toContainEqual({ path: ['nodes', 2, 'inputs', 1, 'name'], message: 'duplicate answer key "amount" (also at /nodes/0/id)', node: 'approval' });

    const declared = gated();
    (declared as Record<string, unknown>).inputs = { approved: { type: 'boolean' } };
    expect(issues(declared)).toContainEqual({ path: ['nodes', 2, 'inputs', 0, 'name'], message: 'duplicate answer key "approved" (also at /inputs/approved)', node: 'approval' });

    const action = gated();
    action.nodes.splice(1, 0, { kind: 'action', id: 'lookup', actor: 'lookup', assign: { approved_amount: 'total' } });
    action.edges[0]!.to = 'lookup';
    action.edges.push({ from: 'lookup', to: 'size', on: 'done' }, { from: 'lookup', to: 'late', on: 'error' });
    expect(issues(action)).toContainEqual({ path: ['nodes', 3, 'inputs', 1, 'name'], message: 'duplicate answer key "approved_amount" (also at /nodes/1/assign/approved_amount)', node: 'approval' });

    const two = gated();
    two.nodes.splice(3, 0, { kind: 'input', id: 'second', to: 'auditor', inputs: [{ name: 'approved', type: 'boolean' }] });
    two.edges = two.edges.map((e) => (e.from === 'approval' && e.to === 'yes' ? { ...e, to: 'second' } : e));
    two.edges.push({ from: 'second', to: 'yes', on: 'done' });
    const found = issues(two).filter((i) => i.message.startsWith('duplicate answer key'));
    expect(found).toEqual([{ path: ['nodes', 3, 'inputs', 0, 'name'], message: 'duplicate answer key "approved" (also at /nodes/2/inputs/0/name)', node: 'second' }]);
  });

  it('refuse bounds out of order, a pattern that is no regular expression, an option twice, a default the input does not allow', () => {
    const d = gated();
    gate(d).inputs = [
      { name: 'a', type: 'number', min: 5, max: 1 },
      { name: 'b', type: 'string', pattern: '[a-' },
      { name: 'c', type: 'enum', options: ['x', { label: 'X again', value: 'x' }] },
      { name: 'e', type: 'integer', min: 0, default: 7, max: 3 },
    ];
    d.edges = d.edges.map((e) => (e.guard === 'answers.approved && answers.approved_amount > 0.0' ? { ...e, guard: 'answers.a > 0.0' } : e));
    d.nodes[4]!.message = 'Approved.';
    const found = issues(d).map((i) => [i.path.join('/'), i.message.replace(/: Invalid regular expression.*/, ': …')]);
    expect(found).toEqual([
      ['nodes/2/inputs/0/min', 'min 5 is more than max 1'],
      ['nodes/2/inputs/1/pattern', 'not a regular expression: …'],
      ['nodes/2/inputs/2/options/1', 'duplicate option "x"'],
      ['nodes/2/inputs/3/default', expect.stringMatching(/^the default is not a value this input allows: 7 is not accepted: .* Expected a whole number from 0 to 3/)],
    ]);
  });

  it("are part of the document's JSON Schema, with the outcomes done and timeout", () => {
    const schema = JSON.stringify(flowDocumentJsonSchema());
    expect(schema).toContain('"input"');
    expect(schema).toMatch(/"const":"input"/);
    expect(schema).toContain('"timeout"');
    const nodes = (flowDocumentJsonSchema() as { properties: { nodes: { items: { oneOf: { properties: { kind: { const: string } }; required: string[] }[] } } } }).properties.nodes.items.oneOf;
    const input = nodes.find((n) => n.properties.kind.const === 'input');
    expect(input?.required).toEqual(expect.arrayContaining(['kind', 'id', 'inputs']));
  });
});

describe('input nodes: model-based events and coverage', () => {
  it('try an answer per sample of each open input (the others remaining), and a timeout', () => {
    const path = [
      { type: 'user.text', text: 'AB1234' },
      { type: 'user.text', text: '250' },
      { type: 'user.button', value: 'damaged' },
      { type: 'user.button', value: 'confirm' },
    ] as const;
    const at = eventsAt('refund-approval.json', [...path]);
    const state = 'refund-approval.manager_approval';
    expect(at.map((e) => (e.type === 'input.answered' ? [e.name, e.value, e.remaining, e.state] : e.type === 'input.timedOut' ? ['timeout', e.names, e.state] : e.type))).toEqual([
      ['approved', true, ['approved_amount'], state],
      ['approved', false, ['approved_amount'], state],
      // Its minimum, and both sides of the 0 the guard compares it with.
      ['approved_amount', 0, ['approved'], state],
      ['approved_amount', 1, ['approved'], state],
      ['timeout', ['approved', 'approved_amount'], state],
    ]);
    const after = eventsAt('refund-approval.json', [...path, { type: 'input.answered', gateId: 'g', state, name: 'approved', value: true, by: null, remaining: ['approved_amount'] }]);
    expect(after.map((e) => (e.type === 'input.answered' ? [e.name, e.value, e.remaining] : e.type === 'input.timedOut' ? ['timeout', e.names] : e.type))).toEqual([
      ['approved_amount', 0, []],
      ['approved_amount', 1, []],
      ['timeout', ['approved_amount']],
    ]);
  });

  it('reach every state and transition of refund-approval, gate events included', async () => {
    const doc: FlowDocument = load('refund-approval.json');
    const paths = generateFlowPaths(doc);
    const coverage = await replayFlowPaths(doc, paths);
    expect(coverage.states.missing).toEqual([]);
    expect(coverage.transitions.missing).toEqual([]);
    expect(coverage.states.percent).toBe(100);
    expect(coverage.transitions.percent).toBe(100);
    const described = paths.map((p) => p.description).join('\n');
    expect(described).toContain('input approved = true');
    expect(described).toContain('input approved_amount = 1');
    expect(described).toContain('input timed out (approved, approved_amount)');
    // Without the gate events the input node's transitions are missed.
    const noGates = paths.filter((p) => !p.events.some((e) => e.type === 'input.answered' || e.type === 'input.timedOut'));
    const partial = await replayFlowPaths(doc, noGates);
    expect(partial.transitions.missing).toEqual(
      expect.arrayContaining(['refund-approval.manager_approval.waiting on input.answered #1', 'refund-approval.manager_approval.waiting on input.timedOut #1']),
    );
  });

  it('reach every state and transition of a flow whose inputs the person gives (no deadline)', async () => {
    const doc = flow({
      id: 'own',
      version: 1,
      nodes: [
        { kind: 'input', id: 'pick', inputs: [{ name: 'size', type: 'enum', options: ['S', 'M', 'L'] }, { name: 'note', type: 'string', pattern: '[A-Z]{3}' }] },
        { kind: 'terminal', id: 'big', outcome: 'completed', message: 'Big.' },
        { kind: 'terminal', id: 'small', outcome: 'completed', message: 'Small.' },
      ],
      edges: [
        { from: 'pick', to: 'big', on: 'done', guard: "answers.size == 'L'" },
        { from: 'pick', to: 'small', on: 'done', guard: 'else' },
      ],
    });
    const coverage = await replayFlowPaths(doc, generateFlowPaths(doc));
    expect(coverage.states.percent).toBe(100);
    expect(coverage.transitions.percent).toBe(100);
  });
});

describe('refund-approval (machines/flows)', () => {
  it('approves a refund of at most 100 at once, and sends a larger one to a manager, saying so', async () => {
    const converse = () => startConversation(load('refund-approval.json'), { today: () => TODAY });
    const small = converse();
    expect((await small.send({ text: 'ab1234' })).message).toMatch(/^An order number is two capital letters and four digits, such as AB1234\./);
    await small.send({ text: 'AB1234' });
    await small.send({ text: '40' });
    await small.send({ text: 'it arrived broken' });
    const done = await small.send({ button: 'confirm' });
    expect(done.message).toBe('Your refund of 40 EUR for order AB1234 is approved. It goes back to your original payment method within 5 business days.');
    expect(done.completion).toEqual({ isComplete: true, reason: 'completed', readyForHandoff: false });

    const large = converse();
    for (const turn of [{ text: 'CD5678' }, { text: '250' }, { button: 'wrong_item' }]) await large.send(turn);
    const waiting = await large.send({ button: 'confirm' });
    expect(waiting.state).toEqual({ manager_approval: 'waiting' });
    expect(waiting.message).toBe(
      "Your refund of 250 EUR for order CD5678 needs a manager's approval. You can close this page: the answer will be here when you come back, usually within a day.\n\nWaiting for a manager: Approve the refund?, Approved amount (EUR).",
    );
    expect(waiting.completion).toEqual({ isComplete: false, reason: 'awaiting_input', readyForHandoff: false });
    // The customer's own words change nothing while the manager decides.
    expect(await large.send({ text: 'any news?' })).toMatchObject({ state: { manager_approval: 'waiting' }, message: waiting.message });
    large.stop();
  });
});
