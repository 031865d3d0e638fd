import { DEFAULT_PATH_POLICY, parsePathPolicy } from '../../machines/path-policy.js';
import type { Edge, FlowDocument, FlowNode, PathNode, QuestionNode, TerminalNode } from './schema.js';

/**
 * Failed-answer budgets: no question (and no path node) asks the same way forever.
 *
 * A question's budget is its own `maxAttempts`, else the flow's `maxAttempts`,
 * else {@link DEFAULT_MAX_ATTEMPTS}. A question that offers its answers as
 * buttons (a category or a yes/no question), once its budget is used up,
 * offers the buttons alone (the `buttonsOnly` state; the reply says so, see
 * `BUTTONS_ONLY_MESSAGE` in flow/messages.ts). Where its author said where
 * failures go (an `invalid` edge, the flow's `fallback`), one more failure
 * there leaves it; where not, it keeps offering the buttons (see {@link givesUp}).
 * A question without answer buttons leaves at the budget's last failure on its
 * `invalid` edge, else to the flow's `fallback`; where neither is given, it keeps
 * asking, each time saying why the answer was not taken (a session's turns are
 * bounded: `maxTurnsPerSession`). A path node leaves at its budget's end the
 * same way, else to the implicit stop terminal {@link UNREADABLE_TERMINAL_ID}
 * that the flow graph adds for that.
 */

/** Failed answers a question allows when neither it nor its flow sets `maxAttempts`. */
export const DEFAULT_MAX_ATTEMPTS = 3;

/** The state of a question with answer buttons whose failed answers used up its budget: only a button (or a text read as surely) answers now. */
export const BUTTONS_ONLY_STATE = 'buttonsOnly';

/**
 * The id of the stop terminal a flow gets when a question (or path node) can
 * use up its attempts with no `invalid` edge and the flow has no `fallback`.
 * It is not in the document: the flow graph adds it (so the compiled machine,
 * drawings and replies have it). Reserved: a document may not use it.
 */
export const UNREADABLE_TERMINAL_ID = '__unreadable__';

/** What the implicit stop terminal says. */
export const UNREADABLE_TERMINAL_MESSAGE = 'Sorry, I could not read your answers, so this conversation ends here.';

/** Whether a question's answers are buttons (its categories, or its yes/no labels): such a question offers them alone before it gives up. */
export const hasAnswerButtons = (q: Pick<QuestionNode, 'answer'>): boolean => q.answer.type === 'category' || q.answer.type === 'boolean';

/** The failed answers a flow allows a question that sets none. */
export const flowMaxAttempts = (doc: Pick<FlowDocument, 'maxAttempts'>): number => doc.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;

/**
 * The failed answers a question allows before it gives up (for a question
 * with answer buttons: before it offers them alone). A path node counts every
 * message (each is a vote); without its own `maxAttempts` it allows the votes
 * its path selection needs to lock (`lockThreshold`) and the flow's budget
 * beyond them, less one.
 */
export function attemptBudget(doc: Pick<FlowDocument, 'maxAttempts' | 'paths'>, node: QuestionNode | PathNode): number {
  if (node.maxAttempts !== undefined) return node.maxAttempts;
  if (node.kind === 'question') return flowMaxAttempts(doc);
  const lockThreshold = doc.paths ? parsePathPolicy(doc.paths.policy ?? {}).lockThreshold : DEFAULT_PATH_POLICY.lockThreshold;
  return flowMaxAttempts(doc) + lockThreshold - 1;
}

const hasInvalidEdge = (node: FlowNode, edges: readonly Edge[]) => edges.some((e) => e.from === node.id && e.on === 'invalid');

/**
 * Whether a question or path node leaves once its failed answers use up its
 * budget. It does where its author said where failures go (its `invalid`
 * edge, the flow's `fallback`). A question with nowhere to go keeps asking
 * (with answer buttons, offering them alone): a reader that cannot read the
 * person is no reason to end their conversation, a question asked again is
 * cheap, and a button or a plain value always answers. A path node, whose
 * votes never settled, does leave.
 */
export function givesUp(doc: Pick<FlowDocument, 'fallback'>, node: QuestionNode | PathNode, edges: readonly Edge[]): boolean {
  if (hasInvalidEdge(node, edges) || doc.fallback !== undefined) return true;
  return node.kind !== 'question';
}

/** Whether some question or path node of the flow gives up with nowhere to go: no `invalid` edge, and the flow has no `fallback`. */
export function needsUnreadableTerminal(doc: FlowDocument): boolean {
  if (doc.fallback !== undefined) return false;
  const scopes = [{ nodes: doc.nodes, edges: doc.edges }, ...Object.values(doc.subgraphs ?? {})];
  return scopes.some(({ nodes, edges }) =>
    nodes.some((n: FlowNode) => (n.kind === 'question' || n.kind === 'path') && !hasInvalidEdge(n, edges) && givesUp(doc, n, edges)),
  );
}

/** The implicit stop terminal (see {@link UNREADABLE_TERMINAL_ID}). */
export const unreadableTerminal = (): TerminalNode => ({
  kind: 'terminal',
  id: UNREADABLE_TERMINAL_ID,
  outcome: 'stopped',
  label: 'Answers unreadable',
  message: UNREADABLE_TERMINAL_MESSAGE,
});

/** Where a question or path node goes when it gives up and has no `invalid` edge: the flow's fallback, or the implicit stop terminal. */
export const fallbackOf = (doc: Pick<FlowDocument, 'fallback'>): string => doc.fallback ?? UNREADABLE_TERMINAL_ID;
