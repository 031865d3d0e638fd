import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PATH_POLICY,
  PathPolicyError,
  applyVote,
  initialPathState,
  parsePathOptions,
  parsePathPolicy,
  pathPolicyWarnings,
  skipTurn,
  type PathPolicyInput,
  type PathState,
  type PathVote,
  type VoteResult,
} from '../../machines/path-policy.js';

const PATHS = ['led', 'court'];

/** Every turn's result, from the initial state, under the given knobs. */
function run(votes: (PathVote | string | null)[], knobs: PathPolicyInput = {}, start: PathState = initialPathState(PATHS)): VoteResult[] {
  const policy = parsePathPolicy(knobs);
  const results: VoteResult[] = [];
  let state = start;
  for (const v of votes) {
    const vote = typeof v === 'string' || v === null ? { path: v, confidence: 0.9 } : v;
    const result = applyVote(state, vote, policy, PATHS);
    results.push(result);
    state = result.state;
  }
  return results;
}
const last = (results: VoteResult[]) => results.at(-1)!;
const final = (results: VoteResult[]) => last(results).state;
const alternating = (n: number, a = 'led', b = 'court') => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? a : b));

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

describe('the knobs', () => {
  it('fill in every default', () => {
    const defaults = { lockThreshold: 3, allowSwitchBeforeLock: true, decay: 0.5, minConfidence: 0.5, historyLimit: 50 };
    expect(parsePathPolicy({})).toEqual(defaults);
    expect(parsePathPolicy()).toEqual(defaults);
    expect(parsePathPolicy(undefined)).toEqual(defaults);
    expect(DEFAULT_PATH_POLICY).toEqual(defaults);
  });

  it('keep the ones given and default the rest', () => {
    expect(parsePathPolicy({ lockThreshold: 5, allowSwitchBeforeLock: false })).toEqual({
      lockThreshold: 5,
      allowSwitchBeforeLock: false,
      decay: 0.5,
      minConfidence: 0.5,
      historyLimit: 50,
    });
  });

  it.each([
    [{ lockThreshold: 0 }, 'lockThreshold: lockThreshold must be at least 1 (a path locks after this many votes)'],
    [{ lockThreshold: 2.5 }, 'lockThreshold: lockThreshold must be a whole number of votes'],
    [{ lockThreshold: '3' }, 'lockThreshold: lockThreshold must be a number'],
    [{ decay: 1.5 }, 'decay: decay must be between 0 and 1'],
    [{ decay: -0.1 }, 'decay: decay must be between 0 and 1'],
    [{ minConfidence: 2 }, 'minConfidence: minConfidence must be between 0 and 1'],
    [{ allowSwitchBeforeLock: 'yes' }, 'allowSwitchBeforeLock: allowSwitchBeforeLock must be true or false'],
    [{ historyLimit: 0 }, 'historyLimit: historyLimit must be at least 1'],
    [{ lockTreshold: 3 }, 'lockTreshold'],
  ])('refuse %j with a clear message', (knobs, message) => {
    expect(() => parsePathPolicy(knobs)).toThrow(PathPolicyError);
    expect(() => parsePathPolicy(knobs)).toThrow(`invalid path policy: `);
    expect(() => parsePathPolicy(knobs)).toThrow(message);
  });

  it('name every bad knob at once', () => {
    try {
      parsePathPolicy({ lockThreshold: 0, decay: 2 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PathPolicyError);
      expect((error as PathPolicyError).issues.map((i) => i.path)).toEqual(['lockThreshold', 'decay']);
      expect((error as Error).message).toMatch(/^invalid path policy: lockThreshold: .*; decay: /);
    }
  });

  it('warn when the decay is too weak for the threshold to stop flip-flops', () => {
    expect(pathPolicyWarnings(parsePathPolicy({}))).toEqual([]);
    expect(pathPolicyWarnings(parsePathPolicy({ decay: 0.2 }))).toEqual([
      expect.stringContaining('decay 0.2 with lockThreshold 3: votes alternating between two paths approach 5'),
    ]);
    expect(pathPolicyWarnings(parsePathPolicy({ decay: 0 }))[0]).toContain('approach no limit');
    expect(pathPolicyWarnings(parsePathPolicy({ lockThreshold: 1, decay: 1 }))).toContainEqual(
      expect.stringContaining('lockThreshold 1: the first counted vote locks'),
    );
  });
});

describe('the paths', () => {
  it('are parsed with their keywords and descriptions', () => {
    expect(parsePathOptions([{ id: 'led', keywords: ['lights'], description: 'LED lighting' }, { id: 'court' }])).toEqual([
      { id: 'led', keywords: ['lights'], description: 'LED lighting' },
      { id: 'court' },
    ]);
  });

  it.each([
    [[], 'a path selection needs at least one path'],
    [[{ id: 'led' }, { id: 'led' }], '1.id: duplicate path id "led"'],
    [[{ id: 'none' }], '0.id: "none" is reserved'],
    [[{ id: ' ' }], '0.id: a path id must not be empty'],
    [[{ id: 'led', keywords: [''] }], '0.keywords.0: a keyword must not be empty'],
    [[{ id: 'led', colour: 'red' }], 'colour'],
  ])('refuse %j', (paths, message) => {
    expect(() => parsePathOptions(paths)).toThrow(PathPolicyError);
    expect(() => parsePathOptions(paths)).toThrow(message);
  });
});

describe('applyVote', () => {
  it('does not lock on early flip-flops, however long they go on', () => {
    const results = run(alternating(200));
    expect(results.every((r) => r.state.locked === null)).toBe(true);
    expect(results.every((r) => r.outcome === 'voted')).toBe(true);
    // The leader's votes approach 1 / decay = 2 (reached only by rounding) and never the threshold.
    expect(Math.max(...results.flatMap((r) => Object.values(r.state.votes)))).toBeLessThanOrEqual(2);
    // The tentative path follows the evidence back and forth.
    expect(results.slice(0, 4).map((r) => r.state.tentative)).toEqual(['led', 'court', 'led', 'court']);
  });

  it.each([
    { lockThreshold: 2, decay: 0.6 },
    { lockThreshold: 3, decay: 0.4 },
    { lockThreshold: 5, decay: 0.25 },
    { lockThreshold: 3, decay: 1 },
  ])('does not lock on flip-flops whenever decay × lockThreshold > 1 (%j)', (knobs) => {
    expect(pathPolicyWarnings(parsePathPolicy(knobs))).toEqual([]);
    expect(final(run(alternating(500), knobs)).locked).toBeNull();
  });

  it('does lock on long flip-flops when the decay is too weak (the warning is real)', () => {
    const knobs = { decay: 0.2 };
    expect(pathPolicyWarnings(parsePathPolicy(knobs))).toHaveLength(1);
    const results = run(alternating(30), knobs);
    const at = results.findIndex((r) => r.outcome === 'locked');
    expect(at).toBeGreaterThan(3);
    expect(results[at]!.state.locked).toBe('led');
  });

  it('locks consistent evidence exactly at the threshold', () => {
    const results = run(['led', 'led', 'led']);
    expect(results.map((r) => r.outcome)).toEqual(['voted', 'voted', 'locked']);
    expect(results.map((r) => r.state.locked)).toEqual([null, null, 'led']);
    expect(results.map((r) => r.rationale)).toEqual([
      'voted led (0.9): led 1/3, tentative led',
      'voted led (0.9): led 2/3, tentative led',
      'voted led (0.9): locked led at 3/3',
    ]);
    expect(final(results)).toMatchObject({ votes: { led: 3, court: 0 }, tentative: 'led', locked: 'led' });

    const five = run(Array(5).fill('court'), { lockThreshold: 5 });
    expect(five.map((r) => r.state.locked)).toEqual([null, null, null, null, 'court']);
  });

  it('locks mostly consistent evidence despite one dissenting turn', () => {
    const results = run(['led', 'led', 'court', 'led', 'led']);
    expect(results.map((r) => r.state.locked)).toEqual([null, null, null, null, 'led']);
  });

  it('changes nothing after the lock: one noisy turn, or many', () => {
    const locked = final(run(['led', 'led', 'led']));
    const noisy = run(['court'], {}, locked);
    expect(last(noisy).outcome).toBe('after_lock');
    expect(last(noisy).rationale).toBe('ignored: locked on led (vote for court (0.9))');
    const { history: _h1, ...before } = locked;
    const { history: _h2, ...after } = final(noisy);
    expect(after).toEqual(before);

    const many = run([...Array(10).fill('court'), null, { path: 'court', confidence: 1 }], {}, locked);
    expect(final(many)).toMatchObject({ votes: { led: 3, court: 0 }, tentative: 'led', locked: 'led' });
    expect(many.every((r) => r.outcome === 'after_lock')).toBe(true);
    expect(many.at(-2)!.rationale).toBe('ignored: locked on led');
  });

  it('allows switching before the lock', () => {
    const results = run(['led', 'court', 'court', 'court']);
    expect(results.map((r) => r.state.tentative)).toEqual(['led', 'court', 'court', 'court']);
    expect(results[1]!.rationale).toBe('voted court (0.9): court 1/3, tentative court (was led); decayed led 1→0.5');
    expect(final(results).locked).toBe('court');
  });

  it('refuses switching before the lock when allowSwitchBeforeLock is false', () => {
    const knobs = { allowSwitchBeforeLock: false };
    const results = run(['led', 'court', 'court', 'court', 'led', 'led'], knobs);
    expect(results.map((r) => r.outcome)).toEqual(['voted', 'switch_refused', 'switch_refused', 'switch_refused', 'voted', 'locked']);
    expect(results.map((r) => r.state.tentative)).toEqual(['led', 'led', 'led', 'led', 'led', 'led']);
    expect(results[1]!.rationale).toBe('refused court (0.9): switching before the lock is off, tentative led');
    // A refused vote counts for nothing, and takes nothing from the tentative path.
    expect(results[3]!.state.votes).toEqual({ led: 1, court: 0 });
    expect(final(results).locked).toBe('led');
  });

  it('decays the votes of the other paths at every counted vote', () => {
    const results = run(['led', 'led', 'court']);
    expect(final(results).votes).toEqual({ led: 1, court: 1 });
    expect(last(results).rationale).toBe('voted court (0.9): court 1/3, tentative led; decayed led 2→1');
    expect(final(run(['led', 'led', 'court', 'court'])).votes).toEqual({ led: 0.5, court: 2 });
    expect(final(run(['led', 'led', 'court'], { decay: 0 })).votes).toEqual({ led: 2, court: 1 });
    expect(final(run(['led', 'led', 'court'], { decay: 1 })).votes).toEqual({ led: 0, court: 1 });
    expect(final(run(['led', 'led', 'court'], { decay: 0.25 })).votes).toEqual({ led: 1.5, court: 1 });
  });

  it('does not decay anything on votes that are not counted', () => {
    const before = final(run(['led', 'led']));
    for (const vote of [null, { path: 'court', confidence: 0.2 }, { path: 'elsewhere', confidence: 1 }]) {
      expect(applyVote(before, vote === null ? { path: null } : vote, DEFAULT_PATH_POLICY, PATHS).state.votes).toEqual({ led: 2, court: 0 });
    }
  });

  it('keeps the tentative path on a tie for the lead, and breaks other ties by path id', () => {
    expect(final(run(['led', 'led', 'court'])).tentative).toBe('led');
    expect(final(run(['court', 'court', 'led'])).tentative).toBe('court');
    const policy = parsePathPolicy({});
    const tied = (votes: Record<string, number>) =>
      applyVote({ votes, tentative: null, locked: null, history: [] }, { path: 'mid' }, policy).state.tentative;
    // After the vote zeta, alpha and mid all have 1.
    expect(tied({ zeta: 2, alpha: 2, mid: 0 })).toBe('alpha');
    expect(tied({ alpha: 2, zeta: 2, mid: 0 })).toBe('alpha');
    expect(tied({ mid: 0, zeta: 2, alpha: 2 })).toBe('alpha');
  });

  it('ignores votes below minConfidence and counts those at it', () => {
    const results = run([{ path: 'led', confidence: 0.3 }, { path: 'led', confidence: 0.5 }, { path: 'led', confidence: 0.49 }]);
    expect(results.map((r) => r.outcome)).toEqual(['low_confidence', 'voted', 'low_confidence']);
    expect(results[0]!.rationale).toBe('ignored: led at confidence 0.3 below 0.5');
    expect(results[0]!.state.votes).toEqual({ led: 0, court: 0 });
    expect(results[0]!.state.tentative).toBeNull();
    expect(final(results).votes).toEqual({ led: 1, court: 0 });
    expect(final(run([{ path: 'led', confidence: 0.3 }], { minConfidence: 0.2 })).votes.led).toBe(1);
  });

  it('counts a vote without a confidence as sure, and one with a nonsense confidence as not', () => {
    expect(run([{ path: 'led' }])[0]!).toMatchObject({ outcome: 'voted', rationale: 'voted led (1): led 1/3, tentative led' });
    expect(run([{ path: 'led', confidence: Number.NaN }])[0]!.outcome).toBe('low_confidence');
    expect(run([{ path: 'led', confidence: 7 }])[0]!.rationale).toContain('voted led (1)');
  });

  it('records abstentions and unknown paths without counting them', () => {
    const results = run([null, { path: 'elsewhere', confidence: 1 }]);
    expect(results.map((r) => [r.outcome, r.rationale])).toEqual([
      ['abstained', 'abstained: no path chosen'],
      ['unknown_path', 'ignored: unknown path "elsewhere"'],
    ]);
    expect(final(results)).toMatchObject({ votes: { led: 0, court: 0 }, tentative: null, locked: null });
  });

  it('records the rationale of every turn, with the chooser’s own reason', () => {
    const votes: (PathVote | string | null)[] = [
      null,
      { path: 'led', confidence: 0.9, rationale: 'mentions LED' },
      { path: 'led', confidence: 0.1 },
      'led',
      'court',
      'led',
      'led',
      'court',
      null,
    ];
    const { history } = final(run(votes));
    expect(history).toHaveLength(votes.length);
    expect(history.map((t) => t.turn)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(history.map((t) => t.outcome)).toEqual([
      'abstained', 'voted', 'low_confidence', 'voted', 'voted', 'voted', 'locked', 'after_lock', 'after_lock',
    ]);
    for (const turn of history) expect(turn.rationale).toMatch(/^(voted|ignored|abstained|refused)[ :]/);
    expect(history[1]).toEqual({
      turn: 2,
      path: 'led',
      confidence: 0.9,
      outcome: 'voted',
      rationale: 'voted led (0.9): led 1/3, tentative led',
      chooser: 'mentions LED',
    });
    expect(history[0]).not.toHaveProperty('chooser');
  });

  it('keeps only the last historyLimit turns, numbered across all of them', () => {
    const { history } = final(run(Array(12).fill(null), { historyLimit: 5 }));
    expect(history.map((t) => t.turn)).toEqual([8, 9, 10, 11, 12]);
    expect(final(run(Array(60).fill(null))).history).toHaveLength(50);
  });

  it('records skipped turns the same way', () => {
    const { state, rationale } = skipTurn(initialPathState(PATHS), 'busy', 'ignored: still choosing', DEFAULT_PATH_POLICY);
    expect(rationale).toBe('ignored: still choosing');
    expect(state.history).toEqual([{ turn: 1, path: null, confidence: 0, outcome: 'busy', rationale: 'ignored: still choosing' }]);
    expect(state.votes).toEqual({ led: 0, court: 0 });
  });

  it('is pure and deterministic, on plain JSON', () => {
    const start = deepFreeze(initialPathState(PATHS));
    const votes = ['led', 'court', 'led', null, 'led', 'court', 'led', 'led'];
    const a = run(votes, {}, start);
    const b = run(votes, {}, start);
    expect(a).toEqual(b);
    expect(start).toEqual(initialPathState(PATHS));
    const state = final(a);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    // Continuing from a JSON copy gives the same result as from the original.
    const policy = parsePathPolicy({});
    expect(applyVote(JSON.parse(JSON.stringify(state)), { path: 'led' }, policy)).toEqual(applyVote(state, { path: 'led' }, policy));
  });

  it('counts paths it has not seen before when no list of paths is given', () => {
    const { state } = applyVote(initialPathState(), { path: 'anything' }, DEFAULT_PATH_POLICY);
    expect(state).toMatchObject({ votes: { anything: 1 }, tentative: 'anything' });
  });
});
