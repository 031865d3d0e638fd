/**
 * Provider and host error text never reaches a person or an HTTP answer
 * (issue 25, section 1): the document agent's decision, rewrite, conversation
 * and web search, and the task agent's host tools, fail with errors that carry
 * what providers put in them (AI_RetryError, ECONNREFUSED with a host and
 * port, URLs, stack lines). The answers, the replies, the journal and the chat
 * say the kind of failure in plain words; the original goes to `onError` (the
 * server's log).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DocumentAgentModelError } from '../../src/document-agent/errors.js';
import { documentAgentHost } from '../../src/document-agent/host.js';
import { documentRepository } from '../../src/documents/repository.js';
import { defineTool } from '../../src/graph/tools/tool.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import type { Store } from '../../src/store/types.js';
import { fakeWebSearch, scriptedModel, type Script } from '../helpers/document-agent.js';
import { templateStore } from '../helpers/pglite-template.js';
import { emptyGraph, goalSpec, openGraphStore, scriptedModel as taskModel, taskAgentRuntime } from '../helpers/task-agent.js';
import { PROVIDER_SECRET_BITS, providerOutage } from '../helpers/provider-errors.js';
import { jsonRequests } from '../helpers/http.js';

const SECRET_BITS = new RegExp(`${PROVIDER_SECRET_BITS.source}|kaboom`);

const refused = providerOutage;
const stacked = () => new Error('GET https://internal-host.example:8080/x kaboom\n    at handler (/srv/app/llm.ts:42:7)');

describe('the document agent over HTTP', () => {
  let store: Store;
  beforeAll(async () => {
    store = await templateStore();
  });
  afterAll(async () => {
    await store?.close();
  });

  function served(script: Script, webSearch?: ReturnType<typeof fakeWebSearch>['search']) {
    const logged: unknown[] = [];
    const model = scriptedModel(script);
    const host = documentAgentHost({ database: store.sql!, model: model.model, ...(webSearch && { webSearch }), onError: (error) => logged.push(error) });
    const runtime = createRuntime({ workflows: [host.workflow], store, actors: host.actors });
    const app = createApp({ runtime, documentAgent: { database: store.sql! } });
    const request = jsonRequests(app);
    // What the log receives: a model error's provider text is its `internal`.
    const log = () => logged.map((e) => (e instanceof DocumentAgentModelError ? e.internal : String(e))).join('\n');
    return { request, runtime, log, repo: documentRepository(store.sql!) };
  }

  /** Every text the person or a client can read afterwards: the chat's messages and the session's history. */
  async function everythingSaid(request: ReturnType<typeof served>['request'], answer: { body: { chat_id?: number; session_id?: string } }, sessionId?: string) {
    const texts: string[] = [];
    if (answer.body.chat_id) texts.push((await request(`/api/chats/${answer.body.chat_id}/messages`)).text);
    const id = sessionId ?? answer.body.session_id;
    if (id) texts.push((await request(`/api/sessions/${id}?trace=true`)).text);
    return texts;
  }

  const cases: [string, Script, string, number][] = [
    ['the decision', { decide: [{ error: refused() }] }, 'make me something', 502],
    ['the conversational answer', { decide: [{}], converse: [{ error: stacked() }] }, 'how are you?', 502],
  ];
  it.each(cases)('%s fails with provider text: the answer and the history say it plainly', async (_, script, message, status) => {
    const { request, runtime, log, repo } = served(script);
    try {
      const project = await repo.createProject(null, { name: `Provider ${Math.random()}` });
      const answer = await request('/api/agent/act', { message, project_id: project.id });
      expect(answer.status, answer.text).toBe(status);
      expect(answer.body.error.message).toMatch(/could not be reached|the model call failed/);
      expect(answer.text).not.toMatch(SECRET_BITS);
      const { rows } = await store.sql!.query<{ session_id: string }>('SELECT session_id FROM gateflow_chats WHERE project_id = $1', [project.id]);
      for (const text of await everythingSaid(request, answer, rows[0]?.session_id)) expect(text).not.toMatch(SECRET_BITS);
      // The provider's words are kept for the log.
      expect(log()).toMatch(/ECONNREFUSED|kaboom/);
    } finally {
      runtime.close();
    }
  });

  it('the rewrite fails with provider text: the answer says it plainly; the document is unchanged', async () => {
    const decision = { should_edit: true, document_id: 0, intent_statement: "I'll rewrite it" };
    const { request, runtime, log, repo } = served({ decide: [() => decision], rewrite: [{ error: refused() }, { error: refused() }] });
    try {
      const project = await repo.createProject(null, { name: `Rewrite ${Math.random()}` });
      const doc = await repo.createDocument(null, project.id, { name: 'Notes', content: 'short' });
      decision.document_id = doc.id;
      const answer = await request('/api/agent/act', { message: 'rewrite my notes', project_id: project.id });
      expect(answer.status, answer.text).toBe(502);
      expect(answer.body.error.message).toBe(
        "I couldn't do that: the language model could not be reached while rewriting the document (the model service could not be reached). Nothing was changed; please send your message again.",
      );
      expect(log()).toMatch(/ECONNREFUSED 10\.0\.0\.7:8080/);
      expect((await repo.getDocument(null, doc.id)).version).toBe(1);
    } finally {
      runtime.close();
    }
  });

  it('a web search that fails with its URL: the reply says the search failed, not where', async () => {
    const web = fakeWebSearch(stacked());
    const { request, runtime, log, repo } = served({ decide: [{ should_create: true, document_name: 'Tiramisu', document_content: '# Tiramisu', needs_web_search: true, search_query: 'tiramisu' }] }, web.search);
    try {
      const project = await repo.createProject(null, { name: `Search ${Math.random()}` });
      const answer = await request('/api/agent/act', { message: 'a tiramisu page from the web', project_id: project.id });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.chat_message.content).toContain('_The web search failed (the search service could not be used), so I went on without it._');
      expect(answer.text).not.toMatch(SECRET_BITS);
      expect(log()).toContain('kaboom');
    } finally {
      runtime.close();
    }
  });
});

