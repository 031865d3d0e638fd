/**
 * The document agent as real use meets it (issue 27 §4): names typed in
 * another Unicode form are the same name; an append that meets a newer
 * version of its document is made again on it rather than refused; deleting a
 * section the document does not have is said at once, before any
 * confirmation is asked.
 */
import type { AnyMachineSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import { appendText } from '../../src/document-agent/markdown.js';
import { documentAgentWorkflow } from '../../src/document-agent/workflow.js';
import { DuplicateDocumentNameError } from '../../src/documents/errors.js';
import { documentRepository } from '../../src/documents/repository.js';
import { snapshotWith, useDocumentAgentStore } from '../helpers/document-agent.js';

const { store, agent } = useDocumentAgentStore();

const NFC = 'Caf\u00e9 Men\u00fc';
const NFD = 'Cafe\u0301 Menu\u0308';

describe('document names in another Unicode form', () => {
  it('are the same name: no look-alike duplicate, and found by either form', async () => {
    const h = agent({});
    const project = await h.project('Unicode');
    const made = await h.repo.createDocument(null, project.id, { name: NFD, content: '' });
    expect(made.name).toBe(NFC);
    await expect(h.repo.createDocument(null, project.id, { name: NFC, content: '' })).rejects.toBeInstanceOf(DuplicateDocumentNameError);
    expect((await h.repo.findDocumentByName(project.id, NFD))?.id).toBe(made.id);
    // Asked to create it again, typed the other way: the agent sees the name taken.
    const chat = await h.chat(project.id);
    const reply = await chat.send(`Create a document called ${NFD}`);
    expect(reply.state).toBe('awaiting_choice');
    expect((await h.documents(project.id)).map((d) => d.name)).toEqual([NFC]);
  });
});

describe('an append that meets a newer version', () => {
  it('is added to the version there is now when the step is saved, not refused', async () => {
    const repo = documentRepository(store().sql!);
    const project = await repo.createProject(null, { name: 'Appends' });
    const doc = await repo.createDocument(null, project.id, { name: 'Log', content: '# Log\n\nfirst' });
    const { chat } = await repo.getOrCreateChat(null, project.id);
    // Made from version 1; someone saves version 2 before the step is saved.
    const planned = appendText(doc.content, 'mine');
    await repo.updateDocumentContent(doc.id, 1, '# Log\n\nfirst\n\ntheirs');
    const outbox = {
      messageNo: 1,
      chatId: chat.id,
      user: { content: 'Add this to Log: mine' },
      assistant: { content: "I've added it.", metadata: {} },
      write: { kind: 'update', documentId: doc.id, name: 'Log', expectedVersion: 1, content: planned, append: 'mine' },
      event: { success: true, documentId: doc.id, metadata: {} },
    };
    const effects = documentAgentWorkflow().effects!({
      before: snapshotWith({ outbox: null, projectId: project.id }),
      after: snapshotWith({ outbox, projectId: project.id }) as AnyMachineSnapshot,
      session: { sessionId: 'append-session', owner: null },
    })!;
    await store().sql!.transaction((tx) => effects(tx));
    expect(await repo.getDocument(null, doc.id)).toMatchObject({ content: appendText('# Log\n\nfirst\n\ntheirs', 'mine'), version: 3 });
  });
});

describe('deleting a section the document does not have', () => {
  it('says so at once, naming the sections there are, and asks nothing', async () => {
    const h = agent({});
    const project = await h.project('Sections');
    const doc = await h.document(project.id, 'Recipes', '# Recipes\n\n## Pancakes\nFlour.\n\n## Soup\nTomato.\n');
    const chat = await h.chat(project.id);
    const reply = await chat.send('Delete the section Desserts from Recipes');
    expect(reply.message).toBe("There is no 'Desserts' section in 'Recipes', so nothing was changed. Its sections are: Recipes, Pancakes, Soup.");
    expect(reply.inputs ?? []).toEqual([]);
    expect(reply.state).toBe('idle');
    expect((await h.documents(project.id)).find((d) => d.id === doc.id)?.version).toBe(1);
    // A section that is there is still confirmed first.
    const existing = await chat.send('Delete the section Soup from Recipes');
    expect(existing.state).toBe('awaiting_confirmation');
  });
});
