import type { AnyEventObject } from 'xstate';
import { extractOffline } from '../extract/offline.js';
import { attemptBudget } from './attempts.js';
import { compileValidators, readTypedAnswer, type ReadAnswer } from './answer.js';
import type { AnswerValue, FlowContext } from './context.js';
import type { FlowGraph } from './graph.js';
import { compileGuard, type CompiledGuard, type GuardScope } from './guards/cel.js';
import { acceptedValues, placesOf } from './places.js';
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
    const q = graph.question(id);
    if (!q) throw new Error(`flow "${doc.id}" has no question "${id}"`);
    return q;
  };
  const keyOf = (id: string) => answerKey(question(id));
  const ref = (path: string[], nodeId: string) => `#${[doc.id, ...path, nodeId].join('.')}`;
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
  const matched = (event: AnyEventObject, gate: string) => {
    if (event.type !== 'user.text') return undefined;
    const q = question(gate);
    if (q.answer.type !== 'category') return undefined;
    let byGate = matchedByEvent.get(event);
    if (!byGate) matchedByEvent.set(event, (byGate = new Map()));
    let output = byGate.get(gate);
    if (!output) {
      const key = answerKey(q);
      output = extractOffline({
        text: String(event.text),
        gate: key,
        allowModel: false,
        gates: [{ key, prompt: q.prompt, categories: q.answer.categories, ...(q.answer.synonyms && { synonyms: q.answer.synonyms }) }],
      });
      byGate.set(gate, output);
    }
    return output.values[answerKey(q)];
  };
  // A typed answer read and validated once per event.
  const typedByEvent = new WeakMap<AnyEventObject, Map<string, ReadAnswer>>();
  const typed = (context: FlowContext, event: AnyEventObject, gate: string): ReadAnswer | undefined => {
    if (event.type !== 'user.text' && event.type !== 'user.button') return undefined;
    let byGate = typedByEvent.get(event);
    if (!byGate) typedByEvent.set(event, (byGate = new Map()));
    let read = byGate.get(gate);
    if (!read) {
      const q = question(gate);
      const turn = event.type === 'user.button' ? { button: String(event.value) } : { text: String(event.text) };
      read = readTypedAnswer(q, turn, scopeOf(context), validatorsOf(q), today());
      byGate.set(gate, read);
    }
    return read;
  };
  // Several guards and an action read the same extraction result: check it once per event.
  const acceptedByEvent = new WeakMap<AnyEventObject, ReturnType<typeof acceptedValues>>();
  const accepted = (context: FlowContext, gate: string, event: AnyEventObject) => {
    let values = acceptedByEvent.get(event);
    if (!values) acceptedByEvent.set(event, (values = acceptedValues(graph, gate, context, event)));
    return values;
  };
  /** The failed answers a question or path node allows (its own, the flow's, or the default budget: see attempts.ts). */
  const maxAttemptsOf = (gate: string): number => {
    const node = place(gate).node;
    if (node.kind !== 'question' && node.kind !== 'path') throw new Error(`"${gate}" of flow "${doc.id}" is not a question or path node`);
    return attemptBudget(doc, node);
  };
  /** This failure is the last one the budget allows. */
  const outOfAttempts = (context: FlowContext, gate: string) => (context.attempts[gate] ?? 0) + 1 >= maxAttemptsOf(gate);
  const withoutAttempt = (context: FlowContext, gate: string) => {
    const { [gate]: _, ...rest } = context.attempts;
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
    typed,
    accepted,
    maxAttemptsOf,
    outOfAttempts,
    withoutAttempt,
    actionOutput,
  };
}
