/**
 * The model path is grounded too (issue 26 §3), against a scripted
 * OpenAI-compatible server on loopback: a value without evidence in the
 * message is not committed, an answer to a question not asked yet is never
 * kept silently, and a model that keeps failing never ends the flow.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExtractActor } from '../../src/extract/actor.js';
import { modelFromEnv, type ModelConfig } from '../../src/extract/model-from-env.js';
import { startConversation } from '../../src/flow/conversation.js';
import { MODEL_UNAVAILABLE_MESSAGE } from '../../src/flow/messages.js';
import { respond, startOpenAICompatibleServer, type OpenAICompatibleServer, type RecordedRequest } from '../helpers/openai-compatible-server.js';
import { G1, G2, G3, G4, G5, buttonsOf, flow, graph } from '../helpers/patient-intake.js';

let server: OpenAICompatibleServer;
let config: ModelConfig;

beforeAll(async () => {
  server = await startOpenAICompatibleServer();
  const found = await modelFromEnv({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test', GATEFLOW_MODEL: 'test-model' });
  if (!found) throw new Error('modelFromEnv returned no model');
  config = found;
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());
afterEach(() => expect(server.pending()).toBe(0));

type Said = Record<string, { value: string; evidence: string; confidence: number }>;
const keysOf = (request: RecordedRequest) =>
  Object.keys(
    (request.body as { response_format: { json_schema: { schema: { properties: { answers: { properties: object } } } } } }).response_format.json_schema.schema
      .properties.answers.properties,
  );
/** The model says `given`, and "unknown" with no evidence for every other offered question. */
const saying =
  (given: Said) =>
  (request: RecordedRequest, res: Parameters<ReturnType<typeof respond.json>>[1]) => {
    const answers: Said = {};
    for (const key of keysOf(request)) answers[key] = given[key] ?? { value: 'unknown', evidence: '', confidence: 0.9 };
    return respond.json({ answers })(request, res);
  };

const start = () => startConversation(flow, { extract: createExtractActor({ model: config.model, maxRetries: 0 }) });
const prompt = (key: string) => graph.question(key)!.prompt;

describe('model answers need evidence in the message', () => {
  it('a value whose evidence is not in the message is not committed', async () => {
    server.enqueue(saying({ [G2]: { value: 'Yes', evidence: 'we had lapses in coverage', confidence: 0.95 } }));
    const c = start();
    await c.send({ button: 'Yes' });
    const r = await c.send({ text: 'her coverage story is complicated' });
    expect(r.answers[G2]).toBeUndefined();
    expect(r.state).toEqual({ [G2]: 'asking' });
  });

  it('a value whose evidence is negated in the message is not committed', async () => {
    server.enqueue(saying({ [G2]: { value: 'Yes', evidence: 'lapses', confidence: 0.95 } }));
    const c = start();
    await c.send({ button: 'Yes' });
    const r = await c.send({ text: 'not really lapses, maybe' });
    expect(r.answers[G2]).toBeUndefined();
  });

  it('a value with evidence in the message is committed', async () => {
    server.enqueue(saying({ [G2]: { value: 'Partial', evidence: 'on and off', confidence: 0.9 } }));
    const c = start();
    await c.send({ button: 'Yes' });
    const r = await c.send({ text: 'her insurer has been on and off with her over the years' });
    expect(r.answers[G2]).toMatchObject({ value: 'Partial', source: 'llm' });
  });
});

describe('a model claiming an answer to a question not asked yet', () => {
  it('is not committed from a bare word or number, and the current question is asked again', async () => {
    // "2" typed at the insurance question: the model claims age group Minor, quoting "2".
    server.enqueue(saying({ [G4]: { value: 'Minor', evidence: '2', confidence: 0.95 } }));
    const c = start();
    await c.send({ button: 'Yes' });
    const r = await c.send({ text: '2' });
    expect(r.answers[G4]).toBeUndefined();
    expect(Object.keys(r.answers)).toEqual([G1]);
    expect(r.state).toEqual({ [G2]: 'asking' });
  });

  it('is kept from a clear assertion and said back in the reply, never silently', async () => {
    const text = 'coverage has been rock solid; we would like the video option for the visit';
    server.enqueue(
      saying({
        [G2]: { value: 'No', evidence: 'rock solid', confidence: 0.9 },
        [G3]: { value: 'Telehealth', evidence: 'the video option', confidence: 0.9 },
      }),
    );
    const c = start();
    await c.send({ button: 'Yes' });
    const r = await c.send({ text });
    expect(r.answers[G3]).toMatchObject({ value: 'Telehealth', source: 'llm' });
    expect(r.state).toEqual({ [G4]: 'asking' });
    expect(r.message).toBe(`Noted: Visit type: Telehealth.\n\n${prompt(G4)}`);
  });
});

describe('a model that is down', () => {
  it('five outages in a row leave the session active with its buttons, say so plainly, and count no attempt', async () => {
    const c = start();
    await c.send({ button: 'Yes' });
    const outages = [
      respond.error(503, 'upstream overloaded'),
      respond.raw(500, { error: { message: 'connect ECONNREFUSED 10.0.0.1:443 https://api.example.com/v1' } }),
      respond.content('not json at all'),
      respond.error(429, 'rate limited'),
      respond.json({ answers: {} }),
    ];
    for (const outage of outages) {
      server.enqueue(outage);
      const r = await c.send({ text: 'her coverage story is complicated' });
      expect(r.state).toEqual({ [G2]: 'asking' });
      expect(r.completion.isComplete).toBe(false);
      expect(r.buttons).toEqual(buttonsOf(G2));
      expect(r.message).toBe(`${MODEL_UNAVAILABLE_MESSAGE}\n\n${prompt(G2)}`);
      expect(r.message).not.toMatch(/AI_|ECONNREFUSED|https?:|503|500|429/);
    }
    // Still there: a button answers.
    const next = await c.send({ button: 'No' });
    expect(next.state).toEqual({ [G3]: 'asking' });
    expect(next.answers[G5]).toBeUndefined();
  });
});
