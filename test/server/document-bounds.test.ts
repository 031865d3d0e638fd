/**
 * Bounds and paging on the document agent's data (issue 25, section 1): the
 * projects' and documents' lists are paged (`after`/`limit`, `nextAfter`, a
 * default and a maximum), the chat's messages say `nextAfter`; a document's
 * size and a name's length are capped whoever writes them (an HTTP caller,
 * the library, the agent's model), with 413 / 422 answers that say the cap and
 * the size; a refused model output is neither stored, nor echoed, nor journaled.
 * In-process (`app.request`) on a PGlite template store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentAgentHost } from '../../src/document-agent/host.js';
import { DocumentTooLargeError, TextTooLongError, type DocumentLimitsInput } from '../../src/documents/limits.js';
import { documentRepository, type DocumentRepository } from '../../src/documents/repository.js';
import { createRuntime, type Runtime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import type { Store } from '../../src/store/types.js';
import { scriptedModel, type Script } from '../helpers/document-agent.js';
import { templateStore } from '../helpers/pglite-template.js';
import { jsonRequests } from '../helpers/http.js';

let store: Store;
beforeAll(async () => {
  store = await templateStore();
});
afterAll(async () => {
  await store?.close();
});

const MB = 1024 * 1024;

/** The app serving the document agent on the test's store, with these caps and this scripted model. */
function served(limits?: DocumentLimitsInput, script: Script = {}) {
  const model = scriptedModel(script);
  const host = documentAgentHost({ database: store.sql!, model: model.model, ...(limits && { limits }) });
  const runtime: Runtime = createRuntime({ workflows: [host.workflow], store, actors: host.actors });
  const app = createApp({ runtime, documentAgent: { database: store.sql!, ...(limits && { limits }) } });
  const request = jsonRequests(app);
  return { app, runtime, request, model, repo: documentRepository(store.sql!, limits) };
}

/** A fresh owner-less project with `n` documents (straight through the repository). */
async function projectWith(repo: DocumentRepository, n: number, content = (i: number) => `# Doc ${i}\n`) {
  const project = await repo.createProject(null, { name: `Bounds ${Math.random().toString(36).slice(2)}` });
  for (let i = 1; i <= n; i++) await repo.createDocument(null, project.id, { name: `Doc ${i}`, content: content(i) });
  return project;
}

