import { and } from 'xstate';
import { z } from 'zod';
import { coerceInput } from '../../inputs/coerce.js';
import { waitsFor } from '../../inputs/declared.js';
import { roleInWords } from '../../inputs/role-words.js';
import type { InputAnsweredEvent } from '../../inputs/events.js';
import {
  BooleanInputSchema,
  DateInputSchema,
  DurationSchema,
  EmailInputSchema,
  EnumInputSchema,
  InputOptionSchema,
  IntegerInputSchema,
  InputRoleSchema,
  JsonInputSchema,
  NumberInputSchema,
  StringInputSchema,
  inputOptions,
  type InputSpec,
} from '../../inputs/spec.js';
import type { IssuePath } from '../check.js';
import { AnswerValueSchema, type AnswerValue } from '../context.js';
import { DEFAULT_MAX_LENGTH, answerKey, nodeFields, text } from '../fields.js';
import type { FlowDocument, FlowNode } from '../schema.js';
import type { CompileContext, FlowActions, FlowGuards, NodeCheckContext, NodeKind, StateConfig, TestEventInput } from './kind.js';
import { flowEnqueue } from './shared.js';
import { aroundEach, numbersOf, patternSample, stringsOf, type FlowTestEvent } from './test-events.js';

/**
 * Waits for typed values someone gives from outside the chat: a manager's
 * approval in the middle of a customer's flow. The compiled state declares
 * its inputs in `meta.inputs` (the machine contract of src/inputs); the
 * runtime opens one gate per input when the state is entered, coerces and
 * validates each value, and sends `input.answered` (each on its own, in any
 * order) or `input.timedOut`. The values land in `answers` under the input
 * names; the node leaves on `done` once the last one is answered, on
 * `timeout` when a deadline passes with no answer and no default.
 *
 * Nothing runs on entering it but the trace: a snapshot restored while it
 * waits does not open anything again (XState does not run `entry` on
 * restore, and the runtime opens gates from the state's meta).
 */

/** The input types a flow takes: a flow's answers are text, numbers and yes/no (AnswerValue), never JSON objects. */
const FLOW_INPUT_TYPES = ['boolean', 'number', 'integer', 'string', 'enum', 'date', 'email'] as const;

/*
 * The input specs of src/inputs/spec.ts (their rules, unchanged), each field
 * described for the flow document's JSON Schema: what an author reads in an
 * editor. (json stays in the union so that the checker can say why a flow
 * cannot take it.)
 */
