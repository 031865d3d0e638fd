/**
 * Issue 25 §1: every resource a caller can grow has a bound. The repository
 * caps how many projects one owner has, how many documents and chats one
 * project holds, and how many messages one chat holds (`DocumentLimits`);
 * past a cap a create is refused with 409 `cap_reached` naming the cap, and
 * nothing is written. On a PGlite template store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapReachedError, DEFAULT_DOCUMENT_LIMITS, documentLimits } from '../../src/documents/limits.js';
import { documentRepository } from '../../src/documents/repository.js';
import type { Store } from '../../src/store/types.js';
import { templateStore } from '../helpers/pglite-template.js';

let store: Store;
beforeAll(async () => {
  store = await templateStore();
});
afterAll(async () => {
  await store?.close();
});

const caps = { maxProjectsPerOwner: 2, maxDocumentsPerProject: 2, maxChatsPerProject: 2, maxMessagesPerChat: 3 };
const count = async (sql: string, params: unknown[]) => Number((await store.sql!.query<{ n: string | number }>(sql, params)).rows[0]!.n);

describe('caps on how many', () => {
  it('has sensible defaults', () => {
    expect(DEFAULT_DOCUMENT_LIMITS).toMatchObject({ maxProjectsPerOwner: 1000, maxDocumentsPerProject: 1000, maxChatsPerProject: 10_000, maxMessagesPerChat: 10_000 });
    expect(() => documentLimits({ maxProjectsPerOwner: 0 })).toThrow(/maxProjectsPerOwner/);
  });

  it('refuses a project past maxProjectsPerOwner, per owner', async () => {
    const repo = documentRepository(store.sql!, caps);
    await repo.createProject('ann', { name: 'One' });
    await repo.createProject('ann', { name: 'Two' });
    const refused = await repo.createProject('ann', { name: 'Three' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CapReachedError);
    expect(refused).toMatchObject({ status: 409, code: 'cap_reached', cap: 'maxProjectsPerOwner', max: 2 });
    expect((refused as Error).message).toBe("you have 2 projects already, this server's cap (maxProjectsPerOwner); nothing was created");
    expect(await count('SELECT count(*) AS n FROM gateflow_projects WHERE owner = $1', ['ann'])).toBe(2);
    // Another owner has their own count.
    await expect(repo.createProject('bob', { name: 'One' })).resolves.toMatchObject({ owner: 'bob' });
  });

  it('refuses a document past maxDocumentsPerProject, and still says a taken name first', async () => {
    const repo = documentRepository(store.sql!, caps);
    const project = await repo.createProject('cat', { name: 'Docs' });
    await repo.createDocument('cat', project.id, { name: 'A', content: 'a' });
    await repo.createDocument('cat', project.id, { name: 'B', content: 'b' });
    await expect(repo.createDocument('cat', project.id, { name: 'C', content: 'c' })).rejects.toMatchObject({ code: 'cap_reached', cap: 'maxDocumentsPerProject' });
    await expect(repo.createDocument('cat', project.id, { name: 'a', content: 'again' })).rejects.toMatchObject({ code: 'duplicate_document_name' });
    await expect(repo.createDocument('dan', project.id, { name: 'C', content: 'c' })).rejects.toMatchObject({ code: 'project_not_found' });
    expect(await count('SELECT count(*) AS n FROM gateflow_documents WHERE project_id = $1', [project.id])).toBe(2);
  });

  it('refuses a chat past maxChatsPerProject (a new chat, or one for a session), and keeps finding the chats there are', async () => {
    const repo = documentRepository(store.sql!, caps);
    const project = await repo.createProject('eve', { name: 'Chats' });
    const first = await repo.getOrCreateChat('eve', project.id, null);
    await repo.chatForSession('eve', project.id, 'session-2');
    await expect(repo.getOrCreateChat('eve', project.id, null)).rejects.toMatchObject({ code: 'cap_reached', cap: 'maxChatsPerProject' });
    await expect(repo.chatForSession('eve', project.id, 'session-3')).rejects.toMatchObject({ code: 'cap_reached', cap: 'maxChatsPerProject' });
    // The chats there are still open; another owner's project is still not theirs.
    await expect(repo.getOrCreateChat('eve', project.id, first.chat.id)).resolves.toMatchObject({ created: false });
    await expect(repo.chatForSession('eve', project.id, 'session-2')).resolves.toMatchObject({ sessionId: 'session-2' });
    await expect(repo.chatForSession('fay', project.id, 'session-4')).rejects.toMatchObject({ code: 'project_not_found' });
    expect(await count('SELECT count(*) AS n FROM gateflow_chats WHERE project_id = $1', [project.id])).toBe(2);
  });

  it('refuses a message past maxMessagesPerChat', async () => {
    const repo = documentRepository(store.sql!, caps);
    const project = await repo.createProject('gus', { name: 'Talk' });
    const { chat } = await repo.getOrCreateChat('gus', project.id, null);
    for (const text of ['one', 'two', 'three']) await repo.addMessage(chat.id, 'user', text, {});
    const refused = await repo.addMessage(chat.id, 'assistant', 'four', {}).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'cap_reached', cap: 'maxMessagesPerChat' });
    expect((refused as Error).message).toMatch(/^this chat has 3 messages already: start a new chat/);
    await expect(repo.addMessage(999_999, 'user', 'x', {})).rejects.toMatchObject({ code: 'chat_not_found' });
    expect((await repo.listMessages('gus', chat.id)).map((m) => m.content)).toEqual(['one', 'two', 'three']);
  });
});