describe("the task agent's host tools", () => {
  let store: Store;
  beforeAll(async () => {
    store = await openGraphStore();
  });
  afterAll(async () => {
    await store?.close();
  });

  it('a host tool that throws with a URL, a host and a stack: the reply and the history say which tool failed', async () => {
    await emptyGraph(store);
    const crm = defineTool({
      name: 'crm_lookup',
      description: 'Looks a customer up in the CRM.',
      inputSchema: z.strictObject({}),
      readOnly: true,
      run: async () => {
        throw refused();
      },
    });
    const logged: unknown[] = [];
    const m = taskModel({ GoalSpec: [goalSpec({ complexity: 'simple', step: { tool: 'crm_lookup', args: {} } })], Diagnosis: [{ kind: 'systematic', remedy: 'escalate', explanation: 'the CRM lookup does not work now' }] });
    const agent = taskAgentRuntime(store, { model: m.model, offlineReader: false, tools: [crm], onError: (error) => logged.push(error) });
    const { sessionId } = await agent.runtime.start('task-agent');
    const reply = await agent.runtime.turn(sessionId, { text: 'look the customer up' });
    expect(JSON.stringify(reply)).not.toMatch(SECRET_BITS);
    expect(JSON.stringify(await agent.runtime.session(sessionId, undefined, { trace: true }))).not.toMatch(SECRET_BITS);
    expect(m.calls.find((c) => c.step === 'Diagnosis')!.prompt).toContain('the crm_lookup tool failed');
    expect(m.calls.map((c) => c.prompt).join('\n')).not.toMatch(SECRET_BITS);
    expect(logged).toHaveLength(1);
    expect(String((logged[0] as Error).message)).toContain('ECONNREFUSED');
    agent.runtime.close();
  });
});