const DEFAULT_WORDS = 'The value taken when the deadline passes with no answer (then the node does not time out on this input).';
const FlowInputSpecSchema = z.discriminatedUnion('type', [
  BooleanInputSchema.extend({
    type: BooleanInputSchema.shape.type.describe('"boolean": yes or no; stored as true or false.'),
    trueLabel: BooleanInputSchema.shape.trueLabel.describe('The word for true (a button of the form); "Yes" when absent.'),
    falseLabel: BooleanInputSchema.shape.falseLabel.describe('The word for false; "No" when absent.'),
    default: BooleanInputSchema.shape.default.describe(DEFAULT_WORDS),
  }),
  NumberInputSchema.extend({
    type: NumberInputSchema.shape.type.describe('"number": a number ("42", "42.5").'),
    min: NumberInputSchema.shape.min.describe('The smallest number allowed.'),
    max: NumberInputSchema.shape.max.describe('The largest number allowed.'),
    unit: NumberInputSchema.shape.unit.describe('The unit the number is in ("EUR"), which may be written after it.'),
    default: NumberInputSchema.shape.default.describe(DEFAULT_WORDS),
  }),
  IntegerInputSchema.extend({
    type: IntegerInputSchema.shape.type.describe('"integer": a whole number.'),
    min: IntegerInputSchema.shape.min.describe('The smallest number allowed.'),
    max: IntegerInputSchema.shape.max.describe('The largest number allowed.'),
    default: IntegerInputSchema.shape.default.describe(DEFAULT_WORDS),
  }),
  StringInputSchema.extend({
    type: StringInputSchema.shape.type.describe('"string": text.'),
    minLength: StringInputSchema.shape.minLength.describe('The fewest characters allowed.'),
    maxLength: StringInputSchema.shape.maxLength.describe('The most characters allowed (2000 when absent).'),
    pattern: StringInputSchema.shape.pattern.describe('A regular expression the whole text must match.'),
    default: StringInputSchema.shape.default.describe(DEFAULT_WORDS),
  }),
  EnumInputSchema.extend({
    type: EnumInputSchema.shape.type.describe('"enum": one of `options`.'),
    options: z
      .array(
        z.union([
          EnumInputSchema.shape.options.element.options[0],
          InputOptionSchema.extend({
            label: InputOptionSchema.shape.label.describe('What the form shows.'),
            value: InputOptionSchema.shape.value.describe('What is stored, and what guards compare with.'),
          }),
        ]),
      )
      .min(1, 'needs at least one option')
      .describe('The values it may take: strings, or { label, value }.'),
    default: EnumInputSchema.shape.default.describe(DEFAULT_WORDS),
  }),
  DateInputSchema.extend({
    type: DateInputSchema.shape.type.describe('"date": a day, stored as YYYY-MM-DD.'),
    min: DateInputSchema.shape.min.describe('The earliest day allowed: YYYY-MM-DD or "today".'),
    max: DateInputSchema.shape.max.describe('The latest day allowed: YYYY-MM-DD or "today".'),
    default: DateInputSchema.shape.default.describe(DEFAULT_WORDS),
  }),
  EmailInputSchema.extend({
    type: EmailInputSchema.shape.type.describe('"email": an email address.'),
    default: EmailInputSchema.shape.default.describe(DEFAULT_WORDS),
  }),
  JsonInputSchema.extend({
    type: JsonInputSchema.shape.type.describe('"json": for machines written in code only; a flow refuses it (its answers are text, numbers and yes/no).'),
    default: JsonInputSchema.shape.default.describe(DEFAULT_WORDS),
  }),
]);

export const InputNodeSchema = z.strictObject({
  kind: z
    .literal('input')
    .describe('"input": waits for typed values someone gives by id (a manager, another service); leaves on `done` once every input is answered, on `timeout` when a deadline passes.'),
  ...nodeFields,
  /** What the person in the conversation reads while the flow waits; a line saying what it waits for, and from whom, follows. */
  message: text
    .meta({
      description: 'What the person in the conversation reads while the flow waits (a line naming what it waits for follows); may name answers as {answers.<key>}.',
      examples: ['Your refund of {answers.amount} needs a manager\'s approval. We will let you know here as soon as they have decided.'],
    })
    .optional(),
  to: InputRoleSchema.meta({ description: 'The role that answers the inputs that name none (e.g. "manager"); absent: the person in the conversation.', examples: ['manager'] }).optional(),
  deadline: DurationSchema.meta({
    description: 'How long the inputs that name none may wait (ISO 8601 duration); then an input takes its default, or the node leaves on `timeout`.',
    examples: ['PT24H'],
  }).optional(),
  inputs: z
    .array(FlowInputSpecSchema)
    .min(1, 'needs at least one input')
    .meta({
      description: `What the node waits for: each input's name is the answer key it sets (guards read answers.<name>). Types: ${FLOW_INPUT_TYPES.join(', ')}.`,
      examples: [[{ name: 'approved', type: 'boolean', description: 'Approve the refund?' }]],
    }),
});

export type InputNode = z.infer<typeof InputNodeSchema>;

// ---------------------------------------------------------------- the inputs as the machine declares them

const declared = new WeakMap<readonly InputSpec[], InputSpec[]>();

/**
 * The node's inputs with its own `to` and `deadline` applied to those that
 * name none: its state's `meta.inputs` (`waitsFor`, the one definition of how
 * they apply). Kept per inputs list (a node with its texts filled shares it).
 */
