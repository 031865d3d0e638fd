/**
 * checkFlow: one test per rule a schema cannot state field by field. Each
 * names the exact path of the offending field, its severity, the node it is
 * about and the message (and, for a guard, its text and the character
 * position of the problem). Errors refuse a document; warnings do not.
 */
import { describe, expect, it } from 'vitest';
import { flowErrors } from '../../src/flow/check.js';
import { FlowDocumentError } from '../../src/flow/errors.js';
import { parseFlowText, parseFlowValue } from '../../src/flow/parse.js';
import { base, error, issues, refused, sub, warning, withSubgraph } from './helpers.js';

// The fixture (base, sub, withSubgraph) and issues, error, warning, refused are in ./helpers.ts, shared with the per-kind tests in ./nodes/.

describe('the fixture', () => {
  it('is sound: no issue at all', () => {
    expect(issues(base())).toEqual([]);
    expect(issues(withSubgraph())).toEqual([]);
  });
});

describe('ids and keys', () => {
  it('a duplicate node id in the main flow', () => {
    const d = base();
    d.nodes.push({ kind: 'terminal', id: 'end', outcome: 'stopped' });
    expect(issues(d)).toEqual([error(['nodes', 3, 'id'], 'duplicate node id "end"', { node: 'end' })]);
  });

  it('a duplicate node id inside a subgraph', () => {
    const s = sub();
    s.nodes.push({ kind: 'question', id: 'x', key: 'x_again', prompt: 'X again?', answer: { type: 'string' } });
    expect(issues(withSubgraph(s))).toEqual([error(['subgraphs', 'sub', 'nodes', 1, 'id'], 'duplicate node id "x"', { node: 'x' })]);
  });

  // Regression (found by these tests, fixed): (minor, src/flow/check.ts, duplicate answer keys): "a key taken from a
  // duplicate id is reported once, as the id" holds in the main flow but not
  // in a subgraph, where a question id given twice (no `key`) is reported
  // twice: as a duplicate answer key and as a duplicate node id.
  it('a duplicate question id without key is reported once, as the id, in a subgraph as in the main flow', () => {
    const d = base();
    d.nodes.splice(2, 0, { kind: 'question', id: 'n', prompt: 'Again?', answer: { type: 'number' } });
    expect(issues(d)).toEqual([error(['nodes', 2, 'id'], 'duplicate node id "n"', { node: 'n' })]);
    const s = sub();
    s.nodes.push({ kind: 'question', id: 'x', prompt: 'X again?', answer: { type: 'string' } });
    expect(issues(withSubgraph(s))).toEqual([error(['subgraphs', 'sub', 'nodes', 1, 'id'], 'duplicate node id "x"', { node: 'x' })]);
  });

  it('the same node id in two scopes is allowed (ids are per scope)', () => {
    const s = sub();
    s.nodes[0] = { ...s.nodes[0]!, id: 'n', key: 'sub_n' };
    s.entry = 'n';
    s.edges = [{ from: 'n', to: '__exit__' }];
    expect(issues(withSubgraph(s))).toEqual([]);
  });

  it('a duplicate answer key across scopes (a subgraph question keyed like a main one)', () => {
    const s = sub();
    s.nodes[0]!.key = 'a';
    expect(issues(withSubgraph(s))).toEqual([
      error(['subgraphs', 'sub', 'nodes', 0, 'key'], 'duplicate answer key "a" (also at /nodes/0/id)', { node: 'x' }),
    ]);
  });
});

