import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { parseFlowValue } from '../../src/flow/parse.js';
import { CoverageReportSchema, eventsSeen, flowCoverageReport, mergeCoverage, unreachedItems } from '../../src/testing/coverage-report.js';
import { generateMachinePaths, replayMachinePaths } from '../../src/testing/machine-paths.js';
import { generateFlowPaths, replayFlowPaths } from '../../src/testing/model-based.js';
import { machineDrawing } from '../../src/viz/model.js';

/**
 * A flow whose decision has a branch no answer can take (a size is 1 to 5,
 * the branch wants more than 50) with a question behind it, and a branch
 * the edge before it always wins (`>= 3` before `>= 4`).
 */
const gaps = parseFlowValue({
  id: 'gaps',
  version: 2,
  start: 'size',
  nodes: [
    { kind: 'question', id: 'size', prompt: 'How many?', answer: { type: 'number', integer: true, min: 1, max: 5 } },
    { kind: 'decision', id: 'route' },
    { kind: 'question', id: 'venue', prompt: 'Which venue?', answer: { type: 'string' } },
    { kind: 'terminal', id: 'big', outcome: 'completed' },
    { kind: 'terminal', id: 'bigger', outcome: 'completed' },
    { kind: 'terminal', id: 'small', outcome: 'completed' },
  ],
  edges: [
    { from: 'size', to: 'route' },
    { from: 'route', to: 'venue', guard: 'answers.size > 50' },
    { from: 'route', to: 'big', guard: 'answers.size >= 3' },
    { from: 'route', to: 'bigger', guard: 'answers.size >= 4' },
    { from: 'route', to: 'small', guard: 'else' },
    { from: 'venue', to: 'big' },
  ],
});

const reasonOf = (items: { id: string; reason: string }[], id: string) => items.find((i) => i.id === id)?.reason;

describe('flowCoverageReport', () => {
  it('says why each state and transition of a flow is not reached', async () => {
    const report = CoverageReportSchema.parse(await flowCoverageReport(gaps));
    expect(report).toMatchObject({ flowId: 'gaps', version: 2, warnings: [] });
    // Every missing state and transition has its one item, states first.
    expect(report.unreached.map((u) => u.id)).toEqual([...report.states.missing, ...report.transitions.missing]);
    expect(report.unreached.map((u) => u.kind)).toEqual([...report.states.missing.map(() => 'state'), ...report.transitions.missing.map(() => 'transition')]);
    const { unreached } = report;

    // States: the transitions into it never taken; inside a parent no path reaches.
    expect(reasonOf(unreached, 'gaps.venue')).toBe('the transitions into it were never taken: gaps.route always #1');
    expect(reasonOf(unreached, 'gaps.venue.asking')).toBe('inside gaps.venue, which no path reaches');
    expect(reasonOf(unreached, 'gaps.bigger')).toBe('the transitions into it were never taken: gaps.route always #3');
    // `big` is reached through `>= 3` even though the way from `venue` is not.
    expect(report.states.missing).not.toContain('gaps.big');

    // Transitions: a guard that never held; one whose earlier sibling took every chance; a source never reached.
    expect(reasonOf(unreached, 'gaps.route always #1')).toBe('its guard [cel: answers.size > 50] was false every time the paths were in gaps.route');
    expect(reasonOf(unreached, 'gaps.route always #3')).toBe(
      'its guard [cel: answers.size >= 4] was false every time the paths were in gaps.route, or an earlier eventless transition was taken first: gaps.route always #2',
    );
    expect(reasonOf(unreached, 'gaps.venue.asking on user.text #1')).toBe('its source gaps.venue.asking is never reached');
    expect(report.transitions.missing).not.toContain('gaps.route always #2');
  });

  it("adds the flow checker's warnings", async () => {
    // `n` and `m` ask each other forever: a dead end the checker warns about, which does not refuse the flow.
    const deadEnd = parseFlowValue({
      id: 'dead-end',
      version: 1,
      start: 'a',
      nodes: [
        { kind: 'question', id: 'a', prompt: 'Go on?', answer: { type: 'boolean' } },
        { kind: 'question', id: 'n', prompt: 'N?', answer: { type: 'number' } },
        { kind: 'terminal', id: 'end', outcome: 'completed' },
        { kind: 'question', id: 'm', prompt: 'M?', answer: { type: 'number' } },
      ],
      edges: [
        { from: 'a', to: 'n', guard: 'answers.a' },
        { from: 'a', to: 'end', guard: 'else' },
        { from: 'n', to: 'm' },
        { from: 'm', to: 'n' },
      ],
    });
    const report = await flowCoverageReport(deadEnd);
    expect(report.warnings).toEqual(['dead end: from "n" the flow can never reach a terminal', 'dead end: from "m" the flow can never reach a terminal']);
  });

  it('replays in batches and reports progress; the batches add up to one replay of every path', async () => {
    const progress: { phase: string; done: number; total: number }[] = [];
    const report = await flowCoverageReport(gaps, { onProgress: (p) => progress.push(p) });
    const paths = generateFlowPaths(gaps);
    const whole = await replayFlowPaths(gaps, paths);
    expect(report).toMatchObject({ paths: whole.paths, steps: whole.steps, states: whole.states, transitions: whole.transitions });
    expect(progress[0]).toEqual({ phase: 'generating', done: 0, total: 0 });
    expect(progress.at(-1)).toEqual({ phase: 'replaying', done: paths.length, total: paths.length });

    // Two halves merged: covered is what either half took, missing what both missed.
    const half = Math.floor(paths.length / 2);
    const [a, b] = [await replayFlowPaths(gaps, paths.slice(0, half)), await replayFlowPaths(gaps, paths.slice(half))];
    expect(a.transitions.missing).not.toEqual(whole.transitions.missing);
    expect(mergeCoverage([a, b])).toEqual(whole);
  });
});

