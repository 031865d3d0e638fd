import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { taskAgentMachine } from '../../machines/task-agent.js';
import { flowWorkflow, parseFlowText } from '../../src/flow/index.js';
import { DRAWING_FORMAT, standaloneMachineDrawing, workflowDrawing, type Outline, type OutlineNode, type WorkflowDrawing } from '../../src/viz/drawing.js';
import { activeIds, activeStateIds, drawingSvg, escapeXml, layoutDrawing, uncoveredEdgeIds } from '../../src/viz/index.js';
import type { MachineDrawing } from '../../src/viz/model.js';

const FLOWS_DIR = fileURLToPath(new URL('../../machines/flows/', import.meta.url));
const flowFiles = readdirSync(FLOWS_DIR).filter((f) => f.endsWith('.json')).sort();
const exampleDrawing = (file: string): WorkflowDrawing => workflowDrawing(flowWorkflow(parseFlowText(readFileSync(`${FLOWS_DIR}${file}`, 'utf8'), file)));

interface Element {
  name: string;
  attrs: Map<string, string>;
  children: Element[];
  text: string;
}

/**
 * A strict little XML reader, enough for our SVG: a prolog, elements with
 * quoted attributes, text with the five entities and numeric references.
 * It throws on anything not well-formed (unbalanced tags, a raw `<` or `&`,
 * a duplicate attribute), so the SVG of hostile labels is checked for real.
 */
function parseXml(source: string): Element {
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`${why} at ${i}: ${JSON.stringify(source.slice(Math.max(0, i - 40), i + 40))}`);
  };
  const decode = (raw: string): string => {
    if (raw.includes('<')) fail('raw < in text or attribute');
    return raw.replace(/&([^;]*);|&/g, (all, name: string | undefined) => {
      if (name === undefined) return fail('bare &');
      const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
      if (name in named) return named[name] as string;
      const code = /^#x([0-9a-f]+)$/i.exec(name) ? parseInt(name.slice(2), 16) : /^#(\d+)$/.exec(name) ? parseInt(name.slice(1), 10) : NaN;
      return Number.isNaN(code) ? fail(`unknown entity ${all}`) : String.fromCodePoint(code);
    });
  };
  if (source.startsWith('<?xml')) {
    const end = source.indexOf('?>');
    if (end < 0) fail('unclosed prolog');
    i = end + 2;
  }
  const root: Element = { name: '#document', attrs: new Map(), children: [], text: '' };
  const stack: Element[] = [root];
  while (i < source.length) {
    const lt = source.indexOf('<', i);
    const top = stack[stack.length - 1] as Element;
    const text = lt < 0 ? source.slice(i) : source.slice(i, lt);
    top.text += decode(text);
    if (lt < 0) break;
    i = lt;
    if (source.startsWith('</', i)) {
      const m = /^<\/([A-Za-z][\w:.-]*)\s*>/.exec(source.slice(i));
      if (!m) fail('bad end tag');
      const open = stack.pop();
      if (!open || open.name !== m?.[1]) fail(`end tag ${m?.[1]} closes ${open?.name}`);
      i += (m as RegExpExecArray)[0].length;
      continue;
    }
    const m = /^<([A-Za-z][\w:.-]*)/.exec(source.slice(i));
    if (!m) fail('bad tag');
    const element: Element = { name: (m as RegExpExecArray)[1] as string, attrs: new Map(), children: [], text: '' };
    i += (m as RegExpExecArray)[0].length;
    for (;;) {
      const rest = source.slice(i);
      const close = /^\s*(\/?)>/.exec(rest);
      if (close) {
        i += close[0].length;
        top.children.push(element);
        if (close[1] !== '/') stack.push(element);
        break;
      }
      const a = /^\s+([A-Za-z_:][\w:.-]*)="([^"]*)"/.exec(rest);
      if (!a) fail('bad attribute');
      const [all, name, value] = a as RegExpExecArray;
      if (element.attrs.has(name as string)) fail(`duplicate attribute ${name}`);
      element.attrs.set(name as string, decode(value as string));
      i += all.length;
    }
  }
  if (stack.length !== 1) fail(`unclosed ${stack[stack.length - 1]?.name}`);
  if (root.children.length !== 1 || root.text.trim() !== '') fail('not one root element');
  return root.children[0] as Element;
}

