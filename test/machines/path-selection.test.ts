import { createActor, fromPromise, waitFor, type AnyStateNode } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  BUSY_TAG,
  pathSelectionMachine,
  type PathSelectionContext,
  type PathSelectionInput,
  type PathSelectionMachine,
  type PathVoteEmitted,
} from '../../machines/path-selection.js';
import { choosePathOffline } from '../../src/paths/offline-chooser.js';
import { PathPolicyError, type ChooseInput, type PathChoice, type PathPolicyInput } from '../../machines/path-policy.js';

const PATHS = [
  { id: 'led', keywords: ['led lights', 'lighting', 'floodlights', 'wattage'], description: 'Buying LED lighting' },
  { id: 'court', keywords: ['court surface', 'resurfacing', 'court size'], description: 'Building or resurfacing a court' },
];

function start(options: { policy?: PathPolicyInput; machine?: PathSelectionMachine } = {}) {
  const input: PathSelectionInput = { paths: PATHS, ...(options.policy ? { policy: options.policy } : {}) };
  const actor = createActor(options.machine ?? pathSelectionMachine, { input });
  const emitted: PathVoteEmitted[] = [];
  actor.on('path.vote', (event) => emitted.push(event));
  actor.start();
  return { actor, emitted };
}

/** A chooser answering from a script, one answer per call, counting its calls. */
function scripted(answers: (PathChoice | Error)[]) {
  const calls: ChooseInput[] = [];
  const logic = fromPromise<PathChoice, ChooseInput>(async ({ input }) => {
    calls.push(input);
    const answer = answers[calls.length - 1] ?? { path: null, confidence: 0 };
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return { logic, calls };
}

const vote = (path: string | null, confidence = 0.9) => ({ type: 'vote' as const, path, confidence });
const settled = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (s) => !s.hasTag(BUSY_TAG));

describe('the path selection machine, with votes', () => {
  it('starts choosing, with every path at 0 votes and the default knobs', () => {
    const { actor } = start();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual({ choosing: 'idle' });
    expect(snapshot.context).toMatchObject({
      votes: { led: 0, court: 0 },
      tentative: null,
      locked: null,
      history: [],
      policy: { lockThreshold: 3, allowSwitchBeforeLock: true, decay: 0.5, minConfidence: 0.5, historyLimit: 50 },
      pending: null,
    });
    expect(JSON.parse(JSON.stringify(snapshot.context))).toEqual(snapshot.context);
  });

  it('does not lock on early flip-flops', () => {
    const { actor } = start();
    for (let i = 0; i < 20; i++) actor.send(vote(i % 2 === 0 ? 'led' : 'court'));
    const { value, context } = actor.getSnapshot();
    expect(value).toEqual({ choosing: 'idle' });
    expect(context.locked).toBeNull();
    expect(context.tentative).toBe('court');
  });

  it('locks on consistent evidence at the threshold, and one noisy turn after the lock changes nothing', () => {
    const { actor, emitted } = start();
    actor.send(vote('led'));
    actor.send(vote('led'));
    expect(actor.getSnapshot().value).toEqual({ choosing: 'idle' });
    actor.send(vote('led'));
    expect(actor.getSnapshot().value).toBe('locked');
    expect(actor.getSnapshot().context).toMatchObject({ votes: { led: 3, court: 0 }, tentative: 'led', locked: 'led' });

    const before = actor.getSnapshot().context;
    actor.send(vote('court', 1));
    const after = actor.getSnapshot().context;
    expect(actor.getSnapshot().value).toBe('locked');
    expect({ ...after, history: [] }).toEqual({ ...before, history: [] });
    expect(after.history.at(-1)).toMatchObject({ outcome: 'after_lock', rationale: 'ignored: locked on led (vote for court (1))' });
    expect(emitted.map((e) => e.outcome)).toEqual(['voted', 'voted', 'locked', 'after_lock']);
  });

  it('honours the knobs given as input', () => {
    const { actor } = start({ policy: { lockThreshold: 2 } });
    actor.send(vote('court'));
    actor.send(vote('court'));
    expect(actor.getSnapshot().context.locked).toBe('court');

    const strict = start({ policy: { allowSwitchBeforeLock: false } }).actor;
    strict.send(vote('led'));
    strict.send(vote('court'));
    strict.send(vote('court'));
    expect(strict.getSnapshot().context).toMatchObject({ tentative: 'led', votes: { led: 1, court: 0 } });
    expect(strict.getSnapshot().context.history.at(-1)!.outcome).toBe('switch_refused');
  });

  it('allows switching before the lock', () => {
    const { actor } = start();
    actor.send(vote('led'));
    actor.send(vote('court'));
    expect(actor.getSnapshot().context.tentative).toBe('court');
    actor.send(vote('court'));
    actor.send(vote('court'));
    expect(actor.getSnapshot().context.locked).toBe('court');
  });

  it('ignores low-confidence votes and votes for paths it does not offer', () => {
    const { actor } = start();
    actor.send(vote('led', 0.3));
    actor.send(vote('elsewhere', 1));
    const { context } = actor.getSnapshot();
    expect(context.votes).toEqual({ led: 0, court: 0 });
    expect(context.history.map((t) => t.rationale)).toEqual([
      'ignored: led at confidence 0.3 below 0.5',
      'ignored: unknown path "elsewhere"',
    ]);
  });

  it('emits a structured event for every turn, with the state after it', () => {
    const { actor, emitted } = start();
    actor.send(vote('led'));
    actor.send(vote('court', 0.2));
    actor.send({ type: 'vote', path: 'court', confidence: 0.8, rationale: 'the person asked about resurfacing' });
    expect(emitted).toEqual([
      {
        type: 'path.vote',
        turn: 1,
        path: 'led',
        confidence: 0.9,
        outcome: 'voted',
        votes: { led: 1, court: 0 },
        tentative: 'led',
        locked: null,
        rationale: 'voted led (0.9): led 1/3, tentative led',
      },
      {
        type: 'path.vote',
        turn: 2,
        path: 'court',
        confidence: 0.2,
        outcome: 'low_confidence',
        votes: { led: 1, court: 0 },
        tentative: 'led',
        locked: null,
        rationale: 'ignored: court at confidence 0.2 below 0.5',
      },
      {
        type: 'path.vote',
        turn: 3,
        path: 'court',
        confidence: 0.8,
        outcome: 'voted',
        votes: { led: 0.5, court: 1 },
        tentative: 'court',
        locked: null,
        rationale: 'voted court (0.8): court 1/3, tentative court (was led); decayed led 1→0.5',
        chooser: 'the person asked about resurfacing',
      },
    ]);
    // The events are plain JSON, ready for a JSON-lines trace.
    expect(JSON.parse(JSON.stringify(emitted))).toEqual(emitted);
  });

  it('keeps the last 50 turns of history', () => {
    const { actor } = start();
    for (let i = 0; i < 60; i++) actor.send(vote(null));
    const { history } = actor.getSnapshot().context;
    expect(history).toHaveLength(50);
    expect(history[0]!.turn).toBe(11);
    expect(history.at(-1)!.turn).toBe(60);
  });

  it('refuses bad knobs and bad paths: the actor fails with a clear error', () => {
    const bad = createActor(pathSelectionMachine, { input: { paths: PATHS, policy: { lockThreshold: 0 } } });
    bad.subscribe({ error: () => {} });
    bad.start();
    expect(bad.getSnapshot().status).toBe('error');
    expect(bad.getSnapshot().error).toBeInstanceOf(PathPolicyError);
    expect(String(bad.getSnapshot().error)).toContain('lockThreshold must be at least 1');

    const dup = createActor(pathSelectionMachine, { input: { paths: [{ id: 'led' }, { id: 'led' }] } });
    dup.subscribe({ error: () => {} });
    dup.start();
    expect(String(dup.getSnapshot().error)).toContain('duplicate path id "led"');
  });
});

describe('the path selection machine, with messages and a chooser', () => {
  it('asks the chooser (busy meanwhile) and applies its answer as a vote', async () => {
    const chooser = scripted([{ path: 'led', confidence: 0.9, rationale: 'mentions lights' }]);
    const { actor, emitted } = start({ machine: pathSelectionMachine.provide({ actors: { choose: chooser.logic } }) });
    actor.send({ type: 'message', text: 'we need lights' });
    expect(actor.getSnapshot().hasTag(BUSY_TAG)).toBe(true);
    expect(actor.getSnapshot().value).toEqual({ choosing: 'asking' });
    await settled(actor);
    expect(chooser.calls).toEqual([{ text: 'we need lights', paths: PATHS }]);
    expect(actor.getSnapshot().context).toMatchObject({ votes: { led: 1, court: 0 }, tentative: 'led', pending: null });
    expect(actor.getSnapshot().context.history).toEqual([
      { turn: 1, path: 'led', confidence: 0.9, outcome: 'voted', rationale: 'voted led (0.9): led 1/3, tentative led', chooser: 'mentions lights' },
    ]);
    expect(emitted).toHaveLength(1);
  });

  it('locks with the offline keyword chooser and stops asking it once locked', async () => {
    const calls: string[] = [];
    const counting = fromPromise<PathChoice, ChooseInput>(async ({ input }) => {
      calls.push(input.text);
      return choosePathOffline(input);
    });
    const { actor } = start({ machine: pathSelectionMachine.provide({ actors: { choose: counting } }) });
    const say = async (text: string) => {
      actor.send({ type: 'message', text });
      await settled(actor);
      return actor.getSnapshot().context.history.at(-1)!;
    };
    expect(await say('We want new LED lights')).toMatchObject({ path: 'led', outcome: 'voted' });
    expect(await say('hmm, not sure yet')).toMatchObject({ path: null, outcome: 'abstained', chooser: 'keywords: abstained (uncertain)' });
    expect(await say('The court surface is cracked')).toMatchObject({ path: 'court', outcome: 'voted' });
    expect(await say('mostly about the lighting for evening games')).toMatchObject({ outcome: 'abstained' });
    expect(await say('the lighting is too dim')).toMatchObject({ path: 'led', outcome: 'voted' });
    expect(await say('floodlights at 400 wattage')).toMatchObject({ path: 'led', outcome: 'voted' });
    expect(actor.getSnapshot().context.locked).toBeNull();
    expect(await say('LED')).toMatchObject({ path: 'led', confidence: 1, outcome: 'locked' });
    expect(actor.getSnapshot().value).toBe('locked');

    const asked = calls.length;
    expect(await say('actually, resurfacing the court surface')).toMatchObject({ path: null, outcome: 'after_lock', rationale: 'ignored: locked on led' });
    expect(calls).toHaveLength(asked);
    expect(actor.getSnapshot().context.locked).toBe('led');
  });

  it('records a failing chooser as a null vote, and says when none was provided', async () => {
    const chooser = scripted([new Error('upstream exploded'), { path: 'court', confidence: 0.9 }]);
    const { actor } = start({ machine: pathSelectionMachine.provide({ actors: { choose: chooser.logic } }) });
    actor.send({ type: 'message', text: 'one' });
    await settled(actor);
    expect(actor.getSnapshot().context.history.at(-1)).toMatchObject({
      path: null,
      outcome: 'abstained',
      chooser: 'chooser failed: upstream exploded',
    });
    actor.send({ type: 'message', text: 'two' });
    await settled(actor);
    expect(actor.getSnapshot().context.tentative).toBe('court');
    expect(actor.getSnapshot().status).toBe('active');

    const bare = start().actor;
    bare.send({ type: 'message', text: 'hello' });
    await settled(bare);
    expect(bare.getSnapshot().context.history.at(-1)!.chooser).toBe('chooser failed: path selection: provide the "choose" actor');
  });

  it('records a message that comes while the chooser is busy, and still applies votes then', async () => {
    let release: (choice: PathChoice) => void = () => {};
    const slow = fromPromise<PathChoice, ChooseInput>(() => new Promise((resolve) => (release = resolve)));
    const { actor } = start({ machine: pathSelectionMachine.provide({ actors: { choose: slow } }) });
    actor.send({ type: 'message', text: 'first' });
    actor.send({ type: 'message', text: 'second' });
    actor.send(vote('led'));
    expect(actor.getSnapshot().value).toEqual({ choosing: 'asking' });
    release({ path: 'led', confidence: 0.9 });
    await settled(actor);
    expect(actor.getSnapshot().context.history.map((t) => [t.outcome, t.rationale])).toEqual([
      ['busy', 'ignored: still choosing on the previous message'],
      ['voted', 'voted led (0.9): led 1/3, tentative led'],
      ['voted', 'voted led (0.9): led 2/3, tentative led'],
    ]);
  });

  it('a direct vote that locks while the chooser is busy stops the chooser', async () => {
    const slow = fromPromise<PathChoice, ChooseInput>(() => new Promise(() => {}));
    const { actor } = start({ policy: { lockThreshold: 1 }, machine: pathSelectionMachine.provide({ actors: { choose: slow } }) });
    actor.send({ type: 'message', text: 'first' });
    actor.send(vote('court'));
    expect(actor.getSnapshot().value).toBe('locked');
    expect(actor.getSnapshot().children).toEqual({});
  });
});

// ---------------------------------------------------------------- model-based

type Snapshot = ReturnType<PathSelectionMachine['getInitialSnapshot']>;
type GraphEvent =
  | { type: 'vote'; path: string | null; confidence: number }
  | { type: 'message'; text: string }
  | { type: 'xstate.done.actor.choose'; output: PathChoice }
  | { type: 'xstate.error.actor.choose'; error: string };

const GRAPH_PATHS = ['led', 'court'];
const CONFIDENCES = [0.9, 0.3];

/** Votes for both paths at a high and a low confidence and a message; while busy, the chooser's answers. */
function graphEvents(snapshot: Snapshot): GraphEvent[] {
  if (snapshot.hasTag(BUSY_TAG))
    return [
      ...GRAPH_PATHS.map((path) => ({ type: 'xstate.done.actor.choose' as const, output: { path, confidence: 0.9 } })),
      { type: 'xstate.done.actor.choose', output: { path: null, confidence: 0 } },
      { type: 'xstate.error.actor.choose', error: 'chooser failed' },
      { type: 'message', text: 'while busy' },
    ];
  return [
    ...GRAPH_PATHS.flatMap((path) => CONFIDENCES.map((confidence) => ({ type: 'vote' as const, path, confidence }))),
    { type: 'message', text: 'a message' },
  ];
}

/**
 * State value and votes. Votes decay to ever new fractions, so they are
 * rounded to 1 decimal for the search (states that close count as one);
 * with `decay: 1` votes are whole numbers and the search is exact.
 */
const serialize = (digits: number) => (snapshot: Snapshot) =>
  JSON.stringify([
    snapshot.value,
    Object.entries(snapshot.context.votes)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([path, n]) => [path, Number(n.toFixed(digits))]),
  ]);