export function inputsOf(node: Pick<InputNode, 'inputs' | 'to' | 'deadline'>): InputSpec[] {
  let inputs = declared.get(node.inputs);
  if (!inputs) declared.set(node.inputs, (inputs = waitsFor(node.inputs, { ...(node.to && { to: node.to }), ...(node.deadline && { deadline: node.deadline }) }).inputs));
  return inputs;
}

/** An input whose deadline may pass unanswered: it has a deadline (its own or the node's) and no default (a default is taken instead). */
const mayTimeOut = (input: InputSpec, node?: Pick<InputNode, 'deadline'>): boolean =>
  (input.deadline ?? node?.deadline) !== undefined && input.default === undefined;

/** Whether the node can leave on `timeout` (read from the node as written: it is checked before its inputs are). */
export const canTimeOut = (node: Pick<InputNode, 'inputs' | 'deadline'>): boolean => node.inputs.some((i) => mayTimeOut(i, node));

/** A value the input allows, read as the runtime reads it (`coerceInput`), as an answer value; undefined when it allows none. */
function answerValue(input: InputSpec, value: unknown, today: Date): AnswerValue | undefined {
  if (input.type === 'json') return undefined;
  const coerced = coerceInput(input, value, today);
  if (!coerced.ok) return undefined;
  const checked = AnswerValueSchema.safeParse(coerced.value);
  return checked.success ? checked.data : undefined;
}

// ---------------------------------------------------------------- checks

const pointer = (path: IssuePath) => `/${path.join('/')}`;

/** Every answer key the flow gives beside input nodes' inputs, and every input node's inputs, with where each is written. */
function answerKeysOf(doc: FlowDocument): { key: string; path: IssuePath; input: boolean }[] {
  const found: { key: string; path: IssuePath; input: boolean }[] = Object.keys(doc.inputs ?? {}).map((key) => ({ key, path: ['inputs', key], input: false }));
  const scopes: { at: IssuePath; nodes: FlowNode[] }[] = [
    { at: [], nodes: doc.nodes },
    ...Object.entries(doc.subgraphs ?? {}).map(([ref, sub]) => ({ at: ['subgraphs', ref] as IssuePath, nodes: sub.nodes })),
  ];
  for (const { at, nodes } of scopes)
    nodes.forEach((node, i) => {
      const where = [...at, 'nodes', i];
      if (node.kind === 'question') found.push({ key: answerKey(node), path: [...where, node.key !== undefined ? 'key' : 'id'], input: false });
      if (node.kind === 'action') for (const key of Object.keys(node.assign ?? {})) found.push({ key, path: [...where, 'assign', key], input: false });
      if (node.kind === 'input') node.inputs.forEach((input, j) => found.push({ key: input.name, path: [...where, 'inputs', j, 'name'], input: true }));
    });
  return found;
}

/**
 * The rules of an input node's own fields: no JSON inputs (a flow's answers
 * are text, numbers and yes/no), names unique in the flow (they are answer
 * keys: a question, an action, a declared input or another input giving the
 * same key would overwrite it), bounds in order, a pattern that compiles,
 * enum options once each, and a default the input allows.
 */
function checkInputs(node: InputNode, c: NodeCheckContext): void {
  const extra = { node: node.id };
  const others = answerKeysOf(c.doc);
  node.inputs.forEach((input, j) => {
    const at = [...c.at, 'inputs', j];
    if (input.type === 'json') {
      c.add([...at, 'type'], `input "${input.name}" is json: a flow's answers are text, numbers and yes/no, so its inputs are ${FLOW_INPUT_TYPES.join(', ')} (json inputs are for machines written in code)`, extra);
      return;
    }
    // Another key of the same name: beside a question, an action or a declared input, reported at the input;
    // between two inputs, once, at the later one (in document order).
    const mine = others.findIndex((o) => pointer(o.path) === pointer([...at, 'name']));
    const clash = others.find((o, k) => o.key === input.name && k !== mine && (!o.input || k < mine));
    if (clash) c.add([...at, 'name'], `duplicate answer key "${input.name}" (also at ${pointer(clash.path)})`, extra);
    checkBounds(input, at, (path, message) => c.add(path, message, extra));
  });
}

