/**
 * The document agent's use cases (seed 002, issue 14 section 4), end to end:
 * the runtime serving documentAgentHost on a real PGlite store (PostgreSQL
 * too for concurrent edits, when GATEFLOW_TEST_DATABASE_URL is set), with the
 * model scripted per call (MockLanguageModelV4). Each case checks the exact
 * reply (4a–4f word for word), the documents, the stored messages with the
 * seed's metadata, the event and the model calls the message took.
 */
import type { AnyMachineSnapshot } from 'xstate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionOf, type AgentDecision } from '../../src/document-agent/schemas.js';
import { formatSearchResults, type WebSearchResult } from '../../src/document-agent/web-search.js';
import { documentAgentWorkflow } from '../../src/document-agent/workflow.js';
import { documentRepository } from '../../src/documents/repository.js';
import { DocumentVersionConflictError } from '../../src/documents/errors.js';
import type { Message } from '../../src/documents/schemas.js';
import { createPostgresStore } from '../../src/store/postgres.js';
import type { Store } from '../../src/store/types.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';
import {
  artifactOf,
  fakeWebSearch,
  latch,
  snapshotWith,
  useDocumentAgentStore,
  type DocumentAgentHarness,
} from '../helpers/document-agent.js';
import { createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';

const { store, agent } = useDocumentAgentStore();

/** The seed's metadata of an assistant message (step 5), with the decision as stored (every field filled). */
function seedMetadata(decision: Partial<AgentDecision>, flags: Partial<Record<'web_search_performed' | 'document_updated' | 'needs_clarification' | 'pending_confirmation' | 'should_create', boolean>> = {}) {
  return {
    decision: decisionOf(decision),
    web_search_performed: false,
    document_updated: false,
    needs_clarification: false,
    pending_confirmation: false,
    should_create: decision.should_create === true,
    ...flags,
  };
}

const roles = (messages: Message[]) => messages.map((m) => [m.role, m.content]);
const inputsOf = (reply: ReplyEnvelope) => (reply.inputs ?? []).map((g) => ({ name: g.name, options: g.options }));

const SEED_CONTENT = '# Recipes\n\n## Breakfast\nPancakes: flour, eggs, milk.\n\n## Lunch\nTomato soup.\n\n## Dinner\nRisotto.';
const SEED_DECISION = {
  should_create: true,
  document_name: 'Recipes',
  intent_statement: "I'll create a new document called 'Recipes'",
  content_summary: 'Created a Recipes document with sections for breakfast, lunch, dinner...',
  document_content: SEED_CONTENT,
};
const SEED_REPLY = "I've created the document 'Recipes' in this project.\n\n**Document Content Summary:**\nCreated a Recipes document with sections for breakfast, lunch, dinner...";

describe("the seed's example", () => {
  it("'Add my favorite recipes' in the empty project 'My Project' creates Recipes with one model call, and the next message sees the chat", async () => {
    const h = agent({ decide: [SEED_DECISION, { conversational_response: 'It has breakfast, lunch and dinner.' }] });
    const project = await h.project('My Project', 'Family cooking');
    const chat = await h.chat(project.id);

    const reply = await chat.send('Add my favorite recipes');
    expect(reply.message).toBe(SEED_REPLY);
    expect(artifactOf(reply)).toMatchObject({ modelCalls: 1, outcome: { kind: 'created', name: 'Recipes' }, webSearchPerformed: false, projectId: project.id });
    expect(artifactOf(reply).decision).toEqual(decisionOf(SEED_DECISION));

    const docs = await h.documents(project.id);
    expect(docs.map((d) => ({ name: d.name, content: d.content, version: d.version, standingInstruction: d.standingInstruction }))).toEqual([
      { name: 'Recipes', content: SEED_CONTENT, version: 1, standingInstruction: '' },
    ]);

    // The decision call: the message, the project, no documents, no history, at the seed's temperature.
    expect(h.model.calls.map((c) => c.purpose)).toEqual(['decide']);
    const first = h.model.calls[0]!;
    expect(first.prompt).toContain('<message>\nAdd my favorite recipes\n</message>');
    expect(first.prompt).toContain(`Project: My Project (id ${project.id}) — Family cooking`);
    expect(first.prompt).toContain('The project has no documents yet.');
    expect(first.prompt).toContain('This is the first message of the chat.');
    expect(first.temperature).toBe(0.5);

    const messages = await chat.messages();
    expect(roles(messages)).toEqual([
      ['user', 'Add my favorite recipes'],
      ['assistant', SEED_REPLY],
    ]);
    expect(messages[0]!.metadata).toEqual({});
    expect(messages[1]!.metadata).toMatchObject({ ...seedMetadata(SEED_DECISION), document_id: docs[0]!.id, model_calls: 1 });
    expect((await chat.events()).map((e) => e.data)).toEqual([
      expect.objectContaining({ project_id: project.id, document_id: docs[0]!.id, action_type: 'agent_action', success: true }),
    ]);

    // The second message: the decision sees the chat so far and the new document.
    const second = await chat.send('What is in it?');
    expect(second.message).toBe('It has breakfast, lunch and dinner.');
    const prompt = h.model.calls[1]!.prompt;
    expect(prompt).toContain(`<history>\nuser: Add my favorite recipes\nassistant: ${SEED_REPLY}\n</history>`);
    expect(prompt).toContain(`id: ${docs[0]!.id}\nname: Recipes`);
    expect(prompt).toContain(SEED_CONTENT);
    expect(prompt).toContain('<message>\nWhat is in it?\n</message>');
    expect(h.model.calls).toHaveLength(2);
    expect(roles(await chat.messages()).slice(2)).toEqual([
      ['user', 'What is in it?'],
      ['assistant', 'It has breakfast, lunch and dinner.'],
    ]);
  });

  it('an explicit command is read offline: no model call', async () => {
    const h = agent({});
    const project = await h.project();
    const chat = await h.chat(project.id);
    const reply = await chat.send('Create a document called Notes');
    expect(reply.message.startsWith("I've created the document 'Notes' in this project.")).toBe(true);
    expect(artifactOf(reply).modelCalls).toBe(0);
    expect(h.model.calls).toHaveLength(0);
    expect((await h.documents(project.id)).map((d) => d.name)).toEqual(['Notes']);
  });
});

const PANCAKES = '# Recipes\n\n## Pancakes\nFlour, eggs, milk.\n';
const INSTRUCTION = 'Keep every recipe with its ingredients.';
const TIRAMISU = '# Recipes\n\n## Pancakes\nFlour, eggs, milk.\n\n## Desserts\n### Tiramisu\nMascarpone, coffee, savoiardi.\n';
const RESULTS: WebSearchResult[] = [
  { title: 'Tiramisu', url: 'https://en.wikipedia.org/wiki/Tiramisu', snippet: 'A coffee-flavoured Italian dessert.' },
  { title: 'Classic tiramisu', url: 'https://example.org/tiramisu', snippet: 'Mascarpone, eggs, sugar, savoiardi.' },
];
/** The id the decision prompt lists for Recipes (the model reads it there). */
const recipesIdIn = (prompt: string) => Number(/id: (\d+)\nname: Recipes/.exec(prompt)![1]);
const editDecision = (documentId: number, over: Partial<AgentDecision> = {}) => ({
  should_edit: true,
  document_id: documentId,
  intent_statement: "I'll add your favorite recipes to the Recipes document.",
  content_summary: 'Added a Tiramisu recipe under a new Desserts section.',
  ...over,
});

describe('3c: edit', () => {
  it('rewrites the document from the request, its standing instruction and its content (4e), two model calls', async () => {
    const h = agent({ decide: [(call) => editDecision(recipesIdIn(call.prompt))], rewrite: [TIRAMISU] });
    const project = await h.project();
    const doc = await h.document(project.id, 'Recipes', PANCAKES, INSTRUCTION);
    const chat = await h.chat(project.id);

    const reply = await chat.send('Put my tiramisu in there too');
    expect(reply.message).toBe("I'll add your favorite recipes to the Recipes document.\n\n**Content Summary:**\nAdded a Tiramisu recipe under a new Desserts section.");
    expect(artifactOf(reply)).toMatchObject({ modelCalls: 2, outcome: { kind: 'updated', documentId: doc.id, name: 'Recipes' } });
    expect(h.model.calls.map((c) => c.purpose)).toEqual(['decide', 'rewrite']);

    const rewrite = h.model.calls[1]!;
    expect(rewrite.prompt).toContain('<message>\nPut my tiramisu in there too\n</message>');
    expect(rewrite.prompt).toContain(`Standing instruction: ${INSTRUCTION}`);
    expect(rewrite.prompt).toContain(`Current content:\n<document>\n${PANCAKES}\n</document>`);
    expect(rewrite.prompt).not.toContain('Web search results');

    const [after] = await h.documents(project.id);
    expect({ content: after!.content, version: after!.version }).toEqual({ content: TIRAMISU.trim(), version: 2 });
    const messages = await chat.messages();
    expect(messages[1]!.metadata).toMatchObject({ ...seedMetadata(editDecision(doc.id), { document_updated: true }), document_id: doc.id, model_calls: 2 });
    expect((await chat.events()).map((e) => e.data)).toEqual([expect.objectContaining({ document_id: doc.id, success: true })]);
  });

  it('with a web search: the results go to the rewrite, and the reply says the search was made', async () => {
    const web = fakeWebSearch(RESULTS);
    const decisionFor = (id: number) => editDecision(id, { needs_web_search: true, search_query: 'classic tiramisu recipe' });
    const h = agent({ decide: [(call) => decisionFor(recipesIdIn(call.prompt))], rewrite: [TIRAMISU] }, { webSearch: web.search });
    const project = await h.project();
    const doc = await h.document(project.id, 'Recipes', PANCAKES, INSTRUCTION);
    const chat = await h.chat(project.id);

    const reply = await chat.send('Put a proper tiramisu recipe in there');
    expect(reply.message).toBe(
      "I'll add your favorite recipes to the Recipes document.\n\n**Content Summary:**\nAdded a Tiramisu recipe under a new Desserts section.\n\n_I performed a web search to ensure accuracy._",
    );
    expect(web.queries).toEqual(['classic tiramisu recipe']);
    expect(h.model.calls.map((c) => c.purpose)).toEqual(['decide', 'rewrite']);
    expect(h.model.calls[1]!.prompt).toContain(`Web search results:\n<document>\n${formatSearchResults('classic tiramisu recipe', RESULTS)}\n</document>`);
    expect(artifactOf(reply)).toMatchObject({ modelCalls: 2, webSearchPerformed: true });
    expect((await h.documents(project.id))[0]).toMatchObject({ content: TIRAMISU.trim(), version: 2 });
    expect((await chat.messages())[1]!.metadata).toMatchObject(seedMetadata(decisionFor(doc.id), { document_updated: true, web_search_performed: true }));
  });
});

describe('3c: create', () => {
  it('with a web search: the results are added to the new document, and the reply says so', async () => {
    const web = fakeWebSearch(RESULTS);
    const decision = { should_create: true, document_name: 'Tiramisu', document_content: '# Tiramisu', content_summary: 'A tiramisu recipe with sources.', needs_web_search: true, search_query: 'classic tiramisu' };
    const h = agent({ decide: [decision] }, { webSearch: web.search });
    const project = await h.project();
    const chat = await h.chat(project.id);
    const reply = await chat.send('Start a tiramisu page with a recipe from the web');
    expect(reply.message).toBe(
      "I've created the document 'Tiramisu' in this project.\n\n**Document Content Summary:**\nA tiramisu recipe with sources.\n\n_I performed a web search to gather initial content._",
    );
    const [doc] = await h.documents(project.id);
    expect(doc!.content).toBe(`# Tiramisu\n\n${formatSearchResults('classic tiramisu', RESULTS)}`);
    expect(doc!.content).toContain('https://example.org/tiramisu');
    expect(artifactOf(reply)).toMatchObject({ modelCalls: 1, webSearchPerformed: true });
    expect((await chat.messages())[1]!.metadata).toMatchObject(seedMetadata(decision, { web_search_performed: true }));
  });

  it('without a search provider: the document is created all the same, and the reply says the search was not made', async () => {
    const decision = { should_create: true, document_name: 'Tiramisu', document_content: '# Tiramisu', content_summary: 'A tiramisu recipe.', needs_web_search: true, search_query: 'classic tiramisu' };
    const h = agent({ decide: [decision] });
    const project = await h.project();
    const chat = await h.chat(project.id);
    const reply = await chat.send('Start a tiramisu page with a recipe from the web');
    expect(reply.message).toBe(
      "I've created the document 'Tiramisu' in this project.\n\n**Document Content Summary:**\nA tiramisu recipe.\n\n_Web search is not available here, so I went on without it._",
    );
    expect((await h.documents(project.id)).map((d) => [d.name, d.content])).toEqual([['Tiramisu', '# Tiramisu']]);
    expect((await chat.messages())[1]!.metadata).toMatchObject({ web_search_performed: false, should_create: true });
  });

  it('a search provider that fails: the action still happens, and the reply says the search failed (not its own words)', async () => {
    const web = fakeWebSearch(new Error('connect ECONNREFUSED 10.0.0.7:8888'));
    const h = agent({ decide: [(call) => editDecision(recipesIdIn(call.prompt), { needs_web_search: true, search_query: 'tiramisu' })], rewrite: [TIRAMISU] }, { webSearch: web.search });
    const project = await h.project();
    await h.document(project.id, 'Recipes', PANCAKES);
    const chat = await h.chat(project.id);
    const reply = await chat.send('Put a proper tiramisu recipe in there');
    expect(reply.message).toBe(
      "I'll add your favorite recipes to the Recipes document.\n\n**Content Summary:**\nAdded a Tiramisu recipe under a new Desserts section.\n\n_The web search failed (the search service could not be used), so I went on without it._",
    );
    expect(web.queries).toEqual(['tiramisu']);
    expect(h.model.calls[1]!.prompt).not.toContain('Web search results');
    expect((await h.documents(project.id))[0]).toMatchObject({ content: TIRAMISU.trim(), version: 2 });
    expect((await chat.messages())[1]!.metadata).toMatchObject({ web_search_performed: false, document_updated: true });
  });

  it('a search query over 500 characters is cut to 500, not refused', async () => {
    const web = fakeWebSearch(RESULTS);
    const query = `tiramisu ${'very '.repeat(150)}classic`;
    const h = agent({ decide: [{ should_create: true, document_name: 'Tiramisu', document_content: '# Tiramisu', needs_web_search: true, search_query: query }] }, { webSearch: web.search });
    const project = await h.project();
    const chat = await h.chat(project.id);
    const reply = await chat.send('Start a tiramisu page with a recipe from the web');
    expect(query.length).toBeGreaterThan(500);
    expect(web.queries).toEqual([query.slice(0, 500).trim()]);
    expect(reply.message).toBe("I've created the document 'Tiramisu' in this project.\n\n_I performed a web search to gather initial content._");
  });

  it("names the document by the seed's four priorities: the decision's name, the intent's \"called X\", the message's words, then Document N", async () => {
    const h = agent({
      decide: [
        { should_create: true, document_name: 'Budget', document_content: '# Budget' },
        { should_create: true, intent_statement: "I'll create a new document called 'Travel Guide'" },
        { should_create: true },
        { should_create: true },
      ],
    });
    const project = await h.project();
    const chat = await h.chat(project.id);
    const replies = [];
    for (const text of ['I need to track my spending', 'Plan my trip to Lisbon', 'Could you start a packing list', 'Something for the weekend'])
      replies.push((await chat.send(text)).message);
    expect(replies).toEqual([
      "I've created the document 'Budget' in this project.",
      "I've created the document 'Travel Guide' in this project.",
      "I've created the document 'Packing List' in this project.",
      "I've created the document 'Document 4' in this project.",
    ]);
    expect((await h.documents(project.id)).map((d) => d.name)).toEqual(['Budget', 'Travel Guide', 'Packing List', 'Document 4']);
    expect(h.model.calls.map((c) => c.purpose)).toEqual(['decide', 'decide', 'decide', 'decide']);
  });
});

const THREE_DOCS = async (h: DocumentAgentHarness) => {
  const project = await h.project();
  const recipes = await h.document(project.id, 'Recipes', PANCAKES);
  const travel = await h.document(project.id, 'Travel Guide', '# Lisbon');
  const budget = await h.document(project.id, 'Budget', BUDGET);
  return { project, recipes, travel, budget };
};
const BUDGET = '# Budget\n\n## Budget\nRent: 1000\nFood: 400\n\n## Notes\nReview monthly.\n';
const versions = async (h: DocumentAgentHarness, projectId: number) => (await h.documents(projectId)).map((d) => [d.name, d.version, d.content]);

describe('4a: clarification', () => {
  it("the model's question is the reply; nothing changes", async () => {
    const question = 'Which document should I add the dessert section to? \nYou have: Recipes, Travel Guide, Budget';
    const decision = { needs_clarification: true, clarification_question: question };
    const h = agent({ decide: [decision] });
    const { project } = await THREE_DOCS(h);
    const before = await versions(h, project.id);
    const chat = await h.chat(project.id);
    const reply = await chat.send('Add a dessert section');
    expect(reply.message).toBe(question);
    expect(inputsOf(reply)).toEqual([]);
    expect(artifactOf(reply)).toMatchObject({ modelCalls: 1, outcome: { kind: 'clarify', question } });
    expect(await versions(h, project.id)).toEqual(before);
    expect((await chat.messages())[1]!.metadata).toMatchObject(seedMetadata(decision, { needs_clarification: true }));
    expect((await chat.events()).map((e) => e.data.success)).toEqual([false]);
  });

  it("a document id that is not one of the project's asks which document, listing them, without a rewrite", async () => {
    const h = agent({ decide: [] });
    const { project } = await THREE_DOCS(h);
    const elsewhere = await h.project('Other');
    const foreign = await h.document(elsewhere.id, 'Secret', 'not yours');
    const h2 = agent({ decide: [editDecision(9999), editDecision(foreign.id)] });
    const before = await versions(h, project.id);
    const chat = await h2.chat(project.id);
    for (const text of ['Add a dessert section', 'Add a dessert section to that one']) {
      const reply = await chat.send(text);
      expect(reply.message).toBe('Which document should I change? You have: Recipes, Travel Guide, Budget');
      expect(artifactOf(reply)).toMatchObject({ modelCalls: 1, outcome: { kind: 'clarify' } });
    }
    expect(h2.model.calls.map((c) => c.purpose)).toEqual(['decide', 'decide']);
    expect(await versions(h, project.id)).toEqual(before);
    expect((await h.documents(elsewhere.id))[0]).toMatchObject({ content: 'not yours', version: 1 });
    expect((await chat.messages())[3]!.metadata).toMatchObject({ needs_clarification: true, document_updated: false });
  });
});

const CONFIRM_PROMPT = "I'll remove the Budget section from the Budget document. \nThis will delete all budget information. Should I proceed?";
const removeBudget = (documentId: number) => ({
  should_edit: true,
  document_id: documentId,
  pending_confirmation: true,
  confirmation_prompt: CONFIRM_PROMPT,
  intent_statement: "I'll remove the Budget section from the Budget document.",
  content_summary: 'Removed the Budget section; the Notes section stays.',
});
const WITHOUT_BUDGET = '# Budget\n\n## Notes\nReview monthly.';
const budgetIdOf = (prompt: string) => Number(/id: (\d+)\nname: Budget/.exec(prompt)![1]);

describe('4b: confirmation', () => {
  it('asks first (Proceed / Cancel), then Proceed makes exactly the announced change with one more model call', async () => {
    const h = agent({ decide: [(call) => removeBudget(budgetIdOf(call.prompt))], rewrite: [WITHOUT_BUDGET] });
    const { project, budget } = await THREE_DOCS(h);
    const chat = await h.chat(project.id);

    const asked = await chat.send('Get rid of the budget figures');
    expect(asked.message).toBe(CONFIRM_PROMPT);
    expect(asked.state).toBe('awaiting_confirmation');
    expect(inputsOf(asked)).toEqual([
      {
        name: 'confirmation',
        options: [
          { label: 'Proceed', value: 'proceed' },
          { label: 'Cancel', value: 'cancel' },
        ],
      },
    ]);
    expect(artifactOf(asked).modelCalls).toBe(1);
    expect((await h.documents(project.id)).find((d) => d.id === budget.id)).toMatchObject({ content: BUDGET, version: 1 });
    expect((await chat.messages())[1]!.metadata).toMatchObject(seedMetadata(removeBudget(budget.id), { pending_confirmation: true }));

    const done = await chat.send('Proceed');
    expect(done.message).toBe("I'll remove the Budget section from the Budget document.\n\n**Content Summary:**\nRemoved the Budget section; the Notes section stays.");
    expect(done.state).toBe('idle');
    expect(artifactOf(done)).toMatchObject({ modelCalls: 1, outcome: { kind: 'updated', documentId: budget.id } });
    expect(h.model.calls.map((c) => c.purpose)).toEqual(['decide', 'rewrite']);
    // The rewrite is the announced one: the original request and what was announced.
    expect(h.model.calls[1]!.prompt).toContain('<message>\nGet rid of the budget figures\n</message>');
    expect(h.model.calls[1]!.prompt).toContain("What you said you would do: I'll remove the Budget section from the Budget document.");
    expect(h.model.calls[1]!.prompt).toContain(BUDGET);
    const docs = await h.documents(project.id);
    expect(docs.map((d) => [d.name, d.version, d.content])).toEqual([
      ['Recipes', 1, PANCAKES],
      ['Travel Guide', 1, '# Lisbon'],
      ['Budget', 2, WITHOUT_BUDGET],
    ]);
    const messages = await chat.messages();
    expect(roles(messages).map(([role, content]) => [role, content!.slice(0, 30)])).toEqual([
      ['user', 'Get rid of the budget figures'],
      ['assistant', CONFIRM_PROMPT.slice(0, 30)],
      ['user', 'Proceed'],
      ['assistant', "I'll remove the Budget section"],
    ]);
    expect(messages[3]!.metadata).toMatchObject({ document_updated: true, pending_confirmation: false, needs_clarification: false });
    expect((await chat.events()).map((e) => [e.data.success, e.data.document_id])).toEqual([
      [false, null],
      [true, budget.id],
    ]);
  });

  it('Cancel changes nothing and says what was not done, without a model call', async () => {
    const h = agent({ decide: [(call) => removeBudget(budgetIdOf(call.prompt))], rewrite: [WITHOUT_BUDGET] });
    const { project } = await THREE_DOCS(h);
    const before = await versions(h, project.id);
    const chat = await h.chat(project.id);
    await chat.send('Get rid of the budget figures');
    const cancelled = await chat.send('Cancel');
    expect(cancelled.message).toBe("Cancelled: nothing was changed (I'll remove the Budget section from the Budget document).");
    expect(cancelled.state).toBe('idle');
    expect(inputsOf(cancelled)).toEqual([]);
    expect(artifactOf(cancelled)).toMatchObject({ modelCalls: 0, outcome: { kind: 'cancelled' } });
    expect(h.model.calls.map((c) => c.purpose)).toEqual(['decide']);
    expect(await versions(h, project.id)).toEqual(before);
    expect(roles(await chat.messages()).slice(2)).toEqual([
      ['user', 'Cancel'],
      ['assistant', "Cancelled: nothing was changed (I'll remove the Budget section from the Budget document)."],
    ]);
  });

  it('a new request while a confirmation waits drops the pending change (said first), and it is never made', async () => {
    const h = agent({
      decide: [(call) => removeBudget(budgetIdOf(call.prompt)), { conversational_response: 'Rent is 1000 and food is 400.' }, { conversational_response: 'There is nothing waiting for you to confirm.' }],
      rewrite: [WITHOUT_BUDGET],
    });
    const { project } = await THREE_DOCS(h);
    const before = await versions(h, project.id);
    const chat = await h.chat(project.id);
    await chat.send('Get rid of the budget figures');
    const other = await chat.send('What does the budget say?');
    expect(other.message).toBe("_I dropped the request I was waiting on you to confirm (I'll remove the Budget section from the Budget document)._\n\nRent is 1000 and food is 400.");
    expect(other.state).toBe('idle');
    expect(inputsOf(other)).toEqual([]);
    expect(await h.runtime.inputs(undefined, { sessionId: chat.sessionId })).toEqual([]);
    // "Proceed" now is a new message, read by the model: the dropped change is not made.
    const late = await chat.send('Proceed');
    expect(late.message).toBe('There is nothing waiting for you to confirm.');
    expect(h.model.calls.map((c) => c.purpose)).toEqual(['decide', 'decide', 'decide']);
    expect(await versions(h, project.id)).toEqual(before);
  });
});

const PLANNED = '## Tiramisu\nMascarpone, coffee, savoiardi.';
const duplicateDecision = {
  should_create: true,
  document_name: 'recipes',
  document_content: PLANNED,
  intent_statement: "I'll create a new document called 'recipes'",
  content_summary: 'A tiramisu recipe.',
};
const DUPLICATE_REPLY =
  "A document named 'Recipes' already exists in this project.\nI can add this content to the existing document instead. \nWould you like me to update 'Recipes' with the new content?\n\nWould you like me to:\n1. Add this content to the existing document\n2. Create a new document with a different name";

describe('4d: a duplicate name', () => {
  async function duplicate() {
    const h = agent({ decide: [duplicateDecision] });
    const project = await h.project();
    const recipes = await h.document(project.id, 'Recipes', PANCAKES);
    const chat = await h.chat(project.id);
    const asked = await chat.send('Add my favorite recipes');
    return { h, project, recipes, chat, asked };
  }

  it('says the name is taken and offers the two choices', async () => {
    const { h, project, chat, asked } = await duplicate();
    expect(asked.message).toBe(DUPLICATE_REPLY);
    expect(asked.state).toBe('awaiting_choice');
    expect(inputsOf(asked)).toEqual([
      {
        name: 'duplicate_choice',
        options: [
          { label: "Add this content to 'Recipes'", value: 'add_to_existing' },
          { label: "Create 'Recipes 2' instead", value: 'create_new' },
        ],
      },
    ]);
    expect(artifactOf(asked)).toMatchObject({ modelCalls: 1, outcome: { kind: 'duplicate', name: 'Recipes', proposedName: 'Recipes 2' } });
    expect(await versions(h, project.id)).toEqual([['Recipes', 1, PANCAKES]]);
    expect((await chat.messages())[1]!.metadata).toMatchObject(seedMetadata(duplicateDecision, { pending_confirmation: true }));
    expect((await chat.events()).map((e) => e.data.success)).toEqual([false]);
  });

  it('add_to_existing appends the planned content to the existing document, without a model call', async () => {
    const { h, project, recipes, chat } = await duplicate();
    const done = await chat.choose('add_to_existing');
    expect(done.message).toBe("I've added the content to the Recipes document.\n\n**Content Summary:**\nAdded the new content at the end of 'Recipes'.");
    expect(artifactOf(done)).toMatchObject({ modelCalls: 0, outcome: { kind: 'updated', documentId: recipes.id } });
    expect(h.model.calls).toHaveLength(1);
    expect(await versions(h, project.id)).toEqual([['Recipes', 2, `${PANCAKES}\n${PLANNED}\n`]]);
    const messages = await chat.messages();
    expect(roles(messages).slice(2, 3)).toEqual([['user', "Add this content to 'Recipes'"]]);
    expect(messages[3]!.metadata).toMatchObject({ document_updated: true, document_id: recipes.id });
  });

  it("create_new creates 'Recipes 2' with the planned content", async () => {
    const { h, project, chat } = await duplicate();
    const done = await chat.send("Create 'Recipes 2' instead");
    expect(done.message).toBe("I've created the document 'Recipes 2' in this project.\n\n**Document Content Summary:**\nA tiramisu recipe.");
    expect(artifactOf(done)).toMatchObject({ modelCalls: 0, outcome: { kind: 'created', name: 'Recipes 2' } });
    expect(h.model.calls).toHaveLength(1);
    expect(await versions(h, project.id)).toEqual([
      ['Recipes', 1, PANCAKES],
      ['Recipes 2', 1, PLANNED],
    ]);
  });
});

describe('4d: creation failed for another reason', () => {
  const longName = `A${'b'.repeat(250)}`;
  const failedReply =
    "I tried to create the document, but encountered an issue.\nThe document name must be at most 200 characters. Please try again with a clearer request, \nlike 'Create a document called Recipes'.";

  it('a name over 200 characters (read from the intent) is refused with the reason, and nothing is created', async () => {
    const decision = { should_create: true, intent_statement: `I'll create a new document called ${longName}` };
    const h = agent({ decide: [decision] });
    const project = await h.project();
    const chat = await h.chat(project.id);
    const reply = await chat.send('Add my favorite recipes');
    expect(reply.message).toBe(failedReply);
    expect(artifactOf(reply)).toMatchObject({ modelCalls: 1, outcome: { kind: 'create_failed' } });
    expect(await h.documents(project.id)).toEqual([]);
    expect((await chat.messages())[1]!.metadata).toMatchObject(seedMetadata(decision));
    expect((await chat.events()).map((e) => e.data.success)).toEqual([false]);
  });

  // The decision does not cap the name: a name too long is the create step's refusal (4d), not a failed decision.
  it('a name over 200 characters from the decision itself gets the same 4d answer (not a model failure)', async () => {
    const h = agent({ decide: [{ should_create: true, document_name: longName }] });
    const project = await h.project();
    const chat = await h.chat(project.id);
    const reply = await chat.send('Add my favorite recipes');
    expect(reply.message).toBe(failedReply);
    expect(artifactOf(reply)).toMatchObject({ modelCalls: 1, outcome: { kind: 'create_failed' } });
    expect(await h.documents(project.id)).toEqual([]);
    expect((await chat.messages()).map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});

describe('4f: a conversation', () => {
  it("the decision's conversational_response is the reply: one model call", async () => {
    const decision = { conversational_response: 'You have one document: Recipes.' };
    const h = agent({ decide: [decision] });
    const project = await h.project();
    await h.document(project.id, 'Recipes', PANCAKES);
    const chat = await h.chat(project.id);
    const reply = await chat.send('Hi! What do I have here?');
    expect(reply.message).toBe('You have one document: Recipes.');
    expect(artifactOf(reply)).toMatchObject({ modelCalls: 1, outcome: { kind: 'conversed' } });
    expect(h.model.calls.map((c) => c.purpose)).toEqual(['decide']);
    expect((await chat.messages())[1]!.metadata).toMatchObject(seedMetadata(decision));
    expect((await chat.events()).map((e) => e.data.success)).toEqual([false]);
  });

  it('without one, a second call writes the answer from the documents and the chat: two model calls', async () => {
    const h = agent({ decide: [{ conversational_response: 'Hello!' }, {}], converse: ['Your Recipes document has a pancake recipe: flour, eggs, milk.'] });
    const project = await h.project();
    await h.document(project.id, 'Recipes', PANCAKES);
    const chat = await h.chat(project.id);
    await chat.send('Hi');
    const reply = await chat.send('What goes into my pancakes?');
    expect(reply.message).toBe('Your Recipes document has a pancake recipe: flour, eggs, milk.');
    expect(artifactOf(reply)).toMatchObject({ modelCalls: 2, outcome: { kind: 'conversed' } });
    expect(h.model.calls.map((c) => c.purpose)).toEqual(['decide', 'decide', 'converse']);
    const converse = h.model.calls[2]!.prompt;
    expect(converse).toContain(PANCAKES);
    expect(converse).toContain('<history>\nuser: Hi\nassistant: Hello!\n</history>');
    expect(converse).toContain('<message>\nWhat goes into my pancakes?\n</message>');
    expect(await versions(h, project.id)).toEqual([['Recipes', 1, PANCAKES]]);
  });
});

describe('the context the decision sees', () => {
  it('a large document is cut to its first 1500 and last 500 characters in the decision prompt (the rewrite sees it whole)', async () => {
    const content = Array.from({ length: 300 }, (_, i) => `line ${String(i + 1).padStart(4, '0')}\n`).join(''); // 3000 characters
    const h = agent({ decide: [(call) => editDecision(Number(/id: (\d+)\nname: Log/.exec(call.prompt)![1]))], rewrite: [`${content}line 0301`] });
    const project = await h.project();
    await h.document(project.id, 'Log', content);
    const chat = await h.chat(project.id);
    await chat.send('Append the next line to the log');
    const decide = h.model.calls[0]!.prompt;
    expect(content).toHaveLength(3000);
    expect(decide).toContain(`${content.slice(0, 1500)}\n\n[… 1000 characters not shown …]\n\n${content.slice(-500)}`);
    expect(decide).toContain('line 0150\n');
    expect(decide).not.toContain('line 0151');
    expect(decide).not.toContain('line 0250');
    expect(decide).toContain('line 0251');
    expect(h.model.calls[1]!.prompt).toContain(content);
  });

  it('the decision sees the last 10 messages of the chat, oldest first, and not the message it decides on', async () => {
    const pad = (n: number) => String(n).padStart(2, '0');
    const h = agent({ decide: Array.from({ length: 13 }, (_, i) => ({ conversational_response: `answer-${pad(i + 1)}` })) });
    const project = await h.project();
    const chat = await h.chat(project.id);
    for (let n = 1; n <= 13; n++) await chat.send(`msg-${pad(n)}`);
    const prompt = h.model.calls[12]!.prompt;
    const history = /<history>\n([\s\S]*?)\n<\/history>/.exec(prompt)![1]!.split('\n');
    expect(history).toEqual(Array.from({ length: 5 }, (_, i) => [`user: msg-${pad(i + 8)}`, `assistant: answer-${pad(i + 8)}`]).flat());
    expect(prompt).toContain('Chat so far (last 10 messages)');
    expect(prompt).toContain('<message>\nmsg-13\n</message>');
    expect(await chat.messages()).toHaveLength(26);
  });
});

/**
 * Two chats edit one document at once. The first chat's rewrite is held
 * until the second has saved: the first then saves nothing (never a lost
 * update) and says so. `storeB` may be a second connection to the same
 * database (another process).
 */
async function concurrentEdits(storeA: Store, storeB: Store) {
  const entered = latch();
  const release = latch();
  const VEGETARIAN = '# Recipes\n\n## Pancakes (vegetarian)\nFlour, eggs, milk.';
  const SOUP = '# Recipes\n\n## Pancakes\nFlour, eggs, milk.\n\n## Soup\nTomato soup.';
  const a = agent(
    {
      decide: [(call) => editDecision(recipesIdIn(call.prompt), { intent_statement: "I'll make the recipes vegetarian.", content_summary: 'Vegetarian now.' })],
      rewrite: [
        async () => {
          entered.release();
          await release.promise;
          return VEGETARIAN;
        },
      ],
    },
    {},
    storeA,
  );
  const b = agent({ decide: [(call) => editDecision(recipesIdIn(call.prompt), { intent_statement: "I'll add a soup section.", content_summary: 'A soup.' })], rewrite: [SOUP] }, {}, storeB);
  const project = await a.project();
  const doc = await a.document(project.id, 'Recipes', PANCAKES);
  const chatA = await a.chat(project.id);
  const chatB = await b.chat(project.id);

  const first = chatA.send('Make every recipe vegetarian');
  await entered.promise;
  const second = await chatB.send('Add a soup section');
  expect(second.message).toBe("I'll add a soup section.\n\n**Content Summary:**\nA soup.");
  release.release();
  const late = await first;

  expect(late.message).toBe("'Recipes' was changed by someone else while I was editing it, so I saved nothing. Ask me again and I'll work from the new version.");
  expect(artifactOf(late)).toMatchObject({ modelCalls: 2, outcome: { kind: 'conflict', name: 'Recipes' } });
  const now = await documentRepository(storeA.sql!).getDocument(null, doc.id);
  expect({ content: now.content, version: now.version }).toEqual({ content: SOUP, version: 2 });
  const messages = await chatA.messages();
  expect(roles(messages)).toEqual([
    ['user', 'Make every recipe vegetarian'],
    ['assistant', late.message],
  ]);
  expect(messages[1]!.metadata).toMatchObject({ document_updated: false, outcome: 'conflict' });
  expect((await chatA.events()).map((e) => e.data.success)).toEqual([false]);
  expect((await chatB.events()).map((e) => e.data.success)).toEqual([true]);
}

/** The commit's own check: an outbox made from a version that moved since is refused whole, inside the transaction. */
async function staleCommit(on: Store) {
  const repo = documentRepository(on.sql!);
  const project = await repo.createProject(null, { name: 'Stale' });
  const doc = await repo.createDocument(null, project.id, { name: 'Recipes', content: PANCAKES });
  await repo.updateDocumentContent(doc.id, 1, SEED_CONTENT); // now version 2
  const { chat } = await repo.getOrCreateChat(null, project.id);
  const outbox = (expectedVersion: number) => ({
    messageNo: 1,
    chatId: chat.id,
    user: { content: 'Make it vegetarian' },
    assistant: { content: "I'll make it vegetarian.", metadata: {} },
    write: { kind: 'update', documentId: doc.id, name: 'Recipes', expectedVersion, content: 'stale rewrite' },
    event: { success: true, documentId: doc.id, metadata: {} },
  });
  const effectsFor = (expectedVersion: number) =>
    documentAgentWorkflow().effects!({
      before: snapshotWith({ outbox: null, projectId: project.id }),
      after: snapshotWith({ outbox: outbox(expectedVersion), projectId: project.id }) as AnyMachineSnapshot,
      session: { sessionId: 'stale-session', owner: null },
    })!;

  const stale = effectsFor(1);
  await expect(on.sql!.transaction((tx) => stale(tx))).rejects.toBeInstanceOf(DocumentVersionConflictError);
  expect(await repo.getDocument(null, doc.id)).toMatchObject({ content: SEED_CONTENT, version: 2 });
  expect(await repo.listMessages(null, chat.id)).toEqual([]);

  // The same outbox from the present version is written whole: the refusal above was the version's.
  const fresh = effectsFor(2);
  const written = await on.sql!.transaction((tx) => fresh(tx));
  expect(written).toMatchObject({ events: [{ type: 'agent.action_completed', data: expect.objectContaining({ document_id: doc.id, success: true }) }] });
  expect(await repo.getDocument(null, doc.id)).toMatchObject({ content: 'stale rewrite', version: 3 });
  expect((await repo.listMessages(null, chat.id)).map((m) => m.role)).toEqual(['user', 'assistant']);
}

describe('concurrent edits (PGlite)', () => {
  it('two chats edit one document: the one whose rewrite finishes second saves nothing and says so', () => concurrentEdits(store(), store()));
  it('the commit refuses an edit made from a stale version, writing nothing', () => staleCommit(store()));
});

describe.skipIf(!hasPostgres)('concurrent edits (PostgreSQL, two connections)', () => {
  let schema: TestSchema;
  let a: Store;
  let b: Store;
  beforeAll(async () => {
    schema = await createTestSchema('gf_docagent');
    a = await createPostgresStore({ connectionString: schema.url });
    b = await createPostgresStore({ connectionString: schema.url });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await schema?.drop();
  });
  it('two chats edit one document: the one whose rewrite finishes second saves nothing and says so', () => concurrentEdits(a, b));
  it('the commit refuses an edit made from a stale version, writing nothing', () => staleCommit(a));
});
