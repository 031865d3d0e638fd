/**
 * The subgraph node kind (src/flow/nodes/subgraph.ts): nested calls and their `__exit__`, places named by the call stack, one subgraph called from two places, and the checks of calls.
 * Moved here from v1-semantics and check tests (names unchanged); the NESTED fixture is in ../helpers.ts (persistence tests read it too).
 */
import { describe, expect, it } from 'vitest';
import type { StateValue } from 'xstate';
import { FlowDocumentError } from '../../../src/flow/errors.js';
import { activeNode } from '../../../src/flow/active-node.js';
import { flowGraph } from '../../../src/flow/graph.js';
import { parseFlowValue } from '../../../src/flow/parse.js';
import type { FlowDocumentInput } from '../../../src/flow/schema.js';
import { startConversation } from '../../../src/flow/conversation.js';
import { NESTED, base, drive, error, example, flow, issues, ofType, sub, warning, withSubgraph } from '../helpers.js';

describe('subgraphs', () => {
  it('calls nest three deep; each __exit__ returns to its caller, which leaves on its done edge', async () => {
    const f = await drive(NESTED);
    const graph = flowGraph(flow(NESTED));
    const states: StateValue[] = [];
    for (const t of ['lights', '1', '2', 'yes', 'b2', 'b1', 'no']) {
      await f.text(t);
      states.push(f.value);
    }
    expect(states).toEqual([
      { l1: { q1: 'asking' } },
      { l1: { l2: { q2: 'asking' } } },
      { l1: { l2: { l3: { q3: 'asking' } } } },
      { l1: { l2: { q2b: 'asking' } } },
      { l1: { q1b: 'asking' } },
      { after: 'asking' },
      'end',
    ]);
    expect(f.answers).toEqual({ topic: 'lights', q1: 1, q2: 2, q3: true, q2b: 'b2', q1b: 'b1', after: 'no' });
    expect(activeNode(graph, states[2]!)).toEqual({ node: graph.scope('level3')!.node('q3'), place: 'l1.l2.l3.q3', stack: ['l1', 'l2', 'l3'] });
    expect(activeNode(graph, states[3]!)).toMatchObject({ place: 'l1.l2.q2b', stack: ['l1', 'l2'] });
    expect(activeNode(graph, states[5]!)).toMatchObject({ place: 'after', stack: [] });
  });

  it('the trace names places by their call stack, and the stack unwinds in order on return', async () => {
    const f = await drive(NESTED);
    for (const t of ['lights', '1']) await f.text(t);
    const into = await f.text('2');
    expect(into.filter((e) => e.type === 'node.enter').map((e) => (e as { node: string }).node)).toEqual(['l1.l2.l3', 'l1.l2.l3.q3']);
    const out = await f.text('yes');
    expect(out.filter((e) => e.type === 'node.exit' || e.type === 'node.enter').map((e) => `${e.type} ${(e as { node: string }).node}`)).toEqual([
      'node.exit l1.l2.l3.q3',
      'node.exit l1.l2.l3',
      'node.enter l1.l2.q2b',
    ]);
    expect(ofType(out, 'guard.evaluated').map((e) => [e.node, e.outcome, e.target])).toEqual([
      ['l1.l2.l3.q3', 'answered', 'l1.l2.l3.__exit__'],
      ['l1.l2.l3', 'done', 'l1.l2.q2b'],
    ]);
    const twoUp = await f.text('b2');
    expect(ofType(twoUp, 'guard.evaluated').map((e) => [e.node, e.outcome, e.target])).toEqual([
      ['l1.l2.q2b', 'answered', 'l1.l2.__exit__'],
      ['l1.l2', 'done', 'l1.q1b'],
    ]);
  });

  it('led-sales: the state value shows the call stack; activeNode returns it', async () => {
    const doc = example('led-sales');
    const c = startConversation(doc);
    await c.send({ text: 'I want to buy leds' });
    await c.send({ text: 'a tennis court' });
    await c.send({ text: '600' });
    const reply = await c.send({ text: '100' });
    expect(reply.state).toEqual({ led: { contact: { quote_email: 'asking' } } });
    expect(reply.message).toBe('Which email should the quote go to?');
    const active = activeNode(flowGraph(doc), reply.state as StateValue);
    expect(active).toMatchObject({ place: 'led.contact.quote_email', stack: ['led', 'contact'] });
    expect(active!.node.id).toBe('quote_email');
    c.stop();
  });

  const TWICE: FlowDocumentInput = {
    id: 'twice',
    version: 1,
    nodes: [
      { kind: 'subgraph', id: 'first', ref: 'rate' },
      { kind: 'question', id: 'between', prompt: 'Between?', answer: { type: 'string' } },
      { kind: 'subgraph', id: 'second', ref: 'rate' },
      { kind: 'terminal', id: 'end', outcome: 'completed' },
    ],
    edges: [
      { from: 'first', to: 'between' },
      { from: 'between', to: 'second' },
      { from: 'second', to: 'end' },
    ],
    subgraphs: {
      rate: {
        entry: 'score',
        nodes: [{ kind: 'question', id: 'score', prompt: 'Score 1 to 5?', answer: { type: 'number', min: 1, max: 5 }, maxAttempts: 2 }],
        edges: [
          { from: 'score', to: '__exit__' },
          { from: 'score', to: '__exit__', on: 'invalid' },
        ],
      },
    },
  };

  it('the same subgraph called from two places: separate states and attempt counts, each returning to its own caller', async () => {
    const f = await drive(TWICE);
    expect(f.value).toEqual({ first: { score: 'asking' } });
    const failed = await f.text('nine');
    expect(ofType(failed, 'validation.failed').map((e) => [e.node, e.attempt])).toEqual([['first.score', 1]]);
    expect(f.context.attempts).toEqual({ 'first.score': 1 });
    await f.text('4');
    expect(f.value).toEqual({ between: 'asking' });
    await f.text('ok');
    expect(f.value).toEqual({ second: { score: 'asking' } });
    // The second call counts its own failures from zero.
    const again = await f.text('nine');
    expect(ofType(again, 'validation.failed').map((e) => [e.node, e.attempt])).toEqual([['second.score', 1]]);
    expect(f.value).toEqual({ second: { score: 'asking' } });
    // Its second failure leaves through `invalid` → __exit__ → the second caller's done edge.
    const out = await f.text('ten');
    expect(ofType(out, 'guard.evaluated').map((e) => [e.node, e.outcome, e.target])).toEqual([
      ['second.score', 'invalid', 'second.__exit__'],
      ['second', 'done', 'end'],
    ]);
    expect(f.output).toMatchObject({ terminal: 'end' });
    // Answer keys are flow-wide: the first call's answer is kept, the second gave none.
    expect(f.answers).toEqual({ score: 4, between: 'ok' });
  });
});

