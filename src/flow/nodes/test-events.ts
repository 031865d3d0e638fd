import type { PathVoteEmitted } from '../../../machines/path-selection.js';
import type { ExtractionOutput } from '../../extract/types.js';
import { EXTRACT_ACTOR_ID } from './shared.js';

/**
 * The events the model-based harness (testing/model-based.ts) sends a
 * compiled flow, and the helpers node kinds derive theirs with (see each
 * kind's `testEvents`).
 */

export const DONE_EXTRACT = `xstate.done.actor.${EXTRACT_ACTOR_ID}` as const;
export const ERROR_EXTRACT = `xstate.error.actor.${EXTRACT_ACTOR_ID}` as const;

/** An action node's actor finishing (`action.<place>` is its invoke id) or failing. */
export type ActionDoneEvent = { type: `xstate.done.actor.action.${string}`; output: unknown };
export type ActionErrorEvent = { type: `xstate.error.actor.action.${string}`; error: string };

/** A person's turn; the extractor or an action finishing or failing; path selection reporting a vote. */
export type FlowTestEvent =
  | { type: 'user.text'; text: string }
  | { type: 'user.button'; value: string }
  | { type: typeof DONE_EXTRACT; output: ExtractionOutput }
  | { type: typeof ERROR_EXTRACT; error: string }
  | ActionDoneEvent
  | ActionErrorEvent
  | { type: 'path.changed'; vote: PathVoteEmitted };

/** What the generator adds to what it derives from the flow. */
export interface FlowTestOptions {
  /** Today for date answers, in the search and the replay alike; {@link MODEL_TODAY} when absent. */
  today?: Date;
  /** Extra texts to try on a typed question, by answer key (a value only a validator refuses, a pattern's match). */
  samples?: Record<string, string[]>;
  /** Extra outputs to try for an action node, by actor name. */
  actionOutputs?: Record<string, unknown[]>;
}

export const UNCLEAR_TEXT = 'hmm, let me think about that';
export const UNKNOWN_BUTTON = 'not-one-of-the-options';
/** Today in the model and on replay unless the caller says otherwise: dates relative to "today" stay fixed. */
export const MODEL_TODAY = new Date('2026-11-21T12:00:00Z');

export const button = (value: string): FlowTestEvent => ({ type: 'user.button', value });
export const text = (t: string): FlowTestEvent => ({ type: 'user.text', text: t });

/** What path selection reports after a vote. */
export function vote(tentative: string | null, locked: string | null, votes: Record<string, number>): PathVoteEmitted {
  return { type: 'path.vote', turn: 1, path: tentative, confidence: 1, outcome: locked ? 'locked' : 'voted', votes, tentative, locked, rationale: 'model-based test' };
}

/** Numbers among literals. */
export const numbersOf = (literals: readonly (number | string)[] | undefined) => (literals ?? []).filter((l): l is number => typeof l === 'number');
/** Strings among literals. */
export const stringsOf = (literals: readonly (number | string)[] | undefined) => (literals ?? []).filter((l): l is string => typeof l === 'string');
/** Each literal and its neighbours: both sides of `>`, `>=`, `==`, `!=`. */
export const aroundEach = (values: number[]) => values.flatMap((v) => [v - 1, v, v + 1]);
