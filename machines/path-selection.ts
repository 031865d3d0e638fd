import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import { BUSY_TAG } from './tags.js';
import {
  applyVote,
  initialPathState,
  parsePathOptions,
  parsePathPolicy,
  skipTurn,
  type ChooseInput,
  type PathChoice,
  type PathOption,
  type PathOptionInput,
  type PathPolicy,
  type PathPolicyInput,
  type PathState,
  type PathVote,
  type VoteOutcome,
} from './path-policy.js';

/**
 * Path selection with hysteresis: each message goes to the `choose` actor (a
 * model, or the offline matcher on path keywords), whose answer is a vote;
 * votes accumulate and decay by the policy in machines/path-policy.ts, and the
 * path locks after `lockThreshold` of them. Once locked, messages and votes
 * are recorded as ignored and change nothing. Pure: the chooser is an actor
 * provided with `machine.provide({ actors: { choose } })`.
 */

export interface PathSelectionContext extends PathState {
  paths: PathOption[];
  policy: PathPolicy;
  /** The message the chooser is reading. */
  pending: string | null;
  /** Also send each vote to the parent (a compiled flow) as `path.changed`. */
  reportToParent: boolean;
}

export interface PathSelectionInput {
  paths: PathOptionInput[];
  /** The knobs; defaults for the ones left out. Bad knobs fail the actor with a `PathPolicyError`. */
  policy?: PathPolicyInput;
  /** When invoked by a flow: send each recorded vote to it as `{ type: 'path.changed', vote }`. */
  reportToParent?: boolean;
}

export type PathSelectionEvent =
  | { type: 'message'; text: string }
  /** A vote from a caller that already has one (or a test); `explicit` for the person's own choice (a button), which locks at once. */
  | { type: 'vote'; path: string | null; confidence?: number; rationale?: string; explicit?: boolean };

/** Emitted after every turn (also the ignored ones), for traces. */
export interface PathVoteEmitted {
  type: 'path.vote';
  turn: number;
  path: string | null;
  confidence: number;
  outcome: VoteOutcome;
  votes: Record<string, number>;
  tentative: string | null;
  locked: string | null;
  rationale: string;
  chooser?: string;
}

export const CHOOSE_ACTOR_ID = 'choose';
export { BUSY_TAG };

const notProvided = fromPromise<PathChoice, ChooseInput>(async () => {
  throw new Error(`path selection: provide the "${CHOOSE_ACTOR_ID}" actor`);
});

const ids = (context: PathSelectionContext) => context.paths.map((p) => p.id);
const voteOf = (event: { path: string | null; confidence?: number; rationale?: string | undefined; explicit?: boolean | undefined }): PathVote => ({
  path: event.path,
  ...(event.confidence === undefined ? {} : { confidence: event.confidence }),
  ...(event.rationale === undefined ? {} : { rationale: event.rationale }),
  ...(event.explicit ? { explicit: true } : {}),
});
const failureOf = (error: unknown): PathVote => ({
  path: null,
  confidence: 0,
  rationale: `chooser failed: ${error instanceof Error ? error.message : String(error)}`,
});

export const pathSelectionMachine = setup({
  types: {
    context: {} as PathSelectionContext,
    events: {} as PathSelectionEvent,
    input: {} as PathSelectionInput,
    emitted: {} as PathVoteEmitted,
  },
  actors: {
    [CHOOSE_ACTOR_ID]: notProvided,
  },
  guards: {
    /** Counting this vote would lock its path. */
    reachesLock: ({ context }, params: { vote: PathVote }) =>
      applyVote(context, params.vote, context.policy, ids(context)).state.locked !== null,
  },
  actions: {
    recordVote: assign(({ context }, params: { vote: PathVote }) => {
      const { votes, tentative, locked, history } = applyVote(context, params.vote, context.policy, ids(context)).state;
      return { votes, tentative, locked, history };
    }),
    recordBusy: assign(({ context }) => ({
      history: skipTurn(context, 'busy', 'ignored: still choosing on the previous message', context.policy).state.history,
    })),
    /** The turn just recorded, as a structured event (and to the parent flow, when there is one). */
    emitVote: enqueueActions(({ context, enqueue }) => {
      const turn = context.history.at(-1)!;
      const vote: PathVoteEmitted = {
        type: 'path.vote',
        turn: turn.turn,
        path: turn.path,
        confidence: turn.confidence,
        outcome: turn.outcome,
        votes: { ...context.votes },
        tentative: context.tentative,
        locked: context.locked,
        rationale: turn.rationale,
        ...(turn.chooser ? { chooser: turn.chooser } : {}),
      };
      enqueue.emit(vote);
      if (context.reportToParent) enqueue.sendParent({ type: 'path.changed', vote });
    }),
    keepMessage: assign({ pending: (_, params: { text: string }) => params.text }),
    clearMessage: assign({ pending: null }),
  },
}).createMachine({
  id: 'pathSelection',
  context: ({ input }) => {
    const paths = parsePathOptions(input.paths);
    return {
      ...initialPathState(paths.map((p) => p.id)),
      paths,
      policy: parsePathPolicy(input.policy ?? {}),
      pending: null,
      reportToParent: input.reportToParent ?? false,
    };
  },
  initial: 'choosing',
  states: {
    choosing: {
      initial: 'idle',
      on: {
        // A vote is applied at once, even while the chooser reads a message.
        vote: [
          {
            guard: { type: 'reachesLock', params: ({ event }) => ({ vote: voteOf(event) }) },
            target: 'locked',
            actions: [{ type: 'recordVote', params: ({ event }) => ({ vote: voteOf(event) }) }, 'emitVote'],
          },
          { actions: [{ type: 'recordVote', params: ({ event }) => ({ vote: voteOf(event) }) }, 'emitVote'] },
        ],
      },
      states: {
        idle: {
          on: {
            message: { target: 'asking', actions: { type: 'keepMessage', params: ({ event }) => ({ text: event.text }) } },
          },
        },
        asking: {
          tags: [BUSY_TAG],
          invoke: {
            id: CHOOSE_ACTOR_ID,
            src: CHOOSE_ACTOR_ID,
            input: ({ context }): ChooseInput => ({ text: context.pending ?? '', paths: context.paths }),
            onDone: [
              {
                guard: { type: 'reachesLock', params: ({ event }) => ({ vote: voteOf(event.output) }) },
                target: '#pathSelection.locked',
                actions: [{ type: 'recordVote', params: ({ event }) => ({ vote: voteOf(event.output) }) }, 'emitVote', 'clearMessage'],
              },
              {
                target: 'idle',
                actions: [{ type: 'recordVote', params: ({ event }) => ({ vote: voteOf(event.output) }) }, 'emitVote', 'clearMessage'],
              },
            ],
            // A chooser should never throw; if one does, the turn is a recorded null vote.
            onError: {
              target: 'idle',
              actions: [{ type: 'recordVote', params: ({ event }) => ({ vote: failureOf(event.error) }) }, 'emitVote', 'clearMessage'],
            },
          },
          on: {
            message: { actions: ['recordBusy', 'emitVote'] },
          },
        },
      },
    },
    locked: {
      // The chooser is not asked any more: every turn is recorded as ignored.
      on: {
        vote: { actions: [{ type: 'recordVote', params: ({ event }) => ({ vote: voteOf(event) }) }, 'emitVote'] },
        message: { actions: [{ type: 'recordVote', params: { vote: { path: null } } }, 'emitVote'] },
      },
    },
  },
});

export type PathSelectionMachine = typeof pathSelectionMachine;
