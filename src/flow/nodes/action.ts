import { fromPromise, type AnyActorLogic } from 'xstate';
import { z } from 'zod';
import type { AnswerValue } from '../context.js';
import { AnswerKeySchema, nodeFields, text } from '../fields.js';
import type { NodeKind } from './kind.js';
import { BUSY_TAG, flowEnqueue, working } from './shared.js';
import { aroundEach, numbersOf, stringsOf, type ActionDoneEvent, type ActionErrorEvent, type FlowTestEvent } from './test-events.js';

/**
 * Runs a named actor the host provides (an HTTP call, a tool, a lookup). Its
 * output's fields are stored as answers by `assign`; a failure takes the
 * `error` edge.
 */
export const ActionNodeSchema = z.strictObject({
  kind: z.literal('action').describe('"action": runs an actor the host registered; leaves on `done` or `error`.'),
  ...nodeFields,
  /** The actor's name in the registry given to `compileFlow(doc, { actors })`. */
  actor: AnswerKeySchema.meta({ description: 'The name the host registered the actor under (compileFlow(doc, { actors })).', examples: ['priceLookup'] }),
  /** Fixed input for the actor, passed beside the answers. */
  params: z.record(z.string(), z.json()).describe('Fixed input for the actor, passed beside the answers.').optional(),
  /** Answer key → field of the actor's output (dotted path; `""` for the whole output). */
  assign: z
    .record(AnswerKeySchema, z.string())
    .meta({ description: 'Answers to store from the actor\'s output: answer key → field of the output (a dotted path; "" for the whole output).', examples: [{ quote_total: 'total' }] })
    .optional(),
  /** The message shown while the action runs. */
  message: text.describe('The message shown while the action runs.').optional(),
});

export type ActionNode = z.infer<typeof ActionNodeSchema>;

/** What an action node's actor is given. */
export interface ActionInput {
  /** The node's place in the flow (see `FlowTraceEvent`). */
  node: string;
  actor: string;
  params: Record<string, unknown>;
  /** The answers so far, as plain values by key. */
  answers: Record<string, AnswerValue>;
  context: Record<string, unknown>;
}

/** An action node's actor when the host gave none under its name: it fails, and the `error` edge is taken. */
export const missingActionActor = (name: string) =>
  fromPromise<unknown, ActionInput>(async () => {
    throw new Error(`no actor named "${name}" was provided (compileFlow(doc, { actors: { ${name} } }))`);
  });

/**
 * An action: invokes its actor (state `running`, tagged busy), stores the
 * output's assigned fields as answers and leaves on `done`, or on `error`
 * when the actor fails or its output lacks a field.
 */
