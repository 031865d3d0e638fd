import type { AnswerValue, Answer } from './context.js';
import type { FlowGraph } from './graph.js';
import { answerKey, booleanLabels, type ConfirmationNode, type QuestionNode } from './schema.js';

/** The seed's message when a turn could not be understood (case 3.1). */
export const NOT_UNDERSTOOD_MESSAGE =
  "I'm having trouble understanding your response. Could you please rephrase or select one of the options?";

/**
 * What a question with answer buttons says once its failed answers used up
 * its budget (`maxAttempts`): only the buttons answer now; its prompt follows.
 */
export const BUTTONS_ONLY_MESSAGE = 'Sorry, I still could not read your answer. Please choose one of the buttons below.';

export const DEFAULT_CONFIRMATION_PROMPT = '**Please review the information above.**\n\nIs this correct?';
export const DEFAULT_STOP_MESSAGE = 'Thank you. We cannot continue with this intake based on your answer.';
export const DEFAULT_HANDOFF_MESSAGE = 'Thank you. Your answers have been confirmed and handed off.';
export const DEFAULT_COMPLETED_MESSAGE = 'Thank you. This intake is complete.';
export const DEFAULT_WORKING_MESSAGE = 'One moment…';
export const SKIP_LABEL = 'Skip';

/** An answer as a person reads it: a yes/no with the question's labels, a number with its unit. */
export function formatValue(question: QuestionNode | undefined, value: AnswerValue): string {
  if (typeof value === 'boolean' && question?.answer.type === 'boolean') return value ? booleanLabels(question.answer).trueLabel : booleanLabels(question.answer).falseLabel;
  if (typeof value === 'number' && question?.answer.type === 'number' && question.answer.unit) return `${value} ${question.answer.unit}`;
  return String(value);
}

/** The next question (case 3.4); when editing, what was answered before. */
export function questionMessage(question: QuestionNode, previous: Answer | undefined): string {
  return previous ? `${question.prompt}\n(Your previous answer: ${formatValue(question, previous.value)})` : question.prompt;
}

/** One line naming every answer, in the order the questions were asked. */
export function problemStatement(graph: FlowGraph, answers: Record<string, Answer>): string {
  const parts = graph.questions
    .filter((q) => answers[answerKey(q)] !== undefined)
    .map((q) => `${q.label ?? q.prompt} ${formatValue(q, answers[answerKey(q)]!.value)}`);
  return `${graph.doc.title ?? graph.doc.id}: ${parts.join('; ')}.`;
}

/** The summary shown for confirmation (case 3.3), laid out as in the seed. */
export function summaryMessage(
  graph: FlowGraph,
  node: ConfirmationNode,
  answers: Record<string, Answer>,
): string {
  const lines = ['## Summary of Collected Information', '', `**Problem Statement:** ${problemStatement(graph, answers)}`, '', '**Your Answers:**', ''];
  for (const q of graph.questions) {
    const answer = answers[answerKey(q)];
    if (!answer) continue;
    lines.push(`**${q.prompt}**`, `→ ${formatValue(q, answer.value)} (from: ${JSON.stringify(answer.raw)})`, '');
  }
  lines.push('---', '', node.prompt ?? DEFAULT_CONFIRMATION_PROMPT);
  return lines.join('\n');
}
