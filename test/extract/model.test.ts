import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createExtractActor } from '../../src/extract/actor.js';
import { extractOffline } from '../../src/extract/offline.js';
import { extractWithModel, extractionSchema, UNKNOWN } from '../../src/extract/model.js';
import type { ExtractionInput } from '../../src/extract/types.js';
import { extractionInput } from '../../src/flow/compile.js';
import { initialFlowContext } from '../../src/flow/context.js';
import { categoriesOf } from '../../src/flow/graph.js';
import { startConversation } from '../../src/flow/conversation.js';
import { MODEL_UNAVAILABLE_MESSAGE, NOT_UNDERSTOOD_MESSAGE } from '../../src/flow/messages.js';
import { G1, G2, G3, G4, G5, buttonsOf, flow, graph, question } from '../helpers/patient-intake.js';
import { messageOfPrompt, textResult, withEvidence, type CallOptions, type GenerateResult } from '../helpers/mock-model.js';


type Answers = Record<string, { value: string; confidence: number; evidence?: string }>;


/** What the compiled flow offers the extractor at `gate`, with `answered` already answered. */
function inputAt(gate: string, text: string, answered: string[] = []): ExtractionInput {
  const context = initialFlowContext();
  for (const key of answered) context.answers[key] = { value: 'Yes', confidence: 1, source: 'button', raw: 'Yes' };
  context.pendingText = text;
  return extractionInput(graph, gate, context);
}

const answersText = (answers: Answers) => JSON.stringify({ answers });

/** Every offered gate `unknown`, except the ones given. */
function fullAnswers(input: ExtractionInput, given: Answers): Answers {
  const all: Answers = {};
  for (const gate of input.questions) all[gate.key] = given[gate.key] ?? { value: UNKNOWN, confidence: 0.9 };
  return withEvidence(all, input.text);
}

/** A model whose every call answers with `given` for the gates it is offered (read from the prompt's schema). */
function answeringModel(given: Answers) {
  return new MockLanguageModelV4({
    doGenerate: async (options) => {
      const keys = Object.keys(answerSchemaProperties(options));
      const all: Answers = {};
      for (const key of keys) all[key] = given[key] ?? { value: UNKNOWN, confidence: 0.9 };
      return textResult(answersText(withEvidence(all, messageOfPrompt(userText(options)))));
    },
  });
}

function failingModel(message = 'upstream exploded') {
  return new MockLanguageModelV4({
    doGenerate: async () => {
      throw new Error(message);
    },
  });
}

interface JsonSchemaNode {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  enum?: unknown[];
  description?: string;
  additionalProperties?: unknown;
}

function responseSchema(options: CallOptions): JsonSchemaNode {
  const format = options.responseFormat;
  if (!format || format.type !== 'json') throw new Error(`expected a JSON response format, got ${JSON.stringify(format)}`);
  if (!format.schema) throw new Error('the JSON response format carries no schema');
  return format.schema as JsonSchemaNode;
}

function answerSchemaProperties(options: CallOptions): Record<string, JsonSchemaNode> {
  const answers = responseSchema(options).properties?.answers?.properties;
  if (!answers) throw new Error('the schema has no answers object');
  return answers;
}

/** All text of the prompt's user messages. */
function userText(options: CallOptions): string {
  return options.prompt
    .filter((m) => m.role === 'user')
    .flatMap((m) => (m.role === 'user' ? m.content : []))
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');
}

