import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chatSessionMachine } from '../../machines/chat-session.js';
import { documentAgentMachine } from '../../machines/document-agent.js';
import { pathSelectionMachine } from '../../machines/path-selection.js';
import { taskAgentMachine } from '../../machines/task-agent.js';
import { flowWorkflow, parseFlowText } from '../../src/flow/index.js';
import { DRAWING_FORMAT, standaloneMachineDrawing, workflowDrawing, type Outline, type OutlineNode, type WorkflowDrawing } from '../../src/viz/drawing.js';
import { layoutDrawing, type DrawingLayout, type LayoutBox, type LayoutRect } from '../../src/viz/layout.js';
import { wrapLabel } from '../../src/viz/index.js';
import type { MachineDrawing } from '../../src/viz/model.js';

const FLOWS_DIR = fileURLToPath(new URL('../../machines/flows/', import.meta.url));
const flowFiles = readdirSync(FLOWS_DIR).filter((f) => f.endsWith('.json')).sort();

function exampleDrawing(file: string): WorkflowDrawing {
  return workflowDrawing(flowWorkflow(parseFlowText(readFileSync(`${FLOWS_DIR}${file}`, 'utf8'), file)));
}

const HAND_WRITTEN = { pathSelectionMachine, chatSessionMachine, taskAgentMachine, documentAgentMachine };

const finite = (r: LayoutRect) => [r.x, r.y, r.width, r.height].every(Number.isFinite) && r.width > 0 && r.height > 0;
const inside = (inner: LayoutRect, outer: LayoutRect) =>
  inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;

/** Every box finite and inside its parent's box and the drawing; every edge a finite polyline. */
function expectWellPlaced(layout: DrawingLayout) {
  const byId = new Map(layout.boxes.map((b) => [b.id, b]));
  const frame = { x: 0, y: 0, width: layout.width, height: layout.height };
  for (const box of layout.boxes) {
    expect(finite(box), box.id).toBe(true);
    expect(inside(box, frame), `${box.id} inside the drawing`).toBe(true);
    const parent = box.parent === null ? undefined : byId.get(box.parent);
    if (parent) expect(inside(box, parent), `${box.id} inside ${parent.id}`).toBe(true);
  }
  for (const edge of layout.edges) {
    expect(edge.points.length, edge.id).toBeGreaterThanOrEqual(2);
    expect(edge.points.every((p) => Number.isFinite(p.x) && Number.isFinite(p.y)), edge.id).toBe(true);
    if (edge.labelBox) expect(finite(edge.labelBox), `${edge.id} label`).toBe(true);
  }
}

// A machine drawing with one state per outline node: enough for the outline level.
function machineFor(ids: string[], transitions: MachineDrawing['transitions'] = []): MachineDrawing {
  return {
    id: 'm',
    states: [
      { id: 'm', key: 'm', parent: null, type: 'compound', initial: ids[0] ?? null, tags: [], meta: null, invoke: [], inputs: [] },
      ...ids.map((id) => ({ id: `m.${id}`, key: id, parent: 'm', type: 'atomic' as const, initial: null, tags: [], meta: null, invoke: [], inputs: [] })),
    ],
    transitions,
  };
}

function node(id: string, over: Partial<OutlineNode> = {}): OutlineNode {
  return { id, parent: null, kind: 'question', label: id, group: false, state: `m.${id}`, marks: [], details: [], ui: null, ...over };
}

function handMade(outline: Outline, machine: MachineDrawing = machineFor(outline.nodes.map((n) => n.id))): WorkflowDrawing {
  return { format: DRAWING_FORMAT, id: 'hand', title: 'Hand made', version: null, kind: 'workflow', outline, machine };
}

const centreX = (b: LayoutBox) => b.x + b.width / 2;
const centreY = (b: LayoutBox) => b.y + b.height / 2;
const boxOf = (layout: DrawingLayout, id: string) => {
  const box = layout.boxes.find((b) => b.id === id);
  if (!box) throw new Error(`no box ${id}`);
  return box;
};