function graphPaths(machine: PathSelectionMachine, policy: PathPolicyInput, digits: number) {
  return getShortestPaths(machine, {
    input: { paths: GRAPH_PATHS.map((id) => ({ id })), policy },
    events: graphEvents,
    serializeState: serialize(digits),
    serializeEvent: (event: GraphEvent) => JSON.stringify(event),
  } as never) as unknown as { state: Snapshot; steps: { event: GraphEvent; state: Snapshot }[] }[];
}

function stateNodes(machine: PathSelectionMachine): AnyStateNode[] {
  const nodes: AnyStateNode[] = [];
  const walk = (node: AnyStateNode) => {
    if (node.path.length > 0) nodes.push(node);
    Object.values(node.states).forEach(walk);
  };
  walk(machine.root);
  return nodes;
}

/** What the paths break of the locking rules, in words (empty when nothing). */
function lockViolations(paths: ReturnType<typeof graphPaths>, threshold: number, minConfidence: number): string[] {
  const problems: string[] = [];
  for (const { steps } of paths) {
    let previous: PathSelectionContext | null = null;
    steps.forEach(({ event, state }, i) => {
      const { context } = state;
      const where = `after ${steps
        .slice(1, i + 1)
        .map((s) => JSON.stringify(s.event))
        .join(', ')}`;
      if (state.matches('locked') !== (context.locked !== null))
        problems.push(`${where}: state ${JSON.stringify(state.value)} with locked = ${context.locked}`);
      if (context.locked !== null && (context.votes[context.locked] ?? 0) < threshold)
        problems.push(`${where}: ${context.locked} locked with ${context.votes[context.locked]} < ${threshold} votes`);
      if (previous?.locked && (previous.locked !== context.locked || JSON.stringify(previous.votes) !== JSON.stringify(context.votes)))
        problems.push(`${where}: changed after the lock`);
      if (previous && previous.locked === null && context.locked !== null) {
        const cast = event.type === 'vote' ? event : event.type === 'xstate.done.actor.choose' ? event.output : null;
        if (!cast || cast.path !== context.locked || cast.confidence < minConfidence)
          problems.push(`${where}: locked ${context.locked} on ${JSON.stringify(event)}`);
      }
      previous = context;
    });
  }
  return problems;
}

