/**
 * A few chaos runs over real HTTP on loopback (issue 27 §5): the document
 * agent's act API and the task agent's turns, the model answering at random
 * (src/testing/chaos-model.ts). Whatever the model does, no request is
 * answered 500: a model that failed is a 502 `model_error` on act (the agent
 * says so), a refused answer a 4xx, everything else a 200.
 * GATEFLOW_CHAOS_HTTP_RUNS sets the runs per agent (default 15).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentAgentHost } from '../../src/document-agent/host.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import type { Store } from '../../src/store/types.js';
import { taskAgentHost } from '../../src/task-agent/host.js';
import { chaosModel } from '../../src/testing/chaos-model.js';
import { CHAOS_MODEL_TIMEOUT_MS, CHAOS_SEED, CHAOS_WEIGHTS, Tally } from '../helpers/chaos.js';
import { call, serveOnLoopback, type ApiResponse } from '../helpers/http.js';
import { openGraphStore } from '../helpers/task-agent.js';

const RUNS = Number(process.env.GATEFLOW_CHAOS_HTTP_RUNS ?? 15);
const tally = new Tally();
afterAll(() => console.log(`[chaos http] ${RUNS} runs per agent, seed ${CHAOS_SEED}: ${tally}`));

const expectNo5xxButModel = (response: { status: number; text: string; body: { error?: { code?: string } } }, where: string) => {
  tally.add(`status:${response.status}${response.body?.error?.code ? `/${response.body.error.code}` : ''}`);
  expect(response.status === 502 && response.body?.error?.code === 'model_error' ? 200 : response.status, `${where}: ${response.text.slice(0, 300)}`).toBeLessThan(500);
};

/**
 * One PGlite store (in memory, with AGE) for both agents, as `gateflow serve`
 * serves them on one database: each run makes a project or a session of its
 * own, so no run sees another's.
 */
let store: Store;
beforeAll(async () => {
  store = await openGraphStore();
});
afterAll(() => store?.close());

describe('the document agent over HTTP under a chaos model', () => {
  it(`answers no request 500 in ${RUNS} runs`, async () => {
    for (let run = 0; run < RUNS; run++) {
      const seed = CHAOS_SEED * 1000 + run;
      const host = documentAgentHost({ database: store.sql!, model: chaosModel({ seed, weights: CHAOS_WEIGHTS, hugeChars: 20_000 }), modelTimeoutMs: CHAOS_MODEL_TIMEOUT_MS });
      const runtime = createRuntime({ workflows: [host.workflow], store, actors: host.actors });
      const server = await serveOnLoopback(createApp({ runtime, documentAgent: { database: store.sql! } }));
      try {
        const project = await call(server.url, '/api/projects', { json: { name: `HTTP chaos ${run}` } });
        expect(project.status, project.text).toBe(201);
        let chatId: number | null = null;
        for (const [i, message] of ['Create a document called Menu with three dishes', 'Add this to Menu: soup', 'yes', 'Rewrite Menu in a friendlier tone', 'Proceed'].entries()) {
          const response: ApiResponse = await call(server.url, '/api/agent/act', { json: { message, project_id: project.body.id, chat_id: chatId, turn_id: `m-${i}` } });
          expectNo5xxButModel(response, `seed ${seed}, message ${i}`);
          if (response.status === 200) chatId = response.body.chat_id;
        }
      } finally {
        await server.close();
        runtime.close();
      }
    }
  }, 600_000);
});

describe('the task agent over HTTP under a chaos model', () => {
  it(`answers no request 500 in ${RUNS} runs`, async () => {
    for (let run = 0; run < RUNS; run++) {
      const seed = CHAOS_SEED * 1000 + run;
      const host = taskAgentHost({ database: store.sql!, model: chaosModel({ seed, weights: CHAOS_WEIGHTS, hugeChars: 20_000 }), modelTimeoutMs: CHAOS_MODEL_TIMEOUT_MS, offlineReader: run % 2 === 0, backoffMs: 1, maxBackoffMs: 2 });
      const runtime = createRuntime({ workflows: [host.workflow], store, actors: host.actors });
      const server = await serveOnLoopback(createApp({ runtime }));
      try {
        const started = await call(server.url, '/api/flows/task-agent/sessions', { method: 'POST' });
        expect(started.status, started.text).toBeLessThan(300);
        const sessionId = started.body.sessionId as string;
        for (const [i, text] of ['Create a Ticket node with key TICKET-1 and status open, then link it to User U-1', 'yes', 'open', 'stop'].entries()) {
          const response = await call(server.url, `/api/sessions/${sessionId}/turns`, { json: { text, turnId: `t-${i}` } });
          expectNo5xxButModel(response, `seed ${seed}, turn ${i}`);
          if (response.status === 200 && ['done', 'cancelled', 'failed'].includes(response.body.status)) break;
        }
      } finally {
        await server.close();
        runtime.close();
      }
    }
  }, 600_000);
});