describe('extractWithModel', () => {
  it('returns the values a valid object gives for several gates, as llm values with the model confidence', async () => {
    const text = 'Her coverage lapsed twice, she is coming back for a recheck and she is 42';
    const input = inputAt(G2, text, [G1]);
    expect(input.questions.map((g) => g.key)).toEqual([G2, G3, G4, G5]);
    const model = new MockLanguageModelV4({
      doGenerate: textResult(
        answersText(
          fullAnswers(input, {
            [G2]: { value: 'Yes', confidence: 0.93 },
            [G3]: { value: 'Follow-up', confidence: 0.81 },
            [G4]: { value: 'Adult', confidence: 0.77 },
          }),
        ),
      ),
    });

    const result = await extractWithModel(input, { model, maxRetries: 0 });

    expect(result).toEqual({
      values: {
        [G2]: { value: 'Yes', confidence: 0.93, source: 'llm' },
        [G3]: { value: 'Follow-up', confidence: 0.81, source: 'llm' },
        [G4]: { value: 'Adult', confidence: 0.77, source: 'llm' },
      },
    });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('drops "unknown" values and values below minConfidence', async () => {
    const input = inputAt(G2, 'some gaps, and she wants to be texted maybe', [G1]);
    const model = new MockLanguageModelV4({
      doGenerate: textResult(
        answersText(
          withEvidence(
            {
              [G2]: { value: 'Partial', confidence: 0.7 },
              [G3]: { value: UNKNOWN, confidence: 0.99 },
              [G4]: { value: 'Minor', confidence: 0.69 },
              [G5]: { value: 'Text message', confidence: 0.5 },
            },
            input.text,
          ),
        ),
      ),
    });

    const result = await extractWithModel(input, { model, maxRetries: 0, minConfidence: 0.7 });

    // 0.7 is not below 0.7: kept; 0.69 and 0.5 are.
    expect(result).toEqual({ values: { [G2]: { value: 'Partial', confidence: 0.7, source: 'llm' } } });
  });

  it('uses 0.6 as the default minConfidence', async () => {
    const input = inputAt(G2, 'whatever', [G1]);
    const model = new MockLanguageModelV4({
      doGenerate: textResult(
        answersText(
          fullAnswers(input, {
            [G2]: { value: 'No', confidence: 0.6 },
            [G3]: { value: 'Telehealth', confidence: 0.59 },
          }),
        ),
      ),
    });

    const result = await extractWithModel(input, { model, maxRetries: 0 });

    expect(result).toEqual({ values: { [G2]: { value: 'No', confidence: 0.6, source: 'llm' } } });
  });

  it('reports model_unsure, keeping the later values, when the current gate is "unknown"', async () => {
    const input = inputAt(G2, 'a video visit please', [G1]);
    const model = new MockLanguageModelV4({
      doGenerate: textResult(answersText(fullAnswers(input, { [G3]: { value: 'Telehealth', confidence: 0.9 } }))),
    });

    const result = await extractWithModel(input, { model, maxRetries: 0 });

    expect(result.values).toEqual({ [G3]: { value: 'Telehealth', confidence: 0.9, source: 'llm' } });
    expect(result.failure?.reason).toBe('model_unsure');
  });

  it('sends a JSON schema with one key per offered gate, each an enum of its categories plus "unknown"', async () => {
    const input = inputAt(G3, 'something only a model can read', [G1, G2]);
    const model = answeringModel({});

    await extractWithModel(input, { model, maxRetries: 0 });

    expect(model.doGenerateCalls).toHaveLength(1);
    const options = model.doGenerateCalls[0]!;
    const schema = responseSchema(options);
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(['answers']);
    const answers = answerSchemaProperties(options);
    expect(Object.keys(answers)).toEqual([G3, G4, G5]);
    expect(schema.properties?.answers?.required).toEqual([G3, G4, G5]);
    for (const key of [G3, G4, G5]) {
      const gate = answers[key]!;
      expect(gate.properties?.value?.enum).toEqual([UNKNOWN, ...categoriesOf(question(key))]);
      expect(gate.properties?.confidence?.type).toBe('number');
      expect(gate.required).toEqual(['value', 'evidence', 'confidence']);
      expect(gate.description).toBe(question(key).prompt);
    }
    expect(answers[G3]!.properties?.value?.enum).toEqual([
      'unknown',
      'New patient',
      'Follow-up',
      'Urgent care',
      'Telehealth',
      'Emergency',
    ]);
  });

  it('builds the same schema from extractionSchema', () => {
    const input = inputAt(G4, 'x', [G1, G2, G3]);
    const schema = extractionSchema(input);
    expect(schema.safeParse({ answers: { [G4]: { value: 'Adult', evidence: 'adult', confidence: 1 }, [G5]: { value: UNKNOWN, evidence: '', confidence: 0 } } }).success).toBe(true);
    expect(schema.safeParse({ answers: { [G4]: { value: 'Senior', evidence: 'senior', confidence: 1 }, [G5]: { value: UNKNOWN, evidence: '', confidence: 0 } } }).success).toBe(false);
    expect(schema.safeParse({ answers: { [G4]: { value: 'Adult', evidence: 'adult', confidence: 1.5 }, [G5]: { value: UNKNOWN, evidence: '', confidence: 0 } } }).success).toBe(false);
  });

  it("puts the user's text and every offered question in the prompt", async () => {
    const text = 'Coverage dropped in 2021 — she is my daughter, 15 years old.';
    const input = inputAt(G2, text, [G1]);
    const model = answeringModel({});

    await extractWithModel(input, { model, maxRetries: 0 });

    const options = model.doGenerateCalls[0]!;
    const prompt = userText(options);
    expect(prompt).toContain(text);
    for (const key of [G2, G3, G4, G5]) {
      expect(prompt).toContain(key);
      expect(prompt).toContain(question(key).prompt);
    }
    expect(prompt).not.toContain(G1);
    expect(options.prompt.some((m) => m.role === 'system')).toBe(true);
  });
});

describe('extractWithModel failures (never throws)', () => {
  const input = inputAt(G2, 'her insurance story is complicated', [G1]);

  it('a model that throws gives model_error', async () => {
    const model = failingModel('upstream exploded');
    const result = await extractWithModel(input, { model, maxRetries: 0 });
    expect(result.values).toEqual({});
    expect(result.failure?.reason).toBe('model_error');
    expect(result.failure?.message).toBe('the model call failed');
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('text that is not JSON gives invalid_output', async () => {
    const model = new MockLanguageModelV4({ doGenerate: textResult('Sure! The answer is Yes.') });
    const result = await extractWithModel(input, { model, maxRetries: 0 });
    expect(result.values).toEqual({});
    expect(result.failure?.reason).toBe('invalid_output');
  });

  it('a value outside the categories gives invalid_output', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: textResult(answersText(fullAnswers(input, { [G2]: { value: 'Sometimes', confidence: 0.9 } }))),
    });
    const result = await extractWithModel(input, { model, maxRetries: 0 });
    expect(result.values).toEqual({});
    expect(result.failure?.reason).toBe('invalid_output');
  });

  it('an object missing gate keys gives invalid_output', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: textResult(answersText({ [G2]: { value: 'Yes', confidence: 0.95 } })),
    });
    const result = await extractWithModel(input, { model, maxRetries: 0 });
    expect(result.values).toEqual({});
    expect(result.failure?.reason).toBe('invalid_output');
  });

  it('a confidence outside 0..1 gives invalid_output', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: textResult(answersText(fullAnswers(input, { [G2]: { value: 'Yes', confidence: 7 } }))),
    });
    const result = await extractWithModel(input, { model, maxRetries: 0 });
    expect(result.values).toEqual({});
    expect(result.failure?.reason).toBe('invalid_output');
  });

  it('an empty answer gives invalid_output', async () => {
    const model = new MockLanguageModelV4({ doGenerate: textResult('') });
    const result = await extractWithModel(input, { model, maxRetries: 0 });
    expect(result.values).toEqual({});
    expect(result.failure?.reason).toBe('invalid_output');
  });

  it('an aborted call gives model_error', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: (options) =>
        new Promise<GenerateResult>((_, reject) => {
          options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal?.reason), { once: true });
        }),
    });
    // The model answers only when aborted: a result at all shows the deadline fired.
    const result = await extractWithModel(input, { model, maxRetries: 0, timeoutMs: 100 });
    expect(result.values).toEqual({});
    expect(result.failure?.reason).toBe('model_error');
  });
});