describe('missing references', () => {
  it('an edge from a node that does not exist', () => {
    const d = base();
    d.edges.push({ from: 'ghost', to: 'end' });
    expect(issues(d)).toEqual([error(['edges', 2, 'from'], 'no node has the id "ghost"')]);
  });

  it('an edge to a node that does not exist (where it meant to lead is unknown: nothing is called unreachable)', () => {
    const d = base();
    d.edges[1]!.to = 'ghost';
    expect(issues(d)).toEqual([error(['edges', 1, 'to'], 'no node has the id "ghost"')]);
  });

  it('a node left unconnected is unreachable, even when its own edges are missing too', () => {
    const d = base();
    d.nodes.push({ kind: 'question', id: 'later', prompt: 'Later?', answer: { type: 'string' } });
    expect(issues(d)).toEqual([
      error(['nodes', 3], 'question "later" has no "answered" edge to continue on', { node: 'later' }),
      error(['nodes', 3], 'node "later" is unreachable: no edge leads to it from the start "a"', { node: 'later' }),
    ]);
  });

  it('a misspelt edge target: "did you mean", and the node it meant is not also unreachable', () => {
    const d = base();
    d.edges[1]!.to = 'edn';
    expect(issues(d)).toEqual([error(['edges', 1, 'to'], 'no node has the id "edn" (did you mean "end"?)')]);
  });

  it('a misspelt start, subgraph entry, ref and fallback: "did you mean"', () => {
    const d = withSubgraph();
    d.start = 'A';
    d.fallback = 'ennd';
    d.subgraphs!.sub!.entry = 'xx';
    const call = d.nodes.find((n) => n.kind === 'subgraph')!;
    if (call.kind === 'subgraph') call.ref = 'sbu';
    expect(issues(d).map((i) => [i.path.join('/'), i.message])).toEqual(
      expect.arrayContaining([
        ['start', 'no node has the id "A" (did you mean "a"?)'],
        ['subgraphs/sub/entry', 'no node has the id "xx" (did you mean "x"?)'],
        ['nodes/1/ref', 'no subgraph is named "sbu" (did you mean "sub"?)'],
        ['fallback', 'no node of the main flow has the id "ennd" (did you mean "end"?)'],
      ]),
    );
  });

  it('a start that does not exist', () => {
    const d = base();
    d.start = 'ghost';
    expect(issues(d)).toEqual([error(['start'], 'no node has the id "ghost"')]);
  });

  it('a subgraph entry that does not exist', () => {
    const s = sub();
    s.entry = 'ghost';
    expect(issues(withSubgraph(s))).toEqual([error(['subgraphs', 'sub', 'entry'], 'no node has the id "ghost"')]);
  });

  it('a subgraph node naming a subgraph that does not exist', () => {
    const d = withSubgraph();
    d.nodes[1]!.ref = 'nowhere';
    expect(issues(d)).toEqual([
      error(['nodes', 1, 'ref'], 'no subgraph is named "nowhere"', { node: 's' }),
      // The one that exists is now called by nobody.
      warning(['subgraphs', 'sub'], 'subgraph "sub" is never called'),
    ]);
  });

  it('a constraint oneOf key no question has', () => {
    const d = base();
    d.constraints = [{ name: 'either', oneOf: ['a', 'ghost'], message: 'One of them, please.' }];
    expect(issues(d)).toEqual([error(['constraints', 0, 'oneOf', 1], 'no question has the key "ghost"')]);
  });

  it('a constraint fallback that is not a node of the main flow', () => {
    const d = withSubgraph();
    // `x` exists, but only inside the subgraph.
    d.constraints = [{ name: 'either', oneOf: ['a', 'n'], message: 'One of them, please.', fallback: 'x' }];
    expect(issues(d)).toEqual([error(['constraints', 0, 'fallback'], 'no node of the main flow has the id "x"')]);
  });

  it('a flow fallback that is not a node of the main flow', () => {
    const d = base();
    d.fallback = 'ghost';
    expect(issues(d)).toEqual([error(['fallback'], 'no node of the main flow has the id "ghost"')]);
  });
});

