import type { StateValue } from 'xstate';
import { activeNode } from '../flow/active-node.js';
import { SKIP_VALUE } from '../flow/answer.js';
import { BUTTONS_ONLY_STATE } from '../flow/attempts.js';
import type { FlowContext } from '../flow/context.js';
import type { FlowGraph } from '../flow/graph.js';
import { isAtOrInside } from '../flow/places.js';
import { answerKey, booleanLabels, isRequired, type FlowNode, type QuestionNode } from '../flow/schema.js';
import {
  BUTTONS_ONLY_MESSAGE,
  DEFAULT_COMPLETED_MESSAGE,
  DEFAULT_HANDOFF_MESSAGE,
  DEFAULT_STOP_MESSAGE,
  DEFAULT_WORKING_MESSAGE,
  NOT_UNDERSTOOD_MESSAGE,
  SKIP_LABEL,
  problemStatement,
  questionMessage,
  summaryMessage,
} from './messages.js';
import type { Artifact, Button, Reply } from '../flow/reply.js';

/** The node a state value is in: its top-level key. */
export function nodeIdOf(value: StateValue): string {
  return typeof value === 'string' ? value : Object.keys(value)[0]!;
}

/**
 * Builds the Reply from the machine's state and the flow alone: the message,
 * buttons and artifacts are derived, never stored, so a restored snapshot
 * gives the same reply.
 */
export function buildReply(
  graph: FlowGraph,
  snapshot: { value: StateValue; context: FlowContext },
  sessionId: string,
): Omit<Reply, 'status'> {
  const { context } = snapshot;
  const active = activeNode(graph, snapshot.value);
  if (!active) throw new Error(`state ${JSON.stringify(snapshot.value)} is not a node of flow "${graph.doc.id}"`);
  const { message, buttons, buttonContext, artifacts, completion } = replyFor(graph, active.node, active.place, context, phaseOf(snapshot.value, active.place));
  return {
    sessionId,
    flowId: graph.doc.id,
    flowVersion: graph.doc.version,
    state: snapshot.value as Reply['state'],
    message,
    buttons,
    buttonContext,
    answers: context.answers,
    artifacts,
    completion,
  };
}

/** The child state the node at `place` is in (`asking`, `buttonsOnly`, ...), if it has one. */
function phaseOf(value: StateValue, place: string): string | undefined {
  let v: StateValue | undefined = value;
  for (const part of place.split('.')) v = typeof v === 'object' && v !== null ? (v[part] as StateValue | undefined) : undefined;
  return typeof v === 'string' ? v : v !== undefined ? Object.keys(v)[0] : undefined;
}

type NodeReply = Pick<Reply, 'message' | 'buttons' | 'buttonContext' | 'artifacts' | 'completion'>;

const waiting = { isComplete: false, reason: 'awaiting_answer', readyForHandoff: false } as const;

/** The buttons of a question: its categories, or its yes/no labels; "Skip" when it is optional. */
function questionButtons(q: QuestionNode): Button[] {
  const buttons: Button[] =
    q.answer.type === 'category'
      ? q.answer.categories.map((c) => ({ label: c, value: c }))
      : q.answer.type === 'boolean'
        ? Object.values(booleanLabels(q.answer)).map((label) => ({ label, value: label }))
        : [];
  if (!isRequired(q)) buttons.push({ label: SKIP_LABEL, value: SKIP_VALUE });
  return buttons;
}

function replyFor(graph: FlowGraph, node: FlowNode, place: string, context: FlowContext, phase: string | undefined): NodeReply {
  const notUnderstood = context.notice === 'not_understood';
  // A refused answer (or an unmet constraint sending the flow back here) says why first.
  const to = context.invalid?.node;
  const because = to !== undefined && isAtOrInside(place, to) ? `${context.invalid!.message}\n\n` : '';
  switch (node.kind) {
    case 'question': {
      const buttons = questionButtons(node);
      // Its failed answers used up the budget: the buttons alone, said plainly (not the usual asking again).
      const buttonsOnly = phase === BUTTONS_ONLY_STATE && buttons.length > 0;
      return {
        message: buttonsOnly
          ? `${BUTTONS_ONLY_MESSAGE}\n\n${node.prompt}`
          : notUnderstood
            ? NOT_UNDERSTOOD_MESSAGE
            : because + questionMessage(node, context.previousAnswers[answerKey(node)]),
        buttons: buttons.length > 0 ? buttons : null,
        buttonContext: buttons.length > 0 ? 'gate_question' : null,
        artifacts: [],
        completion: waiting,
      };
    }
    case 'path':
      return {
        message: notUnderstood ? NOT_UNDERSTOOD_MESSAGE : node.prompt,
        buttons: (graph.doc.paths?.options ?? []).map((p) => ({ label: p.label ?? p.id, value: p.id })),
        buttonContext: 'gate_question',
        artifacts: [],
        completion: waiting,
      };
    case 'confirmation': {
      const statement = problemStatement(graph, context.answers);
      const artifact: Artifact = {
        type: 'PROBLEM_STATEMENT',
        problemStatement: statement,
        answers: Object.fromEntries(Object.entries(context.answers).map(([k, a]) => [k, String(a.value)])),
      };
      return {
        message: notUnderstood ? NOT_UNDERSTOOD_MESSAGE : because + summaryMessage(graph, node, context.answers),
        buttons: [
          { label: node.confirmLabel, value: 'confirm' },
          { label: node.editLabel, value: 'edit' },
        ],
        buttonContext: 'gate_confirmation',
        artifacts: [artifact],
        completion: { isComplete: false, reason: 'awaiting_user_confirmation', readyForHandoff: false },
      };
    }
    // Decisions are passed through within a turn, actions are waited for: a
    // reply from either is only seen while an action runs (or on a timeout).
    case 'decision':
    case 'action':
    case 'subgraph':
      return {
        message: (node.kind === 'action' && node.message) || DEFAULT_WORKING_MESSAGE,
        buttons: null,
        buttonContext: null,
        artifacts: [],
        completion: { isComplete: false, reason: 'working', readyForHandoff: false },
      };
    case 'terminal': {
      const done = { buttons: null, buttonContext: null } as const;
      if (node.outcome === 'stopped') {
        const by = context.stoppedBy ? graph.question(context.stoppedBy) : undefined;
        return {
          ...done,
          message: by?.stopMessage ?? node.message ?? DEFAULT_STOP_MESSAGE,
          artifacts: [],
          completion: { isComplete: true, reason: context.stoppedBy ? 'stopped_limiting_value' : 'stopped', readyForHandoff: false },
        };
      }
      if (node.outcome === 'handoff')
        return {
          ...done,
          message: node.message ?? DEFAULT_HANDOFF_MESSAGE,
          artifacts: [
            {
              type: 'HANDOFF',
              flowId: graph.doc.id,
              flowVersion: graph.doc.version,
              problemStatement: problemStatement(graph, context.answers),
              answers: context.answers,
            },
          ],
          completion: { isComplete: true, reason: 'handed_off', readyForHandoff: true },
        };
      return {
        ...done,
        message: node.message ?? DEFAULT_COMPLETED_MESSAGE,
        artifacts: [],
        completion: { isComplete: true, reason: 'completed', readyForHandoff: false },
      };
    }
  }
}
