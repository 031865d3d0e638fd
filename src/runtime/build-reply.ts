import type { StateValue } from 'xstate';
import type { FlowContext } from '../flow/context.js';
import type { FlowGraph } from '../flow/graph.js';
import type { FlowNode } from '../flow/schema.js';
import {
  DEFAULT_COMPLETED_MESSAGE,
  DEFAULT_HANDOFF_MESSAGE,
  DEFAULT_STOP_MESSAGE,
  NOT_UNDERSTOOD_MESSAGE,
  problemStatement,
  questionMessage,
  summaryMessage,
} from './messages.js';
import type { Artifact, Reply } from './reply.js';

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
): Reply {
  const { context } = snapshot;
  const node = graph.node(nodeIdOf(snapshot.value));
  if (!node) throw new Error(`state ${JSON.stringify(snapshot.value)} is not a node of flow "${graph.doc.id}"`);
  const { message, buttons, buttonContext, artifacts, completion } = replyFor(graph, node, context);
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

type NodeReply = Pick<Reply, 'message' | 'buttons' | 'buttonContext' | 'artifacts' | 'completion'>;

function replyFor(graph: FlowGraph, node: FlowNode, context: FlowContext): NodeReply {
  const notUnderstood = context.notice === 'not_understood';
  switch (node.kind) {
    case 'question':
      return {
        message: notUnderstood ? NOT_UNDERSTOOD_MESSAGE : questionMessage(node, context.previousAnswers[node.id]),
        buttons: node.answer.categories.map((c) => ({ label: c, value: c })),
        buttonContext: 'gate_question',
        artifacts: [],
        completion: { isComplete: false, reason: 'awaiting_answer', readyForHandoff: false },
      };
    case 'confirmation': {
      const statement = problemStatement(graph, context.answers);
      const artifact: Artifact = {
        type: 'PROBLEM_STATEMENT',
        problemStatement: statement,
        answers: Object.fromEntries(Object.entries(context.answers).map(([k, a]) => [k, a.value])),
      };
      return {
        message: notUnderstood ? NOT_UNDERSTOOD_MESSAGE : summaryMessage(graph, node, context.answers),
        buttons: [
          { label: node.confirmLabel, value: 'confirm' },
          { label: node.editLabel, value: 'edit' },
        ],
        buttonContext: 'gate_confirmation',
        artifacts: [artifact],
        completion: { isComplete: false, reason: 'awaiting_user_confirmation', readyForHandoff: false },
      };
    }
    case 'terminal': {
      const done = { buttons: null, buttonContext: null } as const;
      if (node.outcome === 'stopped') {
        const by = context.stoppedBy ? graph.question(context.stoppedBy) : undefined;
        return {
          ...done,
          message: by?.stopMessage ?? node.message ?? DEFAULT_STOP_MESSAGE,
          artifacts: [],
          completion: { isComplete: true, reason: 'stopped_limiting_value', readyForHandoff: false },
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