describe('reachability and loops', () => {
  it('a node never reached', () => {
    const d = base();
    d.nodes.push({ kind: 'terminal', id: 'orphan', outcome: 'stopped' });
    expect(issues(d)).toEqual([error(['nodes', 3], 'node "orphan" is unreachable: no edge leads to it from the start "a"', { node: 'orphan' })]);
  });

  it('a node never reached inside a subgraph', () => {
    const s = sub();
    s.nodes.push({ kind: 'question', id: 'lost', prompt: 'Lost?', answer: { type: 'string' } });
    s.edges.push({ from: 'lost', to: '__exit__' });
    expect(issues(withSubgraph(s))).toEqual([
      error(['subgraphs', 'sub', 'nodes', 1], 'node "lost" is unreachable: no edge leads to it from the entry "x"', { node: 'lost' }),
    ]);
  });

  it('a node reached only as the flow fallback or a constraint fallback is reached', () => {
    const d = base();
    d.nodes.push({ kind: 'terminal', id: 'person', outcome: 'handoff' });
    d.fallback = 'person';
    d.nodes[1]!.maxAttempts = 2;
    expect(issues(d)).toEqual([]);
    const c = base();
    c.nodes.push({ kind: 'question', id: 'again', prompt: 'Again?', answer: { type: 'string' } });
    c.edges.push({ from: 'again', to: 'end' });
    expect(issues(c)).toEqual([error(['nodes', 3], 'node "again" is unreachable: no edge leads to it from the start "a"', { node: 'again' })]);
    c.constraints = [{ name: 'either', oneOf: ['a', 'n'], message: 'One of them.', fallback: 'again' }];
    expect(issues(c)).toEqual([]);
  });

  it('dead ends are warnings: nodes from which no terminal can be reached', () => {
    const d = base();
    d.nodes.push({ kind: 'question', id: 'm', prompt: 'And?', answer: { type: 'number' } });
    d.edges = [
      { from: 'a', to: 'n', guard: "answers.a == 'Yes'" },
      { from: 'a', to: 'end', guard: 'else' },
      { from: 'n', to: 'm' },
      { from: 'm', to: 'n' },
    ];
    expect(issues(d)).toEqual([
      warning(['nodes', 1], 'dead end: from "n" the flow can never reach a terminal', { node: 'n' }),
      warning(['nodes', 3], 'dead end: from "m" the flow can never reach a terminal', { node: 'm' }),
    ]);
    expect(() => parseFlowValue(d)).not.toThrow();
  });

  it('a dead end inside a subgraph: it can never reach __exit__', () => {
    const s = sub();
    s.nodes.push({ kind: 'question', id: 'y', prompt: 'Y?', answer: { type: 'string' } });
    s.edges = [
      { from: 'x', to: '__exit__', guard: "answers.x == 'done'" },
      { from: 'x', to: 'y' },
      { from: 'y', to: 'x', guard: "answers.y == 'x'" },
      { from: 'y', to: 'y' },
    ];
    const found = issues(withSubgraph(s));
    expect(found).toEqual([]);
    // With the way out removed, both are dead ends.
    s.edges[0] = { from: 'x', to: 'y', guard: "answers.x == 'done'" };
    expect(issues(withSubgraph(s))).toEqual([
      warning(['subgraphs', 'sub', 'nodes', 0], 'dead end: from "x" the subgraph can never reach "__exit__"', { node: 'x' }),
      warning(['subgraphs', 'sub', 'nodes', 1], 'dead end: from "y" the subgraph can never reach "__exit__"', { node: 'y' }),
    ]);
  });

  it('a loop of decisions only is an error', () => {
    const d = base();
    d.nodes.push({ kind: 'decision', id: 'd1' }, { kind: 'decision', id: 'd2' });
    d.edges = [
      { from: 'a', to: 'n' },
      { from: 'n', to: 'd1' },
      { from: 'd1', to: 'd2', guard: "answers.a == 'Yes'" },
      { from: 'd1', to: 'end' },
      { from: 'd2', to: 'd1' },
    ];
    expect(issues(d)).toEqual([
      error(['edges'], 'loop with no question asked: d1 → d2 → d1 (decisions and questions passed over by `when`, within one turn: it may never stop)', { node: 'd1' }),
    ]);
  });

  it('a loop through an action is a warning', () => {
    const d = base();
    d.nodes.push({ kind: 'decision', id: 'd1' }, { kind: 'action', id: 'poll', actor: 'poll' });
    d.edges = [
      { from: 'a', to: 'n' },
      { from: 'n', to: 'd1' },
      { from: 'd1', to: 'poll', guard: "answers.a == 'Yes'" },
      { from: 'd1', to: 'end' },
      { from: 'poll', to: 'd1' },
      { from: 'poll', to: 'end', on: 'error' },
    ];
    expect(issues(d)).toEqual([
      warning(['edges'], 'loop with no question asked: d1 → poll → d1 (make sure a guard ends it)', { node: 'd1' }),
    ]);
    expect(() => parseFlowValue(d)).not.toThrow();
  });

  // A question passed over by its `when` takes no event: such a loop can spin within one turn.
  it('a loop through a question with `when` is an error', () => {
    const d = base();
    d.nodes.push({ kind: 'decision', id: 'd1' }, { kind: 'question', id: 'w', prompt: 'W?', when: "answers.a == 'No'", answer: { type: 'string' } });
    d.edges = [
      { from: 'a', to: 'n' },
      { from: 'n', to: 'd1' },
      { from: 'd1', to: 'w', guard: "answers.a == 'Yes'" },
      { from: 'd1', to: 'end' },
      { from: 'w', to: 'd1' },
    ];
    expect(issues(d)).toEqual([
      error(['edges'], 'loop with no question asked: d1 → w → d1 (decisions and questions passed over by `when`, within one turn: it may never stop)', { node: 'd1' }),
    ]);
  });

  // Regression (found by these tests, fixed): (src/flow/check.ts, the "loop with no question asked" rule): a
  // subgraph node is never "silent", so a loop that goes through a call of a
  // subgraph made only of decisions is not seen. This flow passes checkFlow
  // with no issue at all, compiles, and answering "Yes" to `a` never returns:
  // d → s (y → __exit__) → d → ... is an endless loop of eventless
  // transitions inside one `actor.send` (the process hangs at 100% CPU).
  // Expected: an error, as for a loop of decisions in one scope.
  it('a loop of decisions through a call of a subgraph of decisions only is an error', () => {
    const d = base();
    d.nodes.push({ kind: 'decision', id: 'd' }, { kind: 'subgraph', id: 's', ref: 'sub' });
    d.edges = [
      { from: 'a', to: 'n' },
      { from: 'n', to: 'd' },
      { from: 'd', to: 's', guard: "answers.a == 'Yes'" },
      { from: 'd', to: 'end' },
      { from: 's', to: 'd' },
    ];
    d.subgraphs = { sub: { entry: 'y', nodes: [{ kind: 'decision', id: 'y' }], edges: [{ from: 'y', to: '__exit__' }] } } as never;
    const errors = flowErrors(issues(d));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ message: expect.stringMatching(/^loop with no question asked: /) });
  });

  it('a loop through a question without `when` is fine', () => {
    const d = base();
    d.nodes.push({ kind: 'decision', id: 'd1' });
    d.edges = [
      { from: 'a', to: 'n' },
      { from: 'n', to: 'd1' },
      { from: 'd1', to: 'n', guard: 'answers.n > 3.0' },
      { from: 'd1', to: 'end' },
    ];
    expect(issues(d)).toEqual([]);
  });
});

