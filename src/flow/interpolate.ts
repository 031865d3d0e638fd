import type { AnswerValue, Answer } from './context.js';
import type { FlowGraph } from './graph.js';
import { escapeMarkdown, formatValue } from './messages.js';
import { kindOf } from './nodes/index.js';
import type { FlowDocument, FlowNode } from './schema.js';
import type { FlowIssue } from './check.js';
import { didYouMean } from '../extract/suggest.js';

/**
 * Answers in an author's wording: `{answers.<key>}` in a node's `prompt`,
 * `message` or `stopMessage`, a validator's or a constraint's `message`, is
 * replaced, when the reply is built, by that
 * answer as a person reads it (a category's label, a number with its unit,
 * a yes/no with the question's labels): "Your quote of {answers.quote_total}
 * EUR is on its way to {answers.quote_email}."
 *
 * Safe by construction: only the exact form `{answers.<key>}` is replaced,
 * in one pass (a value that itself contains a placeholder is not expanded
 * again); a value is shown as plain text (on one line, Markdown characters
 * escaped, so "**x**" typed by a person is not made bold); an answer not
 * given (yet) is left out. A key that no question, action or input gives is
 * an error when the flow is checked ({@link checkPlaceholders}).
 */

/** The fields whose text is filled in. */
export const FILLED_FIELDS = ['prompt', 'message', 'stopMessage'] as const;

const PLACEHOLDER = /\{answers\.([A-Za-z_][A-Za-z0-9_]*)\}/g;
/** What an author may have meant as a placeholder but wrote otherwise: `{answer.x}`, `{ answers.x }`, `{answers.}`. */
const LOOKS_LIKE_PLACEHOLDER = /\{\s*answers?\s*\.[^{}]*\}/g;

/** `text` with each `{answers.<key>}` replaced by `show(key)`, in one pass. */
export function fillPlaceholders(text: string, show: (key: string) => string): string {
  return text.includes('{answers.') ? text.replace(PLACEHOLDER, (_match, key: string) => show(key)) : text;
}

/**
 * A value as plain text inside a Markdown message: on one line, with the
 * marks that format or link escaped with a backslash, as the summary shows
 * what a person typed (messages.ts `escapeMarkdown`).
 */
export function plainText(value: string): string {
  return escapeMarkdown(value.replace(/\s+/g, ' '));
}

/** The filler of one reply: the flow's answers, formatted as the summary shows them. */
export function answerFiller(graph: FlowGraph, answers: Readonly<Record<string, Answer>>): (text: string) => string {
  const show = (key: string) => {
    const answer = answers[key];
    return answer === undefined ? '' : plainText(formatAnswer(graph, key, answer.value));
  };
  return (text) => fillPlaceholders(text, show);
}

const formatAnswer = (graph: FlowGraph, key: string, value: AnswerValue) => formatValue(graph.question(key), value);

/** A node with its author's texts filled in (the same node when it has no placeholder). */
export function withAnswersFilled<N extends FlowNode>(node: N, fill: (text: string) => string): N {
  let copy: N | undefined;
  for (const field of FILLED_FIELDS) {
    const text = (node as Record<string, unknown>)[field];
    if (typeof text !== 'string') continue;
    const filled = fill(text);
    if (filled !== text) (copy ??= { ...node })[field as keyof N] = filled as N[keyof N];
  }
  return copy ?? node;
}

/**
 * Placeholders that name no answer: every `{answers.<key>}` must name a key
 * a question, an action (`assign`) or the flow's `inputs` gives; and a text
 * that looks like a placeholder but is not one (`{answer.x}`) is reported,
 * since it would be shown as written.
 */
export function checkPlaceholders(doc: FlowDocument): FlowIssue[] {
  const scopes = [
    { at: [] as (string | number)[], nodes: doc.nodes },
    ...Object.entries(doc.subgraphs ?? {}).map(([ref, sub]) => ({ at: ['subgraphs', ref] as (string | number)[], nodes: sub.nodes })),
  ];
  const known = new Set<string>(Object.keys((doc as { inputs?: Record<string, unknown> }).inputs ?? {}));
  for (const { nodes } of scopes) for (const node of nodes) for (const key of kindOf(node).answerKeys?.(node) ?? []) known.add(key);
  const issues: FlowIssue[] = [];
  const check = (path: (string | number)[], text: unknown, node: string | undefined) => {
    if (typeof text !== 'string') return;
    const extra = node === undefined ? {} : { node };
    for (const match of text.matchAll(PLACEHOLDER))
      if (!known.has(match[1]!))
        issues.push({ path, message: `${match[0]} at character ${match.index}: no question, action or input gives "${match[1]}"${didYouMean(match[1]!, known)}`, ...extra });
    for (const match of text.matchAll(LOOKS_LIKE_PLACEHOLDER))
      if (!WHOLE_PLACEHOLDER.test(match[0]))
        issues.push({
          path,
          message: `${match[0]} at character ${match.index} is shown as written: an answer is written {answers.<key>}, such as {answers.${[...known][0] ?? 'name'}}`,
          ...extra,
        });
  };
  for (const { at, nodes } of scopes)
    nodes.forEach((node, i) => {
      for (const field of FILLED_FIELDS) check([...at, 'nodes', i, field], (node as Record<string, unknown>)[field], node.id);
      if (node.kind === 'question') node.validators?.forEach((v, j) => check([...at, 'nodes', i, 'validators', j, 'message'], v.message, node.id));
    });
  doc.constraints?.forEach((c, i) => check(['constraints', i, 'message'], c.message, undefined));
  return issues;
}

const WHOLE_PLACEHOLDER = new RegExp(`^${PLACEHOLDER.source}$`);
