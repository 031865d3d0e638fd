import type { PathVoteEmitted } from '../../../machines/path-selection.js';
import type { ExtractionOutput } from '../../extract/types.js';
import type { InputAnsweredEvent, InputTimedOutEvent } from '../../inputs/events.js';
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

/** A person's turn; the extractor or an action finishing or failing; path selection reporting a vote; an input gate answered or timed out. */
export type FlowTestEvent =
  | { type: 'user.text'; text: string }
  | { type: 'user.button'; value: string }
  | { type: typeof DONE_EXTRACT; output: ExtractionOutput }
  | { type: typeof ERROR_EXTRACT; error: string }
  | ActionDoneEvent
  | ActionErrorEvent
  | { type: 'path.changed'; vote: PathVoteEmitted }
  | InputAnsweredEvent
  | InputTimedOutEvent;

/** What the generator adds to what it derives from the flow. */
export interface FlowTestOptions {
  /** Today for date answers, in the search and the replay alike; {@link MODEL_TODAY} when absent. */
  today?: Date;
  /** Extra texts to try on a typed question or an input node's input, by answer key (a value only a validator refuses, a pattern's match). */
  samples?: Record<string, string[]>;
  /** Extra outputs to try for an action node, by actor name. */
  actionOutputs?: Record<string, unknown[]>;
  /**
   * Press only the buttons the reply offers, so that every path can be
   * replayed through the runtime or HTTP (which refuse any other button). By
   * default the paths also press a button no reply offers and buttons of
   * questions that show none, to reach the machine's guards against them.
   */
  offeredButtonsOnly?: boolean;
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

/**
 * A short text that matches `pattern` (a question's or an input's regular
 * expression, matched whole), for the simple patterns authors write: literal
 * characters, classes (`[A-Z]`, `\d`, `\w`, `.`), groups and alternatives
 * (the first is taken), quantifiers (the fewest repetitions, at least one
 * where `{n}` asks for some). Undefined when the text made does not match (a
 * pattern this does not read): the caller's own samples are needed then.
 */
export function patternSample(pattern: string): string | undefined {
  let at = 0;
  const escaped = (c: string) => (c === 'd' ? '0' : c === 'w' ? 'a' : c === 's' ? ' ' : c === 'D' || c === 'W' || c === 'S' ? '-' : c);
  /** One character of a class: its first member, or for `[^...]` the first common character it leaves out. */
  const klass = (): string => {
    const negated = pattern[at] === '^';
    if (negated) at++;
    const members: string[] = [];
    while (at < pattern.length && pattern[at] !== ']') {
      const c = pattern[at++]!;
      const member = c === '\\' ? escaped(pattern[at++] ?? '') : c;
      // A range a-z: its first character stands for it (and for a negated class, its ends are left out).
      if (pattern[at] === '-' && pattern[at + 1] !== ']' && at + 1 < pattern.length) {
        const end = pattern[at + 1]!;
        at += 2;
        members.push(member, end);
      } else members.push(member);
    }
    at++; // ]
    if (!negated) return members[0] ?? '';
    return ['a', 'A', '0', 'x', ' ', '-'].find((c) => !members.includes(c)) ?? '';
  };
  const sequence = (): string => {
    let out = '';
    while (at < pattern.length && pattern[at] !== '|' && pattern[at] !== ')') {
      const c = pattern[at++]!;
      let atom: string;
      if (c === '^' || c === '$') continue;
      else if (c === '\\') atom = escaped(pattern[at++] ?? '');
      else if (c === '.') atom = 'a';
      else if (c === '[') atom = klass();
      else if (c === '(') {
        if (pattern[at] === '?') at += pattern[at + 1] === ':' ? 2 : pattern.slice(at).search(/[:>)]/) + 1;
        atom = alternatives();
        at++; // )
      } else atom = c;
      // The quantifier after the atom: the fewest repetitions it allows.
      const q = pattern[at];
      if (q === '?' || q === '*') {
        at++;
        atom = '';
      } else if (q === '+') at++;
      else if (q === '{') {
        const m = /^\{(\d+)(?:,(\d*))?\}/.exec(pattern.slice(at));
        if (m) {
          at += m[0].length;
          atom = atom.repeat(Number(m[1]));
        }
      }
      if (pattern[at] === '?') at++; // lazy
      out += atom;
    }
    return out;
  };
  const alternatives = (): string => {
    const first = sequence();
    while (pattern[at] === '|') {
      at++;
      sequence();
    }
    return first;
  };
  try {
    const sample = alternatives();
    return new RegExp(`^(?:${pattern})$`, 'u').test(sample) ? sample : undefined;
  } catch {
    return undefined;
  }
}
