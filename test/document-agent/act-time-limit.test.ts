/**
 * Issue 27 §3 for the document agent: a time limit per act (one message, or
 * an answer to a confirmation) that holds during its calls. Each model call
 * and web search is given the act's time left (an AbortSignal); a model that
 * never answers, or answers late ignoring the signal, is stopped there, and
 * the message ends with an honest reply (what was done, what was not),
 * HTTP 200, its two chat messages and its event written once, and nothing of
 * it applied, not even when the late answer arrives afterwards. Work applied
 * by earlier messages is kept as it was.
 *
 * No wall-time assertions: the clock the limit reads is a fake one (the
 * actors' `now`) that the scripted answers move, so only the call that never
 * answers meets the limit (its real timer gets the few hundred ms left).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentAgentHost } from '../../src/document-agent/host.js';
import { decisionOf } from '../../src/document-agent/schemas.js';
import type { WebSearch } from '../../src/document-agent/web-search.js';
import { documentRepository } from '../../src/documents/repository.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import type { SqlDatabase, Store } from '../../src/store/types.js';
import { GoalTimeUp } from '../../src/workflow/goal-time.js';
import { latch, scriptedModel, type Script } from '../helpers/document-agent.js';
import { templateStore } from '../helpers/pglite-template.js';
import { jsonRequests } from '../helpers/http.js';

let store: Store;
beforeAll(async () => {
  store = await templateStore();
});
afterAll(async () => {
  await store?.close();
});

const NOTES = '# Notes\n\n## Prices\n\nCheap.\n';

/** The document agent served over HTTP (the real route), its limit per act `maxActMs` by the fake `clock`; its actors read through `database` when given. */
function served(script: Script, options: { maxActMs: number; clock: { ms: number }; webSearch?: WebSearch; modelTimeoutMs?: number; database?: SqlDatabase }) {
  const model = scriptedModel(script);
  const host = documentAgentHost({
    database: options.database ?? store.sql!,
    model: model.model,
    now: () => options.clock.ms,
    actLimits: { maxActMs: options.maxActMs },
    // Longer than the act's limit: it is the act's limit that stops the call.
    modelTimeoutMs: options.modelTimeoutMs ?? 5_000,
    ...(options.webSearch && { webSearch: options.webSearch }),
  });
  const runtime = createRuntime({ workflows: [host.workflow], store, actors: host.actors });
  const app = createApp({ runtime, documentAgent: { database: store.sql! } });
  const request = jsonRequests(app);
  const repo = documentRepository(store.sql!);
  const events = async (sessionId: string) => (await store.readEvents(0, 10_000)).filter((e) => e.sessionId === sessionId && e.type === 'agent.action_completed').map((e) => e.data);
  return { model, request, runtime, repo, events };
}

