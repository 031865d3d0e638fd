import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileFlow } from '../../src/flow/compile.js';
import { flowOutline } from '../../src/flow/index.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import type { FlowDocumentInput } from '../../src/flow/schema.js';
import { machineDrawing } from '../../src/viz/model.js';
import type { Outline, OutlineNode } from '../../src/viz/drawing.js';
import { example, flow } from './helpers.js';

const EXAMPLES = readdirSync(fileURLToPath(new URL('../../machines/flows/', import.meta.url)))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .sort();

const box = (outline: Outline, id: string): OutlineNode => {
  const found = outline.nodes.find((n) => n.id === id);
  if (!found) throw new Error(`no box "${id}" in the outline`);
  return found;
};
const childrenOf = (outline: Outline, parent: string | null) => outline.nodes.filter((n) => n.parent === parent).map((n) => n.id);

describe('flowOutline: the flow as its author wrote it', () => {
  const led = flowOutline(example('led-sales'));

  it('draws subflow calls as groups holding the called subflow, nested, each with its exit', () => {
    expect(box(led, 'led')).toMatchObject({ kind: 'subgraph', group: true, label: 'LED project', state: 'led-sales.led', parent: 'group:sales' });
    expect(childrenOf(led, 'led')).toEqual(['led.venue', 'led.court_size', 'led.wattage', 'led.contact', 'led.__exit__']);
    expect(childrenOf(led, 'led.contact')).toEqual(['led.contact.quote_email', 'led.contact.__exit__']);
    expect(box(led, 'led.contact')).toMatchObject({ kind: 'subgraph', group: true, label: 'Where to send the quote', state: 'led-sales.led.contact' });
    expect(box(led, 'led.contact.quote_email')).toMatchObject({ kind: 'question', group: false, label: 'Email', state: 'led-sales.led.contact.quote_email' });
    expect(box(led, 'led.contact.__exit__')).toEqual({
      id: 'led.contact.__exit__',
      parent: 'led.contact',
      kind: 'exit',
      label: 'exit',
      group: false,
      state: 'led-sales.led.contact.__exit__',
      marks: [],
      details: [{ label: 'Kind', value: 'exit' }],
      ui: null,
    });
    expect(childrenOf(led, 'callback')).toEqual(['callback.caller_name', 'callback.callback_phone', 'callback.__exit__']);
    // The main flow has no exit; no question of it ends the flow for answers it cannot read (attempts.ts), so the
    // compiler adds no stop terminal.
    expect(led.nodes.filter((n) => n.kind === 'exit').map((n) => n.id)).toEqual(['led.contact.__exit__', 'led.__exit__', 'callback.__exit__']);
    expect(led.nodes.some((n) => n.id === '__unreadable__')).toBe(false);
  });

  it('keeps the ui hints and wraps a ui.group in a box of its own', () => {
    expect(box(led, 'intent').ui).toEqual({ x: 0, y: 0, color: '#2563eb' });
    expect(box(led, 'order_size').ui).toEqual({ x: 720, y: 0 });
    expect(box(led, 'led').ui).toEqual({ x: 240, y: 0, group: 'sales' });
    expect(box(led, 'review').ui).toBeNull();
    expect(box(led, 'group:sales')).toEqual({ id: 'group:sales', parent: null, kind: 'group', label: 'sales', group: true, state: null, marks: [], details: [], ui: null });
    expect(childrenOf(led, 'group:sales')).toEqual(['led']);
    // The box comes before its members; the other main-flow nodes stay at the top.
    expect(led.nodes.findIndex((n) => n.id === 'group:sales')).toBeLessThan(led.nodes.findIndex((n) => n.id === 'led'));
    expect(childrenOf(led, null)).toEqual([
      'intent',
      'group:sales',
      'quote',
      'order_size',
      'review',
      'quote_sent',
      'specialist',
      'project_specialist',
      'callback',
      'support_desk',
      'goodbye',
    ]);
  });

  it('has one edge per document edge per place, with its outcome (written or its kind\'s default) and guard as written', () => {
    // main 11, led_path 6, contact_details 1, callback_details 2
    expect(led.edges.filter((e) => !e.implicit)).toHaveLength(20);
    // No question of it gives up with nowhere its author said to go: it keeps asking (attempts.ts).
    expect(led.edges.filter((e) => e.implicit)).toEqual([]);
    // Where the flow has a fallback, each question gives up to it: an edge the compiler adds (event-booking).
    const events = flowOutline(example('event-booking'));
    expect(events.edges.filter((e) => e.implicit)).toEqual(
      ['guests', 'event_date', 'catering', 'email'].map((source) => ({
        id: `${source} -> planner_phone #gives-up`,
        source,
        target: 'planner_phone',
        outcome: 'invalid',
        guard: null,
        implicit: true,
      })),
    );
    // Each is a transition of the compiled machine: from inside the question's state to the fallback.
    const transitions = machineDrawing(compileFlow(example('event-booking'))).transitions;
    for (const e of events.edges.filter((x) => x.implicit))
      expect(transitions.some((t) => (t.source === `event-booking.${e.source}` || t.source.startsWith(`event-booking.${e.source}.`)) && t.target === 'event-booking.planner_phone'), e.id).toBe(true);
    expect(led.edges).toContainEqual({ id: 'intent -> led #1', source: 'intent', target: 'led', outcome: 'answered', guard: "answers.intention == 'buy_led'", implicit: false });
    expect(led.edges).toContainEqual({ id: 'intent -> goodbye #1', source: 'intent', target: 'goodbye', outcome: 'answered', guard: 'else', implicit: false });
    expect(led.edges).toContainEqual({ id: 'quote -> project_specialist #1', source: 'quote', target: 'project_specialist', outcome: 'error', guard: null, implicit: false });
    expect(led.edges).toContainEqual({ id: 'review -> intent #1', source: 'review', target: 'intent', outcome: 'edit', guard: null, implicit: false });
    expect(led.edges).toContainEqual({ id: 'led -> quote #1', source: 'led', target: 'quote', outcome: 'done', guard: null, implicit: false });
    // Two edges between the same boxes are told apart by their count.
    expect(led.edges.filter((e) => e.source === 'led.wattage' && e.target === 'led.contact')).toEqual([
      { id: 'led.wattage -> led.contact #1', source: 'led.wattage', target: 'led.contact', outcome: 'answered', guard: null, implicit: false },
      { id: 'led.wattage -> led.contact #2', source: 'led.wattage', target: 'led.contact', outcome: 'invalid', guard: null, implicit: false },
    ]);
    // An edge to `__exit__` goes to the exit of the call it is in.
    expect(led.edges).toContainEqual({ id: 'led.contact -> led.__exit__ #1', source: 'led.contact', target: 'led.__exit__', outcome: 'done', guard: null, implicit: false });
    expect(led.edges).toContainEqual({
      id: 'led.contact.quote_email -> led.contact.__exit__ #1',
      source: 'led.contact.quote_email',
      target: 'led.contact.__exit__',
      outcome: 'answered',
      guard: null,
      implicit: false,
    });
    const ids = new Set(led.nodes.map((n) => n.id));
    for (const edge of led.edges) {
      expect(ids.has(edge.source) && ids.has(edge.target), edge.id).toBe(true);
    }
    expect(new Set(led.edges.map((e) => e.id)).size).toBe(led.edges.length);
  });

  it('marks the start and the terminals, and shows a question\'s details with its validators and applicability', () => {
    expect(box(led, 'intent').marks).toEqual(['start']);
    expect(box(led, 'quote_sent').marks).toEqual(['terminal']);
    expect(box(led, 'led.venue').marks).toEqual([]);
    expect(box(led, 'led.wattage').details).toEqual([
      { label: 'Kind', value: 'question' },
      { label: 'Prompt', value: 'What wattage per fixture do you have in mind?' },
      { label: 'Answer type', value: 'number 20–2000 W, integer' },
      { label: 'Answer key', value: 'answers.wattage' },
      { label: 'Guards', value: ['on answered → contact', 'on invalid → contact'] },
      {
        label: 'Validators',
        value: [
          '!has(answers.court_size) || value <= answers.court_size * 5.0 — That is more light than a court of {answers.court_size} needs: each fixture may have at most 5 W per square metre of court.',
        ],
      },
      { label: 'Max attempts', value: '3' },
    ]);
    expect(box(led, 'led.court_size').details).toContainEqual({ label: 'When', value: "answers.venue == 'sports_court'" });
    expect(box(led, 'led.court_size').details).toContainEqual({ label: 'Answer type', value: 'number 50–10000 m²' });
    expect(box(led, 'intent').details).toEqual([
      { label: 'Kind', value: 'question' },
      { label: 'Prompt', value: 'What do you need today?' },
      { label: 'Answer type', value: 'category: buy_led, support, just_browsing' },
      { label: 'Answer key', value: 'answers.intention' },
      { label: 'Guards', value: ["on answered [answers.intention == 'buy_led'] → led", "on answered [answers.intention == 'support'] → callback", 'on answered [else] → goodbye'] },
    ]);
  });

  it('shows an action\'s actor, params and assignments, a decision\'s guards, a terminal\'s message and a call\'s subflow', () => {
    expect(box(led, 'quote')).toMatchObject({ kind: 'action', label: 'quote', marks: [] });
    expect(box(led, 'quote').details).toEqual([
      { label: 'Kind', value: 'action' },
      { label: 'Guards', value: ['on done → order_size', 'on error → project_specialist'] },
      { label: 'Actor', value: ['priceLookup', 'params: {"currency":"EUR"}', 'assign: quote_total ← total, fixtures ← fixtures'] },
      { label: 'Message', value: 'Looking up a price…' },
    ]);
    expect(box(led, 'order_size')).toMatchObject({ label: 'Large order?' });
    expect(box(led, 'order_size').details).toEqual([
      { label: 'Kind', value: 'decision' },
      { label: 'Guards', value: ['on next [answers.fixtures > 40.0 || answers.quote_total > 20000.0] → specialist', 'on next [else] → review'] },
    ]);
    expect(box(led, 'review').details).toContainEqual({ label: 'Buttons', value: ['Send me the quote', 'Change something'] });
    expect(box(led, 'goodbye').details).toEqual([
      { label: 'Kind', value: 'terminal' },
      { label: 'Message', value: 'Thanks for looking around. Come back any time.' },
      { label: 'Outcome', value: 'completed' },
    ]);
    expect(box(led, 'led').details).toEqual([
      { label: 'Kind', value: 'subgraph' },
      { label: 'Guards', value: ['on done → quote'] },
      { label: 'Subflow', value: 'led_path (LED project details)' },
    ]);
    expect(box(led, 'callback.caller_name').details).toContainEqual({ label: 'Answer type', value: "string, ≤ 120 characters, a person's name" });
    expect(led.paths).toEqual([]);
  });

  it('marks an input node and lists its inputs: type, who answers, deadline', () => {
    const refund = flowOutline(example('refund-approval'));
    expect(box(refund, 'manager_approval')).toMatchObject({ kind: 'input', label: "Manager's approval", state: 'refund-approval.manager_approval', marks: ['input'] });
    expect(box(refund, 'manager_approval').details).toEqual([
      { label: 'Kind', value: 'input' },
      {
        label: 'Guards',
        value: ['on done [answers.approved && answers.approved_amount > 0.0] → approved', 'on done [else] → declined', 'on timeout → person_takes_over'],
      },
      {
        label: 'Inputs',
        value: [
          'approved: boolean (Approve / Decline), from manager within PT24H — Approve the refund?',
          'approved_amount: number ≥ 0 EUR, from manager within PT24H — Approved amount (EUR)',
        ],
      },
      {
        label: 'Message',
        value: "Your refund of {answers.amount} for order {answers.order_number} needs a manager's approval. You can close this page: the answer will be here when you come back, usually within a day.",
      },
    ]);
    expect(refund.edges).toContainEqual({ id: 'manager_approval -> person_takes_over #1', source: 'manager_approval', target: 'person_takes_over', outcome: 'timeout', guard: null, implicit: false });
    expect(refund.nodes.filter((n) => n.marks.includes('input')).map((n) => n.id)).toEqual(['manager_approval']);
    expect(box(refund, 'order_number').details).toContainEqual({ label: 'Answer type', value: 'string, pattern [A-Z]{2}[0-9]{4}' });
  });

  it('lists the paths and marks the nodes that read them; a subflow called twice is drawn at both places', () => {
    const consult = flowOutline(example('lighting-consult'));
    expect(consult.paths).toEqual([
      { id: 'home', label: 'Home lighting' },
      { id: 'sports', label: 'Sports lighting' },
    ]);
    expect(box(consult, 'project').marks).toEqual(['start', 'path']);
    expect(consult.nodes.filter((n) => n.marks.includes('path')).map((n) => n.id)).toEqual(['project']);
    expect(childrenOf(consult, 'sports_call')).toEqual(['sports_call.name', 'sports_call.phone', 'sports_call.__exit__']);
    expect(childrenOf(consult, 'advisor_call')).toEqual(['advisor_call.name', 'advisor_call.phone', 'advisor_call.__exit__']);
    expect(box(consult, 'advisor_call.phone').state).toBe('lighting-consult.advisor_call.phone');
  });

  it('marks a question with limiting values', () => {
    const clinic = flowOutline(example('clinic-callback'));
    expect(box(clinic, 'symptoms_worse').marks).toEqual(['limiting']);
    expect(box(clinic, 'symptoms_worse').details).toContainEqual({ label: 'Limiting values', value: ['Yes'] });
    expect(clinic.edges).toContainEqual({ id: 'symptoms_worse -> nurse_line #1', source: 'symptoms_worse', target: 'nurse_line', outcome: 'limiting', guard: null, implicit: false });
  });

  it('marks any node whose guards read the path, and gives each scope its own ui.group boxes', () => {
    const doc: FlowDocumentInput = {
      id: 'grouped',
      version: 1,
      fallback: 'pick',
      paths: { options: [{ id: 'a', label: 'Path A' }, { id: 'b' }] },
      nodes: [
        { kind: 'path', id: 'pick', prompt: 'Which one?', ui: { group: 'front' } },
        { kind: 'decision', id: 'route', ui: { group: 'front', color: '#f00', widget: 'ignored' } },
        { kind: 'subgraph', id: 'call', ref: 'inner' },
        { kind: 'question', id: 'later', prompt: 'Anything else?', answer: { type: 'boolean' }, when: "context.path.tentative == 'b'", required: false },
        { kind: 'terminal', id: 'done', outcome: 'completed' },
      ],
      edges: [
        { from: 'pick', to: 'route', guard: "context.path.locked == 'a'" },
        { from: 'pick', to: 'call', guard: "context.path.locked == 'b'" },
        { from: 'route', to: 'call', guard: "context['path'].locked == 'a'" },
        { from: 'route', to: 'later', guard: 'else' },
        { from: 'call', to: 'later' },
        { from: 'later', to: 'done' },
      ],
      subgraphs: {
        inner: {
          entry: 'x',
          nodes: [
            { kind: 'question', id: 'x', prompt: 'X?', answer: { type: 'number' }, ui: { group: 'front' } },
            { kind: 'question', id: 'y', prompt: 'Y?', answer: { type: 'date', min: 'today' }, ui: { group: 'front', x: 'not a number' } },
          ],
          edges: [
            { from: 'x', to: 'y' },
            { from: 'y', to: '__exit__' },
          ],
        },
      },
    };
    const outline = flowOutline(flow(doc));
    expect(outline.paths).toEqual([
      { id: 'a', label: 'Path A' },
      { id: 'b', label: 'b' },
    ]);
    expect(outline.nodes.filter((n) => n.marks.includes('path')).map((n) => n.id)).toEqual(['pick', 'route', 'later']);
    expect(childrenOf(outline, 'group:front')).toEqual(['pick', 'route']);
    expect(box(outline, 'call.group:front')).toMatchObject({ parent: 'call', kind: 'group', group: true, state: null, label: 'front' });
    expect(childrenOf(outline, 'call.group:front')).toEqual(['call.x', 'call.y']);
    expect(childrenOf(outline, 'call')).toEqual(['call.group:front', 'call.__exit__']);
    expect(box(outline, 'route').ui).toEqual({ group: 'front', color: '#f00' });
    expect(box(outline, 'call.y').ui).toEqual({ group: 'front' });
    expect(box(outline, 'call')).toMatchObject({ label: 'inner' });
    expect(box(outline, 'later').details).toContainEqual({ label: 'Answer type', value: 'boolean (Yes / No), optional' });
    expect(box(outline, 'call.y').details).toContainEqual({ label: 'Answer type', value: 'date from today' });
    // With a fallback no stop terminal is added.
    expect(outline.nodes.some((n) => n.id === '__unreadable__')).toBe(false);
    const states = new Set(machineDrawing(compileFlow(flow(doc))).states.map((s) => s.id));
    for (const n of outline.nodes) if (n.state !== null) expect(states.has(n.state), n.state).toBe(true);
  });

  it('draws no exit for a subflow no edge leaves', () => {
    const outline = flowOutline(
      flow({
        id: 'no-exit',
        version: 1,
        nodes: [
          { kind: 'subgraph', id: 'c', ref: 's' },
          { kind: 'terminal', id: 'd', outcome: 'completed' },
        ],
        edges: [{ from: 'c', to: 'd' }],
        subgraphs: { s: { entry: 'q', nodes: [{ kind: 'question', id: 'q', prompt: 'Q?', answer: { type: 'email' } }], edges: [{ from: 'q', to: 'q' }] } },
      }),
    );
    expect(childrenOf(outline, 'c')).toEqual(['c.q']);
    expect(outline.edges.map((e) => e.id)).toEqual(['c -> d #1', 'c.q -> c.q #1']);
  });

  it('is what the flow workflow gives as its outline, built once', () => {
    const doc = example('led-sales');
    const workflow = flowWorkflow(doc);
    expect(workflow.outline?.()).toEqual(flowOutline(doc));
    expect(workflow.outline?.()).toBe(workflow.outline?.());
  });

  describe.each(EXAMPLES)('%s', (name) => {
    it('gives every compiled node state exactly one box, and every box state is a state of the machine', () => {
      const doc = example(name);
      const outline = flowOutline(doc);
      const drawing = machineDrawing(compileFlow(doc));
      const states = new Set(drawing.states.map((s) => s.id));
      for (const n of outline.nodes) if (n.state !== null) expect(states.has(n.state), `${n.id} → ${n.state}`).toBe(true);
      const nodeStates = drawing.states.filter((s) => typeof (s.meta as { place?: unknown } | null)?.place === 'string').map((s) => s.id);
      expect(nodeStates.length).toBeGreaterThan(0);
      const boxed = outline.nodes.map((n) => n.state).filter((s): s is string => s !== null);
      for (const state of nodeStates) expect(boxed.filter((s) => s === state), state).toHaveLength(1);
      // Boxes are unique, and every parent is a group box of the outline.
      expect(new Set(outline.nodes.map((n) => n.id)).size).toBe(outline.nodes.length);
      const groups = new Set(outline.nodes.filter((n) => n.group).map((n) => n.id));
      for (const n of outline.nodes) if (n.parent !== null) expect(groups.has(n.parent), n.id).toBe(true);
    });
  });
});
