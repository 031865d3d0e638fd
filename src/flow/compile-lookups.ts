import type { AnyEventObject } from 'xstate';
import { withoutLikelihoodHedges } from '../extract/guess.js';
import { extractOffline, mayAnswer } from '../extract/offline.js';
import type { ExtractionQuestion } from '../extract/types.js';
import { attemptBudget } from './attempts.js';
import { compileValidators, readTypedAnswer, type ReadAnswer } from './answer.js';
import type { AnswerValue, FlowContext } from './context.js';
import type { FlowGraph } from './graph.js';
import { compileGuard, type CompiledGuard, type GuardScope } from './guards/cel.js';
import { acceptedValues, elsewhereQuestions, offeredQuestions } from './extraction.js';
import { escapeStateKey, placesOf } from './places.js';
import { answerKey, type ActionNode, type EdgeOutcome, type FlowDocument, type QuestionNode } from './schema.js';

/**
 * What a compiled flow's guards and actions read, built once per flow: the
 * node at each place, CEL guards and validators compiled once, the scope
 * guards see, and each turn read once per event (several guards and an action
 * ask about the same event).
 */

/** One group of edges (a node leaving on an outcome), kept for traces. */
export interface Route {
  node: string;
  outcome: EdgeOutcome;
  guards: (string | null)[];
  targets: string[];
}

export type FlowLookups = ReturnType<typeof flowLookups>;

