/**
 * The document agent's telemetry (seed 002, "Telemetry"): an OpenTelemetry
 * span per step (`document_agent.load_context`, `.decide`, `.search`,
 * `.create`, `.edit`, `.converse`) and per model call
 * (`document_agent.model_call`, with its purpose), a failed call's span
 * marked ERROR; and the event bus: `agent.action_completed` to subscribers
 * (step 6). The spans are caught by the SDK's in-memory exporter on a
 * provider registered globally (the actors use the global tracer). No
 * AsyncLocalStorage context manager is installed in this project
 * (@opentelemetry/context-async-hooks is absent), so parent links are not
 * asserted: names, attributes, status and order only.
 */
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../src/runtime/runtime.js';
import { DOCUMENT_AGENT_ID } from '../../src/document-agent/workflow.js';
import { artifactOf, fakeWebSearch, useDocumentAgentStore, type DocumentAgentHarness } from '../helpers/document-agent.js';
import { PATIENCE_MS } from '../helpers/patience.js';

// One provider for the file: the actors' tracer (a proxy taken at import) keeps the first delegate it finds.
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

const { agent } = useDocumentAgentStore();
beforeAll(() => {
  trace.setGlobalTracerProvider(provider);
});
afterEach(() => {
  exporter.reset();
});
afterAll(() => {
  trace.disable();
});

/** The agent's spans, in the order they ended (a model call ends before the step that made it). */
const agentSpans = () => exporter.getFinishedSpans().filter((s) => s.name.startsWith('document_agent.'));
const summary = (s: ReadableSpan) => ({ name: s.name, ...s.attributes, status: s.status.code });
const PANCAKES = '# Recipes\n\n## Pancakes\nFlour, eggs, milk.\n';
const recipesIdIn = (prompt: string) => Number(/id: (\d+)\nname: Recipes/.exec(prompt)![1]);

describe('spans', () => {
  it('an edit with a web search: load_context, the decision and its model call, the search, the rewrite call and the edit', async () => {
    const web = fakeWebSearch([{ title: 'Tiramisu', url: 'https://example.org/tiramisu', snippet: 'Mascarpone.' }], 'Fake search');
    const h = agent(
      { decide: [(call) => ({ should_edit: true, document_id: recipesIdIn(call.prompt), needs_web_search: true, search_query: 'tiramisu' })], rewrite: ['# Recipes\n\n## Tiramisu'] },
      { webSearch: web.search },
    );
    const project = await h.project();
    await h.document(project.id, 'Recipes', PANCAKES);
    const chat = await h.chat(project.id);
    const reply = await chat.send('Add a tiramisu recipe from the web');
    expect(artifactOf(reply).outcome).toMatchObject({ kind: 'updated' });

    expect(agentSpans().map(summary)).toEqual([
      { name: 'document_agent.load_context', 'gateflow.project.id': project.id, status: SpanStatusCode.UNSET },
      { name: 'document_agent.model_call', 'gateflow.model.purpose': 'decide', status: SpanStatusCode.UNSET },
      { name: 'document_agent.decide', 'gateflow.model.calls': 1, 'gateflow.decision.offline': false, status: SpanStatusCode.UNSET },
      { name: 'document_agent.search', 'gateflow.search.provider': 'Fake search', status: SpanStatusCode.UNSET },
      { name: 'document_agent.model_call', 'gateflow.model.purpose': 'rewrite', status: SpanStatusCode.UNSET },
      { name: 'document_agent.edit', 'gateflow.project.id': project.id, status: SpanStatusCode.UNSET },
    ]);
    // The runtime's own turn span is there too.
    expect(exporter.getFinishedSpans().map((s) => s.name)).toContain('gateflow.turn');
  });

  it('a create read offline: no model call span, the decision marked offline', async () => {
    const h = agent({});
    const project = await h.project();
    const chat = await h.chat(project.id);
    await chat.send('Create a document called Notes');
    expect(agentSpans().map(summary)).toEqual([
      { name: 'document_agent.load_context', 'gateflow.project.id': project.id, status: SpanStatusCode.UNSET },
      { name: 'document_agent.decide', 'gateflow.model.calls': 0, 'gateflow.decision.offline': true, status: SpanStatusCode.UNSET },
      { name: 'document_agent.create', 'gateflow.project.id': project.id, status: SpanStatusCode.UNSET },
    ]);
  });

  it('a conversation answered by a second call: a converse step and its model call', async () => {
    const h = agent({ decide: [{}], converse: ['Hello to you too.'] });
    const project = await h.project();
    const chat = await h.chat(project.id);
    await chat.send('Hello there, how are you?');
    expect(agentSpans().map((s) => [s.name, s.attributes['gateflow.model.purpose'] ?? null])).toEqual([
      ['document_agent.load_context', null],
      ['document_agent.model_call', 'decide'],
      ['document_agent.decide', null],
      ['document_agent.model_call', 'converse'],
      ['document_agent.converse', null],
    ]);
  });

  it('a failed model call: its span and its step are ERROR, with the exception recorded', async () => {
    const h = agent({ decide: [{ text: 'not JSON at all' }, (call) => ({ should_edit: true, document_id: recipesIdIn(call.prompt) })], rewrite: [{ error: new TypeError('fetch failed') }] });
    const project = await h.project();
    await h.document(project.id, 'Recipes', PANCAKES);
    const chat = await h.chat(project.id);

    await chat.send('Add my favorite recipes');
    const decided = agentSpans();
    expect(decided.map((s) => [s.name, s.status.code])).toEqual([
      ['document_agent.load_context', SpanStatusCode.UNSET],
      ['document_agent.model_call', SpanStatusCode.ERROR],
      ['document_agent.decide', SpanStatusCode.ERROR],
    ]);
    const call = decided[1]!;
    expect(call.attributes['gateflow.model.purpose']).toBe('decide');
    expect(call.status.message).toContain('the language model answered in a form I could not use while working out what to do');
    // The exception is recorded (its type is the error's code, as OpenTelemetry reads it).
    expect(call.events.map((e) => [e.name, e.attributes?.['exception.type'], String(e.attributes?.['exception.message']).slice(0, 40)])).toEqual([
      ['exception', 'model_error', 'the language model answered in a form I '],
    ]);

    exporter.reset();
    await chat.send('Add a dessert section to Recipes, please');
    const edited = agentSpans();
    expect(edited.map((s) => [s.name, s.attributes['gateflow.model.purpose'] ?? null, s.status.code])).toEqual([
      ['document_agent.load_context', null, SpanStatusCode.UNSET],
      ['document_agent.model_call', 'decide', SpanStatusCode.UNSET],
      ['document_agent.decide', null, SpanStatusCode.UNSET],
      ['document_agent.model_call', 'rewrite', SpanStatusCode.ERROR],
      ['document_agent.edit', null, SpanStatusCode.ERROR],
    ]);
    // The person is told the kind of failure; the provider's own text stays in the trace.
    expect(edited[3]!.status.message).toContain('the model service could not be reached');
    expect(edited[3]!.status.message).not.toContain('fetch failed');
    expect(edited[3]!.attributes['gateflow.error.internal']).toContain('TypeError: fetch failed');
  });
});

