import type { AnswerValue, Answer } from './context.js';
import type { FlowGraph } from './graph.js';
import { categoryLabel } from './fields.js';
import { answerKey, booleanLabels, type ConfirmationNode, type QuestionNode } from './schema.js';

/** The seed's message when a turn could not be understood (case 3.1). */
export const NOT_UNDERSTOOD_MESSAGE =
  "I'm having trouble understanding your response. Could you please rephrase or select one of the options?";

/**
 * What a question with answer buttons says once its failed answers used up
 * its budget (`maxAttempts`): only the buttons answer now; its prompt follows.
 */
/**
 * What a question says when the model that reads free text is down, slow or
 * answered nonsense: the program's failure, said plainly, with the buttons.
 */
export const MODEL_UNAVAILABLE_MESSAGE =
  "Sorry, I can't read typed answers right now. Please choose one of the buttons below, or try typing again later.";

export const BUTTONS_ONLY_MESSAGE = 'Sorry, I still could not read your answer. Please choose one of the buttons below.';

export const DEFAULT_CONFIRMATION_PROMPT = '**Please review the information above.**\n\nIs this correct?';
/*
 * What an end says when its terminal (or the question that stopped the flow)
 * has no message of its own. An author should say what happened in the
 * flow's words ("Your booking request is in"); these say only what is true
 * of any flow, and never call it an intake.
 */
export const DEFAULT_STOP_MESSAGE = 'Thank you. We cannot go further based on that answer, so this conversation ends here.';
export const DEFAULT_HANDOFF_MESSAGE = 'Thank you. Your answers have been passed on to a person, who will take it from here.';
/** The handoff's default, agreeing with how many answers there are ("Your answer has", "Your answers have"). */
export function defaultHandoffMessage(answerCount: number): string {
  return answerCount === 1 ? 'Thank you. Your answer has been passed on to a person, who will take it from here.' : DEFAULT_HANDOFF_MESSAGE;
}
export const DEFAULT_COMPLETED_MESSAGE = 'Thank you. That is everything we needed.';
export const DEFAULT_WORKING_MESSAGE = 'One moment…';
export const SKIP_LABEL = 'Skip';

/** The buttons of the check before a limiting value read from free text stops the flow (issue 26 §2). */
export const STOP_CHECK_YES_LABEL = 'Yes';
export const STOP_CHECK_NO_LABEL = "No, that's wrong";
/** "Just to check: ..." before a limiting value read from free text ends the conversation. */
export function stopCheckMessage(question: QuestionNode, answer: Answer): string {
  const asked = (question.label ?? question.prompt).replace(/[\s:]+$/, '');
  return `Just to check: your answer to "${asked}" is **${escapeMarkdown(formatValue(question, answer.value))}**? Then we cannot continue.`;
}
/** A hedged answer the reader did not take ("probably twice a week"): what it most likely meant, to press. */
export function guessMessage(question: QuestionNode, value: AnswerValue): string {
  return `Did you mean **${escapeMarkdown(formatValue(question, value))}**? If so, please press it below; or answer in other words.`;
}
/** At the summary, a message that is neither a confirmation nor a correction that can be read. */
export function notUnderstoodAtSummary(editLabel: string): string {
  return `I'm not sure what to change. Please confirm, or tell me which answer to change and its new value (for example "make it 14"), or press ${editLabel}.`;
}
/**
 * What a correction at the summary changed: "Changed: Guests: 60 → 80; Catering: Yes please → (no longer asked)."
 * Empty when nothing changed.
 */
export function changedText(graph: FlowGraph, changed: ReadonlyArray<{ key: string; from: AnswerValue | null; dropped?: boolean | undefined }>, answers: Record<string, Answer>): string {
  const items = changed.flatMap(({ key, from, dropped }) => {
    const q = graph.question(key);
    const now = answers[key];
    if (!q || (!dropped && !now)) return [];
    const name = (q.label ?? q.prompt).replace(/[\s:?]+$/, '');
    const to = dropped || !now ? '(no longer asked)' : escapeMarkdown(formatValue(q, now.value));
    return [`${name}: ${from === null ? `(${NOT_ANSWERED})` : escapeMarkdown(formatValue(q, from))} → ${to}`];
  });
  return items.length === 0 ? '' : `Changed: ${items.join('; ')}.`;
}