function all(element: Element, keep: (e: Element) => boolean): Element[] {
  return [...(keep(element) ? [element] : []), ...element.children.flatMap((c) => all(c, keep))];
}

const groups = (svg: Element, cls: string) => all(svg, (e) => e.name === 'g' && (e.attrs.get('class') ?? '').split(' ').includes(cls));

describe('parseXml (the test checker itself)', () => {
  it('rejects what is not well-formed', () => {
    expect(() => parseXml('<a><b></a>')).toThrow();
    expect(() => parseXml('<a>x & y</a>')).toThrow();
    expect(() => parseXml('<a t="<"/>')).toThrow();
    expect(() => parseXml('<a>')).toThrow();
    expect(parseXml('<a t="&lt;&amp;">&#60;b&gt;</a>').text).toBe('<b>');
  });
});

describe('drawingSvg: example flows', () => {
  it.each(flowFiles)('%s: a gf-node per outline node, a gf-edge per outline edge, well-formed', async (file) => {
    const drawing = exampleDrawing(file);
    const outline = drawing.outline as Outline;
    const svg = parseXml(drawingSvg(await layoutDrawing(drawing, 'outline')));
    expect(svg.name).toBe('svg');
    expect(svg.attrs.get('xmlns')).toBe('http://www.w3.org/2000/svg');
    expect(svg.attrs.get('viewBox')).toMatch(/^0 0 \d+ \d+$/);
    expect(all(svg, (e) => e.name === 'style')[0]?.text).toContain('.gf-uncovered');
    const nodes = groups(svg, 'gf-node');
    expect(nodes.map((g) => g.attrs.get('data-id')).sort()).toEqual(outline.nodes.map((n) => n.id).sort());
    for (const g of nodes) {
      expect(g.children.some((c) => c.name === 'rect')).toBe(true);
      expect(g.children.some((c) => c.name === 'text')).toBe(true);
      const node = outline.nodes.find((n) => n.id === g.attrs.get('data-id')) as OutlineNode;
      expect(g.attrs.get('data-kind')).toBe(node.kind);
      expect(g.children.find((c) => c.name === 'title')?.text.split('\n')[0]).toBe(node.label || node.id);
    }
    const edges = groups(svg, 'gf-edge');
    expect(edges.map((g) => g.attrs.get('data-id')).sort()).toEqual(outline.edges.map((e) => e.id).sort());
    for (const g of edges) expect(g.children.find((c) => c.name === 'path')?.attrs.get('d')).toMatch(/^M[\d.-]+,[\d.-]+( L[\d.-]+,[\d.-]+)+$/);
  });

  it.each(flowFiles)('%s: the machine level draws every state and every transition', async (file) => {
    const drawing = exampleDrawing(file);
    const svg = parseXml(drawingSvg(await layoutDrawing(drawing, 'machine')));
    expect(new Set(groups(svg, 'gf-node').map((g) => g.attrs.get('data-id')))).toEqual(new Set(drawing.machine.states.map((s) => s.id)));
    const edges = groups(svg, 'gf-edge');
    expect(edges.map((g) => g.attrs.get('data-id'))).toEqual(drawing.machine.transitions.map((t) => t.id));
    expect(edges.map((g) => JSON.parse(g.attrs.get('data-transitions')!))).toEqual(drawing.machine.transitions.map((t) => [t.id]));
  });

  it('led-sales: outline edges carry the transitions they stand for, and marks are drawn', async () => {
    const layout = await layoutDrawing(exampleDrawing('led-sales.json'), 'outline');
    const svg = parseXml(drawingSvg(layout));
    const byId = new Map(groups(svg, 'gf-edge').map((g) => [g.attrs.get('data-id'), g]));
    for (const e of layout.edges) expect(JSON.parse(byId.get(e.id)!.attrs.get('data-transitions')!)).toEqual(e.transitions);
    const intent = groups(svg, 'gf-node').find((g) => g.attrs.get('data-id') === 'intent') as Element;
    expect(intent.attrs.get('class')).toContain('gf-mark-start');
    expect(groups(intent, 'gf-start')).toHaveLength(1);
    // The author's colour fills the box.
    expect(intent.children.find((c) => c.name === 'rect')?.attrs.get('style')).toContain('#2563eb');
    const terminal = groups(svg, 'gf-node').find((g) => g.attrs.get('data-id') === 'quote_sent') as Element;
    expect(terminal.children.filter((c) => c.name === 'rect')).toHaveLength(2);
  });
});