// ---------------------------------------------------------------- checks (from check.test.ts)

describe('subgraphs', () => {
  it('__exit__ in the main flow', () => {
    const d = base();
    d.edges[1]!.to = '__exit__';
    expect(issues(d)).toEqual([error(['edges', 1, 'to'], '"__exit__" leaves a subgraph: the main flow ends in terminals')]);
  });

  it('a subgraph calling itself directly', () => {
    const s = sub();
    s.nodes.push({ kind: 'subgraph', id: 'again', ref: 'sub' });
    s.edges = [
      { from: 'x', to: 'again' },
      { from: 'again', to: '__exit__' },
    ];
    expect(issues(withSubgraph(s))).toEqual([error(['subgraphs', 'sub'], 'subgraph "sub" calls itself: sub → sub')]);
    expect(() => parseFlowValue(withSubgraph(s))).toThrow(FlowDocumentError);
  });

  it('a subgraph calling itself through another', () => {
    const s = sub();
    s.nodes.push({ kind: 'subgraph', id: 'to_other', ref: 'other' });
    s.edges = [
      { from: 'x', to: 'to_other' },
      { from: 'to_other', to: '__exit__' },
    ];
    const d = withSubgraph(s);
    (d.subgraphs as Record<string, unknown>).other = {
      entry: 'back',
      nodes: [{ kind: 'subgraph', id: 'back', ref: 'sub' }],
      edges: [{ from: 'back', to: '__exit__' }],
    };
    expect(issues(d)).toEqual([
      error(['subgraphs', 'sub'], 'subgraph "sub" calls itself: sub → other → sub'),
      error(['subgraphs', 'other'], 'subgraph "other" calls itself: other → sub → other'),
    ]);
  });

  it('a subgraph never called is a warning', () => {
    const d = withSubgraph();
    (d.subgraphs as Record<string, unknown>).lonely = {
      entry: 'y',
      nodes: [{ kind: 'question', id: 'y', prompt: 'Y?', answer: { type: 'string' } }],
      edges: [{ from: 'y', to: '__exit__' }],
    };
    expect(issues(d)).toEqual([warning(['subgraphs', 'lonely'], 'subgraph "lonely" is never called')]);
  });

  it('a subgraph called only from a subgraph that is never called is never called either', () => {
    const d = base();
    d.subgraphs = {
      outer: { entry: 'call', nodes: [{ kind: 'subgraph', id: 'call', ref: 'inner' }], edges: [{ from: 'call', to: '__exit__' }] },
      inner: sub(),
    } as never;
    expect(issues(d)).toEqual([
      warning(['subgraphs', 'outer'], 'subgraph "outer" is never called'),
      warning(['subgraphs', 'inner'], 'subgraph "inner" is never called'),
    ]);
  });
});
