/**
 * The document agent over HTTP (issue 14, section 3; seed 002 steps 1, 2, 7
 * and 8) on a real socket on loopback, through `startServer`: PGlite in a
 * temporary directory (and PostgreSQL when GATEFLOW_TEST_DATABASE_URL is
 * set), the model scripted with `MockLanguageModelV4`. The seed's example,
 * the chat rule, the offline commands with their gates (a duplicate name, a
 * deletion confirmed and one cancelled, a clarification), the errors, the
 * OpenAPI document, a model failure that writes nothing, the events stream;
 * `gateflow serve`'s start-up line and its refusal of a malformed SEARXNG_URL.
 *
 * With DOC_AGENT_TRANSCRIPT=<file>, the requests and answers of /api/agent/act
 * are written there (the closing note's transcript).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sign } from 'hono/jwt';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import { ActResponseSchema } from '../../src/server/documents.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { call, exampleFlows, serveOnLoopback, type ApiResponse } from '../helpers/http.js';
import type { CallOptions } from '../helpers/mock-model.js';
import { textResult } from '../helpers/mock-model.js';
import { createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';
import { killServers, spawnServe } from '../helpers/serve-process.js';
import { PATIENCE_MS } from '../helpers/patience.js';
import { runCli } from '../helpers/cli.js';
import { templateDataDir } from '../helpers/pglite-template.js';

const SECRET = 'a-secret-of-at-least-32-bytes-for-the-documents';
const WORKFLOWS = exampleFlows().map((f) => flowWorkflow(f));

/** The seed's decision for "Add my favorite recipes" in an empty project (step 3b, and its example flow). */
const SEED_DECISION = {
  should_edit: false,
  should_create: true,
  document_id: null,
  document_name: 'Recipes',
  document_content: '# Recipes\n\n## Breakfast\nPancakes.\n\n## Lunch\nTomato soup.\n\n## Dinner\nRisotto.\n',
  standing_instruction: 'Keep the recipes grouped by meal.',
  needs_clarification: false,
  clarification_question: null,
  pending_confirmation: false,
  confirmation_prompt: null,
  needs_web_search: false,
  search_query: null,
  intent_statement: "I'll create a new document called 'Recipes'",
  reasoning: 'User wants to add recipes, no existing document found',
  conversational_response: null,
  change_summary: null,
  content_summary: 'Created a Recipes document with sections for breakfast, lunch, dinner...',
};
const SEED_REPLY = "I've created the document 'Recipes' in this project.\n\n**Document Content Summary:**\nCreated a Recipes document with sections for breakfast, lunch, dinner...";

/**
 * A model scripted by schema name: each call takes the next answer queued
 * for its step (`agent_decision` for the decision, `text` for a rewrite or a
 * conversational answer); `failWith` makes every call fail. A call with
 * nothing queued fails loudly, so an offline command that reached the model shows.
 */
function scriptedModel() {
  const queues: Record<string, unknown[]> = {};
  const calls: string[] = [];
  const state = { failWith: null as Error | null };
  const model = new MockLanguageModelV4({
    doGenerate: async (options: CallOptions) => {
      const format = options.responseFormat;
      const step = format?.type === 'json' && format.name ? format.name : 'text';
      calls.push(step);
      if (state.failWith) throw state.failWith;
      const next = queues[step]?.shift();
      if (next === undefined) throw new Error(`scripted model: no ${step} answer left`);
      return textResult(typeof next === 'string' ? next : JSON.stringify(next));
    },
  });
  return {
    model,
    calls,
    state,
    queue: (step: string, ...answers: unknown[]) => (queues[step] ??= []).push(...answers),
    left: () => Object.values(queues).reduce((n, q) => n + q.length, 0),
    clear: () => {
      for (const q of Object.values(queues)) q.length = 0;
    },
  };
}

const tmpDirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gateflow-documents-http-'));
  tmpDirs.push(dir);
  return dir;
};

/** The transcript of /api/agent/act, for the closing note. */
const transcript: { title: string; request: unknown; status: number; response: unknown }[] = [];
afterAll(async () => {
  await killServers();
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
  const file = process.env.DOC_AGENT_TRANSCRIPT;
  if (file) writeFileSync(file, JSON.stringify(transcript, null, 2));
});