// A hand-made drawing whose every string is hostile.
const HOSTILE = `<script>alert("x")</script> & 'quotes' ]]> \u0001`;
function hostileDrawing(): WorkflowDrawing {
  const machine: MachineDrawing = {
    id: 'm',
    states: [
      { id: 'm', key: 'm', parent: null, type: 'compound', initial: 'a', tags: [], meta: null, invoke: [], inputs: [] },
      { id: 'm.a', key: 'a', parent: 'm', type: 'atomic', initial: null, tags: [], meta: null, invoke: [], inputs: [{ name: HOSTILE, type: 'text', to: HOSTILE, deadline: null }] },
      { id: 'm.b', key: 'b', parent: 'm', type: 'final', initial: null, tags: [], meta: null, invoke: [], inputs: [] },
    ],
    transitions: [{ id: 'm.a on go #1', source: 'm.a', target: 'm.b', event: 'go', guard: HOSTILE, actions: [], order: 0 }],
  };
  const node = (id: string, over: Partial<OutlineNode>): OutlineNode => ({ id, parent: null, kind: 'question', label: HOSTILE, group: false, state: `m.${id}`, marks: [], details: [], ui: null, ...over });
  return {
    format: DRAWING_FORMAT,
    id: 'hostile',
    title: HOSTILE,
    version: null,
    kind: 'workflow',
    outline: {
      nodes: [
        node('a', { marks: ['start', 'input'], details: [{ label: HOSTILE, value: [HOSTILE] }], ui: { color: 'red;}</style><script>alert(1)</script>' } }),
        node('b', { kind: `terminal" onload="alert(1)`, marks: ['terminal'], ui: { color: '#0f0' } }),
      ],
      edges: [{ id: `a -> b #1`, source: 'a', target: 'b', outcome: HOSTILE, guard: HOSTILE, implicit: false }],
      paths: [],
    },
    machine,
  };
}

