/**
 * The decision node kind (src/flow/nodes/decision.ts): the first true guard in declared order, ambiguity traced, passed within the turn, its `always` transitions as named CEL guards.
 * Moved here from v1-semantics.test.ts (names unchanged).
 */
import { describe, expect, it } from 'vitest';
import { compileFlow, type FlowMachine } from '../../../src/flow/compile.js';
import type { FlowDocumentInput } from '../../../src/flow/schema.js';
import { drive, ofType } from '../helpers.js';

const HIGH = 'answers.score > 10.0';
const MID = 'answers.score > 5.0';
const decisionFlow = (guards: string[]): FlowDocumentInput => ({
  id: 'decide',
  version: 1,
  nodes: [
    { kind: 'question', id: 'score', prompt: 'Score?', answer: { type: 'number' } },
    { kind: 'decision', id: 'd' },
    { kind: 'terminal', id: 'high', outcome: 'completed' },
    { kind: 'terminal', id: 'mid', outcome: 'completed' },
    { kind: 'terminal', id: 'low', outcome: 'completed' },
  ],
  edges: [
    { from: 'score', to: 'd' },
    ...guards.map((guard) => ({ from: 'd', to: guard === HIGH ? 'high' : 'mid', guard })),
    { from: 'd', to: 'low', guard: 'else' },
  ],
});
const DECIDE = decisionFlow([HIGH, MID]);

describe('decision nodes', () => {
  it('the first true guard wins; guard.evaluated lists the guards tried, in order', async () => {
    const f = await drive(DECIDE);
    const events = await f.text('7');
    expect(f.output).toMatchObject({ terminal: 'mid' });
    expect(ofType(events, 'guard.evaluated').filter((e) => e.node === 'd')).toEqual([
      {
        type: 'guard.evaluated',
        node: 'd',
        outcome: 'next',
        guards: [
          { guard: HIGH, result: false },
          { guard: MID, result: true },
        ],
        target: 'mid',
      },
    ]);
    expect(ofType(events, 'guard.ambiguous')).toEqual([]);
  });

  it('when two guards hold, the first declared is taken and guard.ambiguous names the others', async () => {
    const f = await drive(DECIDE);
    const events = await f.text('20');
    expect(f.output).toMatchObject({ terminal: 'high' });
    expect(ofType(events, 'guard.evaluated').filter((e) => e.node === 'd')).toEqual([
      { type: 'guard.evaluated', node: 'd', outcome: 'next', guards: [{ guard: HIGH, result: true }], target: 'high' },
    ]);
    expect(ofType(events, 'guard.ambiguous')).toEqual([{ type: 'guard.ambiguous', node: 'd', outcome: 'next', taken: HIGH, alsoTrue: [MID] }]);
  });

  it('declared order decides: the same guards the other way round send 20 to mid', async () => {
    const f = await drive(decisionFlow([MID, HIGH]));
    const events = await f.text('20');
    expect(f.output).toMatchObject({ terminal: 'mid' });
    expect(ofType(events, 'guard.ambiguous')).toEqual([{ type: 'guard.ambiguous', node: 'd', outcome: 'next', taken: MID, alsoTrue: [HIGH] }]);
  });

  it('else is taken when no guard holds', async () => {
    const f = await drive(DECIDE);
    const events = await f.text('1');
    expect(f.output).toMatchObject({ terminal: 'low' });
    expect(ofType(events, 'guard.evaluated').filter((e) => e.node === 'd')).toEqual([
      {
        type: 'guard.evaluated',
        node: 'd',
        outcome: 'next',
        guards: [
          { guard: HIGH, result: false },
          { guard: MID, result: false },
          { guard: 'else', result: true },
        ],
        target: 'low',
      },
    ]);
    expect(ofType(events, 'guard.ambiguous')).toEqual([]);
  });

  it('a decision is passed within the turn: entered and left, never waited in', async () => {
    const f = await drive(DECIDE);
    const events = await f.text('7');
    expect(events.filter((e) => e.type === 'node.enter' || e.type === 'node.exit').map((e) => `${e.type} ${(e as { node: string }).node}`)).toEqual([
      'node.exit score',
      'node.enter d',
      'node.exit d',
      'node.enter mid',
      'node.exit mid',
    ]);
  });
});

describe('guards are named XState guards with params', () => {
  it("a decision's `always` transitions carry { type: 'cel', params: { expr } }, in declared order, else unguarded", () => {
    const machine = compileFlow(DECIDE);
    const always = machine.root.states.d!.always!;
    expect(always.map((t) => ({ guard: t.guard, targets: t.target?.map((s) => s.id) }))).toEqual([
      { guard: { type: 'cel', params: { expr: HIGH } }, targets: ['decide.high'] },
      { guard: { type: 'cel', params: { expr: MID } }, targets: ['decide.mid'] },
      { guard: undefined, targets: ['decide.low'] },
    ]);
  });

  it('the `cel` guard is looked up by name at run time: providing another implementation changes the route', async () => {
    const machine = compileFlow(DECIDE);
    const seen: string[] = [];
    const provided = machine.provide({
      guards: {
        cel: (_: unknown, params: { expr: string }) => {
          seen.push(params.expr);
          return params.expr === MID;
        },
      },
    }) as FlowMachine;
    const f = await drive(DECIDE, {}, provided);
    await f.text('20');
    expect(f.output).toMatchObject({ terminal: 'mid' });
    expect(seen.slice(0, 2)).toEqual([HIGH, MID]);
  });
});