export const action: NodeKind<typeof ActionNodeSchema> = {
  kind: 'action',
  schema: ActionNodeSchema,
  outcomes: ['done', 'error'],
  checkEdges(_node, c) {
    c.need('done', 'to continue on');
    c.need('error', 'to follow when it fails');
  },
  // Its result is an event, so a loop through it cannot hang the actor; it may still run forever.
  silence: () => 'silent',
  answerKeys: (node) => Object.keys(node.assign ?? {}),

  /** The host's actors, and a failing stand-in for any name it did not give. */
  actors({ doc, givenActors }) {
    const names = new Set<string>();
    const visit = (nodes: { kind: string; actor?: string }[]) => nodes.forEach((n) => n.kind === 'action' && names.add(n.actor!));
    visit(doc.nodes);
    for (const sub of Object.values(doc.subgraphs ?? {})) visit(sub.nodes);
    const actors: Record<string, AnyActorLogic> = {};
    for (const name of names) actors[name] = givenActors[name] ?? missingActionActor(name);
    return actors;
  },

  guards: ({ lookups: { place, actionOutput } }) => ({
    /** The action's output has every field its `assign` names. */
    outputUsable: ({ event }, params: { node: string }) =>
      typeof actionOutput(place(params.node).node as ActionNode, (event as { output?: unknown }).output) !== 'string',
  }),

  actions: ({ lookups: { place, actionOutput } }) => ({
    assignOutput: flowEnqueue(({ context, event, enqueue }, params: { node: string }) => {
      const node = place(params.node).node as ActionNode;
      const values = actionOutput(node, (event as { output?: unknown }).output);
      if (typeof values === 'string') return;
      const answers = { ...context.answers };
      for (const [key, value] of Object.entries(values)) answers[key] = { value, confidence: 1, source: 'action', raw: node.actor };
      enqueue.assign({ answers, actionError: null });
      enqueue.emit({ type: 'action.done', node: params.node, actor: node.actor, assigned: Object.keys(values) });
    }),
    recordActionError: flowEnqueue(({ event, enqueue }, params: { node: string }) => {
      const node = place(params.node).node as ActionNode;
      const e = event as { error?: unknown; output?: unknown };
      const message =
        'error' in e
          ? e.error instanceof Error
            ? e.error.message
            : String(e.error)
          : (actionOutput(node, e.output) as string);
      enqueue.assign({ actionError: { node: params.node, message } });
      enqueue.emit({ type: 'action.failed', node: params.node, actor: node.actor, message });
    }),
  }),

  state(p, c) {
    const { go } = c;
    const a = p.node;
    const params = { node: p.id };
    return {
      ...c.traced(p),
      initial: 'running',
      states: {
        running: {
          tags: [BUSY_TAG],
          invoke: {
            id: `action.${p.id}`,
            src: a.actor,
            input: ({ context }): ActionInput => {
              const scope = c.lookups.scopeOf(context);
              return { node: p.id, actor: a.actor, params: a.params ?? {}, answers: scope.answers as Record<string, AnswerValue>, context: { ...context.host } };
            },
            onDone: [
              go(p, 'done', { type: 'outputUsable', params }, [{ type: 'assignOutput', params }]),
              go(p, 'error', undefined, [{ type: 'recordActionError', params }]),
            ],
            onError: go(p, 'error', undefined, [{ type: 'recordActionError', params }]),
          },
        },
        ...c.routingChildren(p, ['done', 'error']),
      },
    };
  },

  // Actions are waited for: a reply from one is only seen while it runs (or on a timeout).
  reply: (node, r) => working(node.message || r.messages.DEFAULT_WORKING_MESSAGE),
  // Anything in flight is asked again.
  resume: (node) => ({ [node.id]: 'running' }),

  /** A running action: each usable output, one missing a field, and a failure. */
  testEvents(node, t) {
    const id = `action.${t.place}`;
    const { usable, missing } = actionOutputs(node, t);
    return [
      ...usable.map((output): FlowTestEvent => ({ type: `xstate.done.actor.${id}` as ActionDoneEvent['type'], output })),
      ...(missing !== undefined ? [{ type: `xstate.done.actor.${id}` as ActionDoneEvent['type'], output: missing }] : []),
      { type: `xstate.error.actor.${id}` as ActionErrorEvent['type'], error: `${node.actor} failed` },
    ];
  },
};

/** Sets a dotted field (`""` is the whole output) of an action output. */
function withField(output: unknown, field: string, value: unknown): unknown {
  if (field === '') return value;
  const root = (typeof output === 'object' && output !== null ? output : {}) as Record<string, unknown>;
  const [head, ...rest] = field.split('.') as [string, ...string[]];
  return { ...root, [head]: rest.length === 0 ? value : withField(root[head], rest.join('.'), value) };
}

/**
 * Outputs for an action with every `assign` field: one per step of a sweep
 * through each field's candidate values (0, and around each literal the flow
 * compares the answer with), so guards reading them go both ways; then the
 * caller's. The field's value stays a number or a string, what assign takes.
 */
function actionOutputs(
  node: ActionNode,
  t: { literals(key: string): readonly (number | string)[] | undefined; options: { actionOutputs?: Record<string, unknown[]> } },
): { usable: unknown[]; missing: unknown | undefined } {
  const fields = Object.entries(node.assign ?? {});
  const candidates = fields.map(([key]) => {
    const literals = t.literals(key);
    const numbers = [...new Set([0, ...aroundEach(numbersOf(literals))])].sort((a, b) => a - b);
    return [...numbers, ...stringsOf(literals)];
  });
  const sweep = Math.max(1, ...candidates.map((c) => c.length));
  const usable: unknown[] = [];
  for (let i = 0; i < sweep; i++)
    usable.push(fields.reduce<unknown>((out, [, field], f) => withField(out, field, candidates[f]![Math.min(i, candidates[f]!.length - 1)]), {}));
  // Without its first field the output is not usable: the `error` outcome, not an exception.
  const missing = fields.length === 0 ? undefined : fields.slice(1).reduce<unknown>((out, [, field]) => withField(out, field, 0), {});
  return { usable: [...usable, ...(t.options.actionOutputs?.[node.actor] ?? [])], missing };
}