describe('paging', () => {
  it('GET /api/projects pages by after/limit with nextAfter, a default and a maximum', async () => {
    const { request, runtime, repo } = served({ defaultProjectPage: 4, maxProjectPage: 6 });
    try {
      // Projects of every test share the owner-less list: page from the first of ours.
      const before = await repo.listProjects(null);
      const start = before.at(-1)?.id ?? 0;
      for (let i = 0; i < 9; i++) await repo.createProject(null, { name: `Paged ${i}` });
      const first = await request(`/api/projects?after=${start}`);
      expect(first.status, first.text).toBe(200);
      expect(first.body.projects.map((p: { name: string }) => p.name)).toEqual(['Paged 0', 'Paged 1', 'Paged 2', 'Paged 3']);
      expect(first.body.nextAfter).toBe(first.body.projects[3].id);
      const names: string[] = [];
      let after: number | null = start;
      while (after !== null) {
        const page = await request(`/api/projects?after=${after}&limit=6`);
        expect(page.body.projects.length).toBeLessThanOrEqual(6);
        names.push(...page.body.projects.map((p: { name: string }) => p.name));
        after = page.body.nextAfter;
      }
      expect(names).toEqual(Array.from({ length: 9 }, (_, i) => `Paged ${i}`));
      const tooMany = await request('/api/projects?limit=7');
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error).toEqual({ code: 'invalid_query', message: expect.stringContaining('must be from 1 to 6') });
    } finally {
      runtime.close();
    }
  });

  it("GET /api/projects/{id}/documents pages by limit and ends a page early past maxPageBytes", async () => {
    const { request, runtime, repo } = served({ defaultDocumentPage: 3, maxDocumentPage: 5, maxPageBytes: 2500 });
    try {
      const project = await projectWith(repo, 7, (i) => `# Doc ${i}\n${'x'.repeat(1000)}`);
      const first = await request(`/api/projects/${project.id}/documents`);
      expect(first.status, first.text).toBe(200);
      // Three by default, but the third would pass 2,500 bytes: two.
      expect(first.body.documents.map((d: { name: string }) => d.name)).toEqual(['Doc 1', 'Doc 2']);
      expect(first.body.nextAfter).toBe(first.body.documents[1].id);
      const names: string[] = [];
      let after: number | null = 0;
      while (after !== null) {
        const page = await request(`/api/projects/${project.id}/documents?after=${after}&limit=5`);
        names.push(...page.body.documents.map((d: { name: string }) => d.name));
        after = page.body.nextAfter;
      }
      expect(names).toEqual(Array.from({ length: 7 }, (_, i) => `Doc ${i + 1}`));
      expect((await request(`/api/projects/${project.id}/documents?limit=6`)).status).toBe(400);
      expect((await request(`/api/projects/${project.id}/documents?page=2`)).status).toBe(400);
    } finally {
      runtime.close();
    }
  });

  it("GET /api/chats/{id}/messages says nextAfter", async () => {
    const { request, runtime, repo } = served();
    try {
      const project = await projectWith(repo, 0);
      const { chat } = await repo.getOrCreateChat(null, project.id);
      for (let i = 1; i <= 5; i++) await repo.addMessage(chat.id, 'user', `message ${i}`);
      const first = await request(`/api/chats/${chat.id}/messages?limit=2`);
      expect(first.body.messages.map((m: { seq: number }) => m.seq)).toEqual([1, 2]);
      expect(first.body.nextAfter).toBe(2);
      const last = await request(`/api/chats/${chat.id}/messages?after=4&limit=2`);
      expect(last.body.messages.map((m: { seq: number }) => m.seq)).toEqual([5]);
      expect(last.body.nextAfter).toBeNull();
      const exact = await request(`/api/chats/${chat.id}/messages?after=3&limit=2`);
      expect(exact.body.nextAfter).toBeNull();
    } finally {
      runtime.close();
    }
  });

  it('the OpenAPI document says the pages and the caps', async () => {
    const { request, runtime } = served({ maxContentBytes: 2 * MB, maxProjectPage: 300 });
    try {
      const doc = (await request('/api/openapi.json')).body;
      const projects = doc.paths['/api/projects'];
      expect(projects.get.parameters).toContainEqual(expect.objectContaining({ name: 'limit', schema: expect.objectContaining({ maximum: 300, default: 50 }) }));
      expect(projects.post.responses['422'].description).toMatch(/text_too_long/);
      expect(doc.paths['/api/projects/{id}/documents'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['id', 'after', 'limit']);
      expect(doc.paths['/api/agent/act'].post.responses['413'].description).toMatch(/document_too_large.*2 MB/);
      expect(doc.paths['/api/agent/act'].post.description).toMatch(/2 MB \(2,097,152 bytes\) \(maxContentBytes\)/);
      expect(doc.components.schemas.ProjectList.properties).toHaveProperty('nextAfter');
    } finally {
      runtime.close();
    }
  });
});

