import { and } from 'xstate';
import { z } from 'zod';
import { nodeFields, text } from '../fields.js';
import type { FlowPathState } from '../context.js';
import type { NodeKind } from './kind.js';
import { readYesNo } from '../../extract/knowledge/yes-no.js';
import { AWAITING_ANSWER, PATHS_ACTOR_ID, checkGivingUp, flowAssign, flowSendTo } from './shared.js';
import { UNCLEAR_TEXT, UNKNOWN_BUTTON, button, text as textEvent, vote, type FlowTestEvent } from './test-events.js';

/**
 * Waits until path selection locks a path (see `paths`): while it waits every
 * message is a vote, and a path's button is the person's choice (it locks at
 * once). Its edges are guarded on `context.path.locked`.
 */
export const PathNodeSchema = z.strictObject({
  kind: z.literal('path').describe('"path": waits until path selection locks one of the flow\'s `paths`; every message is a vote.'),
  ...nodeFields,
  prompt: text.meta({ description: 'What the person is asked while the path is chosen.', examples: ['Tell me about your project.'] }),
  /**
   * Messages allowed (each is a vote) before the `invalid` edge (else the
   * flow's `fallback`, else the implicit stop terminal `__unreadable__`) is
   * taken on a vote that locks no path. When absent: the votes a path needs to
   * lock (`paths.policy.lockThreshold`) plus the flow's `maxAttempts` (else
   * `DEFAULT_MAX_ATTEMPTS`), less one.
   */
  maxAttempts: z.number().int().min(1).max(100).describe('Messages allowed before the `invalid` edge is taken on a vote that locks no path.').optional(),
});

export type PathNode = z.infer<typeof PathNodeSchema>;

type PathOptionShown = { id: string; label?: string | undefined };

/**
 * What the path node says: its prompt until a message has been read; after
 * that, what it took from the last message, then a narrower question (which
 * path is it?) with the paths as buttons. A vote that locks a path leaves
 * the node, so this is said only while no path is locked.
 */
export function pathMessage(node: PathNode, options: readonly PathOptionShown[], path: FlowPathState | null): string {
  const last = path?.last;
  if (!path || !last) return node.prompt;
  const label = (id: string) => options.find((o) => o.id === id)?.label ?? id;
  const either = options.map((o) => label(o.id)).join(' or ');
  const narrower = `Is it ${either}? Choose one below, or tell me a bit more.`;
  if (last.path !== null && last.outcome === 'voted') {
    const earlier = options.filter((o) => o.id !== last.path && (path.votes[o.id] ?? 0) > 0).map((o) => label(o.id));
    if (earlier.length > 0) return `That sounds like ${label(last.path)}, but earlier it sounded like ${earlier.join(' or ')}. ${narrower}`;
    return `That sounds like ${label(last.path)}. Is that right? Choose "${label(last.path)}" below to go on, or tell me a bit more.`;
  }
  if (last.path !== null && last.outcome === 'low_confidence')
    return `That might mean ${label(last.path)}, but I am not sure. ${narrower}`;
  // The message pointed to no path.
  if (path.tentative !== null) return `I could not tell from that which one this is; so far it sounds like ${label(path.tentative)}. ${narrower}`;
  return `I could not tell from that which one this is. ${narrower}`;
}

/**
 * A path node: state `waiting`, where every message is a vote sent to path
 * selection and every path button an explicit choice (locked at once); its
 * `always` edges, guarded on `context.path.locked`, are re-checked after each
 * reported vote.
 */
