import { describe, expect, it } from 'vitest';
import { and, assign, fromPromise, not, or, setup, stateIn } from 'xstate';
import {
  ALWAYS_EVENT,
  actionName,
  dotQuote,
  drawMachine,
  escapeMermaid,
  guardLabel,
  machineDrawing,
  mermaidIds,
  toDot,
  toMermaid,
  type DrawnState,
} from '../../src/viz/index.js';
import { waitsFor } from '../../src/inputs/declared.js';

// A gate-like flow: dashes and underscores in ids, guards with params, not(),
// a targetless transition, an invoke with onDone/onError, a compound state with
// an eventless choice and its own final state, meta with ui hints.
const gateFlow = setup({
  types: { context: {} as { answers: Record<string, string> }, events: {} as { type: 'user.text'; text: string } | { type: 'user.button'; value: string } },
  guards: {
    textMatches: (_, _params: { gate: string }) => true,
    cel: (_, _params: { expr: string }) => true,
  },
  actions: { record: () => {}, notify: (_, _params: { level: number }) => {} },
  actors: { extract: fromPromise(async () => ({ values: {} })) },
}).createMachine({
  id: 'gate-flow',
  context: { answers: {} },
  initial: 'ask_name',
  states: {
    ask_name: {
      tags: ['asking'],
      meta: { node: 'ask_name', kind: 'question', ui: { widget: 'buttons', options: ['Yes', 'No'] } },
      on: {
        'user.text': [
          { guard: not({ type: 'textMatches', params: { gate: 'a' } }), target: 'extracting' },
          { target: 'review', actions: ['record', assign({ answers: ({ context }) => context.answers })] },
        ],
        'user.button': { actions: { type: 'notify', params: { level: 2 } } },
      },
    },
    extracting: {
      tags: ['busy'],
      invoke: { id: 'extract', src: 'extract', onDone: { target: 'review', actions: 'record' }, onError: 'ask_name' },
    },
    review: {
      initial: 'check',
      states: {
        check: {
          always: [{ guard: { type: 'cel', params: { expr: 'answers.x == 1.0' } }, target: 'ok' }, { target: '#gate-flow.ask_name' }],
        },
        ok: { type: 'final' },
      },
      onDone: 'done',
    },
    done: { type: 'final', meta: { node: 'done', kind: 'terminal', outcome: 'completed' } },
  },
});

// Parallel regions, a history state, and/or/stateIn guards, a delay, and one
// transition with two targets.
const player = setup({
  guards: { isReady: () => true, isMuted: () => false },
}).createMachine({
  id: 'player',
  type: 'parallel',
  on: { reset: { target: ['.audio.muted', '.video.idle'] } },
  states: {
    audio: {
      initial: 'muted',
      states: {
        muted: { on: { toggle: 'loud' } },
        loud: { on: { toggle: 'muted' } },
        hist: { type: 'history', history: 'deep' },
      },
    },
    video: {
      initial: 'idle',
      states: {
        idle: { after: { 1000: 'playing' } },
        playing: {
          on: { stop: { guard: and(['isReady', or([stateIn('#player.audio.loud'), not('isMuted')])]), target: 'idle' } },
        },
      },
    },
  },
});

const state = (over: Partial<DrawnState> & Pick<DrawnState, 'id' | 'key' | 'parent'>): DrawnState => ({
  type: 'atomic',
  initial: null,
  tags: [],
  meta: null,
  invoke: [],
  inputs: [],
  ...over,
});