/** A model that answers after `ms`, or rejects when its call is aborted. */
function slowModel(ms: number) {
  return new MockLanguageModelV4({
    doGenerate: (options) =>
      new Promise<GenerateResult>((resolve, reject) => {
        const timer = setTimeout(() => resolve(textResult('{"answers":{}}')), ms);
        options.abortSignal?.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            reject(options.abortSignal?.reason);
          },
          { once: true },
        );
      }),
  });
}

describe('timeoutMs with the abort signal the extract actor passes', () => {
  // BUG (src/extract/model.ts): generateText({ timeout, abortSignal }) merges AbortSignal.timeout()
  // into AbortSignal.any(); on Node 20 the timeout signal can be garbage collected before it fires
  // (nodejs/node#57736), so the call is no longer bounded by timeoutMs. createExtractActor always
  // passes its signal. Forcing a GC during the call makes the failure deterministic.
  it('still gives up after timeoutMs when a GC runs during the call', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const controller = new AbortController();
    const gcs = setInterval(gc, 25);

    const result = await extractWithModel(inputAt(G2, 'her insurance story is complicated', [G1]), {
      model: slowModel(3000),
      maxRetries: 0,
      timeoutMs: 200,
      abortSignal: controller.signal,
    }).finally(() => clearInterval(gcs));

    // Had the deadline not fired, the model's late answer would be read instead (invalid_output).
    expect(result.failure?.reason).toBe('model_error');
  });
});