/** An input's own bounds, pattern, options and default. */
function checkBounds(input: Exclude<InputSpec, { type: 'json' }>, at: IssuePath, add: (path: IssuePath, message: string) => void): void {
  if ((input.type === 'number' || input.type === 'integer') && input.min !== undefined && input.max !== undefined && input.min > input.max)
    add([...at, 'min'], `min ${input.min} is more than max ${input.max}`);
  if (input.type === 'date' && input.min !== undefined && input.max !== undefined && input.min !== 'today' && input.max !== 'today' && input.min > input.max)
    add([...at, 'min'], `min ${input.min} is after max ${input.max}`);
  if (input.type === 'string') {
    if (input.pattern !== undefined)
      try {
        new RegExp(input.pattern, 'u');
      } catch (error) {
        add([...at, 'pattern'], `not a regular expression: ${(error as Error).message}`);
      }
    if (input.minLength !== undefined && input.minLength > (input.maxLength ?? DEFAULT_MAX_LENGTH))
      add([...at, 'minLength'], `minLength ${input.minLength} is more than maxLength ${input.maxLength ?? DEFAULT_MAX_LENGTH}`);
  }
  if (input.type === 'enum') {
    const seen = new Set<string>();
    inputOptions(input)!.forEach((o, k) => {
      if (seen.has(String(o.value))) add([...at, 'options', k], `duplicate option "${String(o.value)}"`);
      seen.add(String(o.value));
    });
  }
  // A default is what the input takes at its deadline: a value it allows (a date bounded by "today" is checked when it is taken).
  const relative = input.type === 'date' && (input.min === 'today' || input.max === 'today');
  if (input.default !== undefined && !relative) {
    const coerced = coerceInput(input, input.default);
    if (!coerced.ok) add([...at, 'default'], `the default is not a value this input allows: ${coerced.message}`);
  }
}

/** Where the deadline that may pass is written: on the first input with its own and no default, else on the node. */
function deadlineAt(node: InputNode, at: IssuePath): IssuePath {
  const j = node.inputs.findIndex((i) => i.deadline !== undefined && i.default === undefined);
  return j >= 0 ? [...at, 'inputs', j, 'deadline'] : [...at, 'deadline'];
}

// ---------------------------------------------------------------- the machine

/** The id of the state node of the input node at `place` (what `input.answered` names as `state`). */
const stateIdOf = (doc: FlowDocument, place: string) => `${doc.id}.${place}`;

function inputGuards({ doc, lookups, today }: CompileContext): FlowGuards {
  const nodeAt = (place: string) => lookups.place(place).node as InputNode;
  return {
    /** An answer to one of this node's inputs, with a value it allows (the runtime sends only those; anyone else is not believed). */
    inputAnsweredHere: ({ event }, params: { place: string }) => {
      if (event.type !== 'input.answered' || event.state !== stateIdOf(doc, params.place)) return false;
      const input = inputsOf(nodeAt(params.place)).find((i) => i.name === event.name);
      return input !== undefined && answerValue(input, event.value, today()) !== undefined;
    },
    /** ... and no other input of the state is still open. */
    noInputsRemain: ({ event }) => event.type === 'input.answered' && event.remaining.length === 0,
    /** A deadline of this node passed with no answer and no default. */
    inputTimedOutHere: ({ event }, params: { place: string }) => event.type === 'input.timedOut' && event.state === stateIdOf(doc, params.place),
  };
}