export function flowLookups(doc: FlowDocument, graph: FlowGraph, today: () => Date) {
  const places = placesOf(graph);
  const routes: Route[] = [];
  const celGuards = new Map<string, CompiledGuard>();
  const cel = (expr: string) => {
    let compiled = celGuards.get(expr);
    if (!compiled) celGuards.set(expr, (compiled = compileGuard(expr)));
    return compiled;
  };
  const validators = new Map<QuestionNode, ReturnType<typeof compileValidators>>();
  const validatorsOf = (q: QuestionNode) => {
    let v = validators.get(q);
    if (!v) validators.set(q, (v = compileValidators(q)));
    return v;
  };
  const place = (id: string) => {
    const p = places.get(id);
    if (!p) throw new Error(`flow "${doc.id}" has no node at "${id}"`);
    return p;
  };
  const question = (id: string) => {
    const p = places.get(id);
    if (p?.node.kind === 'question') return p.node;
    // A main-flow node id or an answer key; else a question's node id in a subgraph (its key may differ: `q.size` keyed `size`).
    const q = graph.question(id) ?? graph.questions.find((n) => n.id === id);
    if (!q) throw new Error(`flow "${doc.id}" has no question "${id}"`);
    return q;
  };
  const keyOf = (id: string) => answerKey(question(id));
  // A state target: the machine's id, then each node id on the way with its dots escaped (`#flow.sg\.led.q\.size`).
  const ref = (path: string[], nodeId: string) => `#${[doc.id, ...[...path, nodeId].map(escapeStateKey)].join('.')}`;
  const constraints = doc.constraints ?? [];
  const enforced = constraints.filter((c) => c.fallback !== undefined);

  // ---------------------------------------------------------------- what guards read

  const scopes = new WeakMap<FlowContext, GuardScope>();
  const scopeOf = (context: FlowContext): GuardScope => {
    let scope = scopes.get(context);
    if (scope) return scope;
    const answers = Object.fromEntries(Object.entries(context.answers).map(([k, a]) => [k, a.value]));
    const base = { answers, context: { ...context.host, ...(context.path && { path: context.path }) } };
    const values: Record<string, boolean> = {};
    for (const c of constraints) {
      const oneOf = c.oneOf === undefined || c.oneOf.some((key) => answers[key] !== undefined);
      values[c.name] = oneOf && (c.check === undefined || cel(c.check).evaluate(base));
    }
    scopes.set(context, (scope = { ...base, constraints: values }));
    return scope;
  };

  const pressed = (event: AnyEventObject) => (event.type === 'user.button' ? String(event.value) : null);
  // The offline matcher on a text turn, once per event (guards and actions ask again).
  const matchedByEvent = new WeakMap<AnyEventObject, Map<string, ReturnType<typeof extractOffline>>>();
  const matched = (event: AnyEventObject, at: string) => {
    if (event.type !== 'user.text') return undefined;
    const q = question(at);
    if (q.answer.type !== 'category') return undefined;
    let byPlace = matchedByEvent.get(event);
    if (!byPlace) matchedByEvent.set(event, (byPlace = new Map()));
    let output = byPlace.get(at);
    if (!output) {
      const key = answerKey(q);
      output = extractOffline({
        text: String(event.text),
        key,
        allowModel: false,
        // Later questions too (where a model may read them): words that answer one of them are
        // not an answer to this one. A category's label is one more way of saying it.
        questions: offeredQuestions(graph, at),
        elsewhere: elsewhereQuestions(graph, at),
        // (A date is read into a timing category's window: "the 12th" at "When do you need the sitter?")
        today: today().toISOString().slice(0, 10),
      });
      byPlace.set(at, output);
    }
    return output.values[answerKey(q)];
  };
  /** The category an unread text most likely meant, read again without its hedges of likelihood (extract/guess.ts): only ever offered. */
  const guessed = (text: string, at: string): string | undefined => {
    const rest = withoutLikelihoodHedges(text);
    if (rest === undefined) return undefined;
    const found = matched({ type: 'user.text', text: rest }, at);
    return found === undefined ? undefined : String(found.value);
  };
  // A typed answer read and validated once per event.
  const typedByEvent = new WeakMap<AnyEventObject, Map<string, ReadAnswer>>();
  const typed = (context: FlowContext, event: AnyEventObject, at: string): ReadAnswer | undefined => {
    if (event.type !== 'user.text' && event.type !== 'user.button') return undefined;
    let byPlace = typedByEvent.get(event);
    if (!byPlace) typedByEvent.set(event, (byPlace = new Map()));
    let read = byPlace.get(at);
    if (!read) {
      const q = question(at);
      const turn = event.type === 'user.button' ? { button: String(event.value) } : { text: String(event.text) };
      read = readTypedAnswer(q, turn, scopeOf(context), validatorsOf(q), today());
      byPlace.set(at, read);
    }
    return read;
  };
  // Several guards and an action read the same extraction result: check it once per event.
  const acceptedByEvent = new WeakMap<AnyEventObject, ReturnType<typeof acceptedValues>>();
  const accepted = (context: FlowContext, at: string, event: AnyEventObject) => {
    let values = acceptedByEvent.get(event);
    if (!values) acceptedByEvent.set(event, (values = acceptedValues(graph, at, context, event)));
    return values;
  };
  /** The failed answers a question or path node allows (its own, the flow's, or the default budget: see attempts.ts). */
  const maxAttemptsOf = (at: string): number => {
    const node = place(at).node;
    if (node.kind !== 'question' && node.kind !== 'path') throw new Error(`"${at}" of flow "${doc.id}" is not a question or path node`);
    return attemptBudget(doc, node);
  };
  /** This failure is the last one the budget allows. */
  const isLastAttempt = (context: FlowContext, at: string) => (context.attempts[at] ?? 0) + 1 >= maxAttemptsOf(at);
  const withoutAttempt = (context: FlowContext, at: string) => {
    const { [at]: _, ...rest } = context.attempts;
    return rest;
  };
  const actionOutput = (node: ActionNode, output: unknown): Record<string, AnswerValue> | string => {
    const values: Record<string, AnswerValue> = {};
    for (const [key, field] of Object.entries(node.assign ?? {})) {
      let value: unknown = output;
      for (const part of field === '' ? [] : field.split('.')) value = (value as Record<string, unknown> | null | undefined)?.[part];
      if (typeof value !== 'string' && typeof value !== 'boolean' && !(typeof value === 'number' && Number.isFinite(value)))
        return `the output of "${node.actor}" has no text, number or yes/no at "${field}" for answers.${key}`;
      values[key] = value;
    }
    return values;
  };

  /** A text read as an answer to `q`, as the question reads it when it asks (offline; with its validators): the value, or undefined. */
  const readAs = (q: QuestionNode, text: string, context: FlowContext): AnswerValue | undefined => {
    const event = { type: 'user.text', text };
    if (q.answer.type === 'category') return matched(event, q.id)?.value;
    const read = typed(context, event, q.id);
    return read?.kind === 'valid' ? read.value : undefined;
  };

  // The category questions a summary reads a correction against, as the offline reader takes them: one list per set of questions (its index is built once).
  const readLists = new Map<string, { questions: ExtractionQuestion[]; nodes: QuestionNode[] }>();
  /**
   * Of `questions`, those a text may give a value (read as {@link readAs} reads it): every typed
   * question, and the category questions whose words the text holds, found with one look-up of
   * the text's words, so that a message is not read in full against every question.
   */
  const mayRead = (questions: readonly QuestionNode[], text: string): Set<QuestionNode> => {
    const id = questions.map((q) => q.id).join('\u0000');
    let list = readLists.get(id);
    if (!list) {
      const nodes = questions.filter((q) => q.answer.type === 'category');
      const gates = nodes.map((q) => offeredQuestions(graph, q.id).find((g) => g.key === answerKey(q))!);
      // A bounded few: one per confirmation node (and set of answered questions) of this flow.
      if (readLists.size >= 256) readLists.clear();
      readLists.set(id, (list = { questions: gates, nodes }));
    }
    const found = mayAnswer(list.questions, text);
    const readable = new Set(questions.filter((q) => q.answer.type !== 'category'));
    list.questions.forEach((g, i) => found.has(g) && readable.add(list.nodes[i]!));
    return readable;
  };

  return {
    places,
    routes,
    cel,
    validatorsOf,
    place,
    question,
    keyOf,
    ref,
    constraints,
    enforced,
    scopeOf,
    pressed,
    matched,
    guessed,
    typed,
    accepted,
    maxAttemptsOf,
    isLastAttempt,
    withoutAttempt,
    actionOutput,
    readAs,
    mayRead,
  };
}
