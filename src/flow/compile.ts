import { assign, fromPromise, setup, type AnyEventObject, type DoneStateEvent } from 'xstate';
import { extractOffline } from '../extract/offline.js';
import { classifyConfirmation } from '../extract/match-confirmation.js';
import { ExtractionOutputSchema, type ExtractionInput, type ExtractionOutput } from '../extract/types.js';
import { initialFlowContext, type FlowContext, type FlowEvent, type GateAnswer } from './context.js';
import { findCategory, flowGraph, isLimitingValue, type FlowGraph } from './graph.js';
import { parseFlowValue } from './parse.js';
import type { ConfirmationNode, FlowDocument, QuestionNode, TerminalOutcome } from './schema.js';

/** The invoke id (and actor name) of extraction: `xstate.done.actor.extract`. */
export const EXTRACT_ACTOR_ID = 'extract';
/** Tag of states that wait for an invoked actor; a turn settles when none is active. */
export const BUSY_TAG = 'busy';

/**
 * The default `extract` actor: no model, so nothing to add to what the
 * machine's offline matching already tried. Provide a real one with
 * `createExtractActor({ model })`.
 */
export const noModelExtractActor = fromPromise<ExtractionOutput, ExtractionInput>(async () => ({
  values: {},
  failure: { reason: 'abstained', message: 'no model configured' },
}));

/**
 * The output of a finished flow: how it ended. The answers stay in the
 * snapshot's context (not copied here, so a finished snapshot stays small).
 */
export interface FlowOutput {
  outcome: TerminalOutcome;
  /** The terminal node that ended the flow. */
  terminal: string;
  stoppedBy: string | null;
}

/**
 * Compiles a checked flow document to an XState machine: one state per node,
 * named guards with params, the `extract` actor invoked by name, final states
 * for terminals. Replace the extractor with `machine.provide({ actors: { extract } })`.
 */
