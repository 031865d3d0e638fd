/**
 * Issue 25: the count caps hold when creates race. On PostgreSQL (a pool of
 * connections) many creates at once each counted the rows before any other
 * had committed, so together they passed the cap by their number. Each
 * capped create now locks its cap's key for its transaction first and counts
 * after the lock, in a statement of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapReachedError } from '../../src/documents/limits.js';
import { documentRepository, type DocumentRepository } from '../../src/documents/repository.js';
import { createPostgresStore } from '../../src/store/postgres.js';
import type { Store } from '../../src/store/types.js';
import { createTestSchema, hasPostgres, REQUIRE_POSTGRES, type TestSchema } from '../helpers/postgres.js';

const CAP = 3;
const AT_ONCE = 24;
const caps = { maxProjectsPerOwner: CAP, maxDocumentsPerProject: CAP, maxChatsPerProject: CAP, maxMessagesPerChat: CAP };

describe.skipIf(!hasPostgres && !REQUIRE_POSTGRES)('count caps under concurrent creates (PostgreSQL)', () => {
  let schema: TestSchema;
  let store: Store;
  let repo: DocumentRepository;
  const count = async (sql: string, params: unknown[]) => Number((await store.sql!.query<{ n: string | number }>(sql, params)).rows[0]!.n);

  beforeAll(async () => {
    schema = await createTestSchema('gfcaps');
    store = await createPostgresStore({ connectionString: schema.url, max: AT_ONCE });
    repo = documentRepository(store.sql!, caps);
  });
  afterAll(async () => {
    await store?.close();
    await schema?.drop();
  });

  /** Runs `create` AT_ONCE times at once: how many were made, and that every other was refused by the cap. */
  async function race(create: (n: number) => Promise<unknown>): Promise<number> {
    const settled = await Promise.allSettled(Array.from({ length: AT_ONCE }, (_, n) => create(n)));
    const refused = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason] : []));
    for (const reason of refused) expect(reason).toBeInstanceOf(CapReachedError);
    return settled.length - refused.length;
  }

  it('makes at most maxProjectsPerOwner projects', async () => {
    expect(await race((n) => repo.createProject('racer', { name: `P${n}` }))).toBe(CAP);
    expect(await count('SELECT count(*) AS n FROM gateflow_projects WHERE owner = $1', ['racer'])).toBe(CAP);
  });

  it('makes at most maxDocumentsPerProject documents', async () => {
    const project = await repo.createProject('docs', { name: 'Docs' });
    expect(await race((n) => repo.createDocument('docs', project.id, { name: `D${n}`, content: 'x' }))).toBe(CAP);
    expect(await count('SELECT count(*) AS n FROM gateflow_documents WHERE project_id = $1', [project.id])).toBe(CAP);
  });

  it('makes at most maxChatsPerProject chats, new ones and those for sessions alike', async () => {
    const project = await repo.createProject('chats', { name: 'Chats' });
    const made = await race((n) => (n % 2 === 0 ? repo.getOrCreateChat('chats', project.id, null) : repo.chatForSession('chats', project.id, `session-${n}`)));
    expect(made).toBe(CAP);
    expect(await count('SELECT count(*) AS n FROM gateflow_chats WHERE project_id = $1', [project.id])).toBe(CAP);
  });

  it('adds at most maxMessagesPerChat messages', async () => {
    const project = await repo.createProject('talk', { name: 'Talk' });
    const { chat } = await repo.getOrCreateChat('talk', project.id, null);
    expect(await race((n) => repo.addMessage(chat.id, 'user', `m${n}`))).toBe(CAP);
    expect(await count('SELECT count(*) AS n FROM gateflow_messages WHERE chat_id = $1', [chat.id])).toBe(CAP);
  });
});