export const path: NodeKind<typeof PathNodeSchema> = {
  kind: 'path',
  schema: PathNodeSchema,
  outcomes: ['next', 'invalid'],
  // It waits for a path to lock: every `next` edge is guarded (an `else` would leave at once).
  unguardedEdges: { next: { forbidden: 'a path node waits for a path to lock: every edge needs a guard (no "else")' }, invalid: 'optional' },
  check(node, c) {
    if (c.inSubgraph) c.add(c.at, `path node "${node.id}" must be in the main flow`, { node: node.id });
  },
  checkEdges(node, c) {
    c.need('next', 'guarded on context.path.locked');
    if (!c.doc.paths) c.fail(c.at, `path node "${node.id}" needs the flow's "paths"`, { node: node.id });
    checkGivingUp(node, c);
  },

  guards: ({ doc, lookups: { pressed, maxAttemptsOf } }) => ({
    /** The vote just recorded left every path unlocked ... */
    voteLeavesUnlocked: ({ event }) => event.type === 'path.changed' && event.vote.locked === null,
    /** ... and the messages allowed are used up. */
    noAttemptsLeft: ({ context }, params: { place: string }) => (context.attempts[params.place] ?? 0) >= maxAttemptsOf(params.place),
    /** A button naming one of the flow's paths. */
    buttonIsPath: ({ event }) => {
      const value = pressed(event);
      return value !== null && (doc.paths?.options ?? []).some((p) => p.id === value || p.label === value);
    },
    /** "That sounds like X. Is that right?" answered yes in words ("yes", "sí", "genau"): as pressing X. */
    textConfirmsPath: ({ context, event }) =>
      event.type === 'user.text' && context.path?.last?.outcome === 'voted' && context.path.last.path !== null && readYesNo(event.text) === 'yes',
  }),

  actions: ({ doc, lookups: { pressed } }) => ({
    votePathButton: flowSendTo(PATHS_ACTOR_ID, ({ event }) => {
      const value = pressed(event) ?? '';
      const option = (doc.paths?.options ?? []).find((p) => p.id === value || p.label === value);
      // A button is the person's own choice: it locks the path at once (hysteresis is for votes read from text).
      return { type: 'vote' as const, path: option?.id ?? null, confidence: 1, rationale: `button "${value}"`, explicit: true };
    }),
    /** The path the last message sounded like, confirmed in words: the person's own choice, as its button. */
    votePathConfirmed: flowSendTo(PATHS_ACTOR_ID, ({ context, event }) => ({
      type: 'vote' as const,
      path: context.path?.last?.path ?? null,
      confidence: 1,
      rationale: `confirmed "${event.type === 'user.text' ? event.text : ''}"`,
      explicit: true,
    })),
    countAttempt: flowAssign(({ context }, params: { place: string }) => ({
      attempts: { ...context.attempts, [params.place]: (context.attempts[params.place] ?? 0) + 1 },
    })),
  }),

  state(p, c) {
    const params = { place: p.id };
    return {
      tags: ['question'],
      ...c.traced(p),
      // Re-checked after every event: a vote that locks a path moves on at once.
      always: c.route(p, 'next'),
      initial: 'waiting',
      states: {
        waiting: {
          on: {
            'user.text': [
              { guard: { type: 'textConfirmsPath' }, actions: [{ type: 'votePathConfirmed' }] },
              { actions: [{ type: 'votePath' }, { type: 'countAttempt', params }] },
            ],
            // The message's vote comes back from path selection: only a vote that
            // locks nothing can use up the last attempt (the budget: see attempts.ts).
            'path.changed': [
              c.go(p, 'invalid', and([{ type: 'voteLeavesUnlocked' }, { type: 'noAttemptsLeft', params }] as never), [{ type: 'assignPath' }, { type: 'forgetAttempts', params }]),
              { actions: [{ type: 'assignPath' }] },
            ],
            'user.button': [
              { guard: { type: 'buttonIsPath' }, actions: [{ type: 'votePathButton' }] },
              { actions: [{ type: 'noteNotUnderstood', params: { place: null } }] },
            ],
          },
        },
        ...c.routingChildren(p, ['invalid']),
      },
    };
  },

  reply: (node, { graph, context, notUnderstood, messages }) => ({
    message: notUnderstood ? messages.NOT_UNDERSTOOD_MESSAGE : pathMessage(node, graph.doc.paths?.options ?? [], context.path),
    buttons: (graph.doc.paths?.options ?? []).map((p) => ({ label: p.label ?? p.id, value: p.id })),
    buttonContext: 'gate_question',
    artifacts: [],
    completion: AWAITING_ANSWER,
  }),
  // Path selection keeps its votes in its own snapshot; the node waits again.
  resume: (node) => ({ [node.id]: 'waiting' }),

  /**
   * A vote that locks each path and one that does not (sent as path selection
   * would report them), a text (a vote, and a counted attempt), "yes" (after a
   * vote, it confirms the path the message sounded like), each path as a
   * button and an unknown button.
   */
  testEvents(_node, { graph }) {
    const options = graph.doc.paths?.options ?? [];
    const first = options[0]?.id ?? null;
    const threshold = graph.doc.paths?.policy?.lockThreshold ?? 3;
    return [
      ...options.map((o): FlowTestEvent => ({ type: 'path.changed', vote: vote(o.id, o.id, { [o.id]: threshold }) })),
      { type: 'path.changed', vote: vote(first, null, first === null ? {} : { [first]: 1 }) },
      textEvent(UNCLEAR_TEXT),
      // "Is that right?" answered in words.
      textEvent('yes'),
      ...options.map((o) => button(o.id)),
      button(UNKNOWN_BUTTON),
    ];
  },
};
