/**
 * Shared fixtures for the gate intake suites: the seed's two-gate config, the
 * example flow, a counting mock model, and turn scripts driven on one
 * conversation or restored between every turn.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MockLanguageModelV4 } from 'ai/test';
import type { AnyActorLogic } from 'xstate';
import { createExtractActor } from '../../src/extract/actor.js';
import { parseFlowText } from '../../src/flow/parse.js';
import type { FlowDocument } from '../../src/flow/schema.js';
import {
  restoreConversation,
  startConversation,
  type PersistedConversation,
} from '../../src/flow/conversation.js';
import type { Reply } from '../../src/flow/reply.js';
import type { Turn } from '../../src/workflow/turn.js';
import { messageOfPrompt, withEvidence } from './mock-model.js';
import { MODEL_UNAVAILABLE_MESSAGE } from '../../src/flow/messages.js';

export const GATE_1 = '1_patient_info_availability';
export const GATE_2 = '2_insurance_history';

/** The seed's wording (summary example of case 3.3). */
export const GATE_1_QUESTION = 'Do we have patient information available?';
export const GATE_2_QUESTION = 'Does the patient have insurance history?';
export const GATE_1_STOP = 'We cannot continue without patient information. Please gather it and start again.';

/** The text the seed gives for case 3.1, written out (not imported) on purpose. */
export const TROUBLE =
  "I'm having trouble understanding your response. Could you please rephrase or select one of the options?";

/** Not understood at a question: the seed's text, then the question asked again in full. */
export const troubleAt = (question: string) => `${TROUBLE}\n\n${question}`;
/** A question asked again because the model could not be asked (issue 26: the program's failure, not the person's). */
export const unavailableAt = (question: string) => `${MODEL_UNAVAILABLE_MESSAGE}\n\n${question}`;

/** The seed's confirmation buttons (case 4.1). */
export const CONFIRMATION_BUTTONS = [
  { label: 'Looks Good', value: 'confirm' },
  { label: 'Edit Answers', value: 'edit' },
];
export const GATE_1_BUTTONS = [
  { label: 'Yes', value: 'Yes' },
  { label: 'No', value: 'No' },
];
export const GATE_2_BUTTONS = [
  { label: 'Yes', value: 'Yes' },
  { label: 'No', value: 'No' },
  { label: 'Partial', value: 'Partial' },
];

export const AWAITING_ANSWER = { isComplete: false, reason: 'awaiting_answer', readyForHandoff: false };
export const AWAITING_CONFIRMATION = {
  isComplete: false,
  reason: 'awaiting_user_confirmation',
  readyForHandoff: false,
};
export const STOPPED = { isComplete: true, reason: 'stopped_limiting_value', readyForHandoff: false };
export const HANDED_OFF = { isComplete: true, reason: 'handed_off', readyForHandoff: true };

/** The seed's gate config, exactly: two gates, gate 1 Yes/No limiting "No", gate 2 Yes/No/Partial. */
export const SEED_GATE_CONFIG = {
  id: 'seed-gates',
  version: 1,
  title: 'Seed intake',
  gate_order: [GATE_1, GATE_2],
  gates: {
    [GATE_1]: {
      question: GATE_1_QUESTION,
      expected_categories: ['Yes', 'No'],
      limiting_values: ['No'],
      stop_message: GATE_1_STOP,
    },
    [GATE_2]: {
      question: GATE_2_QUESTION,
      expected_categories: ['Yes', 'No', 'Partial'],
    },
  },
};

export function seedFlowText(config: unknown = SEED_GATE_CONFIG): string {
  return JSON.stringify(config, null, 2);
}

export function seedFlow(config: unknown = SEED_GATE_CONFIG): FlowDocument {
  return parseFlowText(seedFlowText(config), 'seed-gates.json');
}

export const PATIENT_INTAKE_PATH = fileURLToPath(new URL('../../machines/flows/patient-intake.json', import.meta.url));

export function patientIntakeFlow(): FlowDocument {
  return parseFlowText(readFileSync(PATIENT_INTAKE_PATH, 'utf8'), 'patient-intake.json');
}