/** Asked after "edit": one button per answer follows. */
export const WHICH_ANSWER_MESSAGE = 'Which answer do you want to change?';
export const BACK_TO_SUMMARY_LABEL = 'Back to the summary';

/** The "Keep" button of a question asked again: it names the value kept. */
export function keepLabel(question: QuestionNode, previous: Answer): string {
  return `Keep: ${formatValue(question, previous.value)}`;
}

/** A button naming an answer (at "which answer do you want to change?"): its label (or prompt) and its value. */
export function answerButtonLabel(question: QuestionNode, answer: Answer | undefined): string {
  const name = (question.label ?? question.prompt).replace(/[\s:?]+$/, '');
  return `${name}: ${answer ? formatValue(question, answer.value) : NOT_ANSWERED}`;
}

/** A skipped optional question, as the summary lists it and offers it to answer. */
export const NOT_ANSWERED = 'not answered';

/** Text a person wrote, made safe to put into a Markdown message inline: the marks that format or link are backslash-escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]#<>~|]/g, (c) => `\\${c}`);
}

/** An answer as a person reads it: a category's label, a yes/no with the question's labels, a number with its unit. */
export function formatValue(question: QuestionNode | undefined, value: AnswerValue): string {
  if (typeof value === 'string' && question?.answer.type === 'category') return categoryLabel(question.answer, value);
  if (typeof value === 'boolean' && question?.answer.type === 'boolean') return value ? booleanLabels(question.answer).trueLabel : booleanLabels(question.answer).falseLabel;
  if (typeof value === 'number' && question?.answer.type === 'number' && question.answer.unit) return `${value} ${value === 1 ? singularUnit(question.answer.unit) : question.answer.unit}`;
  return String(value);
}

/** A unit for one ("1 adult", "1 day", "1 person"): an English plural in lower case loses its ending; "EUR", "km" stay. */
function singularUnit(unit: string): string {
  const irregular: Readonly<Record<string, string>> = { people: 'person', children: 'child' };
  if (Object.hasOwn(irregular, unit)) return irregular[unit]!;
  return /^[a-z]{2,}[^s]s$/u.test(unit) ? unit.slice(0, -1) : unit;
}

/** The next question (case 3.4); when editing, what was answered before. */
export function questionMessage(question: QuestionNode, previous: Answer | undefined): string {
  return previous ? `${question.prompt}\n(Your previous answer: ${escapeMarkdown(formatValue(question, previous.value))})` : question.prompt;
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
  skipped: readonly string[] = [],
): string {
  const given = graph.questions.filter((q) => answers[answerKey(q)]).length;
  const heading = given === 1 ? '**Your Answer:**' : '**Your Answers:**';
  const lines = ['## Summary of Collected Information', '', `**Problem Statement:** ${escapeMarkdown(problemStatement(graph, answers))}`, '', heading, ''];
  for (const q of graph.questions) {
    const answer = answers[answerKey(q)];
    // A skipped optional question the person may still answer here.
    if (!answer && skipped.includes(answerKey(q))) lines.push(`**${q.prompt}**`, `→ (${NOT_ANSWERED})`, '');
    if (!answer) continue;
    // A button pressed is quoted as it read (its label), not as the value it sent.
    const said = answer.source === 'button' ? formatValue(q, answer.raw) : answer.raw;
    // What the person typed is shown as typed: Markdown in it is escaped, never rendered.
    lines.push(`**${q.prompt}**`, `→ ${escapeMarkdown(formatValue(q, answer.value))} (from: ${escapeMarkdown(JSON.stringify(said))})`, '');
  }
  lines.push('---', '', node.prompt ?? DEFAULT_CONFIRMATION_PROMPT);
  return lines.join('\n');
}