describe('guards', () => {
  /** `base()` with `guard` on the edge a → n, and an else edge a → end. */
  const guarded = (guard: string) => {
    const d = base();
    d.edges[0]!.guard = guard;
    d.edges.push({ from: 'a', to: 'end' });
    return d;
  };

  it('a syntax error, with the character position', () => {
    expect(issues(guarded('answers.x =='))).toEqual([
      error(['edges', 0, 'guard'], 'guard at character 12: Unexpected token: EOF', {
        node: 'a',
        guard: { source: 'answers.x ==', position: 12 },
      }),
    ]);
  });

  it('a syntax error in the middle of a guard points at it', () => {
    const [problem] = issues(guarded("answers.a == 'Yes' && && true"));
    expect(problem).toMatchObject({ path: ['edges', 0, 'guard'], node: 'a', guard: { source: "answers.a == 'Yes' && && true" } });
    expect(problem!.severity).toBeUndefined();
    expect(problem!.guard!.position).toBe(22);
    expect(problem!.message).toMatch(/^guard at character 22: /);
  });

  it('a type error: a guard that is not true or false', () => {
    expect(issues(guarded('answers.n + 1'))).toEqual([
      error(['edges', 0, 'guard'], 'guard at character 0: a guard must be true or false, this is int', {
        node: 'a',
        guard: { source: 'answers.n + 1', position: 0 },
      }),
    ]);
  });

  it('answers.<unknown key> is an error, at its position', () => {
    const source = "answers.a == 'Yes' && answers.typo == 'x'";
    expect(issues(guarded(source))).toEqual([
      error(['edges', 0, 'guard'], 'guard at character 22: no question or action gives "answers.typo" (an answer the host gives at start is declared in "inputs")', {
        node: 'a',
        guard: { source, position: 22 },
      }),
    ]);
  });

  it("answers assigned by an action's `assign` are known", () => {
    const d = base();
    d.nodes.splice(1, 0, { kind: 'action', id: 'lookup', actor: 'lookup', assign: { price: 'total' } });
    d.edges = [
      { from: 'a', to: 'lookup' },
      { from: 'lookup', to: 'n', on: 'done', guard: 'answers.price > 10.0' },
      { from: 'lookup', to: 'end', on: 'done' },
      { from: 'lookup', to: 'end', on: 'error' },
      { from: 'n', to: 'end' },
    ];
    expect(issues(d)).toEqual([]);
  });

  it('constraints.<unknown> is an error, at its position', () => {
    const source = "answers.a == 'Yes' || constraints.nope";
    expect(issues(guarded(source))).toEqual([
      error(['edges', 0, 'guard'], 'guard at character 22: the flow has no constraint "nope"', {
        node: 'a',
        guard: { source, position: 22 },
      }),
    ]);
  });

  it('a known constraint may be read', () => {
    const d = guarded('constraints.either');
    d.constraints = [{ name: 'either', oneOf: ['a', 'n'], message: 'One of them.' }];
    expect(issues(d)).toEqual([]);
  });

  it('context.path in a flow without paths', () => {
    const source = "context.path.locked == 'home'";
    expect(issues(guarded(source))).toEqual([
      error(['edges', 0, 'guard'], 'guard at character 0: reads context.path, but the flow has no paths', { node: 'a', guard: { source, position: 0 } }),
    ]);
  });

  it('a `when` guard and a validator are checked where they are written', () => {
    const d = base();
    d.nodes[1]!.when = 'answers.a +';
    d.nodes[1]!.validators = [{ check: 'value', message: 'm' }, { check: 'value > ', message: 'm' }];
    const found = issues(d);
    expect(found.map((i) => [i.path, i.node, i.guard?.source])).toEqual([
      [['nodes', 1, 'when'], 'n', 'answers.a +'],
      // `value` alone is the number being checked, not true or false.
      [['nodes', 1, 'validators', 0, 'check'], 'n', 'value'],
      // Guard texts are trimmed by the schema.
      [['nodes', 1, 'validators', 1, 'check'], 'n', 'value >'],
    ]);
    expect(found.every((i) => i.severity === undefined && typeof i.guard?.position === 'number')).toBe(true);
  });

  it('a validator may read `value`, an edge guard may not', () => {
    const d = base();
    d.nodes[1]!.validators = [{ check: 'value > 2.0', message: 'More, please.' }];
    expect(issues(d)).toEqual([]);
    const [problem] = issues(guarded('value > 2.0'));
    expect(problem).toMatchObject({ path: ['edges', 0, 'guard'], node: 'a', guard: { source: 'value > 2.0', position: 0 } });
    expect(problem!.severity).toBeUndefined();
  });
});

