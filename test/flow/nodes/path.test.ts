/**
 * The path node kind (src/flow/nodes/path.ts): every message a vote, moving on once a path locks, its checks and its model-based events.
 * Moved here from v1-semantics, check and model-based tests (names unchanged).
 */
import { describe, expect, it } from 'vitest';
import { startConversation } from '../../../src/flow/conversation.js';
import { base, error, eventsAt, example, issues } from '../helpers.js';

describe('path nodes', () => {
  it('every message is a vote; the path locks after three consistent votes and the flow moves on at once', async () => {
    const c = startConversation(example('lighting-consult'));
    expect(c.reply().buttons!.map((b) => b.value)).toEqual(['home', 'sports']);
    expect((await c.send({ text: 'hello there' })).state).toEqual({ project: 'waiting' });
    expect((await c.send({ text: 'a tennis court' })).state).toEqual({ project: 'waiting' });
    expect((await c.send({ text: 'for the tennis club' })).state).toEqual({ project: 'waiting' });
    const locked = await c.send({ text: 'a padel court too' });
    expect(locked.state).toEqual({ area: 'asking' });
    c.stop();
  });

  // Regression (found by these tests, fixed): (src/flow/compile.ts pathState): `isLastAttempt` is tested when the
  // message arrives, before its vote is counted: the message that would lock
  // a path on the last allowed attempt is dropped and the flow takes
  // `invalid`. lighting-consult (maxAttempts 8, lockThreshold 3): five
  // messages with no path in them, then three about a tennis court, ends at
  // the advisor; with four neutral messages first it locks "sports". Every
  // message counts as an attempt, even a good vote, and the last one is not
  // given its chance.
  it('the message that locks the path on the last allowed attempt is not thrown away', async () => {
    const c = startConversation(example('lighting-consult'));
    for (let i = 0; i < 5; i++) await c.send({ text: 'hello there' });
    await c.send({ text: 'a tennis court' });
    await c.send({ text: 'for the tennis club' });
    const eighth = await c.send({ text: 'a padel court too' });
    expect(eighth.state).toEqual({ area: 'asking' });
    c.stop();
  });
});

// ---------------------------------------------------------------- checks (from check.test.ts)

describe('edge groups', () => {
  it('a path node with an else edge', () => {
    const d = base();
    d.nodes.unshift({ kind: 'path', id: 'p', prompt: 'Tell me about it.' });
    d.start = 'p';
    d.paths = {
      options: [
        { id: 'home', label: 'Home', keywords: ['house'] },
        { id: 'sports', label: 'Sports', keywords: ['court'] },
      ],
    } as never;
    d.edges.push({ from: 'p', to: 'a', guard: "context.path.locked == 'home'" }, { from: 'p', to: 'n' });
    expect(issues(d)).toEqual([
      error(['edges', 3], 'a path node waits for a path to lock: every edge needs a guard (no "else")', { node: 'p' }),
    ]);
    // Guarded on every path, it is sound (and may read context.path).
    d.edges[3] = { from: 'p', to: 'n', guard: "context.path.locked == 'sports'" };
    expect(issues(d)).toEqual([]);
  });
});

// ---------------------------------------------------------------- model-based events (from model-based.test.ts)

describe('events derived from the flow, per node kind', () => {
  it('a path node: a vote locking each path, one locking none', () => {
    const votes = eventsAt('lighting-consult.json', []).flatMap((e) => (e.type === 'path.changed' ? [e.vote.locked] : []));
    expect(votes).toEqual(['home', 'sports', null]);
  });
});