describe('machineDrawing', () => {
  it('draws states in document order with types, initial children, tags, meta and invokes', () => {
    const drawing = machineDrawing(gateFlow);
    expect(drawing.id).toBe('gate-flow');
    expect(drawing.states).toEqual([
      state({ id: 'gate-flow', key: 'gate-flow', parent: null, type: 'compound', initial: 'ask_name' }),
      state({
        id: 'gate-flow.ask_name',
        key: 'ask_name',
        parent: 'gate-flow',
        tags: ['asking'],
        meta: { node: 'ask_name', kind: 'question', ui: { widget: 'buttons', options: ['Yes', 'No'] } },
      }),
      state({ id: 'gate-flow.extracting', key: 'extracting', parent: 'gate-flow', tags: ['busy'], invoke: [{ id: 'extract', src: 'extract' }] }),
      state({ id: 'gate-flow.review', key: 'review', parent: 'gate-flow', type: 'compound', initial: 'check' }),
      state({ id: 'gate-flow.review.check', key: 'check', parent: 'gate-flow.review' }),
      state({ id: 'gate-flow.review.ok', key: 'ok', parent: 'gate-flow.review', type: 'final' }),
      state({ id: 'gate-flow.done', key: 'done', parent: 'gate-flow', type: 'final', meta: { node: 'done', kind: 'terminal', outcome: 'completed' } }),
    ]);
  });

  it('draws transitions with events, readable guards, action names and their order', () => {
    expect(machineDrawing(gateFlow).transitions).toEqual([
      { id: 'gate-flow.ask_name on user.text #1', source: 'gate-flow.ask_name', target: 'gate-flow.extracting', event: 'user.text', guard: '!textMatches(gate=a)', actions: [], order: 0 },
      { id: 'gate-flow.ask_name on user.text #2', source: 'gate-flow.ask_name', target: 'gate-flow.review', event: 'user.text', guard: null, actions: ['record', 'xstate.assign'], order: 1 },
      { id: 'gate-flow.ask_name on user.button #1', source: 'gate-flow.ask_name', target: null, event: 'user.button', guard: null, actions: ['notify'], order: 0 },
      { id: 'gate-flow.extracting on xstate.done.actor.extract #1', source: 'gate-flow.extracting', target: 'gate-flow.review', event: 'xstate.done.actor.extract', guard: null, actions: ['record'], order: 0 },
      { id: 'gate-flow.extracting on xstate.error.actor.extract #1', source: 'gate-flow.extracting', target: 'gate-flow.ask_name', event: 'xstate.error.actor.extract', guard: null, actions: [], order: 0 },
      { id: 'gate-flow.review on xstate.done.state.gate-flow.review #1', source: 'gate-flow.review', target: 'gate-flow.done', event: 'xstate.done.state.gate-flow.review', guard: null, actions: [], order: 0 },
      { id: 'gate-flow.review.check always #1', source: 'gate-flow.review.check', target: 'gate-flow.review.ok', event: ALWAYS_EVENT, guard: 'cel: answers.x == 1.0', actions: [], order: 0 },
      { id: 'gate-flow.review.check always #2', source: 'gate-flow.review.check', target: 'gate-flow.ask_name', event: 'always', guard: null, actions: [], order: 1 },
    ]);
  });

  it('draws parallel regions, history states, combined guards, delays and multi-target transitions', () => {
    const drawing = machineDrawing(player);
    expect(drawing.states.map((s) => [s.id, s.type, s.initial])).toEqual([
      ['player', 'parallel', null],
      ['player.audio', 'compound', 'muted'],
      ['player.audio.muted', 'atomic', null],
      ['player.audio.loud', 'atomic', null],
      ['player.audio.hist', 'history', null],
      ['player.video', 'compound', 'idle'],
      ['player.video.idle', 'atomic', null],
      ['player.video.playing', 'atomic', null],
    ]);
    expect(drawing.transitions).toEqual([
      { id: 'player on reset #1', source: 'player', target: 'player.audio.muted', event: 'reset', guard: null, actions: [], order: 0 },
      { id: 'player on reset #1', source: 'player', target: 'player.video.idle', event: 'reset', guard: null, actions: [], order: 0 },
      { id: 'player.audio.muted on toggle #1', source: 'player.audio.muted', target: 'player.audio.loud', event: 'toggle', guard: null, actions: [], order: 0 },
      { id: 'player.audio.loud on toggle #1', source: 'player.audio.loud', target: 'player.audio.muted', event: 'toggle', guard: null, actions: [], order: 0 },
      { id: 'player.video.idle on xstate.after.1000.player.video.idle #1', source: 'player.video.idle', target: 'player.video.playing', event: 'xstate.after.1000.player.video.idle', guard: null, actions: [], order: 0 },
      {
        id: 'player.video.playing on stop #1',
        source: 'player.video.playing',
        target: 'player.video.idle',
        event: 'stop',
        guard: 'isReady && (in("#player.audio.loud") || !isMuted)',
        actions: [],
        order: 0,
      },
    ]);
  });

  it('uses state paths as ids even where a state has its own id', () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'a',
      states: { a: { id: 'custom-a', on: { go: 'b' } }, b: { on: { back: '#custom-a' } } },
    });
    const drawing = machineDrawing(machine);
    expect(drawing.states.map((s) => s.id)).toEqual(['m', 'm.a', 'm.b']);
    expect(drawing.transitions.map((t) => [t.source, t.target])).toEqual([
      ['m.a', 'm.b'],
      ['m.b', 'm.a'],
    ]);
  });

  it('is plain JSON: drawMachine json round-trips to the same drawing', () => {
    const drawing = machineDrawing(gateFlow);
    expect(JSON.parse(drawMachine(gateFlow, 'json'))).toEqual(drawing);
    expect(drawMachine(gateFlow, 'json')).toBe(JSON.stringify(drawing, null, 2));
  });
});

