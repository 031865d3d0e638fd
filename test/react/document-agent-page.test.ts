/**
 * The document agent's page parts without a browser: the chat's Markdown
 * (italic notes), a document's Markdown in blocks, which document a reply is
 * about, the documents source over HTTP (one project for the page, made when
 * there is none), and the HTTP transport's start context. The Chromium suite
 * (test/browser/document-agent.test.ts) and the DocumentAgent stories show
 * the rest.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DocumentMarkdown, documentInFocus, httpDocumentsSource } from '../../demo/document-agent-panel.js';
import { createHttpTransport } from '../../src/react/http-transport.js';
import { Markdown } from '../../src/react/markdown.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';

const markdown = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));
const documentHtml = (text: string) => renderToStaticMarkup(createElement(DocumentMarkdown, { text }));

describe("the chat's Markdown", () => {
  it('shows the agents\' notes in italics (_x_ and *x*), inside bold too', () => {
    expect(markdown("_I dropped the request I was waiting on you to confirm (I'll remove the Budget section)._\n\nYou have 2 documents.")).toBe(
      "<p><em>I dropped the request I was waiting on you to confirm (I&#x27;ll remove the Budget section).</em></p><p>You have 2 documents.</p>",
    );
    expect(markdown('a *quick* note')).toBe('<p>a <em>quick</em> note</p>');
    expect(markdown('**Summary: _draft_**')).toBe('<p><strong>Summary: <em>draft</em></strong></p>');
  });

  it('leaves underscores inside words, escaped delimiters and lone stars as they are', () => {
    expect(markdown('the gate 1_patient_info_availability')).toBe('<p>the gate 1_patient_info_availability</p>');
    expect(markdown('you wrote \\_this\\_ and \\*that\\*')).toBe('<p>you wrote _this_ and *that*</p>');
    expect(markdown('2 * 3 and _ spaced _')).toBe('<p>2 * 3 and _ spaced _</p>');
  });
});

describe("a document's Markdown", () => {
  it('renders headings (its top level as h3), paragraphs under them, lists, quotes, code and rules', () => {
    const html = documentHtml(
      [
        '## Budget',
        'Flour 2 EUR',
        'Eggs **3 EUR**',
        '',
        '### Shopping',
        '- Leeks',
        '- Potatoes,',
        '  peeled',
        '',
        '1. Boil',
        '2. Serve',
        '',
        '> Keep it _simple_.',
        '',
        '```',
        '# not a heading',
        '```',
        '',
        '---',
      ].join('\n'),
    );
    expect(html).toBe(
      '<div class="da-content">' +
        '<h3>Budget</h3>' +
        '<p>Flour 2 EUR<br/>Eggs <strong>3 EUR</strong></p>' +
        '<h4>Shopping</h4>' +
        '<ul><li><p>Leeks</p></li><li><p>Potatoes,<br/>peeled</p></li></ul>' +
        '<ol><li><p>Boil</p></li><li><p>Serve</p></li></ol>' +
        '<blockquote><p>Keep it <em>simple</em>.</p></blockquote>' +
        '<pre><code># not a heading</code></pre>' +
        '<hr/>' +
        '</div>',
    );
  });

  it('shows HTML in a document as text, never as markup', () => {
    expect(documentHtml('<img src=x onerror=alert(1)>')).toBe('<div class="da-content"><p>&lt;img src=x onerror=alert(1)&gt;</p></div>');
  });
});

describe('which document a reply is about', () => {
  const reply = (artifact: Record<string, unknown> | null) =>
    ({
      sessionId: 's',
      flowId: 'document-agent',
      flowVersion: 1,
      state: 'idle',
      status: 'active',
      message: '',
      buttons: null,
      artifacts: artifact ? [{ type: 'DOCUMENT_AGENT', decision: null, ...artifact }] : [],
      completion: { isComplete: false, reason: 'awaiting_message', readyForHandoff: false },
    }) satisfies ReplyEnvelope;

  it('the one created (by name), changed (by id), named as a duplicate, or to be changed once confirmed', () => {
    expect(documentInFocus(reply({ outcome: { kind: 'created', name: 'Recipes 2' } }))).toEqual({ name: 'Recipes 2' });
    expect(documentInFocus(reply({ outcome: { kind: 'updated', documentId: 4, name: 'Recipes' } }))).toEqual({ id: 4 });
    expect(documentInFocus(reply({ outcome: { kind: 'duplicate', name: 'Recipes', proposedName: 'Recipes 2' } }))).toEqual({ name: 'Recipes' });
    expect(documentInFocus(reply({ decision: { document_id: 7 }, outcome: { kind: 'confirm', prompt: '…' } }))).toEqual({ id: 7 });
  });

  it('none for a greeting, a question, an answer or a failure', () => {
    expect(documentInFocus(reply(null))).toBeNull();
    expect(documentInFocus(null)).toBeNull();
    expect(documentInFocus(reply({ decision: { document_id: 7 }, outcome: { kind: 'clarify', question: 'Which one?' } }))).toBeNull();
    expect(documentInFocus(reply({ outcome: { kind: 'conversed', text: 'You have 2 documents.' } }))).toBeNull();
    expect(documentInFocus(reply({ outcome: { kind: 'failed', stage: 'decide', message: 'no model' } }))).toBeNull();
  });
});

/** A fetch that answers from `routes` by "METHOD /path", and records what was asked. */
function fakeFetch(routes: Record<string, (body: unknown) => { status?: number; json: unknown } | Promise<{ status?: number; json: unknown }>>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const path = new URL(String(input), 'http://page.test').pathname;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path, body });
    const route = routes[`${method} ${path}`];
    if (!route) return new Response(JSON.stringify({ error: { code: 'not_found', message: `no ${method} ${path}` } }), { status: 404 });
    const { status = 200, json } = await route(body);
    return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

