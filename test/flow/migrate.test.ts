import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { FlowDocumentError, compileFlow, parseFlowText, parseFlowValue } from '../../src/flow/index.js';

/** The seed's flat checklist (v0): questions with key, prompt, required, priority, dependencies. */
const checklist = {
  id: 'onboarding',
  title: 'Onboarding',
  questions: [
    { key: 'email', prompt: 'What is your email?', priority: 2, dependencies: ['name'] },
    { key: 'name', prompt: 'What is your name?', priority: 1 },
    { key: 'company', prompt: 'Which company?', priority: 2, required: false },
    { key: 'team', prompt: 'Which team?', priority: 0, dependencies: ['company'] },
  ],
};

describe('the seed\'s flat checklist (v0) converts to v1', () => {
  it('orders by priority, then key, after dependencies; a dependency becomes a `when`', () => {
    const flow = parseFlowValue(checklist, 'onboarding.json');
    expect(flow.nodes.map((n) => n.id)).toEqual(['name', 'company', 'team', 'email', 'review', 'done']);
    const byId = Object.fromEntries(flow.nodes.map((n) => [n.id, n]));
    expect(byId.email).toMatchObject({ kind: 'question', key: 'email', when: 'has(answers.name)', answer: { type: 'string' } });
    expect(byId.company).toMatchObject({ required: false });
    expect(byId.team).toMatchObject({ when: 'has(answers.company)' });
    expect(flow.version).toBe(0);
  });

  it('runs: a skipped optional question passes over the one depending on it', () => {
    const actor = createActor(compileFlow(parseFlowValue(checklist))).start();
    actor.send({ type: 'user.text', text: 'Ada' });
    actor.send({ type: 'user.button', value: 'skip' });
    actor.send({ type: 'user.text', text: 'ada@example.com' });
    // `team` depends on `company`, which was skipped: straight to the review.
    expect(actor.getSnapshot().value).toEqual({ review: 'reviewing' });
    expect(Object.keys(actor.getSnapshot().context.answers)).toEqual(['name', 'email']);
  });

  it('refuses unknown dependencies, duplicate keys and cycles, pointing into the checklist', () => {
    const bad = {
      id: 'bad',
      questions: [
        { key: 'a', prompt: 'A?', dependencies: ['b'] },
        { key: 'b', prompt: 'B?', dependencies: ['a'] },
        { key: 'c', prompt: 'C?', dependencies: ['zzz'] },
        { key: 'c', prompt: 'C again?' },
      ],
    };
    const text = JSON.stringify(bad, null, 2);
    expect(() => parseFlowText(text, 'bad.json')).toThrow(FlowDocumentError);
    try {
      parseFlowText(text, 'bad.json');
    } catch (error) {
      const problems = (error as FlowDocumentError).problems;
      expect(problems.map((p) => [p.pointer, p.message])).toEqual([
        ['/questions/3/key', 'duplicate key "c" (also questions[2])'],
        ['/questions/2/dependencies/0', 'no question has the key "zzz"'],
      ]);
      expect(problems[0]!.line).toBeGreaterThan(1);
    }
    const cyclic = { id: 'cyclic', questions: bad.questions.slice(0, 2) };
    expect(() => parseFlowValue(cyclic)).toThrow(/dependencies form a cycle: a, b/);
  });
});

describe("the seed's draft IR converts to v1", () => {
  const draft = {
    version: 'v1',
    id: 'flow.sales',
    nodes: [
      { id: 'n.start', type: 'decision', label: 'Start' },
      { id: 'q.intent', type: 'question', key: 'intention', prompt: 'What do you need?' },
      { id: 'sg.led', type: 'subgraph', ref: 'subgraph.led_path' },
      { id: 'n.done', type: 'terminal', label: 'Done' },
    ],
    edges: [
      { from: 'n.start', to: 'q.intent' },
      { from: 'q.intent', to: 'sg.led', guard: "answers.intention == 'buy_led'" },
      { from: 'q.intent', to: 'n.done', guard: 'else' },
      { from: 'sg.led', to: 'n.done' },
    ],
    subgraphs: {
      'subgraph.led_path': {
        entry: 'q.court_size',
        nodes: [
          { id: 'q.court_size', type: 'question', key: 'court_size', prompt: 'Court size?' },
          { id: 'q.wattage', type: 'question', key: 'wattage', prompt: 'Desired wattage?' },
        ],
        edges: [
          { from: 'q.court_size', to: 'q.wattage' },
          { from: 'q.wattage', to: '__exit__' },
        ],
      },
    },
  };

  it('renames type to kind, keeps the dotted ids, and the result runs through the subgraph', () => {
    const flow = parseFlowValue(draft, 'draft.json');
    expect(flow.id).toBe('flow-sales');
    expect(flow.nodes.map((n) => `${n.kind}:${n.id}`)).toEqual(['decision:n.start', 'question:q.intent', 'subgraph:sg.led', 'terminal:n.done']);
    expect(Object.keys(flow.subgraphs!)).toEqual(['subgraph.led_path']);
    const actor = createActor(compileFlow(flow)).start();
    actor.send({ type: 'user.text', text: 'buy_led' });
    expect(actor.getSnapshot().value).toEqual({ 'sg.led': { 'q.court_size': 'asking' } });
    actor.send({ type: 'user.text', text: 'a big one' });
    actor.send({ type: 'user.text', text: '400 watts' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().context.answers.wattage!.value).toBe('400 watts');
  });

  it("reports what the seed's snippet leaves out: the subgraph node's way on", () => {
    const snippet = { ...draft, edges: draft.edges.slice(0, 3) };
    expect(() => parseFlowValue(snippet, 'snippet.json')).toThrow(/upgraded draft IR: \/nodes\/2: subgraph "sg\.led" has no "done" edge/);
  });
});