describe('guardLabel and actionName', () => {
  it('labels named, parameterized, expression and inline guards', () => {
    expect(guardLabel(undefined)).toBeNull();
    expect(guardLabel('isReady')).toBe('isReady');
    expect(guardLabel({ type: 'isReady' })).toBe('isReady');
    expect(guardLabel({ type: 'cel', params: { expr: 'answers.x == 1.0' } })).toBe('cel: answers.x == 1.0');
    expect(guardLabel({ type: 'between', params: { min: 1, 'max-x': [2, null], s: 'q"' } })).toBe('between(min=1, max-x=[2,null], s="q\\"")');
    expect(guardLabel({ type: 'dyn', params: () => ({}) })).toBe('dyn(…)');
    expect(guardLabel(function hasName() {})).toBe('hasName');
    expect(guardLabel(not(and(['a', 'b'])))).toBe('!(a && b)');
    expect(guardLabel(or(['a', not({ type: 'b', params: { n: 1 } })]))).toBe('a || !b(n=1)');
  });

  it('reads the object form of combined guards too', () => {
    expect(guardLabel({ type: 'xstate.not', params: { guards: [{ type: 'textMatches', params: { gate: 'a' } }] } })).toBe('!textMatches(gate=a)');
    expect(guardLabel({ type: 'xstate.and', guards: ['a', { type: 'xstate.or', guards: ['b', 'c'] }] })).toBe('a && (b || c)');
  });

  it('names actions by type', () => {
    expect(actionName('record')).toBe('record');
    expect(actionName({ type: 'notify', params: { level: 2 } })).toBe('notify');
    expect(actionName(assign({}))).toBe('xstate.assign');
    expect(actionName(function logIt() {})).toBe('logIt');
  });
});