describe('model-based (xstate/graph): votes over two paths', () => {
  it.each<[string, PathPolicyInput, number]>([
    ['the default knobs (votes rounded for the search)', {}, 1],
    ['decay 1 (whole votes, exact search)', { decay: 1 }, 6],
    ['lockThreshold 4, no switching', { lockThreshold: 4, allowSwitchBeforeLock: false }, 1],
  ])('with %s: every state is reached and nothing locks before lockThreshold votes', (_, policy, digits) => {
    const paths = graphPaths(pathSelectionMachine, policy, digits);
    const reached = new Set<string>();
    for (const { steps } of paths)
      for (const { state } of steps) for (const node of stateNodes(pathSelectionMachine)) if (state.matches(node.path.join('.') as never)) reached.add(node.id);
    expect([...reached].sort()).toEqual(stateNodes(pathSelectionMachine).map((n) => n.id).sort());
    expect(reached).toContain('pathSelection.locked');

    const threshold = policy.lockThreshold ?? 3;
    expect(lockViolations(paths, threshold, 0.5)).toEqual([]);
    // Both paths can lock, and the shortest way to a lock takes lockThreshold votes.
    const locks = paths.filter((p) => p.state.context.locked !== null);
    expect(new Set(locks.map((p) => p.state.context.locked))).toEqual(new Set(GRAPH_PATHS));
    const counted = (p: (typeof paths)[number]) =>
      p.steps.filter(({ event }) => (event.type === 'vote' ? event : event.type === 'xstate.done.actor.choose' ? event.output : null)?.confidence === 0.9).length;
    expect(Math.min(...locks.map(counted))).toBe(threshold);
  });

  it('catches a machine that locks too early (the check can fail)', () => {
    const eager = pathSelectionMachine.provide({ guards: { reachesLock: () => true } });
    const problems = lockViolations(graphPaths(eager, {}, 1), 3, 0.5);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toMatch(/state "locked" with locked = null/);
  });
});