describe('layoutDrawing: example flows', () => {
  it.each(flowFiles)('%s: a box for every outline node and an edge for every outline edge, children inside their groups', async (file) => {
    const drawing = exampleDrawing(file);
    expect(drawing.outline).not.toBeNull();
    const outline = drawing.outline as Outline;
    const layout = await layoutDrawing(drawing, 'outline');
    expect(layout.level).toBe('outline');
    expect(layout.boxes.map((b) => b.id).sort()).toEqual(outline.nodes.map((n) => n.id).sort());
    expect(layout.edges.map((e) => e.id).sort()).toEqual(outline.edges.map((e) => e.id).sort());
    expectWellPlaced(layout);
    // Parents are painted before their children.
    const index = new Map(layout.boxes.map((b, i) => [b.id, i]));
    for (const b of layout.boxes) if (b.parent !== null) expect(index.get(b.parent)).toBeLessThan(index.get(b.id) as number);
  });

  it.each(flowFiles)('%s: the machine level has a box for every state and an edge for every transition', async (file) => {
    const drawing = exampleDrawing(file);
    const layout = await layoutDrawing(drawing, 'machine');
    expect(layout.level).toBe('machine');
    expect(layout.boxes.map((b) => b.id).sort()).toEqual(drawing.machine.states.map((s) => s.id).sort());
    expect(layout.edges.map((e) => e.id)).toEqual(drawing.machine.transitions.map((t) => t.id));
    expectWellPlaced(layout);
  });

  it('led-sales: outline edges stand for the machine transitions between their nodes, and keep the author order of x hints', async () => {
    const drawing = exampleDrawing('led-sales.json');
    const layout = await layoutDrawing(drawing, 'outline');
    const transitions = new Set(drawing.machine.transitions.map((t) => t.id));
    const states = new Map((drawing.outline as Outline).nodes.map((n) => [n.id, n.state]));
    for (const edge of layout.edges) {
      const from = states.get(edge.source) as string;
      const to = states.get(edge.target) as string;
      for (const id of edge.transitions) {
        expect(transitions.has(id)).toBe(true);
        const t = drawing.machine.transitions.find((x) => x.id === id && x.target !== null && (x.target === to || x.target.startsWith(`${to}.`)));
        expect(t, `${edge.id}: ${id}`).toBeDefined();
        expect(t?.source === from || t?.source.startsWith(`${from}.`)).toBe(true);
      }
    }
    // Every edge leaving a question for another node is taken by some transition.
    expect(layout.edges.find((e) => e.id === 'intent -> goodbye #1')?.transitions.length).toBeGreaterThan(0);
    // intent (x 0) < led (x 240) < quote (x 480) < order_size (x 720).
    const xs = ['intent', 'led', 'quote', 'order_size'].map((id) => centreX(boxOf(layout, id)));
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
  });
});

describe('layoutDrawing: ui hints', () => {
  // Three nodes a -> b, a -> c: left to itself ELK puts b and c in one layer.
  const fan = (bx: number, cx: number, by = 0, cy = 0): WorkflowDrawing =>
    handMade({
      nodes: [node('a', { ui: { x: 0, y: 0 } }), node('b', { ui: { x: bx, y: by } }), node('c', { ui: { x: cx, y: cy } })],
      edges: [
        { id: 'a -> b #1', source: 'a', target: 'b', outcome: 'answered', guard: "answers.x == 'b'", implicit: false },
        { id: 'a -> c #1', source: 'a', target: 'c', outcome: 'answered', guard: 'else', implicit: false },
      ],
      paths: [],
    });

  it('keeps the left-to-right order of x hints, and swapping two hints swaps the boxes', async () => {
    const first = await layoutDrawing(fan(200, 400), 'outline');
    expect(centreX(boxOf(first, 'b'))).toBeLessThan(centreX(boxOf(first, 'c')));
    const swapped = await layoutDrawing(fan(400, 200), 'outline');
    expect(centreX(boxOf(swapped, 'c'))).toBeLessThan(centreX(boxOf(swapped, 'b')));
  });

  it('keeps rows: one x, the y hints order the boxes top to bottom', async () => {
    const down = await layoutDrawing(fan(200, 200, 0, 100), 'outline');
    expect(centreY(boxOf(down, 'b'))).toBeLessThan(centreY(boxOf(down, 'c')));
    expect(Math.abs(centreX(boxOf(down, 'b')) - centreX(boxOf(down, 'c')))).toBeLessThan(1);
    const up = await layoutDrawing(fan(200, 200, 100, 0), 'outline');
    expect(centreY(boxOf(up, 'c'))).toBeLessThan(centreY(boxOf(up, 'b')));
  });

  it('lays out nodes without hints around the hinted ones, inside a group too', async () => {
    const drawing = handMade({
      nodes: [
        node('a', { ui: { x: 0, y: 0 } }),
        node('g', { kind: 'subgraph', group: true, label: 'Group', ui: { x: 300, y: 0, color: '#16a34a' } }),
        node('g.one', { parent: 'g', ui: { x: 50, y: 0 } }),
        node('g.two', { parent: 'g', ui: { x: 0, y: 0 } }),
        node('g.free', { parent: 'g' }),
        node('z', { ui: { x: 600, y: 0 } }),
        node('free'),
      ],
      edges: [
        { id: 'a -> g #1', source: 'a', target: 'g', outcome: 'answered', guard: null, implicit: false },
        { id: 'g.two -> g.one #1', source: 'g.two', target: 'g.one', outcome: 'answered', guard: null, implicit: false },
        { id: 'g.one -> g.free #1', source: 'g.one', target: 'g.free', outcome: 'answered', guard: null, implicit: false },
        { id: 'g -> z #1', source: 'g', target: 'z', outcome: 'done', guard: null, implicit: false },
        { id: 'z -> free #1', source: 'z', target: 'free', outcome: 'answered', guard: null, implicit: false },
      ],
      paths: [],
    });
    const layout = await layoutDrawing(drawing, 'outline');
    expectWellPlaced(layout);
    const x = (id: string) => centreX(boxOf(layout, id));
    expect(x('a')).toBeLessThan(x('g'));
    expect(x('g')).toBeLessThan(x('z'));
    expect(x('z')).toBeLessThan(x('free'));
    expect(x('g.two')).toBeLessThan(x('g.one'));
    expect(x('g.one')).toBeLessThan(x('g.free'));
    expect(boxOf(layout, 'g').color).toBe('#16a34a');
  });
});