describe('toMermaid', () => {
  it('draws a small machine exactly', () => {
    const machine = setup({ guards: { ok: () => true } }).createMachine({
      id: 'tiny',
      initial: 'a',
      states: { a: { on: { go: { target: 'b', guard: { type: 'ok', params: { x: 'y:z' } } } } }, b: { type: 'final' } },
    });
    expect(toMermaid(machineDrawing(machine))).toBe(
      [
        'stateDiagram-v2',
        'state "tiny" as tiny {',
        '  [*] --> tiny_a',
        '  state "a" as tiny_a',
        '  state "b" as tiny_b',
        '  tiny_b --> [*]',
        '}',
        'tiny_a --> tiny_b : go [ok(x=#34;y#58;z#34;)]',
        '',
      ].join('\n'),
    );
  });

  it('nests compound states, marks initial and final states, labels edges', () => {
    const text = toMermaid(machineDrawing(gateFlow));
    const lines = text.split('\n');
    expect(lines[0]).toBe('stateDiagram-v2');
    expect(lines).toContain('state "gate-flow" as gate_flow {');
    expect(lines).toContain('  [*] --> gate_flow_ask_name');
    expect(lines).toContain('  state "extracting" as gate_flow_extracting');
    expect(lines).toContain('  gate_flow_extracting : invoke extract');
    expect(lines).toContain('  state "review" as gate_flow_review {');
    expect(lines).toContain('    [*] --> gate_flow_review_check');
    expect(lines).toContain('    gate_flow_review_ok --> [*]');
    expect(lines).toContain('  gate_flow_done --> [*]');
    expect(lines).toContain('gate_flow_ask_name --> gate_flow_extracting : user.text [!textMatches(gate=a)]');
    expect(lines).toContain('gate_flow_ask_name --> gate_flow_ask_name : user.button');
    expect(lines).toContain('gate_flow_extracting --> gate_flow_review : xstate.done.actor.extract');
    expect(lines).toContain('gate_flow_review_check --> gate_flow_review_ok : always [cel#58; answers.x == 1.0]');
    expect(lines).toContain('gate_flow_review_check --> gate_flow_ask_name : always');
  });

  it('separates parallel regions and shortens delayed events', () => {
    const lines = toMermaid(machineDrawing(player)).split('\n');
    const start = lines.indexOf('state "player" as player {');
    expect(lines.slice(start, start + 14)).toEqual([
      'state "player" as player {',
      '  state "audio" as player_audio {',
      '    [*] --> player_audio_muted',
      '    state "muted" as player_audio_muted',
      '    state "loud" as player_audio_loud',
      '    state "hist (H)" as player_audio_hist',
      '  }',
      '  --',
      '  state "video" as player_video {',
      '    [*] --> player_video_idle',
      '    state "idle" as player_video_idle',
      '    state "playing" as player_video_playing',
      '  }',
      '}',
    ]);
    expect(lines).toContain('player_video_idle --> player_video_playing : after 1000');
  });

  for (const [name, machine] of [
    ['gate-flow', gateFlow],
    ['player', player],
  ] as const) {
    it(`${name}: balanced blocks, safe ids, one-line labels, every endpoint declared`, () => {
      checkMermaid(toMermaid(machineDrawing(machine)));
    });
  }

  it('keeps ids that sanitize alike apart and avoids keywords and leading digits', () => {
    const states = ['a-b', 'a_b', 'a.b', 'a_b_2', 'state', '1x', 'Default-flow', 'NOTE', 'stateful'].map((id) => ({ id }) as DrawnState);
    expect([...mermaidIds(states).values()]).toEqual(['a_b', 'a_b_2', 'a_b_3', 'a_b_2_2', 's_state', 's_1x', 's_Default_flow', 's_NOTE', 'stateful']);
  });

  it('escapes what Mermaid reads as syntax and keeps labels on one line', () => {
    expect(escapeMermaid('a: "b" #c; {d} <e> 100%\nnext')).toBe('a#58; #34;b#34; #35;c#59; #123;d#125; #60;e#62; 100#37; next');
    // A line holding `direction LR` would be read as a direction statement.
    expect(escapeMermaid('set Direction  lr')).toBe('set Directio#110; lr');
    expect(escapeMermaid('directions lr')).toBe('directions lr');
  });
});