describe('drawingSvg: escaping', () => {
  it.each(['outline', 'machine'] as const)('keeps hostile labels inert at the %s level', async (level) => {
    const text = drawingSvg(await layoutDrawing(hostileDrawing(), level));
    expect(text).not.toContain('<script');
    expect(text).not.toContain('onload="');
    expect(text).not.toContain('\u0001');
    const svg = parseXml(text);
    expect(all(svg, (e) => e.name === 'script')).toHaveLength(0);
    // The text survives, as text: the full label in the titles.
    const titles = all(svg, (e) => e.name === 'title').map((t) => t.text);
    expect(titles.some((t) => t.includes(`<script>alert("x")</script> & 'quotes'`))).toBe(true);
    // Only the allowed attributes on boxes: no handler smuggled in through the kind.
    for (const g of groups(svg, 'gf-node')) expect([...g.attrs.keys()].sort()).toEqual(['class', 'data-id', 'data-kind']);
  });

  it('lets only colour literals into style attributes', async () => {
    const svg = parseXml(drawingSvg(await layoutDrawing(hostileDrawing(), 'outline')));
    const style = (id: string) => groups(svg, 'gf-node').find((g) => g.attrs.get('data-id') === id)?.children.find((c) => c.name === 'rect')?.attrs.get('style');
    expect(style('a')).toBeUndefined();
    expect(style('b')).toContain('#0f0');
    expect(escapeXml(`a<b>&"c'`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;');
  });
});

describe('overlay', () => {
  it('activeStateIds: the root and every state on the way to each active leaf, parallel regions too', () => {
    const machine: Pick<MachineDrawing, 'states'> = {
      states: ['f', 'f.a', 'f.a.x', 'f.a.y', 'f.p', 'f.p.r1', 'f.p.r1.one', 'f.p.r2', 'f.p.r2.two'].map((id) => ({
        id,
        key: id.split('.').pop() as string,
        parent: id.includes('.') ? id.slice(0, id.lastIndexOf('.')) : null,
        type: 'atomic' as const,
        initial: null,
        tags: [],
        meta: null,
        invoke: [],
        inputs: [],
      })),
    };
    expect(activeStateIds(machine, { a: 'y' })).toEqual(['f', 'f.a', 'f.a.y']);
    expect(activeStateIds(machine, { p: { r1: 'one', r2: 'two' } })).toEqual(['f', 'f.p', 'f.p.r1', 'f.p.r1.one', 'f.p.r2', 'f.p.r2.two']);
    expect(activeStateIds(machine, 'a')).toEqual(['f', 'f.a']);
    expect(activeStateIds(machine, { gone: 'x' })).toEqual(['f']);
  });

  it('activeIds at the outline level: the group and the node inside it; the machine level: the states', () => {
    const drawing = exampleDrawing('led-sales.json');
    const court = (drawing.outline as Outline).nodes.find((n) => n.id === 'led.court_size') as OutlineNode;
    expect(court.state).toBe('led-sales.led.court_size');
    // The compiled machine's own states below the node's state count as the node.
    const inner = drawing.machine.states.find((s) => s.parent === court.state);
    const value = { led: { court_size: inner?.key ?? {} } };
    const outline = activeIds(drawing, 'outline', value);
    expect(outline).toContain('led.court_size');
    expect(outline).toContain('led');
    // A ui.group box around the subflow call is active through it.
    const sales = (drawing.outline as Outline).nodes.find((n) => n.kind === 'group' && (drawing.outline as Outline).nodes.some((m) => m.id === 'led' && m.parent === n.id));
    expect(sales?.state).toBeNull();
    expect(outline).toContain(sales?.id);
    expect(outline).not.toContain('intent');
    expect(outline).not.toContain('led.wattage');
    expect(activeIds(drawing, 'machine', value)).toEqual(activeStateIds(drawing.machine, value));
    expect(activeIds(drawing, 'machine', value)).toContain('led-sales.led.court_size');
  });

  it('uncoveredEdgeIds: machine transitions missing; outline edges none of whose transitions was taken', async () => {
    const drawing = exampleDrawing('led-sales.json');
    const layout = await layoutDrawing(drawing, 'outline');
    const edge = layout.edges.find((e) => e.id === 'quote -> project_specialist #1');
    expect(edge?.transitions.length).toBeGreaterThan(0);
    const missing = edge?.transitions ?? [];
    expect(uncoveredEdgeIds(drawing, 'outline', missing)).toEqual(['quote -> project_specialist #1']);
    expect(uncoveredEdgeIds(layout, 'outline', missing)).toEqual(['quote -> project_specialist #1']);
    // One of an edge's transitions taken: the edge is covered.
    const review = layout.edges.find((e) => e.id === 'review -> intent #1')?.transitions ?? [];
    expect(review.length).toBeGreaterThan(1);
    expect(uncoveredEdgeIds(drawing, 'outline', review.slice(1))).toEqual([]);
    expect(uncoveredEdgeIds(drawing, 'outline', review)).toEqual(['review -> intent #1']);
    expect(uncoveredEdgeIds(drawing, 'machine', [...missing, 'no such transition'])).toEqual(missing);
    expect(uncoveredEdgeIds(drawing, 'outline', [])).toEqual([]);
  });

  it('a drawing without an outline: both levels mark machine states', () => {
    const drawing = standaloneMachineDrawing(taskAgentMachine);
    expect(activeIds(drawing, 'outline', 'idle')).toEqual(['task-agent', 'task-agent.idle']);
    const t = drawing.machine.transitions[0]?.id as string;
    expect(uncoveredEdgeIds(drawing, 'outline', [t])).toEqual([t]);
  });
});
