/**
 * An explicit choice (a path button the person pressed) locks its path at
 * once; hysteresis (votes, decay, the threshold) is for votes inferred from
 * what the person wrote.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { applyVote, initialPathState, parsePathPolicy, type ChooseInput, type PathChoice } from '../../machines/path-policy.js';
import { pathSelectionMachine } from '../../machines/path-selection.js';

const PATHS = ['home', 'sports'];

describe('explicit path choices', () => {
  it('lock at once, against the votes so far; an inferred vote of the same strength does not', () => {
    const policy = parsePathPolicy({ lockThreshold: 3 });
    let state = initialPathState(PATHS);
    state = applyVote(state, { path: 'sports', confidence: 1 }, policy, PATHS).state;
    state = applyVote(state, { path: 'sports', confidence: 1 }, policy, PATHS).state;
    const inferred = applyVote(state, { path: 'home', confidence: 1 }, policy, PATHS);
    expect(inferred.outcome).toBe('voted');
    expect(inferred.state.locked).toBeNull();
    const chosen = applyVote(state, { path: 'home', confidence: 1, explicit: true }, policy, PATHS);
    expect(chosen).toMatchObject({ outcome: 'locked', rationale: 'chosen home: an explicit choice locks at once' });
    expect(chosen.state).toMatchObject({ tentative: 'home', locked: 'home', votes: { home: 3, sports: 2 } });
  });

  it('are still refused for an unknown path, and change nothing once a path is locked', () => {
    const policy = parsePathPolicy({});
    const start = initialPathState(PATHS);
    expect(applyVote(start, { path: 'garden', explicit: true }, policy, PATHS).outcome).toBe('unknown_path');
    const locked = applyVote(start, { path: 'home', explicit: true }, policy, PATHS).state;
    expect(applyVote(locked, { path: 'sports', explicit: true }, policy, PATHS)).toMatchObject({ outcome: 'after_lock', state: { locked: 'home' } });
  });

  it('lock the path selection machine from a `vote` event, even while the chooser reads a message', async () => {
    let release: () => void = () => {};
    const slow = fromPromise<PathChoice, ChooseInput>(() => new Promise((resolve) => (release = () => resolve({ path: 'sports', confidence: 1 }))));
    const actor = createActor(pathSelectionMachine.provide({ actors: { choose: slow } }), { input: { paths: PATHS.map((id) => ({ id })) } });
    actor.start();
    actor.send({ type: 'message', text: 'a tennis court' });
    actor.send({ type: 'vote', path: 'home', confidence: 1, explicit: true });
    expect(actor.getSnapshot().value).toBe('locked');
    expect(actor.getSnapshot().context.locked).toBe('home');
    // Locking left the chooser's state: its late answer for sports is dropped.
    release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(actor.getSnapshot().context).toMatchObject({ locked: 'home', history: [{ outcome: 'locked', path: 'home' }] });
    actor.stop();
  });
});
