/**
 * Issue 25 §1 over HTTP (in-process, `app.request`): past a count cap
 * (`documentAgent.limits`: projects per owner, documents and chats per
 * project, messages per chat) a create is answered 409 `cap_reached`, the
 * message naming the cap, and nothing is written; the OpenAPI document says
 * the caps. The document agent reads the messages offline (no model).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentAgentHost } from '../../src/document-agent/host.js';
import type { DocumentLimitsInput } from '../../src/documents/limits.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import type { Store } from '../../src/store/types.js';
import { templateStore } from '../helpers/pglite-template.js';
import { jsonRequests } from '../helpers/http.js';

let store: Store;
beforeAll(async () => {
  store = await templateStore();
});
afterAll(async () => {
  await store?.close();
});

function served(limits: DocumentLimitsInput) {
  const host = documentAgentHost({ database: store.sql!, limits });
  const runtime = createRuntime({ workflows: [host.workflow], store, actors: host.actors });
  const app = createApp({ runtime, documentAgent: { database: store.sql!, limits } });
  const request = jsonRequests(app);
  return { request, close: () => runtime.close() };
}

describe('count caps over HTTP', () => {
  it('answers 409 cap_reached past maxProjectsPerOwner, naming the cap, and lists only what was made', async () => {
    const { request, close } = served({ maxProjectsPerOwner: 2 });
    try {
      // The projects of this file's earlier cases count too: fill up to the cap.
      let made = 0;
      for (let i = 0; i < 5; i++) {
        const created = await request('/api/projects', { name: `P${i}` });
        if (created.status === 201) made++;
        else {
          expect(created.status, created.text).toBe(409);
          expect(created.body.error).toEqual({ code: 'cap_reached', message: "you have 2 projects already, this server's cap (maxProjectsPerOwner); nothing was created" });
        }
      }
      expect(made).toBeLessThanOrEqual(2);
      expect((await request('/api/projects')).body.projects.length).toBe(2);
    } finally {
      close();
    }
  });

  it('answers an act that would create a document past maxDocumentsPerProject 409, writing nothing', async () => {
    const { request, close } = served({ maxProjectsPerOwner: 100, maxDocumentsPerProject: 1 });
    try {
      const project = await request('/api/projects', { name: 'Full' });
      expect(project.status, project.text).toBe(201);
      const first = await request('/api/agent/act', { message: 'Create a document called Menu', project_id: project.body.id, turn_id: 'a-1' });
      expect(first.status, first.text).toBe(200);
      const second = await request('/api/agent/act', { message: 'Create a document called Drinks', project_id: project.body.id, chat_id: first.body.chat_id, turn_id: 'a-2' });
      expect(second.status, second.text).toBe(409);
      expect(second.body.error.code).toBe('cap_reached');
      expect(second.body.error.message).toMatch(/this project has 1 documents already, this server's cap \(maxDocumentsPerProject\)/);
      const documents = await request(`/api/projects/${project.body.id}/documents`);
      expect(documents.body.documents.map((d: { name: string }) => d.name)).toEqual(['Menu']);
      // The refused message stored nothing in the chat either.
      const messages = await request(`/api/chats/${first.body.chat_id}/messages`);
      expect(messages.body.messages.map((m: { content: string }) => m.content)).not.toContain('Create a document called Drinks');
    } finally {
      close();
    }
  });

  it('answers an act past maxChatsPerProject 409 (each act without a chat_id starts a chat)', async () => {
    const { request, close } = served({ maxProjectsPerOwner: 100, maxChatsPerProject: 1 });
    try {
      const project = await request('/api/projects', { name: 'Chatty' });
      expect((await request('/api/agent/act', { message: 'hello', project_id: project.body.id })).status).toBe(200);
      const refused = await request('/api/agent/act', { message: 'hello again', project_id: project.body.id });
      expect(refused.status, refused.text).toBe(409);
      expect(refused.body.error.message).toMatch(/this project has 1 chats already, this server's cap \(maxChatsPerProject\)/);
    } finally {
      close();
    }
  });

  it('says the caps in the OpenAPI document', async () => {
    const { request, close } = served({ maxProjectsPerOwner: 7, maxDocumentsPerProject: 8, maxChatsPerProject: 9, maxMessagesPerChat: 10 });
    try {
      const openapi = (await request('/api/openapi.json')).text;
      expect(openapi).toContain('At most 7 projects per owner (maxProjectsPerOwner), 8 documents per project (maxDocumentsPerProject), 9 chats per project (maxChatsPerProject) and 10 messages per chat (maxMessagesPerChat)');
      expect(openapi).toContain('cap_reached: the caller has 7 projects already (maxProjectsPerOwner)');
    } finally {
      close();
    }
  });
});
