/**
 * The action node kind (src/flow/nodes/action.ts): the actor's output assigned to answers, failures and unusable outputs on the `error` edge, a missing actor, its checks and its model-based events.
 * Moved here from v1-semantics, check and model-based tests (names unchanged).
 */
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { type ActionInput } from '../../../src/flow/compile.js';
import type { FlowDocumentInput } from '../../../src/flow/schema.js';
import { startConversation } from '../../../src/flow/conversation.js';
import { generateFlowPaths } from '../../../src/testing/model-based.js';
import { base, drive, error, flow, issues, load, ofType } from '../helpers.js';

const ACTION: FlowDocumentInput = {
  id: 'priced',
  version: 1,
  nodes: [
    { kind: 'question', id: 'item', prompt: 'Which item?', answer: { type: 'string' } },
    { kind: 'action', id: 'lookup', actor: 'priceLookup', params: { currency: 'EUR' }, assign: { total: 'price.total', count: 'count' } },
    { kind: 'decision', id: 'big' },
    { kind: 'terminal', id: 'quoted', outcome: 'completed' },
    { kind: 'terminal', id: 'specialist', outcome: 'handoff' },
    { kind: 'terminal', id: 'failed', outcome: 'handoff' },
  ],
  edges: [
    { from: 'item', to: 'lookup' },
    { from: 'lookup', to: 'big', on: 'done' },
    { from: 'lookup', to: 'failed', on: 'error' },
    { from: 'big', to: 'specialist', guard: 'answers.total > 1000.0' },
    { from: 'big', to: 'quoted', guard: 'else' },
  ],
};

describe('action nodes', () => {
  it("the actor's output is assigned to answers (source action) and guards read it", async () => {
    const calls: ActionInput[] = [];
    const priceLookup = fromPromise<unknown, ActionInput>(async ({ input }) => {
      calls.push(input);
      return { price: { total: 99.5 }, count: 3, ignored: 'x' };
    });
    const f = await drive(ACTION, { actors: { priceLookup }, input: { context: { tenant: 'acme' } } });
    const events = await f.text('lamp');
    expect(calls).toEqual([
      { node: 'lookup', actor: 'priceLookup', params: { currency: 'EUR' }, answers: { item: 'lamp' }, context: { tenant: 'acme' } },
    ]);
    expect(f.context.answers.total).toEqual({ value: 99.5, confidence: 1, source: 'action', raw: 'priceLookup' });
    expect(f.context.answers.count).toEqual({ value: 3, confidence: 1, source: 'action', raw: 'priceLookup' });
    expect(f.context.answers.ignored).toBeUndefined();
    expect(ofType(events, 'action.done')).toEqual([{ type: 'action.done', node: 'lookup', actor: 'priceLookup', assigned: ['total', 'count'] }]);
    expect(f.output).toMatchObject({ terminal: 'quoted' });
  });

  it('a rejection follows the error edge, with its message', async () => {
    const priceLookup = fromPromise(async () => {
      throw new Error('price service down');
    });
    const f = await drive(ACTION, { actors: { priceLookup } });
    const events = await f.text('lamp');
    expect(f.output).toEqual({ outcome: 'handoff', terminal: 'failed', stoppedBy: null });
    expect(f.context.actionError).toEqual({ node: 'lookup', message: 'price service down' });
    expect(ofType(events, 'action.failed')).toEqual([{ type: 'action.failed', node: 'lookup', actor: 'priceLookup', message: 'price service down' }]);
    expect(ofType(events, 'action.done')).toEqual([]);
  });

  it('an output missing an assigned field follows the error edge with a clear message, and assigns nothing', async () => {
    const priceLookup = fromPromise(async () => ({ count: 3, price: {} }));
    const f = await drive(ACTION, { actors: { priceLookup } });
    const events = await f.text('lamp');
    const message = 'the output of "priceLookup" has no text, number or yes/no at "price.total" for answers.total';
    expect(f.output).toMatchObject({ terminal: 'failed' });
    expect(f.context.actionError).toEqual({ node: 'lookup', message });
    expect(ofType(events, 'action.failed')).toEqual([{ type: 'action.failed', node: 'lookup', actor: 'priceLookup', message }]);
    expect(Object.keys(f.context.answers)).toEqual(['item']);
  });

  it('an output field that is not text, a number or yes/no is refused the same way', async () => {
    const priceLookup = fromPromise(async () => ({ count: 3, price: { total: { amount: 5 } } }));
    const f = await drive(ACTION, { actors: { priceLookup } });
    await f.text('lamp');
    expect(f.output).toMatchObject({ terminal: 'failed' });
    expect(Object.keys(f.context.answers)).toEqual(['item']);
  });

  it('an action the host did not provide follows the error edge (missingActionActor)', async () => {
    const f = await drive(ACTION);
    const events = await f.text('lamp');
    expect(f.output).toMatchObject({ terminal: 'failed' });
    expect(ofType(events, 'action.failed')).toEqual([
      {
        type: 'action.failed',
        node: 'lookup',
        actor: 'priceLookup',
        message: 'no actor named "priceLookup" was provided (compileFlow(doc, { actors: { priceLookup } }))',
      },
    ]);
  });

  it('through a conversation, the actors given to startConversation are used', async () => {
    const priceLookup = fromPromise(async () => ({ price: { total: 5000 }, count: 40 }));
    const c = startConversation(flow(ACTION), { actors: { priceLookup } });
    const reply = await c.send({ text: 'stadium lights' });
    expect(reply.completion).toEqual({ isComplete: true, reason: 'handed_off', readyForHandoff: true });
    expect(reply.state).toBe('specialist');
    expect(reply.answers.total).toMatchObject({ value: 5000, source: 'action' });
  });
});

// ---------------------------------------------------------------- checks (from check.test.ts)

describe('nodes and their edges', () => {
  it('an action without an error edge', () => {
    const d = base();
    d.nodes.splice(1, 0, { kind: 'action', id: 'lookup', actor: 'lookup' });
    d.edges[0]!.to = 'lookup';
    d.edges.push({ from: 'lookup', to: 'n' });
    expect(issues(d)).toEqual([error(['nodes', 1], 'action "lookup" has no "error" edge to follow when it fails', { node: 'lookup' })]);
  });
});

// ---------------------------------------------------------------- model-based events (from model-based.test.ts)

describe('events derived from the flow, per node kind', () => {
  it('a running action: outputs on both sides of the guards, one missing a field, a failure', () => {
    const flow = load('led-sales.json');
    const paths = generateFlowPaths(flow);
    const atQuote = new Map(paths.flatMap((p) => p.events).filter((e) => e.type.endsWith('action.quote')).map((e) => [JSON.stringify(e), e]));
    const outputs = [...atQuote.values()].flatMap((e) => ('output' in e ? [e.output] : []));
    expect(outputs).toContainEqual({ total: 20001, fixtures: 20001 });
    expect(outputs).toContainEqual({ total: 0, fixtures: 0 });
    expect(outputs).toContainEqual({ fixtures: 0 });
    expect([...atQuote.values()]).toContainEqual({ type: 'xstate.error.actor.action.quote', error: 'priceLookup failed' });
  });
});