describe('toDot', () => {
  it('draws clusters, anchors, final doublecircles and labelled edges', () => {
    const lines = toDot(machineDrawing(gateFlow)).split('\n');
    expect(lines[0]).toBe('digraph "gate-flow" {');
    expect(lines).toContain('  compound=true;');
    expect(lines).toContain('  subgraph "cluster_gate-flow" {');
    expect(lines).toContain('    "gate-flow" [shape=point, width=0.12, label=""];');
    expect(lines).toContain('    "gate-flow" -> "gate-flow.ask_name";');
    expect(lines).toContain('    "gate-flow.extracting" [label="extracting\\ninvoke extract"];');
    expect(lines).toContain('    subgraph "cluster_gate-flow.review" {');
    expect(lines).toContain('      "gate-flow.review.ok" [shape="doublecircle", label="ok"];');
    expect(lines).toContain('  "gate-flow.ask_name" -> "gate-flow.extracting" [label="user.text [!textMatches(gate=a)]"];');
    expect(lines).toContain('  "gate-flow.ask_name" -> "gate-flow.ask_name" [label="user.button", style="dashed"];');
    expect(lines).toContain('  "gate-flow.extracting" -> "gate-flow.review" [label="xstate.done.actor.extract", lhead="cluster_gate-flow.review"];');
    expect(lines).toContain('  "gate-flow.review" -> "gate-flow.done" [label="xstate.done.state.gate-flow.review", ltail="cluster_gate-flow.review"];');
    // Leaving the cluster it is inside: no lhead, which Graphviz would refuse.
    expect(lines).toContain('  "gate-flow.review.check" -> "gate-flow.ask_name" [label="always"];');
  });

  it('marks history states and clips edges of the parallel root only where they leave it', () => {
    const lines = toDot(machineDrawing(player)).split('\n');
    expect(lines).toContain('      "player.audio.hist" [shape="circle", label="H", xlabel="hist"];');
    expect(lines).toContain('  "player" -> "player.audio.muted" [label="reset"];');
    expect(lines).toContain('  "player.video.idle" -> "player.video.playing" [label="after 1000"];');
  });

  for (const [name, machine] of [
    ['gate-flow', gateFlow],
    ['player', player],
  ] as const) {
    it(`${name}: DOT syntax sanity`, () => {
      checkDot(toDot(machineDrawing(machine)));
    });
  }

  it('quotes DOT strings', () => {
    expect(dotQuote('a "b" \\n c\nd')).toBe('"a \\"b\\" \\\\n c\\nd"');
  });
});

// A machine written in code that waits for inputs (src/inputs: `meta.inputs`), atomic and compound.
const approvals = setup({}).createMachine({
  id: 'approvals',
  initial: 'approval',
  states: {
    approval: {
      meta: waitsFor(
        [
          { name: 'approved', type: 'boolean' },
          { name: 'amount', type: 'number', min: 0 },
          { name: 'note', type: 'string', to: 'auditor' },
        ],
        { to: 'manager', deadline: 'PT24H' },
      ),
      on: { 'input.answered': 'confirm', 'input.timedOut': 'late' },
    },
    confirm: {
      meta: waitsFor([{ name: 'ok', type: 'boolean' }]),
      initial: 'open',
      states: { open: {} },
      on: { 'input.answered': 'done' },
    },
    late: { type: 'final' },
    done: { type: 'final' },
  },
});

describe('waiting states (meta.inputs)', () => {
  it('the drawing lists each input with its type, role and deadline; other states wait for nothing', () => {
    const states = machineDrawing(approvals).states;
    expect(states.find((s) => s.key === 'approval')!.inputs).toEqual([
      { name: 'approved', type: 'boolean', to: 'manager', deadline: 'PT24H' },
      { name: 'amount', type: 'number', to: 'manager', deadline: 'PT24H' },
      { name: 'note', type: 'string', to: 'auditor', deadline: 'PT24H' },
    ]);
    expect(states.find((s) => s.key === 'confirm')!.inputs).toEqual([{ name: 'ok', type: 'boolean', to: null, deadline: null }]);
    expect(states.find((s) => s.key === 'late')!.inputs).toEqual([]);
    // Meta that is not a list of inputs draws no input.
    const odd = setup({}).createMachine({ id: 'odd', initial: 'a', states: { a: { meta: { inputs: [{ name: 1 }, 'x', { name: 'n' }] } } } });
    expect(machineDrawing(odd).states[1]!.inputs).toEqual([]);
  });

  it('Mermaid: under an atomic state, in the title of a compound one', () => {
    const text = toMermaid(machineDrawing(approvals));
    const lines = text.split('\n');
    expect(lines).toContain('  approvals_approval : waits for manager (PT24H)#58; approved (boolean), amount (number)');
    expect(lines).toContain('  approvals_approval : waits for auditor (PT24H)#58; note (string)');
    expect(lines).toContain('  state "confirm / waits for the person#58; ok (boolean)" as approvals_confirm {');
    expect(lines).toContain('approvals_approval --> approvals_late : input.timedOut');
    checkMermaid(text);
  });

  it('DOT: lines of the state label, node or cluster', () => {
    const text = toDot(machineDrawing(approvals));
    const lines = text.split('\n');
    expect(lines).toContain('    "approvals.approval" [label="approval\\nwaits for manager (PT24H): approved (boolean), amount (number)\\nwaits for auditor (PT24H): note (string)"];');
    expect(lines).toContain('      label="confirm\\nwaits for the person: ok (boolean)";');
    checkDot(text);
  });
});