export function compileFlow(input: FlowDocument) {
  // Checked again here, so that a document built in code is refused as clearly as a file.
  const doc = parseFlowValue(input, input.id ?? 'flow');
  const graph = flowGraph(doc);
  const ref = (nodeId: string) => `#${doc.id}.${nodeId}`;
  const question = (gate: string) => {
    const q = graph.question(gate);
    if (!q) throw new Error(`flow "${doc.id}" has no question "${gate}"`);
    return q;
  };
  const confirmation = (node: string) => graph.node(node) as ConfirmationNode;
  const pressed = (event: AnyEventObject) => (event.type === 'user.button' ? String(event.value) : null);
  // The offline matcher on a text turn, once per event (guards and actions ask again).
  const matchedByEvent = new WeakMap<AnyEventObject, ReturnType<typeof extractOffline>>();
  const matched = (event: AnyEventObject, gate: string) => {
    if (event.type !== 'user.text') return undefined;
    let output = matchedByEvent.get(event);
    if (!output) {
      const q = question(gate);
      output = extractOffline({
        text: String(event.text),
        gate,
        allowModel: false,
        gates: [{ key: q.id, prompt: q.prompt, categories: q.answer.categories, ...(q.answer.synonyms && { synonyms: q.answer.synonyms }) }],
      });
      matchedByEvent.set(event, output);
    }
    return output.values[gate];
  };
  // Several guards and an action read the same extraction result: check it once per event.
  const acceptedByEvent = new WeakMap<AnyEventObject, ReturnType<typeof acceptedValues>>();
  const accepted = (context: FlowContext, gate: string, event: AnyEventObject) => {
    let values = acceptedByEvent.get(event);
    if (!values) acceptedByEvent.set(event, (values = acceptedValues(graph, gate, context, event)));
    return values;
  };

  const machineSetup = setup({
    types: {
      context: {} as FlowContext,
      events: {} as FlowEvent,
      output: {} as FlowOutput,
    },
    actors: { extract: noModelExtractActor },
    guards: {
      /** The question already has a value (another message answered it early). */
      isAnswered: ({ context }, params: { gate: string }) => context.answers[params.gate] !== undefined,
      buttonIsCategory: ({ event }, params: { gate: string }) => {
        const value = pressed(event);
        return value !== null && findCategory(question(params.gate), value) !== undefined;
      },
      buttonIsLimiting: ({ event }, params: { gate: string }) => {
        const value = pressed(event);
        return value !== null && isLimitingValue(question(params.gate), value);
      },
      /** The offline matcher reads one of the question's categories in the text. */
      textMatches: ({ event }, params: { gate: string }) => matched(event, params.gate) !== undefined,
      /** ... and it is one of the question's limiting values. */
      textIsLimiting: ({ event }, params: { gate: string }) => {
        const found = matched(event, params.gate);
        return found !== undefined && isLimitingValue(question(params.gate), found.value);
      },
      /** Extraction produced no value the flow allows. */
      extractedNothing: ({ context, event }, params: { gate: string }) =>
        Object.keys(accepted(context, params.gate, event)).length === 0,
      /** Extraction gave `limitingGate` one of its limiting values. */
      extractedLimiting: ({ context, event }, params: { gate: string; limitingGate: string }) => {
        const found = accepted(context, params.gate, event)[params.limitingGate];
        return found !== undefined && isLimitingValue(question(params.limitingGate), found.value);
      },
      /** Extraction answered the question being asked. */
      extractedAnswer: ({ context, event }, params: { gate: string }) =>
        accepted(context, params.gate, event)[params.gate] !== undefined,
      buttonIsConfirm: ({ event }, params: { node: string }) => {
        const value = pressed(event);
        return value !== null && buttonMeans(confirmation(params.node), value) === 'confirm';
      },
      buttonIsEdit: ({ event }, params: { node: string }) => {
        const value = pressed(event);
        return value !== null && buttonMeans(confirmation(params.node), value) === 'edit';
      },
      textConfirms: ({ event }, params: { node: string }) =>
        event.type === 'user.text' && classifyConfirmation(event.text, confirmation(params.node)) === 'confirm',
    },
    actions: {
      commitButton: assign(({ context, event }, params: { gate: string }) => {
        const value = findCategory(question(params.gate), pressed(event) ?? '');
        if (value === undefined) return {};
        const answer: GateAnswer = { value, confidence: 1, source: 'button', raw: pressed(event)! };
        return { answers: { ...context.answers, [params.gate]: answer }, notice: null };
      }),
      commitMatched: assign(({ context, event }, params: { gate: string }) => {
        const found = matched(event, params.gate);
        if (!found || event.type !== 'user.text') return {};
        const answer: GateAnswer = { ...found, raw: event.text };
        return { answers: { ...context.answers, [params.gate]: answer }, notice: null };
      }),
      rememberText: assign(({ event }) => ({ pendingText: event.type === 'user.text' ? event.text : null })),
      commitExtracted: assign(({ context, event }, params: { gate: string }) => {
        const raw = context.pendingText ?? '';
        const values = accepted(context, params.gate, event);
        const answers = { ...context.answers };
        for (const [gate, found] of Object.entries(values)) answers[gate] = { ...found, raw };
        return { answers, notice: null, pendingText: null };
      }),
      recordStop: assign((_, params: { gate: string }) => ({ stoppedBy: params.gate })),
      noteNotUnderstood: assign({ notice: 'not_understood' as const, pendingText: null }),
      startEditing: assign(({ context }) => ({
        previousAnswers: { ...context.previousAnswers, ...context.answers },
        answers: {},
        notice: null,
      })),
    },
  });

  type MachineConfig = Parameters<typeof machineSetup.createMachine>[0];
  type StatesConfig = NonNullable<MachineConfig['states']>;

  const questionState = (q: QuestionNode) => {
    const answered = ref(graph.target(q.id, 'answered')!.id);
    const limitingNode = graph.target(q.id, 'limiting');
    // The first question never calls a model (the seed's rule): it has no extracting state.
    const modelAllowed = q.id !== graph.start.id;
    const params = { gate: q.id };
    /** A button or text read directly: a limiting value stops (checked first), a category answers. */
    const directAnswer = <L extends 'buttonIsLimiting' | 'textIsLimiting', M extends 'buttonIsCategory' | 'textMatches', C extends 'commitButton' | 'commitMatched'>(
      isLimiting: L,
      matches: M,
      commit: C,
    ) => [
      ...(limitingNode
        ? [
            {
              guard: { type: isLimiting, params },
              target: ref(limitingNode.id),
              actions: [
                { type: commit, params },
                { type: 'recordStop' as const, params },
              ],
            },
          ]
        : []),
      { guard: { type: matches, params }, target: answered, actions: { type: commit, params } },
    ];
    // Only a question some earlier model-allowed question can answer may be entered answered.
    const canBeAnsweredEarly = graph.questions.some(
      (p) => p.id !== graph.start.id && p.id !== q.id && questionsFrom(graph, p.id).includes(q),
    );
    return {
      tags: ['question'],
      meta: { node: q.id, kind: 'question' },
      ...(canBeAnsweredEarly && {
        always: { guard: { type: 'isAnswered' as const, params: { gate: q.id } }, target: answered },
      }),
      initial: 'asking' as const,
      states: {
        asking: {
          on: {
            'user.button': [
              ...directAnswer('buttonIsLimiting', 'buttonIsCategory', 'commitButton'),
              { actions: 'noteNotUnderstood' as const },
            ],
            // The offline matcher first (pure, here in the machine); the model only where it abstains.
            'user.text': [
              ...directAnswer('textIsLimiting', 'textMatches', 'commitMatched'),
              // The first question never calls a model (the seed's rule).
              modelAllowed ? { target: 'extracting', actions: 'rememberText' as const } : { actions: 'noteNotUnderstood' as const },
            ],
          },
        },
        ...(modelAllowed && { extracting: extractingState(q, answered) }),
      },
    };
  };

  /** Where the matcher abstained: the `extract` actor (a model) reads the text, for this and later questions. */
  const extractingState = (q: QuestionNode, answered: string) => {
    const reachable = questionsFrom(graph, q.id);
    const limitingTransitions = reachable
      .filter((g) => (g.limitingValues ?? []).length > 0)
      .map((g) => ({
        guard: { type: 'extractedLimiting' as const, params: { gate: q.id, limitingGate: g.id } },
        target: ref(graph.target(g.id, 'limiting')!.id),
        actions: [
          { type: 'commitExtracted' as const, params: { gate: q.id } },
          { type: 'recordStop' as const, params: { gate: g.id } },
        ],
      }));
    return {
      tags: [BUSY_TAG],
      invoke: {
        id: EXTRACT_ACTOR_ID,
        src: 'extract' as const,
        input: ({ context }: { context: FlowContext }) => extractionInput(graph, q.id, context),
        onDone: [
          {
            guard: { type: 'extractedNothing' as const, params: { gate: q.id } },
            target: 'asking',
            actions: 'noteNotUnderstood' as const,
          },
          ...limitingTransitions,
          {
            guard: { type: 'extractedAnswer' as const, params: { gate: q.id } },
            target: answered,
            actions: { type: 'commitExtracted' as const, params: { gate: q.id } },
          },
          // Only later questions were answered: keep them, ask this one again.
          ...(reachable.length > 1
            ? [{ target: 'asking', actions: { type: 'commitExtracted' as const, params: { gate: q.id } } }]
            : []),
        ],
        // A failing extractor never ends the conversation: ask again.
        onError: { target: 'asking', actions: 'noteNotUnderstood' as const },
      },
    };
  };

  const confirmationState = (c: ConfirmationNode) => {
    const confirmed = ref(graph.target(c.id, 'confirmed')!.id);
    const edit = ref(graph.target(c.id, 'edit')!.id);
    const params = { node: c.id };
    return {
      tags: ['confirmation'],
      meta: { node: c.id, kind: 'confirmation' },
      on: {
        'user.button': [
          { guard: { type: 'buttonIsConfirm' as const, params }, target: confirmed },
          { guard: { type: 'buttonIsEdit' as const, params }, target: edit, actions: 'startEditing' as const },
          { actions: 'noteNotUnderstood' as const },
        ],
        // The seed's rule: anything that is not a confirmation is a wish to edit.
        'user.text': [
          { guard: { type: 'textConfirms' as const, params }, target: confirmed },
          { target: edit, actions: 'startEditing' as const },
        ],
      },
    };
  };

  const states: StatesConfig = {};
  for (const node of doc.nodes) {
    if (node.kind === 'question') states[node.id] = questionState(node);
    else if (node.kind === 'confirmation') states[node.id] = confirmationState(node);
    else
      states[node.id] = {
        type: 'final',
        tags: ['terminal'],
        meta: { node: node.id, kind: 'terminal', outcome: node.outcome },
        // Passed to the root's `output` in the done-state event.
        output: ({ context }: { context: FlowContext }): FlowOutput => ({
          outcome: node.outcome,
          terminal: node.id,
          stoppedBy: context.stoppedBy,
        }),
      };
  }

  return machineSetup.createMachine({
    id: doc.id,
    context: initialFlowContext,
    initial: graph.start.id,
    states,
    output: ({ event }) => (event as unknown as DoneStateEvent<FlowOutput>).output,
  });
}

