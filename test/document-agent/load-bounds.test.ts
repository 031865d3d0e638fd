/**
 * Issue 27 §3 (bounded): what one message reads does not grow with the
 * project's contents. The prompts show each document cut to its first 1500
 * and last 500 characters (the seed's truncation); the cut is made in the
 * database, so a project of a dozen 300 KB documents is not read whole
 * (3.6 MB, and up to 1000 documents of 1 MiB under the default caps) to
 * answer "Which documents do I have?" or to check a new name.
 *
 * The actors' database counts the bytes of the rows it returns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentAgentHost } from '../../src/document-agent/host.js';
import { decisionOf } from '../../src/document-agent/schemas.js';
import { loadContext, truncateContent } from '../../src/document-agent/load-context.js';
import { documentRepository } from '../../src/documents/repository.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import type { SqlDatabase, Store } from '../../src/store/types.js';
import { jsonRequests } from '../helpers/http.js';
import { scriptedModel } from '../helpers/document-agent.js';
import { templateStore } from '../helpers/pglite-template.js';

let store: Store;
beforeAll(async () => {
  store = await templateStore();
});
afterAll(async () => {
  await store?.close();
});

const DOCS = 12;
const DOC_CHARS = 300_000;

describe("one message's reads", () => {
  it('do not grow with the documents: a project of 3.6 MB is read as its cut documents', async () => {
    const sql = store.sql!;
    const read = { bytes: 0 };
    const database: SqlDatabase = {
      kind: sql.kind,
      transaction: (fn) => sql.transaction(fn),
      query: async <Row>(text: string, params?: unknown[]) => {
        const result = await sql.query<Row>(text, params);
        read.bytes += JSON.stringify(result.rows).length;
        return result;
      },
    };
    const host = documentAgentHost({ database });
    const runtime = createRuntime({ workflows: [host.workflow], store, actors: host.actors });
    const request = jsonRequests(createApp({ runtime, documentAgent: { database: sql } }));
    const repo = documentRepository(sql);
    try {
      const project = await repo.createProject(null, { name: 'Big', description: null });
      for (let i = 1; i <= DOCS; i++) {
        const body = `${'word '.repeat(DOC_CHARS / 5 - 20)}`;
        await repo.createDocument(null, project.id, { name: `Doc ${i}`, content: `# Doc ${i}\n\nStart ${i}.\n\n${body}\n\nEnd ${i}.`, standingInstruction: '' });
      }
      const list = await request('/api/agent/act', { message: 'Which documents do I have?', project_id: project.id });
      expect(list.status, list.text).toBe(200);
      expect(list.body.chat_message.content).toMatch(/Doc 1\b[\s\S]*Doc 12\b/);
      expect(read.bytes).toBeLessThan(DOCS * 2_500 + 50_000);

      // A new document's name checked against the project's: the names are read, not the contents.
      read.bytes = 0;
      const duplicate = await request('/api/agent/act', { message: 'Create a document called Doc 3', project_id: project.id, chat_id: list.body.chat_id });
      expect(duplicate.status, duplicate.text).toBe(200);
      expect(duplicate.body.awaiting?.options.map((o: { value: string }) => o.value)).toEqual(['add_to_existing', 'create_new']);
      expect(read.bytes).toBeLessThan(DOCS * 2_500 + 50_000 + DOC_CHARS * 1.1);
    } finally {
      runtime.close();
    }
  });

  it("show the chat's long messages cut like documents: a 600 KB answer does not ride along in every later prompt", async () => {
    const long = `Here is everything. ${'All about it. '.repeat(45_000)}The end.`;
    const model = scriptedModel({ decide: [decisionOf({ conversational_response: long }), decisionOf({ conversational_response: 'Short.' })] });
    const host = documentAgentHost({ database: store.sql!, model: model.model });
    const runtime = createRuntime({ workflows: [host.workflow], store, actors: host.actors });
    const request = jsonRequests(createApp({ runtime, documentAgent: { database: store.sql! } }));
    try {
      const project = await documentRepository(store.sql!).createProject(null, { name: 'Long answers', description: null });
      const first = await request('/api/agent/act', { message: 'Tell me everything', project_id: project.id });
      expect(first.status, first.text).toBe(200);
      expect(first.body.chat_message.content).toBe(long);
      const second = await request('/api/agent/act', { message: 'And in short?', project_id: project.id, chat_id: first.body.chat_id });
      expect(second.status, second.text).toBe(200);
      const prompt = model.calls[1]!.prompt;
      expect(prompt).toContain(truncateContent(long));
      expect(prompt.length).toBeLessThan(20_000);
    } finally {
      runtime.close();
    }
  });

  it('show a long document as the seed cuts it, cut in the database or not', async () => {
    const repo = documentRepository(store.sql!);
    const project = await repo.createProject(null, { name: 'Cut', description: null });
    const session = await createRuntime({ workflows: [documentAgentHost({ database: store.sql! }).workflow], store }).start('document-agent', undefined, { context: { projectId: project.id } });
    // Short enough to be read whole (3000 bytes), and long enough to be cut in the database (2-byte characters).
    const short = 'a'.repeat(3000);
    const long = `Début ${'é'.repeat(8000)} fin ${'ü'.repeat(700)} Ende`;
    for (const [name, content] of [['Short', short], ['Long', long]] as const) await repo.createDocument(null, project.id, { name, content, standingInstruction: '' });
    const loaded = await loadContext(store.sql!, { owner: null, projectId: project.id, sessionId: session.sessionId });
    expect(loaded.documents.map((d) => d.content)).toEqual([truncateContent(short), truncateContent(long)]);
    expect(loaded.documents[1]!.content).toContain(`[… ${long.length - 2000} characters not shown …]`);
  });
});
