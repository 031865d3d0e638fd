/**
 * `npm run bench` (document agent, seed 002), on PGlite in memory: the model
 * calls per message over a scripted conversation of twelve messages (explicit
 * commands the offline reader takes, and free requests only a model reads),
 * run through the runtime, `documentAgentHost` and a scripted
 * `MockLanguageModelV4` that answers at once:
 *
 * - "offline reader + model": the agent as it ships (the offline reader first,
 *   the model for the rest);
 * - "model only": every message decided by the model. `documentAgentActors`
 *   has no switch to turn its offline reader off, so this run replaces the
 *   host's `decide` actor with one that makes the same structured call as
 *   src/document-agent/actors.ts (the decision prompt, AgentDecisionSchema,
 *   temperature 0.5) without reading offline first; the model then also
 *   writes the content the offline reader's edits would have made (an added
 *   text, a section removed), so both runs end with the same documents.
 *
 * Each message's calls are counted by the scripted model and checked against
 * the agent's own count (the reply's artifact); the two runs' outcomes and
 * final documents are checked equal. ms: a message's turn (no network, no
 * inference), the mean over DOCUMENT_BENCH_RUNS conversations (default 5, after one of warm-up).
 */
import { fromPromise } from 'xstate';
import { createRuntime, type Runtime } from '../../src/runtime/runtime.js';
import { createPgliteStore } from '../../src/store/pglite.js';
import type { Store } from '../../src/store/types.js';
import { documentAgentHost } from '../../src/document-agent/host.js';
import { DocumentAgentModelError } from '../../src/document-agent/errors.js';
import { appendText, removeSection } from '../../src/document-agent/markdown.js';
import { decisionPrompt } from '../../src/document-agent/prompts.js';
import { AgentDecisionSchema } from '../../src/document-agent/schemas.js';
import { DOCUMENT_AGENT_ID } from '../../src/document-agent/workflow.js';
import { documentRepository } from '../../src/documents/repository.js';
import { generateObjectSafely } from '../../src/extract/object-call.js';
import type { DecideInput, DecideOutput } from '../../machines/document-agent.js';
import { artifactOf, scriptedModel, type ModelCall, type Scripted } from '../helpers/document-agent.js';

const RUNS = Number(process.env.DOCUMENT_BENCH_RUNS ?? 5);
const WARM_UP = 1;

/** The id the decision prompt shows for a document named `name` (the model reads it there too). */
const idOf = (call: ModelCall, name: string): number => {
  const found = new RegExp(`id: (\\d+)\\nname: ${name}\\n`).exec(call.prompt);
  if (!found) throw new Error(`the decision prompt shows no document named ${name}`);
  return Number(found[1]);
};
/** The content a rewrite is given (the `Current content` of the rewrite prompt). */
const currentOf = (call: ModelCall): string => {
  const found = /Current content:\n<document>\n([\s\S]*?)\n<\/document>/.exec(call.prompt);
  if (!found) throw new Error('the rewrite prompt shows no current content');
  return found[1] === '(empty)' ? '' : found[1]!;
};
const rewrite = (change: (content: string) => string): Scripted => (call) => change(currentOf(call));

interface Step {
  text: string;
  /** What the model answers for this message when the offline reader goes first (nothing: read offline). */
  withReader: { decide?: Scripted; rewrite?: Scripted; converse?: Scripted };
  /** What it answers when it decides everything ("Proceed" answers the gate: no decision then either). */
  modelOnly: { decide?: Scripted; rewrite?: Scripted; converse?: Scripted };
  /** How the message should end (the artifact's outcome). */
  outcome: string;
}

const BREAKFAST = '## Breakfast\nPancakes with blueberries.';
const DINNER = '## Dinner\nMushroom risotto.';
const ROME = '## Rome\nDay 1: the Forum. Day 2: the Vatican. Day 3: Trastevere.';