describe('guards read answers that may exist where they run', () => {
  /** `base()` with a string question `s` between `n` and `end`, and a guard on the edge `from` → its next node. */
  const later = (from: 'a' | 'n', guard: string) => {
    const d = base();
    d.nodes.splice(2, 0, { kind: 'question', id: 's', prompt: 'Name?', answer: { type: 'string' } });
    d.edges = [
      { from: 'a', to: 'n' },
      { from: 'n', to: 's' },
      { from: 's', to: 'end' },
    ];
    const i = from === 'a' ? 0 : 1;
    d.edges[i]!.guard = guard;
    d.edges.push({ from, to: 'end' });
    return d;
  };

  it("an answer no path has asked before the guard's node is an error: reading it fails", () => {
    const source = "answers.a == 'Yes' && answers.n > 2.0";
    expect(issues(later('a', source))).toEqual([
      error(
        ['edges', 0, 'guard'],
        'guard at character 22: answers.n is given by "n", and no path from the start reaches "n" before "a": reading it fails, so the guard is false (test has(answers.n) first if an early answer is meant)',
        { node: 'a', guard: { source, position: 22 } },
      ),
    ]);
  });

  it('behind has() (or `in answers`) it is a warning: only an answer given early makes it true', () => {
    const source = "has(answers.s) && answers.s.startsWith('A')";
    expect(issues(later('a', source))).toEqual([
      warning(['edges', 0, 'guard'], 'guard at character 4: answers.s is given by "s", and no path from the start reaches "s" before "a": it is there only if an earlier message answered it early', {
        node: 'a',
        guard: { source, position: 4 },
      }),
    ]);
    expect(issues(later('a', "'s' in answers")).map((i) => [i.severity, i.guard?.position])).toEqual([['warning', 0]]);
  });

  it("the node's own answer and every answer on a path to it may be read; a later one is not, whichever node its guard is on", () => {
    expect(issues(later('n', "answers.a == 'Yes' && answers.n > 2.0"))).toEqual([]);
    expect(issues(later('n', 'answers.s.size() > 2')).map((i) => [i.path, i.node])).toEqual([[['edges', 1, 'guard'], 'n']]);
    // A question's `when` runs before it is asked.
    const d = later('n', 'answers.n > 2.0');
    d.nodes[1]!.when = "answers.s == 'x'";
    expect(issues(d).map((i) => [i.path, i.node])).toEqual([[['nodes', 1, 'when'], 'n']]);
  });

  it('an answer asked on one branch only, or later in a loop back, may exist', () => {
    const d = later('n', 'answers.n > 2.0');
    // s → n: s may have been asked when n's guards run again.
    d.edges.push({ from: 's', to: 'n', guard: 'answers.s.size() > 3' });
    d.edges[2]!.guard = 'else';
    d.edges.push(d.edges.splice(2, 1)[0]!);
    expect(issues(later('a', 'answers.s.size() > 3'))).toHaveLength(1);
    expect(issues(d)).toEqual([]);
  });

  it("a subgraph call gives its answers to the call's edges; inside a subgraph, answers given outside it may be read", () => {
    const d = withSubgraph();
    d.edges = [
      { from: 'a', to: 's' },
      { from: 's', to: 'n', guard: "answers.x == 'go'" },
      { from: 's', to: 'end' },
      { from: 'n', to: 'end' },
    ];
    expect(issues(d)).toEqual([]);
    d.edges[0] = { from: 'a', to: 's', guard: "answers.x == 'go'" };
    d.edges.splice(1, 0, { from: 'a', to: 'end' });
    expect(issues(d).map((i) => [i.path, i.node, i.severity])).toEqual([[['edges', 0, 'guard'], 'a', undefined]]);
    const s = sub();
    s.nodes.push({ kind: 'question', id: 'y', prompt: 'Y?', answer: { type: 'string' } });
    s.edges = [
      { from: 'x', to: 'y', guard: "answers.n > 1.0 && answers.a == 'Yes'" },
      { from: 'x', to: '__exit__' },
      { from: 'y', to: '__exit__' },
    ];
    expect(issues(withSubgraph(s))).toEqual([]);
  });
});

