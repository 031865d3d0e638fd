import { namedBy, sameCall, type DiagnoseInput } from '../../machines/task-agent.js';
import type { Diagnosis } from './schemas.js';

/** Failures that pass: the same call may work after a pause. */
const RANDOM = new Set(['tool_timeout', 'store_unavailable', 'model_error', 'graph_unavailable']);
/**
 * Failures of the call or the goal itself: the same call fails again. A model
 * may plan a different call (replan); without one, the person is asked.
 */
const SYSTEMATIC_REPLANNABLE = new Set([
  'tool_invalid_input',
  'graph_invalid_input',
  'graph_node_not_found',
  'graph_edge_not_found',
  'graph_duplicate_node',
  'graph_duplicate_edge',
  'graph_node_has_edges',
  'graph_label_kind_conflict',
  'cypher_refused',
  'cypher_failed',
  'invalid_output',
]);
/** Failures only the person can settle. */
const FOR_THE_PERSON = new Set(['contradiction', 'unclear_goal', 'out_of_scope', 'needs_explicit_command']);

/**
 * diagnose, by rule (seed 004): identical when the failing call was tried and
 * failed before (never retried unchanged); random for timeouts and outages
 * (retry the same call, after a backoff); systematic otherwise (replan when
 * a model can plan another call, else ask the person). Returns null for a
 * failure no rule knows (a host tool's own error): the model is asked then.
 */
export function diagnoseByRule(input: DiagnoseInput, options: { canReplan: boolean }): Diagnosis | null {
  const { failure } = input;
  const replanOr = (explanation: string): Diagnosis =>
    options.canReplan ? { kind: 'systematic', remedy: 'replan', explanation } : { kind: 'systematic', remedy: 'escalate', explanation };
  if (failure.call && input.failedBefore.some((c) => sameCall(c, failure.call!)))
    return {
      kind: 'identical',
      remedy: options.canReplan ? 'replan' : 'escalate',
      explanation: `${failure.message} (the same call failed before; it is not tried again unchanged)`,
    };
  if (FOR_THE_PERSON.has(failure.code)) return { kind: 'systematic', remedy: 'escalate', explanation: failure.message };
  if (failure.code === 'tool_not_found') {
    // A tool the person named is theirs to settle; one the model made up is its mistake: it plans again (within the budget).
    if (failure.call && namedBy(input.said, failure.call.tool)) return { kind: 'systematic', remedy: 'escalate', explanation: failure.message };
    return replanOr(failure.message);
  }
  // A goal that was not read cannot be planned: whatever the fault, the person is asked (seed: diagnose → escalate).
  if (failure.stage === 'parse') return { kind: RANDOM.has(failure.code) ? 'random' : 'systematic', remedy: 'escalate', explanation: failure.message };
  if (RANDOM.has(failure.code))
    return failure.call || failure.stage !== 'call'
      ? { kind: 'random', remedy: failure.call ? 'retry' : 'replan', explanation: failure.message }
      : { kind: 'random', remedy: 'escalate', explanation: failure.message };
  if (SYSTEMATIC_REPLANNABLE.has(failure.code)) return replanOr(failure.message);
  return null;
}

/** How long to wait before retry n (0-based): doubling from `baseMs`, at most `maxMs`. */
export const backoffMs = (retry: number, baseMs: number, maxMs: number): number => Math.min(maxMs, baseMs * 2 ** retry);