describe('the event bus', () => {
  /** The agent.action_completed events a subscriber receives, and the first of them. */
  function nextAction(h: DocumentAgentHarness, caller?: { owner: string | null }) {
    const received: RuntimeEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unsubscribe = () => {};
    const first = new Promise<RuntimeEvent>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no agent.action_completed within ${PATIENCE_MS} ms`)), PATIENCE_MS);
      unsubscribe = h.runtime.subscribe((event) => {
        if (event.type !== 'agent.action_completed') return;
        received.push(event);
        clearTimeout(timer);
        resolve(event);
      }, caller);
    });
    first.catch(() => undefined);
    return {
      first,
      received,
      stop: () => {
        clearTimeout(timer);
        unsubscribe();
      },
    };
  }

  it("subscribers receive agent.action_completed with the seed's fields, for successes and failures, and only their own", async () => {
    const h = agent({ decide: [{ should_create: true, document_name: 'Recipes', document_content: PANCAKES }, { text: 'not JSON' }] });
    const project = await h.repo.createProject('ana', { name: 'Ana’s project' });
    const { sessionId } = await h.runtime.start(DOCUMENT_AGENT_ID, { owner: 'ana' }, { context: { projectId: project.id } });
    const ana = nextAction(h, { owner: 'ana' });
    const bob = nextAction(h, { owner: 'bob' });
    const reply = await h.runtime.turn(sessionId, { text: 'Add my favorite recipes' }, { owner: 'ana' });
    const event = await ana.first;
    const [doc] = await h.documents(project.id);
    expect(event).toMatchObject({ type: 'agent.action_completed', sessionId, workflowId: DOCUMENT_AGENT_ID });
    expect(event.data).toEqual({
      user_id: 'ana',
      chat_id: artifactOf(reply).chatId,
      project_id: project.id,
      document_id: doc!.id,
      action_type: 'agent_action',
      success: true,
      metadata: { outcome: 'created', web_search_performed: false, model_calls: 1 },
    });

    const failed = nextAction(h, { owner: 'ana' });
    await h.runtime.turn(sessionId, { text: 'Now add a dessert section' }, { owner: 'ana' });
    expect((await failed.first).data).toMatchObject({ user_id: 'ana', project_id: project.id, document_id: null, success: false, metadata: { outcome: 'failed' } });
    // Ana's subscription saw both; Bob's, fed by the same reads of the store, sees none of Ana's events.
    expect(ana.received.map((e) => e.data.success)).toEqual([true, false]);
    expect(bob.received).toEqual([]);
    for (const s of [ana, bob, failed]) s.stop();
  });
});
