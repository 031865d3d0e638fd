/**
 * Provider error text never reaches a person or an HTTP answer (issue 25,
 * section 1): a model that fails as providers do (AI_RetryError around a
 * connection refused with its URL, an API error with its body, a stack) is
 * described in plain words; the raw text is kept for logs only.
 */
import { APICallError } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateObjectSafely } from '../../src/extract/object-call.js';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import { createApp } from '../../src/server/app.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { z } from 'zod';
import { call, exampleFlows, serveOnLoopback } from '../helpers/http.js';
import { PROVIDER_SECRET_BITS, providerOutage } from '../helpers/provider-errors.js';

const SECRET_BITS = PROVIDER_SECRET_BITS;

const refused = providerOutage;

function serverError(): Error {
  return new APICallError({
    message: 'Internal Server Error: upstream internal-host.example failed\n    at handler (/srv/app/llm.ts:42:7)',
    url: 'https://internal-host.example/v1/chat/completions',
    requestBodyValues: {},
    statusCode: 500,
    responseBody: '{"error":"stack at /srv/app/llm.ts:42"}',
    isRetryable: false,
  });
}

const throwing = (make: () => Error) =>
  new MockLanguageModelV4({
    doGenerate: async () => {
      throw make();
    },
  });

describe('a failed model call is described without the provider text', () => {
  it.each([
    ['a connection refused inside AI_RetryError', refused, 'the model service could not be reached'],
    ['an HTTP 500 with a stack in its body', serverError, 'the model service answered with an error (HTTP 500)'],
    ['a plain error with a URL and a stack', () => new Error('GET http://internal-host.example:8080/x broke at foo (/srv/x.ts:1:2)'), 'the model call failed'],
  ])('%s', async (_, make, words) => {
    const result = await generateObjectSafely({ instructions: 'i', prompt: 'p', schema: z.object({ a: z.string() }), name: 'A' }, { model: throwing(make), maxRetries: 0 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure.message).toBe(words);
    expect(result.failure.message).not.toMatch(SECRET_BITS);
    // The raw text is kept for the logs.
    expect(result.failure.detail.length).toBeGreaterThan(0);
  });
});

describe('over HTTP: the intake with a model that fails', () => {
  it('no answer carries the provider text, the URL or the stack', async () => {
    const runtime = createFlowRuntime({ flows: exampleFlows(), store: createMemoryStore(), model: throwing(refused) });
    const server = await serveOnLoopback(createApp({ runtime }));
    try {
      const started = await call(server.url, '/api/flows/patient-intake/sessions', { json: {} });
      expect(started.status).toBe(201);
      const { sessionId } = started.body;
      const texts = [started.text];
      for (const turn of [{ button: 'Yes' }, { text: 'her insurance story is complicated and long' }, { text: 'something the matcher cannot read at all, really' }]) {
        const reply = await call(server.url, `/api/sessions/${sessionId}/turns`, { json: turn });
        texts.push(reply.text);
      }
      texts.push((await call(server.url, `/api/sessions/${sessionId}?trace=true`)).text);
      for (const text of texts) expect(text).not.toMatch(SECRET_BITS);
    } finally {
      await server.close();
      runtime.close();
    }
  });
});