/** What the mock model answers on one call. */
export type ModelAnswers = Record<string, { value: string; confidence: number; evidence?: string }>;
export type ModelStep =
  | { answers: ModelAnswers }
  /** Raw text, sent as is (e.g. not JSON). */
  | { text: string }
  | { error: Error };

type CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];

export interface CountingModel {
  model: MockLanguageModelV4;
  /** How many times the model was called. */
  readonly calls: number;
  /** Per call, the gate keys the output schema asked for. */
  readonly offered: string[][];
  /** Per call, the user prompt text. */
  readonly prompts: string[];
}

/**
 * A MockLanguageModelV4 answering with the given steps in order (the last one
 * repeats). For `{ answers }`, every gate the schema offers must be given; the
 * mock refuses to invent values so that a test states exactly what the model says.
 */
export function countingModel(steps: ModelStep[] | ((offered: string[]) => ModelStep)): CountingModel {
  const offered: string[][] = [];
  const prompts: string[] = [];
  let calls = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async (options: CallOptions) => {
      const keys = offeredKeys(options);
      offered.push(keys);
      prompts.push(promptText(options));
      const step = typeof steps === 'function' ? steps(keys) : steps[Math.min(calls, steps.length - 1)]!;
      calls++;
      if ('error' in step) throw step.error;
      let text: string;
      if ('text' in step) text = step.text;
      else {
        const missing = keys.filter((k) => !(k in step.answers));
        if (missing.length > 0) throw new Error(`mock model: no answer given for offered gates ${missing.join(', ')}`);
        text = JSON.stringify({ answers: withEvidence(step.answers, messageOfPrompt(promptText(options))) });
      }
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 20, text: 20, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
  return {
    model,
    get calls() {
      return calls;
    },
    offered,
    prompts,
  };
}

function offeredKeys(options: CallOptions): string[] {
  const format = options.responseFormat;
  if (!format || format.type !== 'json' || !format.schema) return [];
  const schema = format.schema as { properties?: { answers?: { properties?: Record<string, unknown> } } };
  return Object.keys(schema.properties?.answers?.properties ?? {});
}

function promptText(options: CallOptions): string {
  return options.prompt
    .filter((m) => m.role === 'user')
    .flatMap((m) => m.content)
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');
}

/** Answers "unknown" for every offered gate except the ones given. */
export function answering(given: ModelAnswers): (offered: string[]) => ModelStep {
  return (offered) => ({
    answers: Object.fromEntries(offered.map((k) => [k, given[k] ?? { value: 'unknown', confidence: 0.2 }])),
  });
}

/** The `extract` actor with a model behind the offline matcher. */
export function llmExtract(model: CountingModel): AnyActorLogic {
  return createExtractActor({ model: model.model, maxRetries: 0 });
}

export interface ScriptOptions {
  /** Builds the extract actor for a run; called once per run so that runs do not share a model. */
  extract?: () => AnyActorLogic;
  sessionId?: string;
}

/** The first reply and the reply to each turn, all on one conversation. */
export async function runScript(flow: FlowDocument, turns: Turn[], options: ScriptOptions = {}): Promise<Reply[]> {
  const extract = options.extract?.();
  const conversation = startConversation(flow, {
    sessionId: options.sessionId ?? 'session-1',
    ...(extract && { extract }),
  });
  const replies = [conversation.reply()];
  for (const turn of turns) replies.push(await conversation.send(turn));
  conversation.stop();
  return replies;
}

export interface RestoredRun {
  replies: Reply[];
  /** What was stored before each turn and after the last one (JSON round-tripped). */
  stored: PersistedConversation[];
}

/**
 * The same script, but the conversation is persisted (through JSON, as a store
 * would) and restored into a new conversation before every turn.
 */
export async function runScriptRestoring(
  flow: FlowDocument,
  turns: Turn[],
  options: ScriptOptions = {},
): Promise<RestoredRun> {
  const extract = options.extract?.();
  const first = startConversation(flow, {
    sessionId: options.sessionId ?? 'session-1',
    ...(extract && { extract }),
  });
  const replies = [first.reply()];
  let stored = roundTrip(first.persist());
  first.stop();
  const allStored = [stored];
  for (const turn of turns) {
    const conversation = restoreConversation(flow, stored, extract ? { extract } : {});
    replies.push(await conversation.send(turn));
    stored = roundTrip(conversation.persist());
    allStored.push(stored);
    conversation.stop();
  }
  return { replies, stored: allStored };
}

export function roundTrip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The text the seed uses for case 2.3; the offline matcher abstains on it ("not sure"). */
export const UNSURE_TEXT = "I'm not sure, but I think there might be some issues";

/** A seed-shaped turn script: the seed's examples and testing scenarios, reused by several suites. */
export interface Script {
  name: string;
  flow: () => FlowDocument;
  turns: Turn[];
  /** When set, extraction goes through a model answering with these steps. */
  model?: () => ModelStep[] | ((offered: string[]) => ModelStep);
}

const partialFromModel = () => answering({ [GATE_2]: { value: 'Partial', confidence: 0.9 } });

/** The seed's four complete flow examples (on the seed's two-gate config). */
export const EXAMPLE_SCRIPTS: Script[] = [
  { name: 'Example 1: Happy Path', flow: () => seedFlow(), turns: [{ button: 'Yes' }, { button: 'No' }, { button: 'confirm' }] },
  { name: 'Example 2: Early Stop', flow: () => seedFlow(), turns: [{ button: 'No' }] },
  {
    name: 'Example 3: Edit After Confirmation',
    flow: () => seedFlow(),
    // "Edit" asks which answer; the person picks gate 1 and answers it again in words.
    turns: [{ button: 'Yes' }, { button: 'No' }, { text: 'Edit' }, { button: GATE_1 }, { text: 'Yes' }],
  },
  {
    name: 'Example 4: Text Input',
    flow: () => seedFlow(),
    turns: [{ button: 'Yes' }, { text: UNSURE_TEXT }],
    model: partialFromModel,
  },
];

/** The seed's ten testing scenarios. */
export const SCENARIO_SCRIPTS: Script[] = [
  { name: '1. First time user → Gate 1 question', flow: () => seedFlow(), turns: [] },
  { name: '2. Button click → Direct match, continue', flow: () => seedFlow(), turns: [{ button: 'Yes' }] },
  {
    name: '3. Text input → LLM extraction, continue',
    flow: () => patientIntakeFlow(),
    turns: [{ button: 'Yes' }, { text: UNSURE_TEXT }],
    model: partialFromModel,
  },
  { name: '4. Limiting value (Gate 1) → Stop workflow', flow: () => seedFlow(), turns: [{ text: 'No' }] },
  {
    name: '5. Limiting value (Gate 2+) → Stop workflow',
    flow: () => patientIntakeFlow(),
    turns: [{ button: 'Yes' }, { button: 'No' }, { button: 'Emergency' }],
  },
  { name: '6. All gates answered → Show summary, confirmation buttons', flow: () => seedFlow(), turns: [{ button: 'Yes' }, { button: 'No' }] },
  {
    name: '7. User confirms → Handoff to planner',
    flow: () => seedFlow(),
    turns: [{ button: 'Yes' }, { button: 'No' }, { text: "Yes, that's correct" }],
  },
  {
    name: '8. User edits → Reset to appropriate gate',
    flow: () => seedFlow(),
    turns: [{ button: 'Yes' }, { button: 'No' }, { button: 'edit' }],
  },
  {
    name: '9. Extraction failure → Error message, retry',
    flow: () => seedFlow(),
    turns: [{ button: 'Yes' }, { text: 'the weather is nice today' }, { button: 'Partial' }],
    model: () => answering({}),
  },
  {
    name: '10. Edit after confirmation → Reset state, continue',
    flow: () => seedFlow(),
    turns: [
      { button: 'Yes' },
      { button: 'No' },
      { text: "That's wrong" },
      { button: GATE_2 },
      { button: 'Partial' },
      { button: 'confirm' },
    ],
  },
];

/** Runs a script on one conversation; the model (if any) is fresh for the run. */
export async function runSeedScript(script: Script, sessionId = 'session-1'): Promise<{ replies: Reply[]; model?: CountingModel }> {
  const model = script.model ? countingModel(script.model()) : undefined;
  const replies = await runScript(script.flow(), script.turns, {
    sessionId,
    ...(model && { extract: () => llmExtract(model) }),
  });
  return model ? { replies, model } : { replies };
}