export type FlowMachine = ReturnType<typeof compileFlow>;

/** The question `from` and every question after it along `answered` edges. */
function questionsFrom(graph: FlowGraph, from: string): QuestionNode[] {
  const i = graph.questions.findIndex((q) => q.id === from);
  return i < 0 ? [] : graph.questions.slice(i);
}

/**
 * What the extractor is asked: the current question and, where a model may be
 * called, every later unanswered one, since a message may answer several.
 */
export function extractionInput(graph: FlowGraph, gate: string, context: FlowContext): ExtractionInput {
  const allowModel = gate !== graph.start.id;
  const candidates = allowModel ? questionsFrom(graph, gate) : questionsFrom(graph, gate).slice(0, 1);
  return {
    text: context.pendingText ?? '',
    gate,
    allowModel,
    gates: candidates
      .filter((q) => q.id === gate || context.answers[q.id] === undefined)
      .map((q) => ({
        key: q.id,
        prompt: q.prompt,
        categories: q.answer.categories,
        ...(q.answer.synonyms !== undefined && { synonyms: q.answer.synonyms }),
      })),
  };
}

/**
 * The values of an extraction result that the flow allows: for questions the
 * extractor was offered, unanswered, with a value that is one of their
 * categories (spelled as the flow spells it). Anything else is dropped: an
 * extractor, even a custom one, can never commit a value the flow forbids.
 */
export function acceptedValues(
  graph: FlowGraph,
  gate: string,
  context: FlowContext,
  event: AnyEventObject,
): Record<string, Omit<GateAnswer, 'raw'>> {
  const parsed = ExtractionOutputSchema.safeParse((event as { output?: unknown }).output);
  if (!parsed.success) return {};
  const offered = new Set(extractionInput(graph, gate, context).gates.map((g) => g.key));
  const values: Record<string, Omit<GateAnswer, 'raw'>> = {};
  for (const [key, found] of Object.entries(parsed.data.values)) {
    const q = graph.question(key);
    if (!q || !offered.has(key)) continue;
    const value = findCategory(q, found.value);
    if (value !== undefined) values[key] = { value, confidence: found.confidence, source: found.source };
  }
  return values;
}

/** Which confirmation button a pressed value means: its value or its label, any case. */
function buttonMeans(node: ConfirmationNode, pressed: string): 'confirm' | 'edit' | null {
  const v = pressed.trim().toLowerCase();
  if (v === 'confirm' || v === node.confirmLabel.toLowerCase()) return 'confirm';
  if (v === 'edit' || v === node.editLabel.toLowerCase()) return 'edit';
  return null;
}