function inputActions({ lookups, today }: CompileContext): FlowActions {
  return {
    /** The value lands in the answers under the input's name (source `input`), traced as any committed answer. */
    commitInput: flowEnqueue(({ context, event, enqueue }, params: { place: string }) => {
      if (event.type !== 'input.answered') return;
      const input = inputsOf(lookups.place(params.place).node as InputNode).find((i) => i.name === event.name);
      const value = input && answerValue(input, event.value, today());
      if (value === undefined) return;
      enqueue.assign({
        answers: { ...context.answers, [event.name]: { value, confidence: 1, source: 'input', raw: JSON.stringify(event.value) } },
        notice: null,
        invalid: null,
      });
      enqueue.emit({ type: 'answer.committed', node: params.place, key: event.name, value, source: 'input' });
    }),
  };
}

/**
 * An input node's state: `waiting` (its meta declares the inputs), where each
 * answer to one of its inputs is stored, and the last one leaves on `done`
 * (through the transient child of a guarded group, so that the guards read
 * it); a timeout leaves on `timeout`. A person's turns change nothing here.
 */
function inputState(p: Parameters<NodeKind<typeof InputNodeSchema>['state']>[0], c: CompileContext): StateConfig {
  const params = { place: p.id };
  const here = { type: 'inputAnsweredHere', params };
  const timesOut = canTimeOut(p.node);
  const traced = c.traced(p);
  return {
    tags: ['input'],
    ...traced,
    meta: { ...traced.meta, inputs: inputsOf(p.node) },
    initial: 'waiting',
    states: {
      waiting: {
        on: {
          'input.answered': [
            c.go(p, 'done', and([here, { type: 'noInputsRemain' }] as never), [{ type: 'commitInput', params }]),
            // Others still open: only a node with several inputs has this step (one input leaves on its answer).
            ...(p.node.inputs.length > 1 ? [{ guard: here, actions: [{ type: 'commitInput', params }] }] : []),
          ],
          ...(timesOut && { 'input.timedOut': c.go(p, 'timeout', { type: 'inputTimedOutHere', params }, []) }),
        },
      },
      ...c.routingChildren(p, ['done', ...(timesOut ? (['timeout'] as const) : [])]),
    },
  };
}

// ---------------------------------------------------------------- reply

/** How an input is named to the person waiting: its description, or its name in words. */
const shownName = (input: InputSpec) => input.description ?? input.name.replace(/_+/g, ' ');

/**
 * What the flow waits for, one line per role: "Waiting for a manager:
 * Approve the refund?, Approved amount." Inputs already answered are left
 * out (every input, should all have answers).
 */
export function waitingLines(inputs: readonly InputSpec[], answered: (name: string) => boolean): string {
  const open = inputs.filter((i) => !answered(i.name));
  const shown = open.length > 0 ? open : inputs;
  const roles = [...new Set(shown.map((i) => i.to ?? null))];
  return roles
    .map((role) => {
      const names = shown.filter((i) => (i.to ?? null) === role).map(shownName).join(', ');
      return `Waiting for ${role === null ? 'your answer' : roleInWords(role)}: ${names}${/[.?!]$/.test(names) ? '' : '.'}`;
    })
    .join('\n');
}

/** The completion of a node that waits for inputs given from outside the conversation. */
export const AWAITING_INPUT = { isComplete: false, reason: 'awaiting_input', readyForHandoff: false } as const;

// ---------------------------------------------------------------- test events

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Values to try for an input: its default; both yes and no; the lower bound
 * (else 0, within bounds) and values around each number a guard compares it
 * with; every option; a day within bounds
 * and around each date a guard names; an address; a text (and each text a
 * guard names). Only those the input allows, read as the runtime reads them.
 */