/** The conversation, in an empty project. */
const CONVERSATION: Step[] = [
  {
    text: 'create a document called Recipes',
    withReader: {},
    modelOnly: { decide: { should_create: true, document_name: 'Recipes', document_content: '', intent_statement: "I'll create a new document called 'Recipes'" } },
    outcome: 'created',
  },
  {
    text: `add this to Recipes: ${BREAKFAST}`,
    withReader: {},
    modelOnly: {
      decide: (call) => ({ should_edit: true, document_id: idOf(call, 'Recipes'), intent_statement: "I'll add this to the Recipes document." }),
      rewrite: rewrite((c) => appendText(c, BREAKFAST)),
    },
    outcome: 'updated',
  },
  {
    text: 'Add my favourite dinner, a mushroom risotto, to the recipes',
    withReader: {
      decide: (call) => ({ should_edit: true, document_id: idOf(call, 'Recipes'), intent_statement: "I'll add a mushroom risotto to the Recipes document." }),
      rewrite: rewrite((c) => appendText(c, DINNER)),
    },
    modelOnly: {
      decide: (call) => ({ should_edit: true, document_id: idOf(call, 'Recipes'), intent_statement: "I'll add a mushroom risotto to the Recipes document." }),
      rewrite: rewrite((c) => appendText(c, DINNER)),
    },
    outcome: 'updated',
  },
  {
    text: 'which documents do I have?',
    withReader: {},
    modelOnly: { decide: { conversational_response: 'You have 1 document in this project: Recipes.' } },
    outcome: 'conversed',
  },
  {
    text: 'create a document called Travel Guide',
    withReader: {},
    modelOnly: { decide: { should_create: true, document_name: 'Travel Guide', document_content: '', intent_statement: "I'll create a new document called 'Travel Guide'" } },
    outcome: 'created',
  },
  {
    text: 'Plan three days in Rome in my travel guide',
    withReader: {
      decide: (call) => ({ should_edit: true, document_id: idOf(call, 'Travel Guide'), intent_statement: "I'll plan three days in Rome in the Travel Guide document." }),
      rewrite: rewrite((c) => appendText(c, ROME)),
    },
    modelOnly: {
      decide: (call) => ({ should_edit: true, document_id: idOf(call, 'Travel Guide'), intent_statement: "I'll plan three days in Rome in the Travel Guide document." }),
      rewrite: rewrite((c) => appendText(c, ROME)),
    },
    outcome: 'updated',
  },
  {
    text: 'What do I eat for breakfast, according to my recipes?',
    withReader: { decide: { reasoning: 'A question about the recipes.' }, converse: 'Pancakes with blueberries.' },
    modelOnly: { decide: { reasoning: 'A question about the recipes.' }, converse: 'Pancakes with blueberries.' },
    outcome: 'conversed',
  },
  {
    text: 'delete the Breakfast section from Recipes',
    withReader: {},
    modelOnly: {
      decide: (call) => ({
        should_edit: true,
        document_id: idOf(call, 'Recipes'),
        pending_confirmation: true,
        confirmation_prompt: "I'll remove the Breakfast section from the Recipes document. This will delete all breakfast information. Should I proceed?",
        intent_statement: "I'll remove the Breakfast section from the Recipes document.",
      }),
    },
    outcome: 'confirm',
  },
  {
    text: 'Proceed',
    withReader: {},
    modelOnly: { rewrite: rewrite((c) => removeSection(c, 'Breakfast').content) },
    outcome: 'updated',
  },
  {
    text: 'Start a packing list for the trip',
    withReader: { decide: { should_create: true, document_name: 'Packing List', document_content: '- Passport\n- Sun hat', intent_statement: "I'll create a new document called 'Packing List'" } },
    modelOnly: { decide: { should_create: true, document_name: 'Packing List', document_content: '- Passport\n- Sun hat', intent_statement: "I'll create a new document called 'Packing List'" } },
    outcome: 'created',
  },
  {
    text: 'create a document called recipes',
    withReader: {},
    modelOnly: { decide: { should_create: true, document_name: 'recipes', document_content: '', intent_statement: "I'll create a new document called 'recipes'" } },
    outcome: 'duplicate',
  },
  {
    text: "Thanks, that's all for today!",
    withReader: { decide: { conversational_response: 'You are welcome! Your three documents are saved.' } },
    modelOnly: { decide: { conversational_response: 'You are welcome! Your three documents are saved.' } },
    outcome: 'conversed',
  },
];

/** The model's answers for a whole conversation, queued by purpose in the order the messages ask for them. */
function scriptFor(mode: 'withReader' | 'modelOnly') {
  const queue = { decide: [] as Scripted[], rewrite: [] as Scripted[], converse: [] as Scripted[] };
  for (const step of CONVERSATION) {
    const answers = step[mode];
    if (answers.decide) queue.decide.push(answers.decide);
    if (answers.rewrite) queue.rewrite.push(answers.rewrite);
    if (answers.converse) queue.converse.push(answers.converse);
  }
  return queue;
}

/** The decision by the model for every message: the call actors.ts makes, without the offline reader before it. */
const modelOnlyDecide = (model: Parameters<typeof generateObjectSafely>[1]['model']) =>
  fromPromise<DecideOutput, DecideInput>(async ({ input }) => {
    const request = decisionPrompt(input.message, input.context);
    const result = await generateObjectSafely(
      { ...request, schema: AgentDecisionSchema, name: 'agent_decision' },
      { model, timeoutMs: 30_000, temperature: 0.5, providerOptions: { openai: { strictJsonSchema: false } } },
    );
    if (!result.ok) throw new DocumentAgentModelError('decide', result.failure.reason, result.failure.message);
    return { decision: result.output, edit: null, modelCalls: 1 };
  });