describe('guards call functions that apply, with patterns that are regular expressions', () => {
  const guarded = (guard: string) => {
    const d = base();
    d.edges[1] = { from: 'n', to: 'end', guard };
    d.edges.push({ from: 'n', to: 'end' });
    return d;
  };

  it('.size() (or size()) on a number answer is an error: it counts the characters of text', () => {
    for (const source of ['answers.n.size() > 2', 'size(answers.n) > 2'])
      expect(issues(guarded(source))).toEqual([
        error(['edges', 1, 'guard'], 'guard at character 0: answers.n is a number: size() counts the characters of text, it does not apply to a number (compare the number itself, e.g. answers.n > 2.0)', {
          node: 'n',
          guard: { source, position: 0 },
        }),
      ]);
  });

  it('every text function on a number or a yes/no is an error; on text, a category or a date it is not', () => {
    expect(issues(guarded("answers.n.startsWith('1')")).map((i) => i.guard?.position)).toEqual([0]);
    expect(issues(guarded("answers.a.size() > 2 && answers.a.matches('^Y')"))).toEqual([]);
    const d = guarded("answers.ok.contains('y')");
    d.nodes.splice(2, 0, { kind: 'question', id: 'ok', prompt: 'OK?', answer: { type: 'boolean' } });
    d.edges = [
      { from: 'a', to: 'ok' },
      { from: 'ok', to: 'n' },
      { from: 'n', to: 'end', guard: "answers.ok.contains('y')" },
      { from: 'n', to: 'end' },
    ];
    expect(issues(d).map((i) => i.message)).toEqual(['guard at character 0: answers.ok is a yes/no: contains() looks inside text, it does not apply to a yes/no']);
  });

  it('an invalid regular expression in matches() is an error at the pattern', () => {
    const source = "answers.a.matches('[a-')";
    const found = issues(guarded(source));
    expect(found).toEqual([
      error(['edges', 1, 'guard'], expect.stringMatching(/^guard at character 18: '\[a-' is not a regular expression \(.+\): the guard would fail whenever it runs$/) as never, {
        node: 'n',
        guard: { source, position: 18 },
      }),
    ]);
    expect(issues(guarded("answers.a.matches('(x') || answers.n > 2.0")).map((i) => i.guard?.position)).toEqual([18]);
  });
});