describe('layoutDrawing: labels', () => {
  it('shows the guard, and the outcome only where a node has several', async () => {
    const drawing = handMade({
      nodes: [node('q'), node('r', { kind: 'confirmation' }), node('done', { kind: 'terminal', marks: ['terminal'] })],
      edges: [
        { id: 'q -> r #1', source: 'q', target: 'r', outcome: 'answered', guard: 'answers.n > 3', implicit: false },
        { id: 'q -> done #1', source: 'q', target: 'done', outcome: 'answered', guard: 'else', implicit: false },
        { id: 'r -> done #1', source: 'r', target: 'done', outcome: 'confirmed', guard: null, implicit: false },
        { id: 'r -> q #1', source: 'r', target: 'q', outcome: 'edit', guard: null, implicit: false },
      ],
      paths: [],
    });
    const layout = await layoutDrawing(drawing, 'outline');
    const label = (id: string) => layout.edges.find((e) => e.id === id)?.label;
    expect(label('q -> r #1')).toBe('[answers.n > 3]');
    expect(label('q -> done #1')).toBe('[else]');
    expect(label('r -> done #1')).toBe('confirmed');
    expect(label('r -> q #1')).toBe('edit');
    expect(boxOf(layout, 'done').final).toBe(true);
  });

  it('wraps long labels and cuts them with an ellipsis, the full text kept in the title', async () => {
    const long = 'Which of these many lighting fixtures would you like us to quote for your new sports court this season';
    const layout = await layoutDrawing(handMade({ nodes: [node('q', { label: long, details: [{ label: 'prompt', value: 'Pick one' }] })], edges: [], paths: [] }), 'outline');
    const box = boxOf(layout, 'q');
    expect(box.lines.length).toBe(3);
    expect(box.lines.every((l) => l.length <= 28)).toBe(true);
    expect(box.lines[2]?.endsWith('…')).toBe(true);
    expect(box.title).toBe(`${long}\nprompt: Pick one`);
    expect(wrapLabel('a'.repeat(70), 28, 3)).toEqual(['a'.repeat(28), 'a'.repeat(28), 'a'.repeat(14)]);
  });

  it('draws a drawing without an outline at the machine level', async () => {
    const drawing = standaloneMachineDrawing(pathSelectionMachine);
    const layout = await layoutDrawing(drawing, 'outline');
    expect(layout.level).toBe('machine');
    expect(layout.boxes.map((b) => b.id)).toEqual(expect.arrayContaining(drawing.machine.states.map((s) => s.id)));
  });
});

describe('layoutDrawing: hand-written machines', () => {
  it.each(Object.entries(HAND_WRITTEN))('%s: every state a box, every transition an edge, initial and final marked', async (_name, machine) => {
    const drawing = standaloneMachineDrawing(machine);
    const layout = await layoutDrawing(drawing, 'machine');
    expect(layout.boxes.map((b) => b.id).sort()).toEqual(drawing.machine.states.map((s) => s.id).sort());
    expect(layout.edges.map((e) => e.id)).toEqual(drawing.machine.transitions.map((t) => t.id));
    expectWellPlaced(layout);
    for (const state of drawing.machine.states) {
      const box = boxOf(layout, state.id);
      const parent = drawing.machine.states.find((s) => s.id === state.parent);
      expect(box.initial, state.id).toBe(parent !== undefined && parent.type === 'compound' && parent.initial === state.key);
      expect(box.final).toBe(state.type === 'final');
    }
    // Targetless transitions are drawn as self-loops.
    for (const t of drawing.machine.transitions.filter((x) => x.target === null)) {
      const e = layout.edges.find((x) => x.id === t.id && x.targetless);
      expect(e?.source).toBe(t.source);
      expect(e?.target).toBe(t.source);
    }
  });

  it("shows a waiting state's inputs", async () => {
    const machine = machineFor(['wait']);
    const wait = machine.states[1];
    if (!wait) throw new Error('no state');
    wait.inputs = [{ name: 'approved', type: 'boolean', to: 'manager', deadline: 'PT24H' }];
    const drawing: WorkflowDrawing = { format: DRAWING_FORMAT, id: 'm', title: null, version: null, kind: 'machine', outline: null, machine };
    const layout = await layoutDrawing(drawing, 'machine');
    const box = boxOf(layout, 'm.wait');
    expect(box.marks).toContain('input');
    expect(box.title).toContain('waits for manager (PT24H): approved (boolean)');
    expect(box.lines.join(' ')).toContain('waits for manager');
  });
});