interface Run {
  calls: number[];
  outcomes: string[];
  ms: number[];
  documents: { name: string; content: string }[];
}

async function converse(store: Store, mode: 'withReader' | 'modelOnly'): Promise<Run> {
  const scripted = scriptedModel(scriptFor(mode));
  const host = documentAgentHost({ database: store.sql!, model: scripted.model });
  const actors = mode === 'modelOnly' ? { ...host.actors, decide: modelOnlyDecide(scripted.model) } : host.actors;
  const runtime: Runtime = createRuntime({ workflows: [host.workflow], store, actors });
  const repo = documentRepository(store.sql!);
  try {
    const project = await repo.createProject(null, { name: `Bench ${mode}` });
    const { sessionId } = await runtime.start(DOCUMENT_AGENT_ID, undefined, { context: { projectId: project.id } });
    const run: Run = { calls: [], outcomes: [], ms: [], documents: [] };
    for (const step of CONVERSATION) {
      const before = scripted.calls.length;
      const t0 = performance.now();
      const reply = await runtime.turn(sessionId, { text: step.text });
      run.ms.push(performance.now() - t0);
      const calls = scripted.calls.length - before;
      const artifact = artifactOf(reply);
      const outcome = artifact.outcome?.kind ?? '?';
      if (outcome !== step.outcome) throw new Error(`${mode}: "${step.text}" ended ${outcome}, not ${step.outcome}: ${reply.message}`);
      if (artifact.modelCalls !== calls) throw new Error(`${mode}: "${step.text}" made ${calls} model calls, the agent counted ${artifact.modelCalls}`);
      run.calls.push(calls);
      run.outcomes.push(outcome);
    }
    const left = scripted.left();
    if (Object.keys(left).length > 0) throw new Error(`${mode}: scripted answers never asked for: ${JSON.stringify(left)}`);
    run.documents = (await repo.listDocuments(project.id)).map((d) => ({ name: d.name, content: d.content }));
    return run;
  } finally {
    runtime.close();
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const clip = (s: string) => (s.length > 48 ? `${s.slice(0, 45)}...` : s).replaceAll('\n', ' ');

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
const began = performance.now();
const store = await createPgliteStore();
console.log('gateflow bench: document agent (seed 002) on PGlite in memory, a scripted model answering at once');
try {
  const runs: Record<'withReader' | 'modelOnly', Run[]> = { withReader: [], modelOnly: [] };
  for (let i = 0; i < WARM_UP + RUNS; i++)
    for (const mode of ['withReader', 'modelOnly'] as const) {
      const run = await converse(store, mode);
      if (i >= WARM_UP) runs[mode].push(run);
    }
  const [reader, model] = [runs.withReader[0]!, runs.modelOnly[0]!];
  if (JSON.stringify(reader.documents) !== JSON.stringify(model.documents)) throw new Error('the two runs ended with different documents');
  const msAt = (mode: 'withReader' | 'modelOnly', k: number) => mean(runs[mode].map((r) => r.ms[k]!));
  console.log(`model calls per message over a ${CONVERSATION.length}-message conversation (the seed allows 2 a message); ms: the turn, mean of ${RUNS} runs after ${WARM_UP} of warm-up`);
  console.table([
    ...CONVERSATION.map((step, k) => ({
      message: clip(step.text),
      outcome: step.outcome,
      'calls (offline reader + model)': reader.calls[k]!,
      'calls (model only)': model.calls[k]!,
      'ms (reader)': msAt('withReader', k).toFixed(1),
      'ms (model only)': msAt('modelOnly', k).toFixed(1),
    })),
    {
      message: 'total',
      outcome: '',
      'calls (offline reader + model)': sum(reader.calls),
      'calls (model only)': sum(model.calls),
      'ms (reader)': sum(CONVERSATION.map((_, k) => msAt('withReader', k))).toFixed(1),
      'ms (model only)': sum(CONVERSATION.map((_, k) => msAt('modelOnly', k))).toFixed(1),
    },
  ]);
  const perMessage = (mode: 'withReader' | 'modelOnly') => mean(runs[mode].flatMap((r) => r.ms)).toFixed(2);
  console.log(
    `model calls: ${sum(reader.calls)} with the offline reader first, ${sum(model.calls)} with the model only ` +
      `(${reader.calls.filter((c) => c === 0).length} of ${CONVERSATION.length} messages without a call); ` +
      `mean ms per message: ${perMessage('withReader')} (offline reader + model), ${perMessage('modelOnly')} (model only); ` +
      'outcomes and final documents equal in both runs',
  );
} finally {
  await store.close();
}
console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} cores, ${((performance.now() - began) / 1000).toFixed(1)} s`);