describe('edge groups', () => {
  it('edges all guarded, with no else, are an error at the last edge', () => {
    const d = base();
    d.edges[0]!.guard = "answers.a == 'Yes'";
    d.edges.push({ from: 'a', to: 'end', guard: "answers.a == 'No'" });
    expect(issues(d)).toEqual([
      error(['edges', 2], 'the edges of "a" on "answered" are all guarded: the last one needs to be "else" (or have no guard)', {
        node: 'a',
      }),
    ]);
  });

  it('an else that is not last is an error at the edge after it', () => {
    const d = base();
    d.edges.splice(1, 0, { from: 'a', to: 'end', guard: "answers.a == 'No'" });
    expect(issues(d)).toEqual([
      error(['edges', 1], '"a" already has an unguarded ("else") edge on "answered" (edges[0]): edges after it are never taken', {
        node: 'a',
      }),
    ]);
  });

  it('an explicit "else" guard counts as else', () => {
    const d = base();
    d.edges = [
      { from: 'a', to: 'n', guard: 'else' },
      { from: 'a', to: 'end', guard: "answers.a == 'No'" },
      { from: 'n', to: 'end' },
    ];
    expect(issues(d)).toEqual([
      error(['edges', 1], '"a" already has an unguarded ("else") edge on "answered" (edges[0]): edges after it are never taken', {
        node: 'a',
      }),
    ]);
  });

});

