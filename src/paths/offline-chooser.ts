import { fromPromise } from 'xstate';
import { matchCategory, type MatchableQuestion } from '../extract/match-category.js';
import type { ChooseInput, PathChoice, PathOption } from '../../machines/path-policy.js';

// One matcher question per list of paths: the matcher caches its lexicon by
// the identity of the categories array and the synonyms object.
const gates = new WeakMap<readonly PathOption[], MatchableQuestion>();

function gateOf(paths: readonly PathOption[]): MatchableQuestion {
  let gate = gates.get(paths);
  if (!gate) {
    gate = {
      categories: paths.map((p) => p.id),
      synonyms: Object.fromEntries(paths.map((p) => [p.id, p.keywords ?? []])),
    };
    gates.set(paths, gate);
  }
  return gate;
}

/**
 * The offline chooser: the path whose id or keywords the message mentions,
 * read by the offline matcher (src/extract/match-category.ts) with the path
 * ids as categories and the keywords as their synonyms. It chooses only when
 * the matcher is sure (one path meant, no negation, hedge, question or
 * steering); otherwise it abstains (a null choice) and the votes stay as
 * they are. The confidence is the matcher's (0.7 for a typo to 1 for the
 * exact id).
 */
export function choosePathOffline(input: ChooseInput): PathChoice {
  const result = matchCategory(input.text, gateOf(input.paths));
  if (result.status === 'abstain') return { path: null, confidence: 0, rationale: `keywords: abstained (${result.reason})` };
  return { path: result.value, confidence: result.confidence, rationale: `keywords: the message mentions ${result.value}` };
}

/** `choosePathOffline` as the `choose` actor of the path selection machine. */
export function createKeywordChooser() {
  return fromPromise<PathChoice, ChooseInput>(async ({ input }) => choosePathOffline(input));
}