describe('unreachedItems on a hand-written machine', () => {
  // What a flow compiler never makes: a state nothing enters, a transition behind an
  // unguarded one, an event the paths never send, a child that takes the event first.
  const machine = createMachine({
    id: 'm',
    initial: 'idle',
    states: {
      idle: {
        on: {
          GO: [{ target: 'busy' }, { target: 'done' }],
          PING: 'done',
        },
      },
      busy: {
        initial: 'inner',
        on: { GO: 'done' },
        states: { inner: { on: { GO: '#m.done' } } },
      },
      orphan: {},
      done: { type: 'final' },
    },
  });

  const key = (s: { value: unknown }) => JSON.stringify(s.value);
  // GO, the one event the paths send, until the machine is done.
  const events = (s: { status: string }) => (s.status === 'active' ? [{ type: 'GO' }] : []);

  it('derives each reason from the machine and where the paths were', async () => {
    const paths = generateMachinePaths(machine, { key, events });
    const coverage = await replayMachinePaths(machine, paths, { key, invariants: false });
    const items = unreachedItems(machineDrawing(machine), coverage, eventsSeen(machine, paths));
    expect(items).toEqual([
      { kind: 'state', id: 'm.orphan', reason: 'no transition leads to it' },
      { kind: 'transition', id: 'm.idle on GO #2', reason: 'an earlier transition for GO from m.idle always wins (m.idle on GO #1)' },
      { kind: 'transition', id: 'm.idle on PING #1', reason: 'no generated event PING in m.idle' },
      { kind: 'transition', id: 'm.busy on GO #1', reason: 'a state inside m.busy took GO every time' },
    ]);
  });

  it('knows where the events came: the active states before each step', () => {
    const paths = generateMachinePaths(machine, { key, events });
    const seen = eventsSeen(machine, paths);
    expect([...(seen.get('m.idle') ?? [])]).toEqual(['GO']);
    expect([...(seen.get('m.busy.inner') ?? [])]).toEqual(['GO']);
    expect(seen.has('m.done')).toBe(false);
  });
});
