/**
 * Issue 27 §3: the commit that ends a message is not cut at the act's time
 * limit (src/document-agent/workflow.ts says why). What the person is told
 * is what the commit kept: a slow commit that lands past the limit answers
 * with the change it kept; a commit the store did not confirm answers 503
 * saying it may not have been saved, and the same turn_id sent again applies
 * it at most once (with no chat_id too).
 *
 * The store is the real one (a PGlite template) under a wrapper that holds
 * or fails its `commitTurn`; the clock the limit reads is a fake one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentAgentHost } from '../../src/document-agent/host.js';
import { documentRepository } from '../../src/documents/repository.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import { StoreUnavailableError, type Store } from '../../src/store/types.js';
import { latch } from '../helpers/document-agent.js';
import { templateStore } from '../helpers/pglite-template.js';
import { jsonRequests } from '../helpers/http.js';

let store: Store;
beforeAll(async () => {
  store = await templateStore();
});
afterAll(async () => {
  await store?.close();
});

const NOTES = '# Notes\n\nCheap.\n';
type Commit = Store['commitTurn'];

/** The document agent over HTTP (no model: explicit commands), its commits passed through `commit`. */
function served(commit: (inner: Commit, ...args: Parameters<Commit>) => ReturnType<Commit>, clock: { ms: number }) {
  const inner = store.commitTurn.bind(store);
  const wrapped: Store = { ...store, kind: store.kind, commitTurn: (...args) => commit(inner, ...args) };
  const host = documentAgentHost({ database: store.sql!, now: () => clock.ms, actLimits: { maxActMs: 60_000 } });
  const runtime = createRuntime({ workflows: [host.workflow], store: wrapped, actors: host.actors });
  const app = createApp({ runtime, documentAgent: { database: store.sql! } });
  return { request: jsonRequests(app), runtime, repo: documentRepository(store.sql!) };
}

async function notesIn(repo: ReturnType<typeof documentRepository>, name: string) {
  const project = await repo.createProject(null, { name, description: null });
  const notes = await repo.createDocument(null, project.id, { name: 'Notes', content: NOTES, standingInstruction: '' });
  return { project, notes };
}

describe('the commit that ends a message of the document agent', () => {
  it('is not cut at the time limit: a commit that lands past it answers with what it kept, and the retry applies nothing again', async () => {
    const clock = { ms: Date.parse('2026-11-27T10:00:00Z') };
    const held = { on: false, reached: latch(), release: latch() };
    const s = served(async (inner, ...args) => {
      if (held.on) {
        held.reached.release();
        await held.release.promise;
      }
      return inner(...args);
    }, clock);
    try {
      const { project, notes } = await notesIn(s.repo, 'Slow commit');
      held.on = true;
      const pending = s.request('/api/agent/act', { message: 'Add this to Notes: Open 9 to 5', project_id: project.id, turn_id: 'commit-1' });
      await held.reached.promise;
      // The commit waits two minutes by the act's clock: far past the message's 60 s.
      clock.ms += 120_000;
      held.on = false;
      held.release.release();
      const answer = await pending;
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.chat_message.metadata).toMatchObject({ outcome: 'updated', document_updated: true });
      expect(answer.body.document).toMatchObject({ id: notes.id, version: 2 });
      expect((await s.repo.getDocument(null, notes.id)).content.match(/Open 9 to 5/g)).toHaveLength(1);
      const again = await s.request('/api/agent/act', { message: 'Add this to Notes: Open 9 to 5', project_id: project.id, turn_id: 'commit-1' });
      expect(again.status, again.text).toBe(200);
      expect(again.body.chat_message).toEqual(answer.body.chat_message);
      expect(await s.repo.getDocument(null, notes.id)).toMatchObject({ version: 2 });
    } finally {
      held.release.release();
      s.runtime.close();
    }
  });

  it.each([
    ['kept it (its confirmation was lost on the way)', true],
    ['did not keep it', false],
  ])('a commit the store did not confirm, which %s: 503 saying it may not have been saved, and the same turn_id applies it once', async (_, lands) => {
    const clock = { ms: Date.parse('2026-11-27T10:00:00Z') };
    let fail = false;
    const s = served(async (inner, ...args) => {
      if (!fail) return inner(...args);
      fail = false;
      if (lands) await inner(...args);
      throw new StoreUnavailableError('postgres store: commit failed: no answer from PostgreSQL within 6000 ms (query timeout); the connection was dropped');
    }, clock);
    try {
      const { project, notes } = await notesIn(s.repo, `Lost commit ${lands}`);
      fail = true;
      const lost = await s.request('/api/agent/act', { message: 'Add this to Notes: Open 9 to 5', project_id: project.id, turn_id: 'lost-1' });
      expect(lost.status, lost.text).toBe(503);
      expect(lost.body.error).toEqual({
        code: 'store_unavailable',
        message:
          'The store did not confirm that this message was saved: it may or may not have been. Send it again with the same turn_id (or Idempotency-Key): if it was saved you get its answer, otherwise it is done now, never twice.',
      });
      expect((await s.repo.getDocument(null, notes.id)).version).toBe(lands ? 2 : 1);
      // The client sends it again as told, with no chat id.
      const again = await s.request('/api/agent/act', { message: 'Add this to Notes: Open 9 to 5', project_id: project.id, turn_id: 'lost-1' });
      expect(again.status, again.text).toBe(200);
      expect(again.body.chat_message.metadata).toMatchObject({ outcome: 'updated' });
      expect(await s.repo.getDocument(null, notes.id)).toMatchObject({ version: 2 });
      expect((await s.repo.getDocument(null, notes.id)).content.match(/Open 9 to 5/g)).toHaveLength(1);
      const messages = (await s.request(`/api/chats/${again.body.chat_id}/messages`)).body.messages as unknown[];
      expect(messages).toHaveLength(2);
    } finally {
      s.runtime.close();
    }
  });

  it('without a turn_id, the 503 says to look at the chat before sending the message again', async () => {
    const clock = { ms: Date.parse('2026-11-27T10:00:00Z') };
    let fail = false;
    const s = served(async (inner, ...args) => {
      if (!fail) return inner(...args);
      throw new StoreUnavailableError('pglite store: commit failed: boom');
    }, clock);
    try {
      const { project } = await notesIn(s.repo, 'Lost commit, no key');
      fail = true;
      const lost = await s.request('/api/agent/act', { message: 'Add this to Notes: Open 9 to 5', project_id: project.id });
      expect(lost.status, lost.text).toBe(503);
      expect(lost.body.error.message).toBe(
        'The store did not confirm that this message was saved: it may or may not have been. Look at the chat before sending it again (a message sent with a turn_id can be sent again safely).',
      );
    } finally {
      s.runtime.close();
    }
  });
});