function expectError(response: ApiResponse, status: number, code: string, message?: RegExp) {
  expect({ status: response.status, body: response.body }, response.text).toEqual({ status, body: { error: { code, message: expect.any(String) } } });
  if (message) expect(response.body.error.message).toMatch(message);
}

/** A client of one server: act (recorded), projects, documents, messages. */
function client(url: string, token?: string) {
  const auth = token === undefined ? {} : { token };
  return {
    async act(body: Record<string, unknown>, title = ''): Promise<ApiResponse> {
      const response = await call(url, '/api/agent/act', { json: body, ...auth });
      if (title) transcript.push({ title, request: body, status: response.status, response: response.body });
      return response;
    },
    /** An act that must succeed, its body checked against the response schema. */
    async ok(body: Record<string, unknown>, title = '') {
      const response = await this.act(body, title);
      expect(response.status, response.text).toBe(200);
      return ActResponseSchema.parse(response.body);
    },
    async project(name = 'My Project'): Promise<number> {
      const response = await call(url, '/api/projects', { json: { name }, ...auth });
      expect(response.status, response.text).toBe(201);
      return response.body.id as number;
    },
    documents: async (projectId: number) => {
      const response = await call(url, `/api/projects/${projectId}/documents`, auth);
      expect(response.status, response.text).toBe(200);
      return response.body.documents as { id: number; name: string; content: string; version: number }[];
    },
    document: async (id: number) => {
      const response = await call(url, `/api/documents/${id}`, auth);
      expect(response.status, response.text).toBe(200);
      return response.body as { id: number; name: string; content: string; version: number };
    },
    messages: async (chatId: number, query = '') => {
      const response = await call(url, `/api/chats/${chatId}/messages${query}`, auth);
      expect(response.status, response.text).toBe(200);
      return response.body.messages as { seq: number; role: string; content: string; metadata: Record<string, unknown> }[];
    },
    get: (path: string) => call(url, path, auth),
  };
}

/** The seed's example end to end: the response's shape and what it stored. */
async function seedExample(api: ReturnType<typeof client>, script: ReturnType<typeof scriptedModel>, title = '') {
  const projectId = await api.project('My Project');
  const callsBefore = script.calls.length;
  script.queue('agent_decision', SEED_DECISION);
  const body = await api.ok({ message: 'Add my favorite recipes', project_id: projectId, document_id: null, chat_id: null }, title);
  expect(script.calls.slice(callsBefore)).toEqual(['agent_decision']);
  expect(body.document).toEqual({
    id: expect.any(Number),
    project_id: projectId,
    name: 'Recipes',
    standing_instruction: SEED_DECISION.standing_instruction,
    content: SEED_DECISION.document_content,
    version: 1,
    created_at: expect.any(String),
    updated_at: expect.any(String),
  });
  expect(body.chat_message).toMatchObject({ chat_id: body.chat_id, seq: 2, role: 'assistant', content: SEED_REPLY });
  expect(body.chat_message.content.startsWith("I've created the document 'Recipes' in this project.\n\n**Document Content Summary:**")).toBe(true);
  expect(body.chat_message.metadata).toMatchObject({ should_create: true, web_search_performed: false, document_updated: false, outcome: 'created' });
  expect(body.agent_decision).toEqual(SEED_DECISION);
  expect(body.web_search_performed).toBe(false);
  expect(body.awaiting).toBeNull();
  // Step 2b and 5: the person's message and the reply, in the chat.
  expect((await api.messages(body.chat_id)).map((m) => [m.role, m.content])).toEqual([
    ['user', 'Add my favorite recipes'],
    ['assistant', SEED_REPLY],
  ]);
  expect(await api.documents(projectId)).toEqual([body.document]);
  return { projectId, body };
}