/** Structural checks standing in for a Mermaid parser. */
function checkMermaid(text: string) {
  const lines = text.split('\n');
  expect(lines[0]).toBe('stateDiagram-v2');
  expect(lines.at(-1)).toBe('');
  const declared = new Set<string>();
  const used: string[] = [];
  let depth = 0;
  for (const raw of lines.slice(1, -1)) {
    const line = raw.trim();
    const decl = /^state "([^"]*)" as (\S+)( \{)?$/.exec(line);
    const edge = /^(\S+) --> (\S+)(?: : (.*))?$/.exec(line);
    const note = /^(\S+) : (.*)$/.exec(line);
    if (decl) {
      expect(decl[2]).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
      expect(declared.has(decl[2]!), `${decl[2]} declared twice`).toBe(false);
      declared.add(decl[2]!);
      if (decl[3]) depth++;
    } else if (line === '}') {
      depth--;
      expect(depth).toBeGreaterThanOrEqual(0);
    } else if (edge) {
      for (const end of [edge[1]!, edge[2]!]) if (end !== '[*]') used.push(end);
      if (edge[3] !== undefined) expectPlainLabel(edge[3]);
    } else if (note) {
      used.push(note[1]!);
      expectPlainLabel(note[2]!);
    } else {
      expect(line, `unexpected line: ${raw}`).toBe('--');
    }
  }
  expect(depth).toBe(0);
  for (const id of used) expect(declared, `${id} is not declared`).toContain(id);
}

/** Nothing Mermaid reads as syntax is left once its `#<code>;` entities are taken out. */
function expectPlainLabel(label: string) {
  expect(label.replace(/#\w+;/g, '')).toMatch(/^[^:;#"{}<>%]+$/);
}

/** A small DOT tokenizer: strings closed, braces balanced, statements ended, endpoints declared. */
function checkDot(text: string) {
  const nodes = new Set<string>();
  const clusters = new Set<string>();
  const edges: [string, string][] = [];
  const refs: string[] = [];
  let depth = 0;
  for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
    const tokens = tokenize(line.trim());
    const last = tokens.at(-1);
    expect(['{', '}', ';'], line).toContain(last);
    for (const t of tokens) {
      if (t === '{') depth++;
      if (t === '}') depth--;
      expect(depth).toBeGreaterThanOrEqual(0);
    }
    const [first, second, third] = tokens;
    if (first === 'subgraph' && second) clusters.add(unquote(second));
    else if (first?.startsWith('"') && second === '[') nodes.add(unquote(first));
    else if (first?.startsWith('"') && second === '->' && third) edges.push([unquote(first), unquote(third)]);
    tokens.forEach((t, i) => {
      if ((t === 'lhead' || t === 'ltail') && tokens[i + 1] === '=') refs.push(unquote(tokens[i + 2] ?? ''));
    });
  }
  expect(depth).toBe(0);
  for (const [from, to] of edges) {
    expect(nodes, `${from} is not a node`).toContain(from);
    expect(nodes, `${to} is not a node`).toContain(to);
  }
  for (const cluster of refs) expect(clusters).toContain(cluster);
  for (const cluster of clusters) expect(cluster.startsWith('cluster_')).toBe(true);
}

function tokenize(line: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ') i++;
    else if (c === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      expect(j, `unterminated string in ${line}`).toBeLessThan(line.length);
      tokens.push(line.slice(i, j + 1));
      i = j + 1;
    } else if (line.startsWith('->', i)) {
      tokens.push('->');
      i += 2;
    } else if ('{}[];,='.includes(c)) {
      tokens.push(c);
      i++;
    } else {
      const m = /^[A-Za-z0-9_.]+/.exec(line.slice(i));
      expect(m, `unexpected character in ${line}`).not.toBeNull();
      tokens.push(m![0]);
      i += m![0].length;
    }
  }
  return tokens;
}

function unquote(token: string): string {
  return token.startsWith('"') ? (JSON.parse(token) as string) : token;
}