describe('attempts', () => {
  it('maxAttempts without an invalid edge or a flow fallback', () => {
    const d = base();
    d.nodes[1]!.maxAttempts = 2;
    expect(issues(d)).toEqual([
      error(['nodes', 1, 'maxAttempts'], '"n" gives up after 2 failed answers but has no "invalid" edge and the flow no "fallback"', {
        node: 'n',
      }),
    ]);
    // Either way out is enough.
    expect(issues({ ...d, fallback: 'end' })).toEqual([]);
    expect(issues({ ...d, edges: [...d.edges, { from: 'n', to: 'end', on: 'invalid' }] })).toEqual([]);
  });

  it('inside a subgraph the flow fallback does not count: an invalid edge is needed', () => {
    const s = sub();
    s.nodes[0]!.maxAttempts = 3;
    const d = { ...withSubgraph(s), fallback: 'end' };
    expect(issues(d)).toEqual([
      error(['subgraphs', 'sub', 'nodes', 0, 'maxAttempts'], '"x" gives up after 3 failed answers but has no "invalid" edge', {
        node: 'x',
      }),
    ]);
  });
});

describe('nodes and their edges', () => {
  it('an edge leaving a node on an outcome it does not have', () => {
    const d = base();
    d.edges.push({ from: 'a', to: 'end', on: 'confirmed' });
    expect(issues(d)).toEqual([error(['edges', 2, 'on'], 'a question leaves on answered or limiting or invalid, not "confirmed"', { node: 'a' })]);
  });
});

describe('warnings and errors', () => {
  /** Only warnings: dead ends, a loop that may ask nothing, a subgraph never called. */
  function onlyWarnings() {
    const d = base();
    d.nodes.push({ kind: 'question', id: 'm', prompt: 'And?', answer: { type: 'number' } });
    d.edges = [
      { from: 'a', to: 'n', guard: "answers.a == 'Yes'" },
      { from: 'a', to: 'end', guard: 'else' },
      { from: 'n', to: 'm' },
      { from: 'm', to: 'n' },
    ];
    d.subgraphs = { lonely: sub() } as never;
    return d;
  }

  it('warnings alone do not refuse a document', () => {
    const d = onlyWarnings();
    const found = issues(d);
    expect(found.map((i) => i.severity)).toEqual(['warning', 'warning', 'warning']);
    expect(flowErrors(found)).toEqual([]);
    const parsed = parseFlowValue(d, 'warned.json');
    expect(parsed.id).toBe('checked');
    expect(parseFlowText(JSON.stringify(d), 'warned.json').nodes).toHaveLength(4);
  });

  it('errors refuse it, with every error (and no warning) as a problem', () => {
    const d = onlyWarnings();
    d.edges.push({ from: 'ghost', to: 'end' });
    d.fallback = 'nowhere';
    expect(refused(d)).toEqual([
      { pointer: '/edges/4/from', message: 'no node has the id "ghost"' },
      { pointer: '/fallback', message: 'no node of the main flow has the id "nowhere"' },
    ]);
  });

  it('from text, a refusal gives the line and column of the offending field', () => {
    const d = base();
    d.edges[0]!.guard = 'answers.a ==';
    d.edges.push({ from: 'a', to: 'end' });
    const text = JSON.stringify(d, null, 2);
    try {
      parseFlowText(text, 'guarded.json');
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(FlowDocumentError);
      const lines = text.split('\n');
      const line = lines.findIndex((l) => l.includes('"guard": "answers.a =="')) + 1;
      expect((e as FlowDocumentError).problems).toHaveLength(1);
      expect((e as FlowDocumentError).problems).toMatchObject([
        {
          pointer: '/edges/0/guard',
          line,
          column: lines[line - 1]!.indexOf('"guard"') + 1,
          message: 'guard at character 12: Unexpected token: EOF',
        },
      ]);
      expect((e as FlowDocumentError).message).toContain(`guarded.json:${line}:`);
    }
  });
});