/** The offline commands over HTTP: a duplicate name, a deletion confirmed and one cancelled, a clarification. */
async function offlineCommands(api: ReturnType<typeof client>, script: ReturnType<typeof scriptedModel>, record = false) {
  const t = (title: string) => (record ? title : '');
  const callsBefore = script.calls.length;
  const projectId = await api.project('Trip');
  const created = await api.ok({ message: 'Create a document called Travel Guide', project_id: projectId }, t('create a document (offline)'));
  expect(created.document?.name).toBe('Travel Guide');
  const chat_id = created.chat_id;

  // 4d: a duplicate name, its two choices waiting as a gate; choosing one continues.
  const duplicate = await api.ok({ message: 'create a document called travel guide', project_id: projectId, chat_id }, t('duplicate name'));
  expect(duplicate.document).toBeNull();
  expect(duplicate.chat_id).toBe(chat_id);
  expect(duplicate.chat_message.content).toBe(
    "A document named 'Travel Guide' already exists in this project.\nI can add this content to the existing document instead. \n" +
      "Would you like me to update 'Travel Guide' with the new content?\n\nWould you like me to:\n1. Add this content to the existing document\n2. Create a new document with a different name",
  );
  expect(duplicate.awaiting).toEqual({
    gate_id: expect.any(String),
    name: 'duplicate_choice',
    options: [
      { label: "Add this content to 'Travel Guide'", value: 'add_to_existing' },
      { label: "Create 'Travel Guide 2' instead", value: 'create_new' },
    ],
  });
  const second = await api.ok({ message: 'create_new', project_id: projectId, chat_id }, t('duplicate name: choosing create_new'));
  expect(second.document?.name).toBe('Travel Guide 2');
  expect(second.chat_message.content.startsWith("I've created the document 'Travel Guide 2' in this project.")).toBe(true);
  expect(second.awaiting).toBeNull();
  expect((await api.documents(projectId)).map((d) => d.name)).toEqual(['Travel Guide', 'Travel Guide 2']);

  const added = await api.ok({ message: 'add this to Travel Guide: ## Budget\nCheap hostels.\n\n## Sights\nThe old town.', project_id: projectId, chat_id }, t('add to a document (offline)'));
  const guide = added.document!;
  expect(guide).toMatchObject({ name: 'Travel Guide', version: 2 });
  expect(guide.content).toContain('## Budget\nCheap hostels.');

  // 4b: a deletion waits for Proceed; the document is untouched until then.
  const asked = await api.ok({ message: 'delete the Budget section from Travel Guide', project_id: projectId, chat_id }, t('deletion: asked'));
  expect(asked.document).toBeNull();
  expect(asked.chat_message.content).toMatch(/^I'll remove the Budget section from the Travel Guide document\..*Should I proceed\?$/s);
  expect(asked.awaiting).toEqual({
    gate_id: expect.any(String),
    name: 'confirmation',
    options: [
      { label: 'Proceed', value: 'proceed' },
      { label: 'Cancel', value: 'cancel' },
    ],
  });
  expect(await api.document(guide.id)).toEqual(guide);
  const proceeded = await api.ok({ message: 'Proceed', project_id: projectId, chat_id }, t('deletion: Proceed'));
  expect(proceeded.document).toMatchObject({ id: guide.id, version: 3 });
  expect(proceeded.document!.content).not.toContain('Budget');
  expect(proceeded.document!.content).toContain('## Sights\nThe old town.');
  expect(proceeded.awaiting).toBeNull();
  expect(await api.document(guide.id)).toEqual(proceeded.document);

  // Another deletion, cancelled: nothing changes.
  const again = await api.ok({ message: 'delete the Sights section from Travel Guide', project_id: projectId, chat_id }, t('deletion: asked again'));
  expect(again.awaiting?.name).toBe('confirmation');
  const cancelled = await api.ok({ message: 'Cancel', project_id: projectId, chat_id }, t('deletion: Cancel'));
  expect(cancelled.document).toBeNull();
  expect(cancelled.chat_message.content).toMatch(/^Cancelled: nothing was changed \(/);
  expect(cancelled.awaiting).toBeNull();
  expect(await api.document(guide.id)).toEqual(proceeded.document);

  // 4a: adding to a document that does not exist asks which one, listing them.
  const unclear = await api.ok({ message: 'add this to Packing List: socks', project_id: projectId, chat_id }, t('clarification'));
  expect(unclear.document).toBeNull();
  expect(unclear.agent_decision?.needs_clarification).toBe(true);
  expect(unclear.chat_message.content).toContain('You have: Travel Guide, Travel Guide 2');
  expect(unclear.chat_message.metadata).toMatchObject({ needs_clarification: true, outcome: 'clarify' });
  expect((await api.documents(projectId)).map((d) => d.name)).toEqual(['Travel Guide', 'Travel Guide 2']);

  // Every message and reply is in the chat, in order; none of them needed the model.
  const messages = await api.messages(chat_id);
  expect(messages.map((m) => m.seq)).toEqual(Array.from({ length: 18 }, (_, i) => i + 1));
  expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
    'Create a document called Travel Guide',
    'create a document called travel guide',
    "Create 'Travel Guide 2' instead",
    'add this to Travel Guide: ## Budget\nCheap hostels.\n\n## Sights\nThe old town.',
    'delete the Budget section from Travel Guide',
    'Proceed',
    'delete the Sights section from Travel Guide',
    'Cancel',
    'add this to Packing List: socks',
  ]);
  expect(script.calls.length).toBe(callsBefore);
}