describe('the documents source over HTTP', () => {
  const created = { id: 3, name: 'My Project', description: null, created_at: '2026-11-24T10:00:00.000Z' };

  it('opens the first project there is', async () => {
    const { fetch, calls } = fakeFetch({ 'GET /api/projects': () => ({ json: { projects: [{ ...created, id: 9, name: 'Travel' }, created] } }) });
    expect(await httpDocumentsSource({ fetch }).project()).toEqual({ id: 9, name: 'Travel' });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/projects']);
  });

  it('makes "My Project" when there is none, once, however often the page asks', async () => {
    const { fetch, calls } = fakeFetch({
      'GET /api/projects': () => ({ json: { projects: [] } }),
      'POST /api/projects': () => ({ status: 201, json: created }),
    });
    const source = httpDocumentsSource({ fetch });
    const [a, b] = await Promise.all([source.project(), source.project()]);
    expect(a).toEqual({ id: 3, name: 'My Project' });
    expect(b).toBe(a);
    expect(calls).toEqual([
      { method: 'GET', path: '/api/projects', body: undefined },
      { method: 'POST', path: '/api/projects', body: { name: 'My Project' } },
    ]);
  });

  it('asks again after a failure, saying what the server said', async () => {
    let down = true;
    const { fetch } = fakeFetch({
      'GET /api/projects': () =>
        down ? { status: 503, json: { error: { code: 'store_unavailable', message: 'the store is unavailable' } } } : { json: { projects: [created] } },
    });
    const source = httpDocumentsSource({ fetch });
    await expect(source.project()).rejects.toThrow('the store is unavailable');
    down = false;
    expect(await source.project()).toEqual({ id: 3, name: 'My Project' });
  });

  it("reads a project's documents, and refuses an answer it cannot read", async () => {
    const document = { id: 1, project_id: 3, name: 'Recipes', standing_instruction: '', content: '## Budget\n', version: 2, created_at: 'x', updated_at: '2026-11-24T10:05:00.000Z' };
    const { fetch } = fakeFetch({
      'GET /api/projects/3/documents': () => ({ json: { documents: [document] } }),
      'GET /api/projects/4/documents': () => ({ json: { documents: [{ id: 'one' }] } }),
    });
    const source = httpDocumentsSource({ fetch });
    expect(await source.documents(3)).toEqual([{ id: 1, name: 'Recipes', content: '## Budget\n', version: 2, updatedAt: '2026-11-24T10:05:00.000Z' }]);
    await expect(source.documents(4)).rejects.toThrow('the server sent /projects/4/documents in a form this page cannot read');
  });
});

describe("the HTTP transport's start context", () => {
  it('starts the workflows it names with their context, and every other one with an empty body', async () => {
    const started = { sessionId: 's1', reply: {} };
    const { fetch, calls } = fakeFetch({
      'POST /api/flows/document-agent/sessions': () => ({ status: 201, json: started }),
      'POST /api/flows/patient-intake/sessions': () => ({ status: 201, json: started }),
    });
    const transport = createHttpTransport({ fetch, startContext: (flowId) => (flowId === 'document-agent' ? { projectId: 7 } : undefined) });
    await transport.start('document-agent');
    await transport.start('patient-intake');
    await createHttpTransport({ fetch }).start('document-agent');
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ['/api/flows/document-agent/sessions', { context: { projectId: 7 } }],
      ['/api/flows/patient-intake/sessions', {}],
      ['/api/flows/document-agent/sessions', {}],
    ]);
  });
});