function sampleValues(input: InputSpec, t: Pick<TestEventInput, 'literals' | 'today' | 'options'>): AnswerValue[] {
  const literals = t.literals(input.name);
  let candidates: unknown[];
  switch (input.type) {
    case 'boolean':
      candidates = [true, false];
      break;
    case 'number':
    case 'integer': {
      const low = input.min ?? (input.max !== undefined ? Math.min(0, input.max) : 0);
      candidates = [low, ...aroundEach(numbersOf(literals))];
      break;
    }
    case 'enum': {
      const values = inputOptions(input)!.map((o) => String(o.value));
      // Every option (an author wrote each, and a guard on one leaves the others to "else").
      candidates = values;
      break;
    }
    case 'date': {
      const bound = (b: string | undefined) => (b === 'today' ? isoDay(t.today) : b);
      const dates = stringsOf(literals).filter((s) => /^\d{4}-\d{2}-\d{2}$/.test(s));
      candidates = [bound(input.min) ?? bound(input.max) ?? isoDay(t.today), ...dates];
      break;
    }
    case 'email':
      candidates = ['person@example.com'];
      break;
    case 'string': {
      const matching = input.pattern !== undefined ? patternSample(input.pattern) : undefined;
      candidates = ['sample', ...(matching !== undefined ? [matching] : []), ...stringsOf(literals)];
      break;
    }
    case 'json':
      return [];
  }
  const all = [...(input.default !== undefined ? [input.default] : []), ...candidates, ...(t.options.samples?.[input.name] ?? [])];
  const values = new Map<string, AnswerValue>();
  for (const raw of all) {
    const value = answerValue(input, raw, t.today);
    if (value !== undefined) values.set(JSON.stringify(value), value);
  }
  return [...values.values()];
}

// ---------------------------------------------------------------- the kind

/**
 * An input node: waits in state `waiting` for its inputs (declared in the
 * state's `meta.inputs`), answered from outside the chat in any order; leaves
 * on `done` once all are answered, on `timeout` when a deadline passes.
 */
export const input: NodeKind<typeof InputNodeSchema> = {
  kind: 'input',
  schema: InputNodeSchema,
  outcomes: ['done', 'timeout'],
  check: checkInputs,
  checkEdges(node, c) {
    c.need('done', 'to continue on once every input is answered');
    const timesOut = canTimeOut(node);
    if (timesOut && !c.has('timeout'))
      c.fail(deadlineAt(node, c.at), `input "${node.id}" has a deadline but no "timeout" edge to follow when it passes with no answer`, { node: node.id });
    if (!timesOut && c.has('timeout'))
      c.fail(c.at, `input "${node.id}" has a "timeout" edge but can never time out: no input has a deadline without a default`, { node: node.id });
  },
  answerKeys: (node) => node.inputs.map((i) => i.name),
  answerTypes: (node) => Object.fromEntries(node.inputs.map((i) => [i.name, i])),

  guards: inputGuards,
  actions: inputActions,
  state: inputState,

  reply: (node, { context }) => {
    const waiting = waitingLines(inputsOf(node), (name) => context.answers[name] !== undefined);
    return {
      message: node.message === undefined ? waiting : `${node.message}\n\n${waiting}`,
      buttons: null,
      buttonContext: null,
      artifacts: [],
      completion: AWAITING_INPUT,
    };
  },
  // Waiting again: what was answered before the snapshot was saved stays answered.
  resume: (node) => ({ [node.id]: 'waiting' }),

  /**
   * An answer to each input not answered yet, with each sample value (the
   * others still open), and a timeout when the node can time out.
   */
  testEvents(node, t) {
    const inputs = inputsOf(node);
    const state = stateIdOf(t.graph.doc, t.place);
    const open = inputs.filter((i) => t.snapshot.context.answers[i.name] === undefined);
    const events: FlowTestEvent[] = open.flatMap((i) =>
      sampleValues(i, t).map(
        (value): InputAnsweredEvent => ({
          type: 'input.answered',
          gateId: `in_test_${i.name}`,
          state,
          name: i.name,
          value,
          by: null,
          remaining: open.filter((o) => o !== i).map((o) => o.name),
        }),
      ),
    );
    const late = open.filter((i) => mayTimeOut(i));
    if (late.length > 0) events.push({ type: 'input.timedOut', state, names: late.map((i) => i.name) });
    return events;
  },
};