describe('model extraction through a conversation', () => {
  it('uses texts the offline matcher abstains on (so that the model is what answers)', () => {
    const abstains = (gate: string, text: string, answered: string[]) =>
      extractOffline(inputAt(gate, text, answered)).failure?.reason;
    expect(abstains(G1, 'purple elephants dance on the roof', [])).toBe('abstained');
    for (const text of [
      'Her coverage story is complicated',
      'Insurance has been solid for years; we would like a video call for my 12 year old',
      'Coverage is fine but he is having crushing pain in his chest right now',
      'Her insurer kept changing the rules on us',
      'She is 35, that much I know',
    ])
      expect(abstains(G2, text, [G1]), text).toBe('abstained');
    expect(abstains(G3, 'something is off and he wants to be seen quickly-ish', [G1, G2])).toBe('abstained');
  });

  const start = (model: MockLanguageModelV4) =>
    startConversation(flow, { extract: createExtractActor({ model, maxRetries: 0 }) });

  it('never calls the model at gate 1, and says it did not understand with gate 1 buttons', async () => {
    const model = answeringModel({ [G1]: { value: 'Yes', confidence: 1 } });
    const conversation = start(model);

    const reply = await conversation.send({ text: 'purple elephants dance on the roof' });

    expect(model.doGenerateCalls).toHaveLength(0);
    expect(reply.message).toContain(NOT_UNDERSTOOD_MESSAGE);
    expect(reply.buttons).toEqual(buttonsOf(G1));
    expect(reply.buttons).toEqual([
      { label: 'Yes', value: 'Yes' },
      { label: 'No', value: 'No' },
    ]);
    expect(reply.state).toEqual({ [G1]: 'asking' });
    expect(reply.answers).toEqual({});
    conversation.stop();
  });

  it('does not call the model when the offline matcher reads the text', async () => {
    const model = answeringModel({ [G2]: { value: 'Yes', confidence: 1 } });
    const conversation = start(model);
    await conversation.send({ text: 'yes' });

    const reply = await conversation.send({ text: 'no gaps' });

    expect(model.doGenerateCalls).toHaveLength(0);
    expect(reply.answers[G2]).toEqual({ value: 'No', confidence: expect.any(Number), source: 'match', raw: 'no gaps' });
    expect(reply.state).toEqual({ [G3]: 'asking' });
    conversation.stop();
  });

  it('calls the model at gate 2 when the offline matcher abstains', async () => {
    const model = answeringModel({ [G2]: { value: 'Partial', confidence: 0.88 } });
    const conversation = start(model);
    await conversation.send({ button: 'Yes' });
    const text = 'Her coverage story is complicated';

    const reply = await conversation.send({ text });

    expect(model.doGenerateCalls).toHaveLength(1);
    expect(userText(model.doGenerateCalls[0]!)).toContain(text);
    expect(Object.keys(answerSchemaProperties(model.doGenerateCalls[0]!))).toEqual([G2, G3, G4, G5]);
    expect(reply.answers[G2]).toEqual({ value: 'Partial', confidence: 0.88, source: 'llm', raw: text });
    expect(reply.state).toEqual({ [G3]: 'asking' });
    expect(reply.message).toBe(question(G3).prompt);
    conversation.stop();
  });

  it('one message answering gates 2, 3 and 4 moves the conversation to gate 5', async () => {
    const model = answeringModel({
      [G2]: { value: 'No', confidence: 0.91 },
      [G3]: { value: 'Telehealth', confidence: 0.86 },
      [G4]: { value: 'Minor', confidence: 0.8 },
    });
    const conversation = start(model);
    await conversation.send({ button: 'Yes' });
    const text = 'Insurance has been solid for years; we would like a video call for my 12 year old';

    const reply = await conversation.send({ text });

    expect(model.doGenerateCalls).toHaveLength(1);
    expect(reply.state).toEqual({ [G5]: 'asking' });
    // The answers to questions not asked yet are said back, not kept silently.
    expect(reply.message).toBe(`Noted: Visit type: Telehealth; Age group: Minor.\n\n${question(G5).prompt}`);
    expect(reply.buttons).toEqual(buttonsOf(G5));
    expect(reply.answers).toEqual({
      [G1]: { value: 'Yes', confidence: 1, source: 'button', raw: 'Yes' },
      [G2]: { value: 'No', confidence: 0.91, source: 'llm', raw: text },
      [G3]: { value: 'Telehealth', confidence: 0.86, source: 'llm', raw: text },
      [G4]: { value: 'Minor', confidence: 0.8, source: 'llm', raw: text },
    });
    expect(reply.completion).toEqual({ isComplete: false, reason: 'awaiting_answer', readyForHandoff: false });
    conversation.stop();
  });

  it('stops the conversation when the model puts "Emergency" on gate 3 while answering gate 2', async () => {
    const model = answeringModel({
      [G2]: { value: 'No', confidence: 0.9 },
      [G3]: { value: 'Emergency', confidence: 0.95 },
    });
    const conversation = start(model);
    await conversation.send({ button: 'Yes' });
    const text = 'Coverage is fine but he is having crushing pain in his chest right now';

    // Read out of free text, the limiting value is checked before the intake stops (issue 26 §2).
    const check = await conversation.send({ text });
    expect(check.completion.reason).toBe('awaiting_user_confirmation');
    expect(check.message).toContain('Emergency');
    expect(check.answers[G3]).toBeUndefined();
    const reply = await conversation.send({ text: 'yes' });

    expect(model.doGenerateCalls).toHaveLength(1);
    expect(reply.completion).toEqual({ isComplete: true, reason: 'stopped_limiting_value', readyForHandoff: false });
    expect(reply.message).toBe(question(G3).stopMessage);
    expect(reply.message).toBe(
      'This sounds like an emergency. Please call 911 or go to the nearest emergency department now; this intake cannot handle emergencies.',
    );
    expect(reply.state).toBe('stopped');
    expect(reply.buttons).toBeNull();
    expect(reply.answers[G3]).toEqual({ value: 'Emergency', confidence: 0.95, source: 'llm', raw: text });
    expect(conversation.done).toBe(true);
  });

  it('keeps later answers when the model cannot tell the current one, and skips them afterwards', async () => {
    const model = answeringModel({ [G4]: { value: 'Adult', confidence: 0.9 } });
    const conversation = start(model);
    await conversation.send({ button: 'Yes' });
    const text = 'She is 35, that much I know';

    const reply = await conversation.send({ text });

    expect(model.doGenerateCalls).toHaveLength(1);
    expect(reply.state).toEqual({ [G2]: 'asking' });
    expect(reply.buttons).toEqual(buttonsOf(G2));
    expect(reply.answers[G2]).toBeUndefined();
    expect(reply.answers[G4]).toEqual({ value: 'Adult', confidence: 0.9, source: 'llm', raw: text });

    const g3 = await conversation.send({ button: 'No' });
    expect(g3.state).toEqual({ [G3]: 'asking' });
    // Gate 4 is no longer offered to the model.
    const afterG3 = await conversation.send({ button: 'Telehealth' });
    expect(afterG3.state).toEqual({ [G5]: 'asking' });
    expect(Object.keys(afterG3.answers).sort()).toEqual([G1, G2, G3, G4]);
    expect(afterG3.answers[G4]?.source).toBe('llm');
    conversation.stop();
  });

  it('offers the model only gates that are still unanswered', async () => {
    const model = answeringModel({ [G3]: { value: 'Urgent care', confidence: 0.9 } });
    const conversation = start(model);
    await conversation.send({ button: 'Yes' });
    await conversation.send({ button: 'Partial' });

    const reply = await conversation.send({ text: 'something is off and he wants to be seen quickly-ish' });

    expect(model.doGenerateCalls).toHaveLength(1);
    expect(Object.keys(answerSchemaProperties(model.doGenerateCalls[0]!))).toEqual([G3, G4, G5]);
    expect(reply.state).toEqual({ [G4]: 'asking' });
    expect(reply.answers[G3]?.value).toBe('Urgent care');
    conversation.stop();
  });

  it('a failing model leaves the answers unchanged, says it did not understand, and the next turn still works', async () => {
    let fail = true;
    const model = new MockLanguageModelV4({
      doGenerate: async (options) => {
        if (fail) throw new Error('503 Service Unavailable');
        const all: Answers = {};
        for (const key of Object.keys(answerSchemaProperties(options))) all[key] = { value: UNKNOWN, confidence: 0.9 };
        all[G2] = { value: 'Yes', confidence: 0.9 };
        return textResult(answersText(withEvidence(all, messageOfPrompt(userText(options)))));
      },
    });
    const conversation = start(model);
    const first = await conversation.send({ button: 'Yes' });

    const failed = await conversation.send({ text: 'Her coverage story is complicated' });

    expect(model.doGenerateCalls).toHaveLength(1);
    // The model's failure is the program's: said plainly (no provider text), with the buttons.
    expect(failed.message).toContain(MODEL_UNAVAILABLE_MESSAGE);
    expect(failed.message).not.toMatch(/503|Service Unavailable/);
    expect(failed.buttons).toEqual(buttonsOf(G2));
    expect(failed.buttons).toEqual(first.buttons);
    expect(failed.answers).toEqual(first.answers);
    expect(failed.answers).toEqual({ [G1]: { value: 'Yes', confidence: 1, source: 'button', raw: 'Yes' } });
    expect(failed.state).toEqual({ [G2]: 'asking' });
    expect(failed.completion.reason).toBe('awaiting_answer');

    fail = false;
    const text = 'Her insurer kept changing the rules on us';
    const next = await conversation.send({ text });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(next.state).toEqual({ [G3]: 'asking' });
    expect(next.answers[G2]).toEqual({ value: 'Yes', confidence: 0.9, source: 'llm', raw: text });
    expect(next.message).toBe(question(G3).prompt);
    conversation.stop();
  });

  it('invalid model output also leaves the answers unchanged, and a button turn still advances', async () => {
    const model = new MockLanguageModelV4({ doGenerate: textResult('I am not sure, sorry') });
    const conversation = start(model);
    await conversation.send({ button: 'Yes' });

    const failed = await conversation.send({ text: 'Her coverage story is complicated' });

    expect(model.doGenerateCalls).toHaveLength(1);
    expect(failed.message).toContain(MODEL_UNAVAILABLE_MESSAGE);
    expect(failed.buttons).toEqual(buttonsOf(G2));
    expect(Object.keys(failed.answers)).toEqual([G1]);

    const next = await conversation.send({ button: 'Partial' });
    expect(next.state).toEqual({ [G3]: 'asking' });
    expect(next.answers[G2]).toEqual({ value: 'Partial', confidence: 1, source: 'button', raw: 'Partial' });
    conversation.stop();
  });
});
