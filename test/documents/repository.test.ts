/**
 * The document agent's data (src/documents): projects, documents unique by
 * name per project ignoring case, content updates under optimistic locking,
 * the seed's chat rule, owners, the last messages, and hostile text stored
 * verbatim — on PGlite and PostgreSQL, through the store's own migrations.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { documentRepository, type DocumentRepository } from '../../src/documents/repository.js';
import {
  ChatNotFoundError,
  DocumentNotFoundError,
  DocumentVersionConflictError,
  DuplicateDocumentNameError,
  InvalidDocumentInputError,
  ProjectNotFoundError,
} from '../../src/documents/errors.js';
import { templateStore } from '../helpers/pglite-template.js';
import { emptySqlStore } from '../helpers/empty-store.js';
import { createPostgresStore } from '../../src/store/postgres.js';
import type { Store } from '../../src/store/types.js';
import { createTestSchema, hasPostgres } from '../helpers/postgres.js';

const backends: { name: string; skip: boolean; open: () => Promise<{ store: Store; close: () => Promise<void> }> }[] = [
  {
    name: 'PGlite',
    skip: false,
    open: async () => {
      const store = await templateStore();
      return { store, close: () => store.close() };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !hasPostgres,
    open: async () => {
      const schema = await createTestSchema('gfdoc');
      const store = await createPostgresStore({ connectionString: schema.url });
      return {
        store,
        close: async () => {
          await store.close();
          await schema.drop();
        },
      };
    },
  },
];

/** What a promise rejected with (fails the test when it resolved). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(`document repository on ${backend.name}`, () => {
    let opened: { store: Store; close: () => Promise<void> } | undefined;
    let repo: DocumentRepository;
    // One store per backend, emptied before each test: every test starts on an empty store.
    beforeEach(async () => {
      if (opened) await emptySqlStore(opened.store);
      else opened = await backend.open();
      repo = documentRepository(opened.store.sql!);
    });
    afterAll(async () => {
      await opened?.close();
      opened = undefined;
    });

    it('creates, lists and reads projects and documents, with integer ids and version 1', async () => {
      const project = await repo.createProject('ana', { name: '  Recipes ', description: 'what I cook' });
      expect(project).toMatchObject({ owner: 'ana', name: 'Recipes', description: 'what I cook' });
      expect(Number.isInteger(project.id)).toBe(true);
      const doc = await repo.createDocument('ana', project.id, { name: 'Favourites', standingInstruction: 'keep it sorted', content: '# Soup\n' });
      expect(doc).toMatchObject({ projectId: project.id, name: 'Favourites', standingInstruction: 'keep it sorted', content: '# Soup\n', version: 1 });
      const second = await repo.createDocument('ana', project.id, { name: 'Shopping' });
      expect(second).toMatchObject({ standingInstruction: '', content: '', version: 1 });
      expect((await repo.listDocuments(project.id)).map((d) => d.name)).toEqual(['Favourites', 'Shopping']);
      expect(await repo.getDocument('ana', doc.id)).toEqual(doc);
      expect(await repo.getProject('ana', project.id)).toEqual(project);
      expect(await repo.listProjects('ana')).toEqual([project]);
    });

    it('refuses a second document of the same name in a project, ignoring case, naming the existing one', async () => {
      const project = await repo.createProject('ana', { name: 'Recipes' });
      const other = await repo.createProject('ana', { name: 'Work' });
      const first = await repo.createDocument('ana', project.id, { name: 'Favourite Recipes', content: 'original' });
      for (const name of ['Favourite Recipes', 'FAVOURITE recipes', ' favourite recipes ']) {
        const error = await rejection(repo.createDocument('ana', project.id, { name, content: 'replacement' }));
        expect(error).toBeInstanceOf(DuplicateDocumentNameError);
        expect(error).toMatchObject({ code: 'duplicate_document_name', status: 409, existingId: first.id, existingName: 'Favourite Recipes' });
      }
      // Nothing was overwritten, and the same name is free in another project.
      expect((await repo.getDocument('ana', first.id)).content).toBe('original');
      expect(await repo.listDocuments(project.id)).toHaveLength(1);
      await expect(repo.createDocument('ana', other.id, { name: 'favourite recipes' })).resolves.toMatchObject({ projectId: other.id });
    });

    it('saves a content change only from the current version: of two updates from version 1, one wins', async () => {
      const project = await repo.createProject(null, { name: 'P' });
      const doc = await repo.createDocument(null, project.id, { name: 'D', content: 'v1' });
      const results = await Promise.allSettled([repo.updateDocumentContent(doc.id, 1, 'from A'), repo.updateDocumentContent(doc.id, 1, 'from B')]);
      const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [{ i, version: r.value }] : []));
      const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
      expect(won).toHaveLength(1);
      expect(won[0]!.version).toBe(2);
      expect(lost).toHaveLength(1);
      expect(lost[0]).toBeInstanceOf(DocumentVersionConflictError);
      expect(lost[0]).toMatchObject({ code: 'document_version_conflict', status: 409, expectedVersion: 1, currentVersion: 2 });
      const now = await repo.getDocument(null, doc.id);
      expect(now.content).toBe(won[0]!.i === 0 ? 'from A' : 'from B');
      expect(now.version).toBe(2);
      // From the version read, the next update goes through.
      await expect(repo.updateDocumentContent(doc.id, 2, 'v3')).resolves.toBe(3);
      await expect(repo.updateDocumentContent(doc.id + 1000, 1, 'x')).rejects.toBeInstanceOf(DocumentNotFoundError);
    });

    it("keeps owners apart: another owner's project, document or chat is not found", async () => {
      const mine = await repo.createProject('ana', { name: 'Mine' });
      const doc = await repo.createDocument('ana', mine.id, { name: 'Secret' });
      await repo.createProject('bob', { name: 'Bob' });
      expect((await repo.listProjects('ana')).map((p) => p.name)).toEqual(['Mine']);
      expect(await repo.listProjects(null)).toEqual([]);
      await expect(repo.getProject('bob', mine.id)).rejects.toBeInstanceOf(ProjectNotFoundError);
      await expect(repo.getProject(null, mine.id)).rejects.toBeInstanceOf(ProjectNotFoundError);
      await expect(repo.getDocument('bob', doc.id)).rejects.toMatchObject({ code: 'document_not_found', status: 404 });
      await expect(repo.createDocument('bob', mine.id, { name: 'Intruder' })).rejects.toBeInstanceOf(ProjectNotFoundError);
      await expect(repo.getOrCreateChat('bob', mine.id)).rejects.toBeInstanceOf(ProjectNotFoundError);
      expect(await repo.listDocuments(mine.id)).toHaveLength(1);
    });

    it("follows the seed's chat rule: the same chat only in its project and for its owner, a new chat otherwise", async () => {
      const recipes = await repo.createProject('ana', { name: 'Recipes' });
      const work = await repo.createProject('ana', { name: 'Work' });
      const first = await repo.getOrCreateChat('ana', recipes.id);
      expect(first.created).toBe(true);
      expect(first.chat).toMatchObject({ projectId: recipes.id, owner: 'ana' });
      // The same chat when it matches.
      const again = await repo.getOrCreateChat('ana', recipes.id, first.chat.id);
      expect(again).toEqual({ chat: first.chat, created: false });
      // Another project's chat: a new chat in the project asked for.
      const moved = await repo.getOrCreateChat('ana', work.id, first.chat.id);
      expect(moved.created).toBe(true);
      expect(moved.chat.projectId).toBe(work.id);
      expect(moved.chat.id).not.toBe(first.chat.id);
      // An unknown chat: a new one.
      const unknown = await repo.getOrCreateChat('ana', recipes.id, first.chat.id + 1000);
      expect(unknown.created).toBe(true);
      // Another owner's chat: a new chat of the caller's, whether it is in another project…
      const bobs = await repo.createProject('bob', { name: 'Bob' });
      const bobChat = await repo.getOrCreateChat('bob', bobs.id);
      const stolen = await repo.getOrCreateChat('ana', recipes.id, bobChat.chat.id);
      expect(stolen.created).toBe(true);
      expect(stolen.chat).toMatchObject({ owner: 'ana', projectId: recipes.id });
      // …or in the caller's project (written directly: the repository never makes one).
      const { rows } = await opened!.store.sql!.query<{ id: string | number }>(
        "INSERT INTO gateflow_chats (project_id, owner) VALUES ($1, 'bob') RETURNING id",
        [recipes.id],
      );
      const foreign = await repo.getOrCreateChat('ana', recipes.id, Number(rows[0]!.id));
      expect(foreign.created).toBe(true);
      expect(foreign.chat.id).not.toBe(Number(rows[0]!.id));
      expect(foreign.chat.owner).toBe('ana');
      // A new chat needs a project that exists.
      await expect(repo.getOrCreateChat('ana', bobs.id + 1000)).rejects.toMatchObject({ code: 'project_not_found', status: 404 });
      await expect(repo.addMessage(bobChat.chat.id + 1000, 'user', 'hi')).rejects.toBeInstanceOf(ChatNotFoundError);
    });

    it('returns the last 10 messages oldest first, numbered in the order added', async () => {
      const project = await repo.createProject('ana', { name: 'P' });
      const { chat } = await repo.getOrCreateChat('ana', project.id);
      const { chat: other } = await repo.getOrCreateChat('ana', project.id);
      for (let n = 1; n <= 13; n++) await repo.addMessage(chat.id, n % 2 ? 'user' : 'assistant', `message ${n}`, { n });
      await repo.addMessage(other.id, 'user', 'elsewhere');
      const last = await repo.lastMessages(chat.id);
      expect(last.map((m) => m.content)).toEqual(Array.from({ length: 10 }, (_, i) => `message ${i + 4}`));
      expect(last.map((m) => m.seq)).toEqual(Array.from({ length: 10 }, (_, i) => i + 4));
      expect(last[0]).toMatchObject({ chatId: chat.id, role: 'assistant', metadata: { n: 4 } });
      expect((await repo.lastMessages(chat.id, 3)).map((m) => m.content)).toEqual(['message 11', 'message 12', 'message 13']);
      expect((await repo.lastMessages(other.id)).map((m) => [m.seq, m.content])).toEqual([[1, 'elsewhere']]);
      await expect(repo.lastMessages(chat.id, 0)).rejects.toBeInstanceOf(InvalidDocumentInputError);
    });

    it('numbers messages added together without a gap or a repeat', async () => {
      const project = await repo.createProject('ana', { name: 'P' });
      const { chat } = await repo.getOrCreateChat('ana', project.id);
      await Promise.all(Array.from({ length: 8 }, (_, i) => repo.addMessage(chat.id, 'user', `m${i}`)));
      const seqs = (await repo.lastMessages(chat.id, 100)).map((m) => m.seq);
      expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    });

    it('stores hostile text verbatim: quotes, SQL, unicode, 100 KB of Markdown', async () => {
      const hostile = `O'Brien "quoted" \\ backslash '); DROP TABLE gateflow_documents; -- $1 \`tick\` 🍲 café ÅÉ \u202e rtl \t tab\r\n`;
      const markdown = `# ${hostile}\n\n` + '| a | b |\n|---|---|\n| 🍲 | `x` |\n'.repeat(3100);
      expect(markdown.length).toBeGreaterThan(100_000);
      const project = await repo.createProject(hostile, { name: `Project ${hostile}`, description: hostile });
      const doc = await repo.createDocument(hostile, project.id, { name: `Doc ${hostile}`, standingInstruction: hostile, content: markdown });
      const read = await repo.getDocument(hostile, doc.id);
      expect(read.content).toBe(markdown);
      expect(read.standingInstruction).toBe(hostile);
      expect(read.name).toBe(`Doc ${hostile}`.trim());
      expect((await repo.getProject(hostile, project.id)).description).toBe(hostile);
      await expect(repo.updateDocumentContent(doc.id, 1, markdown + hostile)).resolves.toBe(2);
      expect((await repo.getDocument(hostile, doc.id)).content).toBe(markdown + hostile);
      const { chat } = await repo.getOrCreateChat(hostile, project.id);
      const metadata = { note: hostile, nested: { list: [1, 'two', null, true] } };
      await repo.addMessage(chat.id, 'user', hostile, metadata);
      const [message] = await repo.lastMessages(chat.id);
      expect(message).toMatchObject({ content: hostile, metadata });
      // The tables are still there.
      expect(await repo.listDocuments(project.id)).toHaveLength(1);
    });

    it('refuses what a text column would not keep verbatim, writing nothing', async () => {
      const project = await repo.createProject('ana', { name: 'P' });
      for (const content of ['nul \u0000 byte', 'lone \uD800 surrogate']) {
        const error = await rejection(repo.createDocument('ana', project.id, { name: 'D', content }));
        expect(error).toBeInstanceOf(InvalidDocumentInputError);
        expect(error).toMatchObject({ code: 'invalid_document_input', status: 400 });
      }
      await expect(repo.createDocument('ana', project.id, { name: '   ' })).rejects.toBeInstanceOf(InvalidDocumentInputError);
      const { chat } = await repo.getOrCreateChat('ana', project.id);
      await expect(repo.addMessage(chat.id, 'user', 'ok', { bad: 'nul \u0000' })).rejects.toBeInstanceOf(InvalidDocumentInputError);
      await expect(repo.addMessage(chat.id, 'system' as 'user', 'ok')).rejects.toBeInstanceOf(InvalidDocumentInputError);
      expect(await repo.listDocuments(project.id)).toEqual([]);
      expect(await repo.lastMessages(chat.id)).toEqual([]);
    });
  });
}