describe('caps on what is written', () => {
  it('POST /api/projects refuses a name or a description over its cap with 422, saying the length and the cap', async () => {
    const { request, runtime } = served({ maxNameLength: 40, maxTextLength: 100 });
    try {
      const long = await request('/api/projects', { name: 'n'.repeat(41) });
      expect(long.status, long.text).toBe(422);
      expect(long.body.error.code).toBe('text_too_long');
      expect(long.body.error.message).toBe("the name is 41 characters long, over this server's cap of 40 (maxNameLength)");
      const description = await request('/api/projects', { name: 'ok', description: 'd'.repeat(101) });
      expect(description.status).toBe(422);
      expect(description.body.error.message).toMatch(/description is 101 characters long, over this server's cap of 100 \(maxTextLength\)/);
      expect((await request('/api/projects', { name: 'n'.repeat(40) })).status).toBe(201);
    } finally {
      runtime.close();
    }
  });

  it('the repository refuses content over the cap on create and on update, whoever calls it', async () => {
    const repo = documentRepository(store.sql!, { maxContentBytes: 1000 });
    const project = await repo.createProject(null, { name: 'Library caller' });
    await expect(repo.createDocument(null, project.id, { name: 'Big', content: 'é'.repeat(600) })).rejects.toThrow(DocumentTooLargeError);
    const doc = await repo.createDocument(null, project.id, { name: 'Small', content: 'ok' });
    const refused = await repo.updateDocumentContent(doc.id, 1, 'x'.repeat(1001)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DocumentTooLargeError);
    expect((refused as Error).message).toBe("the document's content would be 1,001 bytes, over this server's cap of 1,000 bytes (maxContentBytes)");
    await expect(repo.createDocument(null, project.id, { name: 'n'.repeat(201) })).rejects.toThrow(TextTooLongError);
    expect((await repo.getDocument(null, doc.id)).version).toBe(1);
  });

  it("a 5 MB document from the model is refused with 413: nothing stored, the content neither in the answer nor in the journal", async () => {
    const huge = `# Huge\n${'a'.repeat(5 * MB)}`;
    const decision = { should_create: true, document_name: 'Huge', document_content: huge, intent_statement: "I'll create 'Huge'" };
    const { request, runtime, repo } = served(undefined, { decide: [decision] });
    try {
      const project = await projectWith(repo, 0);
      const answer = await request('/api/agent/act', { message: 'write me a very long document', project_id: project.id });
      expect(answer.status, answer.text.slice(0, 500)).toBe(413);
      expect(answer.body.error.code).toBe('document_too_large');
      expect(answer.body.error.message).toMatch(/the new document's content would be 5 MB \(5,242,887 bytes\), over this server's cap of 1 MB \(1,048,576 bytes\) \(maxContentBytes\)/);
      expect(answer.text.length).toBeLessThan(2000);
      expect(await repo.listDocuments(project.id)).toEqual([]);
      // Whatever the journal's and the session's rows hold, whole: the refused output is in none of them.
      const { rows } = await store.sql!.query<{ bytes: number }>(
        `SELECT (coalesce((SELECT sum(length(j::text)) FROM gateflow_journal j JOIN gateflow_chats c ON c.session_id = j.session_id WHERE c.project_id = $1), 0)
               + coalesce((SELECT sum(length(s::text)) FROM gateflow_sessions s JOIN gateflow_chats c ON c.session_id = s.id WHERE c.project_id = $1), 0))::int AS bytes`,
        [project.id],
      );
      expect(rows[0]!.bytes).toBeGreaterThan(0);
      expect(rows[0]!.bytes).toBeLessThan(100_000);
    } finally {
      runtime.close();
    }
  });

  it('an 8 MB rewrite from the model is refused with 413 and the document stays as it was', async () => {
    const decision = { should_edit: true, document_id: 0, intent_statement: "I'll rewrite 'Notes'" };
    const { request, runtime, repo } = served(undefined, { decide: [() => decision], rewrite: [`# Notes\n${'b'.repeat(8 * MB)}`] });
    try {
      const project = await projectWith(repo, 0);
      const doc = await repo.createDocument(null, project.id, { name: 'Notes', content: '# Notes\nshort' });
      decision.document_id = doc.id;
      const answer = await request('/api/agent/act', { message: 'make the notes much longer', project_id: project.id });
      expect(answer.status, answer.text.slice(0, 500)).toBe(413);
      expect(answer.body.error.message).toMatch(/the rewritten document would be 8 MB \(8,388,616 bytes\), over this server's cap of 1 MB/);
      expect(answer.text.length).toBeLessThan(2000);
      const now = await repo.getDocument(null, doc.id);
      expect([now.version, now.content]).toEqual([1, '# Notes\nshort']);
    } finally {
      runtime.close();
    }
  });

  it('additions that would grow a document past the cap are refused (the offline "Add this to" path)', async () => {
    const { request, runtime, repo } = served({ maxContentBytes: 5000 });
    try {
      const project = await projectWith(repo, 0);
      await repo.createDocument(null, project.id, { name: 'Log', content: '# Log' });
      const piece = 'y'.repeat(3000);
      const first = await request('/api/agent/act', { message: `Add this to Log: ${piece}`, project_id: project.id });
      expect(first.status, first.text.slice(0, 300)).toBe(200);
      const second = await request('/api/agent/act', { message: `Add this to Log: ${piece}`, project_id: project.id, chat_id: first.body.chat_id });
      expect(second.status, second.text.slice(0, 300)).toBe(413);
      expect(second.body.error.message).toMatch(/the document with this addition would be 5\.9 KB \(6,0\d\d bytes\), over this server's cap of 4\.9 KB \(5,000 bytes\)/);
      expect((await repo.findDocumentByName(project.id, 'Log'))!.content.length).toBeLessThan(5000);
    } finally {
      runtime.close();
    }
  });

  it("a model's decision with a name of pages is refused with 422, and a name just over the cap gets the seed's 4d answer", async () => {
    const { request, runtime, repo } = served({ maxNameLength: 30 }, {
      decide: [
        { should_create: true, document_name: 'N'.repeat(50_000), document_content: 'x' },
        { should_create: true, document_name: 'M'.repeat(31), document_content: 'x' },
      ],
    });
    try {
      const project = await projectWith(repo, 0);
      const pages = await request('/api/agent/act', { message: 'make one', project_id: project.id });
      expect(pages.status, pages.text.slice(0, 300)).toBe(422);
      expect(pages.body.error.message).toMatch(/the document name is 50,000 characters long, over this server's cap of 30 \(maxNameLength\)/);
      expect(pages.text).not.toContain('NNNNNNNNNN');
      const over = await request('/api/agent/act', { message: 'make another', project_id: project.id });
      expect(over.status).toBe(200);
      expect(over.body.chat_message.content).toMatch(/The document name must be at most 30 characters\./);
      expect(await repo.listDocuments(project.id)).toEqual([]);
    } finally {
      runtime.close();
    }
  });
});