describe('the time limit per act of the document agent', () => {
  it('answers 200 with the truth when the decision never comes (a model that honours the abort), and writes the messages once', async () => {
    const clock = { ms: Date.parse('2026-11-27T10:00:00Z') };
    const s = served({ decide: [{ hang: true }] }, { maxActMs: 300, clock });
    try {
      const project = await s.repo.createProject(null, { name: 'Hangs', description: null });
      const notes = await s.repo.createDocument(null, project.id, { name: 'Notes', content: NOTES, standingInstruction: '' });
      const answer = await s.request('/api/agent/act', { message: 'Rewrite Notes in a friendlier tone', project_id: project.id, turn_id: 't-1' });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.chat_message.content).toBe(
        'I stopped before finishing: this message reached the time limit of 300 ms per message.\n' +
          'Done: nothing yet.\n' +
          'Not done: working out what to do.\n' +
          'Nothing was changed in your documents; send the message again to try once more.',
      );
      expect(answer.body.document).toBeNull();
      expect(answer.body.chat_message.metadata).toMatchObject({ outcome: 'time_limit', document_updated: false, model_calls: 1 });
      expect(s.model.calls.map((c) => c.purpose)).toEqual(['decide']);
      // Nothing applied; the person's message and the reply stored once; one event, not a success.
      expect(await s.repo.getDocument(null, notes.id)).toMatchObject({ version: 1, content: NOTES });
      const messages = (await s.request(`/api/chats/${answer.body.chat_id}/messages`)).body.messages as { role: string; content: string }[];
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(await s.events(answer.body.session_id)).toEqual([expect.objectContaining({ success: false, document_id: null, metadata: expect.objectContaining({ outcome: 'time_limit' }) })]);
      // The same turn again (a client that lost the answer): the stored answer, nothing run or written again.
      const again = await s.request('/api/agent/act', { message: 'Rewrite Notes in a friendlier tone', project_id: project.id, turn_id: 't-1' });
      expect(again.status).toBe(200);
      expect(again.body.chat_message).toEqual(answer.body.chat_message);
      expect(s.model.calls).toHaveLength(1);
      expect((await s.request(`/api/chats/${answer.body.chat_id}/messages`)).body.messages).toHaveLength(2);
    } finally {
      s.runtime.close();
    }
  });

  it('stops a rewrite that ignores the abort at the limit, keeps the earlier message\'s change once, and applies nothing when the late answer comes', async () => {
    const clock = { ms: Date.parse('2026-11-27T10:00:00Z') };
    const late = latch<string>();
    const s = served(
      {
        decide: [
          // The decision takes 59.8 s of the act's 60 s (by the fake clock): 200 ms are left for the rewrite.
          () => {
            clock.ms += 59_800;
            return decisionOf({ should_edit: true, document_id: notesId, intent_statement: "I'll rewrite Notes in a friendlier tone.", content_summary: 'Friendlier.' });
          },
        ],
        // The rewrite ignores its signal and answers only when the test lets it, after the act has ended.
        rewrite: [async () => ({ text: await late.promise })],
      },
      { maxActMs: 60_000, clock },
    );
    let notesId = 0;
    try {
      const project = await s.repo.createProject(null, { name: 'Late rewrite', description: null });
      notesId = (await s.repo.createDocument(null, project.id, { name: 'Notes', content: NOTES, standingInstruction: '' })).id;
      // An earlier message applies a change (an explicit command: no model).
      const first = await s.request('/api/agent/act', { message: 'Add this to Notes: Open 9 to 5', project_id: project.id });
      expect(first.status, first.text).toBe(200);
      expect(first.body.document).toMatchObject({ version: 2 });
      const kept = (await s.repo.getDocument(null, notesId)).content;
      expect(kept.match(/Open 9 to 5/g)).toHaveLength(1);

      const answer = await s.request('/api/agent/act', { message: 'Rewrite Notes in a friendlier tone', project_id: project.id, chat_id: first.body.chat_id });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.chat_message.content).toBe(
        'I stopped before finishing: this message reached the time limit of 60 s per message.\n' +
          "Done: worked out what to do (I'll rewrite Notes in a friendlier tone).\n" +
          "Not done: changing 'Notes'.\n" +
          'Nothing was changed in your documents; send the message again to try once more.',
      );
      expect(answer.body.chat_message.metadata).toMatchObject({ outcome: 'time_limit', model_calls: 2 });
      // The late answer arrives after the act ended: it is dropped.
      late.release('# Notes\n\nEverything is lovely here!\n');
      await new Promise((resolve) => setImmediate(resolve));
      const after = await s.request(`/api/documents/${notesId}`);
      expect(after.body).toMatchObject({ version: 2, content: kept });
      // The chat holds each message once: the earlier two, and this one's two.
      const messages = (await s.request(`/api/chats/${answer.body.chat_id}/messages`)).body.messages as { role: string; content: string }[];
      expect(messages.map((m) => m.content.slice(0, 20))).toEqual(['Add this to Notes: O', expect.any(String), 'Rewrite Notes in a f', 'I stopped before fin']);
      // The session takes the next message as usual.
      const next = await s.request('/api/agent/act', { message: 'Which documents do I have?', project_id: project.id, chat_id: first.body.chat_id });
      expect(next.status, next.text).toBe(200);
    } finally {
      s.runtime.close();
    }
  });

  it('stops a web search that never answers, and says the search and the document it was for were not done', async () => {
    const clock = { ms: Date.parse('2026-11-27T10:00:00Z') };
    const aborts: unknown[] = [];
    const webSearch: WebSearch = {
      name: 'Stuck search',
      search: (_query, { signal } = {}) =>
        new Promise((_, reject) => {
          signal?.addEventListener('abort', () => {
            aborts.push(signal.reason);
            reject(signal.reason);
          });
        }),
    };
    const s = served(
      {
        decide: [
          () => {
            clock.ms += 59_800;
            return decisionOf({
              should_create: true,
              document_name: 'Pizza',
              needs_web_search: true,
              search_query: 'best pizza in Naples',
              intent_statement: "I'll create a new document called 'Pizza'",
            });
          },
        ],
      },
      { maxActMs: 60_000, clock, webSearch },
    );
    try {
      const project = await s.repo.createProject(null, { name: 'Search hangs', description: null });
      const answer = await s.request('/api/agent/act', { message: 'Research the best pizza in Naples and write it up as Pizza', project_id: project.id });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.chat_message.content).toBe(
        'I stopped before finishing: this message reached the time limit of 60 s per message.\n' +
          "Done: worked out what to do (I'll create a new document called 'Pizza').\n" +
          'Not done: the web search for "best pizza in Naples"; creating \'Pizza\'.\n' +
          'Nothing was changed in your documents; send the message again to try once more.',
      );
      // The act's stop reached the search, naming the limit.
      expect(aborts).toHaveLength(1);
      expect(aborts[0]).toBeInstanceOf(GoalTimeUp);
      expect((aborts[0] as GoalTimeUp).limit).toBe('the time limit of 60 s per message');
      expect(await s.repo.listDocuments(project.id)).toEqual([]);
    } finally {
      s.runtime.close();
    }
  });

  it('counts the context load against the limit: a read that outlasts it ends the act with 200 and the truth, and its late result is dropped', async () => {
    const clock = { ms: Date.parse('2026-11-27T10:00:00Z') };
    // The actors' reads of the documents wait on the test (a store read that outlasts the limit); the route's own reads do not.
    const slow = { on: false, reads: 0, release: latch() };
    const sql = store.sql!;
    const database: SqlDatabase = {
      kind: sql.kind,
      transaction: (fn) => sql.transaction(fn),
      query: async <Row>(text: string, params?: unknown[]) => {
        if (slow.on && /FROM gateflow_documents/.test(text)) {
          slow.reads++;
          await slow.release.promise;
        }
        return sql.query<Row>(text, params);
      },
    };
    const s = served({ decide: [() => decisionOf({ conversational_response: 'You have Notes.' })] }, { maxActMs: 300, clock, database });
    try {
      const project = await s.repo.createProject(null, { name: 'Slow reads', description: null });
      const notes = await s.repo.createDocument(null, project.id, { name: 'Notes', content: NOTES, standingInstruction: '' });
      slow.on = true;
      const answer = await s.request('/api/agent/act', { message: 'Add this to Notes: Open 9 to 5', project_id: project.id, turn_id: 'slow-1' });
      expect(answer.status, answer.text).toBe(200);
      expect(slow.reads).toBe(1);
      expect(answer.body.chat_message.content).toBe(
        'I stopped before finishing: this message reached the time limit of 300 ms per message.\n' +
          'Done: nothing yet.\n' +
          'Not done: reading the project and its documents.\n' +
          'Nothing was changed in your documents; send the message again to try once more.',
      );
      expect(answer.body.chat_message.metadata).toMatchObject({ outcome: 'time_limit', document_updated: false, model_calls: 0, decision: null });
      expect(answer.body.agent_decision).toBeNull();
      expect(s.model.calls).toEqual([]);
      // The late read comes back after the act ended: dropped, nothing applied.
      slow.release.release();
      slow.on = false;
      await new Promise((resolve) => setImmediate(resolve));
      expect(await s.repo.getDocument(null, notes.id)).toMatchObject({ version: 1, content: NOTES });
      const messages = (await s.request(`/api/chats/${answer.body.chat_id}/messages`)).body.messages as { role: string; content: string }[];
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(await s.events(answer.body.session_id)).toEqual([expect.objectContaining({ success: false, chat_id: answer.body.chat_id, metadata: expect.objectContaining({ outcome: 'time_limit' }) })]);
      // The same turn again without a chat id: the stored answer, nothing run again.
      const again = await s.request('/api/agent/act', { message: 'Add this to Notes: Open 9 to 5', project_id: project.id, turn_id: 'slow-1' });
      expect(again.status, again.text).toBe(200);
      expect(again.body.chat_message).toEqual(answer.body.chat_message);
      expect(slow.reads).toBe(1);
      // The chat goes on; the next message reads in time and is applied once.
      const next = await s.request('/api/agent/act', { message: 'Add this to Notes: Open 9 to 5', project_id: project.id, chat_id: answer.body.chat_id });
      expect(next.status, next.text).toBe(200);
      expect(next.body.document).toMatchObject({ version: 2 });
      expect((await s.repo.getDocument(null, notes.id)).content.match(/Open 9 to 5/g)).toHaveLength(1);
    } finally {
      slow.release.release();
      s.runtime.close();
    }
  });

  it('refuses a limit it could not keep, naming it: none, or one past the runtime\'s wait for a turn', () => {
    expect(() => documentAgentHost({ database: store.sql!, actLimits: { maxActMs: 0 } })).toThrow(/^documentAgentWorkflow: actLimits\.maxActMs: Too small/);
    expect(() => documentAgentHost({ database: store.sql!, actLimits: { maxActMs: 600_000 } })).toThrow(/actLimits\.maxActMs: Too big: expected number to be <=100000/);
  });

  it('a message that ends in time is not touched by the limit, and the next message has the whole limit again', async () => {
    const clock = { ms: Date.parse('2026-11-27T10:00:00Z') };
    const s = served(
      {
        decide: [
          () => {
            clock.ms += 50_000;
            return decisionOf({ conversational_response: 'You have one document: Notes.' });
          },
          () => {
            clock.ms += 50_000;
            return decisionOf({ conversational_response: 'Still just Notes.' });
          },
        ],
      },
      { maxActMs: 60_000, clock },
    );
    try {
      const project = await s.repo.createProject(null, { name: 'In time', description: null });
      await s.repo.createDocument(null, project.id, { name: 'Notes', content: NOTES, standingInstruction: '' });
      const one = await s.request('/api/agent/act', { message: 'What do I have?', project_id: project.id });
      expect(one.body.chat_message.content).toBe('You have one document: Notes.');
      // 100 s on the clock since the first message began: each message has its own 60 s.
      const two = await s.request('/api/agent/act', { message: 'And now?', project_id: project.id, chat_id: one.body.chat_id });
      expect(two.body.chat_message.content).toBe('Still just Notes.');
    } finally {
      s.runtime.close();
    }
  });
});