describe('the document agent on PGlite (startServer, no auth: the owner is null)', () => {
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  const script = scriptedModel();
  beforeAll(async () => {
    server = await startServer({ workflows: WORKFLOWS, port: 0, dataDir: templateDataDir('graph', join(tempDir(), 'db')), documentAgent: { model: script.model, modelTimeoutMs: 5000 } });
    api = client(server.url);
  });
  afterAll(() => server?.close());

  it('serves the document agent beside the flows', async () => {
    expect(server.documentAgent).toBe(true);
    const flows = await api.get('/api/flows');
    expect(flows.body.flows.map((f: { id: string }) => f.id)).toContain('document-agent');
  });

  it("the seed's example: \"Add my favorite recipes\" in an empty project creates Recipes", async () => {
    await seedExample(api, script, "the seed's example");
    expect(script.left()).toBe(0);
  });

  it('projects: created (201), listed oldest first; an empty project has no documents', async () => {
    const created = await call(server.url, '/api/projects', { json: { name: '  Garden  ', description: 'Plants' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), name: 'Garden', description: 'Plants', created_at: expect.any(String) });
    expect(new Date(created.body.created_at).toISOString()).toBe(created.body.created_at);
    const list = await api.get('/api/projects');
    expect(list.status).toBe(200);
    expect(list.body.projects.at(-1)).toEqual(created.body);
    const ids = list.body.projects.map((p: { id: number }) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(await api.documents(created.body.id)).toEqual([]);
  });

  it('the chat rule: the same chat_id continues; a chat of another project or an unknown one gives a new chat', async () => {
    const a = await api.project('A');
    const b = await api.project('B');
    const first = await api.ok({ message: 'Create a document called Notes', project_id: a });
    const same = await api.ok({ message: 'which documents do I have?', project_id: a, chat_id: first.chat_id });
    expect(same.chat_id).toBe(first.chat_id);
    expect(same.session_id).toBe(first.session_id);
    expect(same.chat_message.seq).toBe(4);
    expect(same.chat_message.content).toContain('Notes');

    // No chat_id: a new chat, even in the same project.
    const fresh = await api.ok({ message: 'which documents do I have?', project_id: a });
    expect(fresh.chat_id).not.toBe(first.chat_id);
    expect(fresh.session_id).not.toBe(first.session_id);

    // The chat belongs to project A: asked in B, a new chat in B, and A's chat is untouched.
    const other = await api.ok({ message: 'Create a document called Notes', project_id: b, chat_id: first.chat_id });
    expect(other.chat_id).not.toBe(first.chat_id);
    expect(other.session_id).not.toBe(first.session_id);
    expect(other.document).toMatchObject({ name: 'Notes', project_id: b, version: 1 });
    expect(other.chat_message.seq).toBe(2);
    expect((await api.messages(first.chat_id)).length).toBe(4);

    // An unknown chat: a new chat.
    const unknown = await api.ok({ message: 'which documents do I have?', project_id: a, chat_id: 987_654_321 });
    expect(new Set([first.chat_id, fresh.chat_id, other.chat_id, unknown.chat_id]).size).toBe(4);
    expect(unknown.chat_message.seq).toBe(2);
  });

  it('document_id focuses the chat on that document (null clears it); "add this" then goes there', async () => {
    const projectId = await api.project('Focus');
    const made = await api.ok({ message: 'Create a document called Ideas', project_id: projectId });
    const focus = async () =>
      (await server.store.sql!.query<{ focus_document_id: string | number | null }>('SELECT focus_document_id FROM gateflow_chats WHERE id = $1', [made.chat_id])).rows[0]!
        .focus_document_id;
    expect(await focus()).toBeNull();
    const focused = await api.ok({ message: 'which documents do I have?', project_id: projectId, chat_id: made.chat_id, document_id: made.document!.id });
    expect(Number(await focus())).toBe(made.document!.id);
    expect(focused.chat_id).toBe(made.chat_id);
    // Absent keeps the focus; null clears it.
    await api.ok({ message: 'which documents do I have?', project_id: projectId, chat_id: made.chat_id });
    expect(Number(await focus())).toBe(made.document!.id);
    await api.ok({ message: 'which documents do I have?', project_id: projectId, chat_id: made.chat_id, document_id: null });
    expect(await focus()).toBeNull();
  });

  it('offline commands over HTTP: a duplicate name, a deletion confirmed and one cancelled, a clarification', async () => {
    await offlineCommands(api, script, true);
  });

  it('a model failure answers 502 model_error and writes nothing: no message, no document; the chat goes on after', async () => {
    const { projectId, body } = await seedExample(api, script);
    const before = { messages: await api.messages(body.chat_id), documents: await api.documents(projectId) };
    script.state.failWith = new Error('HTTP 500 from the provider');
    try {
      const failed = await api.act({ message: 'Add a dessert section to my recipes', project_id: projectId, chat_id: body.chat_id });
      expectError(failed, 502, 'model_error', /language model/);
    } finally {
      script.state.failWith = null;
    }
    expect(await api.messages(body.chat_id)).toEqual(before.messages);
    expect(await api.documents(projectId)).toEqual(before.documents);
    // The chat is not stuck: an explicit command works, and is stored after the two earlier messages.
    const next = await api.ok({ message: 'which documents do I have?', project_id: projectId, chat_id: body.chat_id });
    expect(next.chat_message.seq).toBe(4);
  });

  it('a decision outside the schema is a model failure too (502), and nothing is written', async () => {
    const projectId = await api.project('Schema');
    script.queue('agent_decision', { should_create: 'yes please' }, { should_create: 'yes please' }, { should_create: 'yes please' });
    const failed = await api.act({ message: 'Add my favorite recipes', project_id: projectId });
    expectError(failed, 502, 'model_error');
    expect(await api.documents(projectId)).toEqual([]);
    const chats = await server.store.sql!.query<{ n: string | number }>(
      'SELECT count(*) AS n FROM gateflow_messages m JOIN gateflow_chats c ON c.id = m.chat_id WHERE c.project_id = $1',
      [projectId],
    );
    expect(Number(chats.rows[0]!.n)).toBe(0);
    script.clear();
  });

  it('the events stream announces agent.action_completed after an act', async () => {
    const projectId = await api.project('Events');
    const controller = new AbortController();
    const response = await fetch(`${server.url}/api/events`, { signal: controller.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (test: () => boolean) => {
      const deadline = Date.now() + PATIENCE_MS;
      while (!test()) {
        if (Date.now() > deadline) throw new Error(`timed out; got ${text}`);
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended; got ${text}`);
        text += value;
      }
    };
    try {
      await until(() => text.includes(': connected'));
      const acted = await api.ok({ message: 'Create a document called Diary', project_id: projectId });
      await until(() => /event: agent\.action_completed\ndata: .*\n/.test(text));
      const data = JSON.parse(/event: agent\.action_completed\ndata: (.*)\n/.exec(text)![1]!);
      expect(data).toMatchObject({
        type: 'agent.action_completed',
        sessionId: acted.session_id,
        workflowId: 'document-agent',
        data: {
          user_id: null,
          chat_id: acted.chat_id,
          project_id: projectId,
          document_id: acted.document!.id,
          action_type: 'agent_action',
          success: true,
          metadata: { outcome: 'created', web_search_performed: false, model_calls: 0 },
        },
      });
    } finally {
      controller.abort();
    }
  });

  it('404: a project, document or chat that does not exist; a document of another project', async () => {
    const projectId = await api.project('Mine');
    const other = await api.project('Other');
    const doc = await api.ok({ message: 'Create a document called Elsewhere', project_id: other });
    expectError(await api.act({ message: 'hello', project_id: 987_654_321 }), 404, 'project_not_found', /no project 987654321/);
    expectError(await api.act({ message: 'hello', project_id: projectId, document_id: doc.document!.id }), 404, 'document_not_found');
    expectError(await api.act({ message: 'hello', project_id: projectId, document_id: 987_654_321 }), 404, 'document_not_found');
    expectError(await api.get('/api/projects/987654321/documents'), 404, 'project_not_found');
    expectError(await api.get('/api/documents/987654321'), 404, 'document_not_found');
    expectError(await api.get('/api/chats/987654321/messages'), 404, 'chat_not_found');
    // Nothing was started or written by the refused messages.
    expect(await api.documents(projectId)).toEqual([]);
  });

  it('400: the body field that is wrong is named; path ids and the page are checked', async () => {
    const projectId = await api.project('Checks');
    const cases: [Record<string, unknown> | string, RegExp][] = [
      [{ project_id: projectId }, /message: is required/],
      [{ message: '', project_id: projectId }, /message: must not be empty/],
      [{ message: '   ', project_id: projectId }, /message: must not be blank/],
      [{ message: 'x'.repeat(4001), project_id: projectId }, /message: must be at most 4000 characters/],
      [{ message: 42, project_id: projectId }, /message: must be a string/],
      [{ message: 'hi' }, /project_id: is required/],
      [{ message: 'hi', project_id: String(projectId) }, /project_id: must be a number/],
      [{ message: 'hi', project_id: 1.5 }, /project_id: must be a whole number/],
      [{ message: 'hi', project_id: projectId, chat_id: -3 }, /chat_id: must be positive/],
      [{ message: 'hi', project_id: projectId, document_id: 'x' }, /document_id: must be a number/],
      [{ message: 'hi', project_id: projectId, turn_id: '' }, /turn_id: must not be empty/],
      [{ message: 'hi', project_id: projectId, mode: 'fast' }, /unknown field "mode"/],
      ['[1, 2]', /the body must be a JSON object/],
    ];
    for (const [body, message] of cases) {
      const response = typeof body === 'string' ? await call(server.url, '/api/agent/act', { body }) : await api.act(body);
      expectError(response, 400, 'invalid_body', message);
    }
    expectError(await call(server.url, '/api/agent/act', { body: '{"message":' }), 400, 'invalid_json');
    expectError(await call(server.url, '/api/projects', { json: {} }), 400, 'invalid_body', /name/);
    expectError(await call(server.url, '/api/projects', { json: { name: '  ' } }), 400, 'invalid_body', /name: must not be empty/);
    for (const path of ['/api/documents/abc', '/api/documents/0', '/api/projects/-1/documents', '/api/chats/1.5/messages', '/api/documents/99999999999999999'])
      expectError(await api.get(path), 400, 'invalid_id', /id must be a positive whole number/);
    const made = await api.ok({ message: 'Create a document called Pages', project_id: projectId });
    expectError(await api.get(`/api/chats/${made.chat_id}/messages?limit=0`), 400, 'invalid_query', /limit/);
    expectError(await api.get(`/api/chats/${made.chat_id}/messages?after=x`), 400, 'invalid_query', /after/);
    expectError(await api.get(`/api/chats/${made.chat_id}/messages?page=2`), 400, 'invalid_query', /unknown query parameter "page"/);
    // A page: after and limit.
    expect((await api.messages(made.chat_id, '?after=1&limit=1')).map((m) => [m.seq, m.role])).toEqual([[2, 'assistant']]);
    // Only JSON is taken.
    const form = await call(server.url, '/api/agent/act', { body: 'message=hi', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectError(form, 415, 'unsupported_media_type');
  });

  it('a turn_id sent again returns the stored answer and acts once', async () => {
    const projectId = await api.project('Replay');
    const first = await api.ok({ message: 'Create a document called Log', project_id: projectId, turn_id: 'm-1' });
    const again = await api.ok({ message: 'Create a document called Log', project_id: projectId, chat_id: first.chat_id, turn_id: 'm-1' });
    expect(again.document).toEqual(first.document);
    expect(again.chat_message).toEqual(first.chat_message);
    expect((await api.documents(projectId)).length).toBe(1);
    expect((await api.messages(first.chat_id)).length).toBe(2);
  });

  it('the OpenAPI document lists the routes, with their schemas', async () => {
    const doc = (await api.get('/api/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/agent/act', '/api/projects', '/api/projects/{id}/documents', '/api/documents/{id}', '/api/chats/{id}/messages']),
    );
    expect(Object.keys(doc.paths['/api/projects'])).toEqual(['post', 'get']);
    expect(doc.paths['/api/agent/act'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ActRequest' });
    expect(doc.paths['/api/agent/act'].post.responses[200].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ActResponse' });
    expect(Object.keys(doc.paths['/api/agent/act'].post.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '502', '503']));
    expect(doc.components.schemas.ActRequest).toMatchObject({ required: ['message', 'project_id'], additionalProperties: false });
    expect(Object.keys(doc.components.schemas.ActRequest.properties)).toEqual(['message', 'project_id', 'document_id', 'chat_id', 'turn_id']);
    expect(Object.keys(doc.components.schemas.ActResponse.properties)).toEqual([
      'document',
      'chat_message',
      'agent_decision',
      'web_search_performed',
      'chat_id',
      'session_id',
      'awaiting',
    ]);
    expect(Object.keys(doc.components.schemas.ActResponse.properties.agent_decision.anyOf[0].properties)).toEqual(Object.keys(SEED_DECISION));
    expect(Object.keys(doc.components.schemas.Document.properties)).toEqual([
      'id',
      'project_id',
      'name',
      'standing_instruction',
      'content',
      'version',
      'created_at',
      'updated_at',
    ]);
    expect(doc.paths['/api/chats/{id}/messages'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['id', 'after', 'limit']);
  });
});

describe('the document agent with JWT: the token subject owns projects and chats', () => {
  let server: RunningServer;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    server = await startServer({ workflows: WORKFLOWS, port: 0, dataDir: templateDataDir('graph', join(tempDir(), 'db')), jwtSecret: SECRET, documentAgent: {} });
    tokens.alice = await sign({ sub: 'alice' }, SECRET);
    tokens.bob = await sign({ sub: 'bob' }, SECRET);
  });
  afterAll(() => server?.close());

  it("another owner's chat is never continued: a new chat; another owner's project, document and chat are not found", async () => {
    const alice = client(server.url, tokens.alice);
    const bob = client(server.url, tokens.bob);
    const hers = await alice.project('Alice');
    const his = await bob.project('Bob');
    const aliceChat = await alice.ok({ message: 'Create a document called Secrets', project_id: hers });

    const bobs = await bob.ok({ message: 'which documents do I have?', project_id: his, chat_id: aliceChat.chat_id });
    expect(bobs.chat_id).not.toBe(aliceChat.chat_id);
    expect(bobs.chat_message.seq).toBe(2);
    expect(bobs.chat_message.content).not.toContain('Secrets');
    expect((await alice.messages(aliceChat.chat_id)).length).toBe(2);

    expectError(await bob.act({ message: 'which documents do I have?', project_id: hers }), 404, 'project_not_found');
    expectError(await bob.act({ message: 'hi', project_id: his, document_id: aliceChat.document!.id }), 404, 'document_not_found');
    expectError(await bob.get(`/api/projects/${hers}/documents`), 404, 'project_not_found');
    expectError(await bob.get(`/api/documents/${aliceChat.document!.id}`), 404, 'document_not_found');
    expectError(await bob.get(`/api/chats/${aliceChat.chat_id}/messages`), 404, 'chat_not_found');
    expect((await bob.get('/api/projects')).body.projects.map((p: { name: string }) => p.name)).toEqual(['Bob']);
    expect((await alice.get('/api/projects')).body.projects.map((p: { name: string }) => p.name)).toEqual(['Alice']);
    // The chat's session is the owner's too.
    expect((await bob.get(`/api/sessions/${aliceChat.session_id}`)).status).toBe(404);
  });

  it('without a token: 401 on every route', async () => {
    for (const [path, json] of [
      ['/api/agent/act', { message: 'hi', project_id: 1 }],
      ['/api/projects', { name: 'x' }],
      ['/api/projects', undefined],
      ['/api/documents/1', undefined],
      ['/api/chats/1/messages', undefined],
    ] as const)
      expectError(await call(server.url, path, json === undefined ? {} : { json }), 401, 'unauthorized');
  });

  it('without a model, a message that is not an explicit command says what it can do, and writes no document', async () => {
    const alice = client(server.url, tokens.alice);
    const projectId = await alice.project('No model');
    const body = await alice.ok({ message: 'Add my favorite recipes', project_id: projectId });
    expect(body.document).toBeNull();
    expect(body.chat_message.content).toMatch(/^Without a language model I follow explicit commands only/);
    expect(await alice.documents(projectId)).toEqual([]);
  });
});

describe.skipIf(!hasPostgres)('the document agent on PostgreSQL (startServer)', () => {
  let schema: TestSchema;
  let server: RunningServer;
  const script = scriptedModel();
  beforeAll(async () => {
    schema = await createTestSchema('gf_docs');
    server = await startServer({ workflows: WORKFLOWS, port: 0, databaseUrl: schema.url, documentAgent: { model: script.model } });
  });
  afterAll(async () => {
    await server?.close();
    await schema?.drop();
  });

  it("the seed's example, then the offline commands with their gates", async () => {
    const api = client(server.url);
    expect(server.documentAgent).toBe(true);
    await seedExample(api, script);
    await offlineCommands(api, script);
  });
});

describe('a server without the document agent', () => {
  it('answers 503 document_agent_unavailable on every route (the memory store)', async () => {
    const runtime = createRuntime({ workflows: WORKFLOWS, store: createMemoryStore() });
    const onError = vi.fn();
    const served = await serveOnLoopback(createApp({ runtime, onError }));
    try {
      for (const [path, json] of [
        ['/api/agent/act', { message: 'hi', project_id: 1 }],
        ['/api/projects', { name: 'x' }],
        ['/api/projects', undefined],
        ['/api/projects/1/documents', undefined],
        ['/api/documents/1', undefined],
        ['/api/chats/1/messages', undefined],
      ] as const)
        expectError(await call(served.url, path, json === undefined ? {} : { json }), 503, 'document_agent_unavailable', /document agent is not served here/);
      // Not the server's fault: nothing logged as an internal error.
      expect(onError).not.toHaveBeenCalled();
      // Flows keep working.
      expect((await call(served.url, '/api/flows/patient-intake/sessions', { method: 'POST' })).status).toBe(201);
    } finally {
      await served.close();
      runtime.close();
    }
  });
});

describe('gateflow serve (npm start)', () => {
  it('refuses a malformed SEARXNG_URL before starting, naming it', async () => {
    // The CLI's main with streams of its own (not a spy on process.stderr, which would make this file need a module graph of its own).
    const { status, stderr } = await runCli(['serve', '--port', '0'], { env: { SEARXNG_URL: 'not a url', GATEFLOW_DB_DIR: join(tempDir(), 'db') } });
    expect(status).toBe(2);
    expect(stderr).toMatch(/^gateflow: .*SEARXNG_URL/m);
  });

  it('says on start that it serves the document agent, with web search from SEARXNG_URL or off', async () => {
    // A copy of the migrated template (no initdb, no CREATE EXTENSION), used by both processes in turn.
    const dir = templateDataDir('graph', join(tempDir(), 'db'));
    const withSearch = await spawnServe({ env: { GATEFLOW_DB_DIR: dir, SEARXNG_URL: 'http://127.0.0.1:9/searxng' } });
    try {
      expect(withSearch.output()).toContain(
        'gateflow: document agent: document-agent (offline reader only: explicit commands), web search: SearXNG at http://127.0.0.1:9/searxng (POST /api/agent/act)',
      );
      const project = await call(withSearch.url, '/api/projects', { json: { name: 'Served' } });
      expect(project.status, project.text).toBe(201);
      const acted = await call(withSearch.url, '/api/agent/act', { json: { message: 'Create a document called Recipes', project_id: project.body.id } });
      expect(acted.status, acted.text).toBe(200);
      expect(acted.body.document).toMatchObject({ name: 'Recipes', version: 1 });
    } finally {
      await withSearch.kill();
    }
    const without = await spawnServe({ env: { GATEFLOW_DB_DIR: dir, SEARXNG_URL: '' } });
    try {
      expect(without.output()).toContain('gateflow: document agent: document-agent (offline reader only: explicit commands), web search: off (set SEARXNG_URL)');
    } finally {
      await without.kill();
    }
  });
});
