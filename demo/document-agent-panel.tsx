import { useCallback, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { z } from 'zod';
import { ChatWidget, type ChatWidgetProps } from '../src/react/ChatWidget.js';
import { Markdown } from '../src/react/markdown.js';
import type { Transport } from '../src/react/transport.js';
import type { ReplyEnvelope } from '../src/workflow/reply.js';

/**
 * The document agent on the demo page: its chat beside the project's
 * documents, a list of their names and the selected one rendered as Markdown.
 * The documents are read again after every reply and whenever the events
 * stream says an agent action completed in the project (an edit made from
 * another tab or over `POST /api/agent/act`), so what the agent writes shows
 * at once; the document a reply is about (created, changed, or to be
 * changed once confirmed) becomes the selected one.
 */

/** The document agent's workflow id (src/document-agent/workflow.ts), named here so the page does not bundle the agent. */
export const DOCUMENT_AGENT_FLOW = 'document-agent';
/** The project the page opens when the store has none yet. */
export const DEFAULT_PROJECT_NAME = 'My Project';

/** A project, as far as the page reads it. */
const ProjectSchema = z.object({ id: z.number().int(), name: z.string() });
export type ProjectView = z.infer<typeof ProjectSchema>;

/** A document of `GET /api/projects/{id}/documents`, as far as the page reads it. */
const DocumentSchema = z
  .object({ id: z.number().int(), name: z.string(), content: z.string(), version: z.number().int(), updated_at: z.string() })
  .transform(({ updated_at, ...document }) => ({ ...document, updatedAt: updated_at }));
export type DocumentView = z.infer<typeof DocumentSchema>;

const ProjectListSchema = z.object({ projects: z.array(ProjectSchema) });
const DocumentListSchema = z.object({ documents: z.array(DocumentSchema) });

/** Where the page reads the project and its documents: the HTTP API, or a stand-in (stories). */
export interface DocumentsSource {
  /** The project the chat works on: the first there is, else a new one. */
  project(): Promise<ProjectView>;
  /** The project's documents, as the server lists them. */
  documents(projectId: number, signal?: AbortSignal): Promise<DocumentView[]>;
}

/**
 * The documents API of `gateflow serve`. The project is asked for once per
 * source (a page's two effect runs, or two components, share the answer), so
 * an empty store gets one new project, not two.
 */
export function httpDocumentsSource(options: { baseUrl?: string; fetch?: typeof globalThis.fetch } = {}): DocumentsSource {
  const base = (options.baseUrl ?? '').replace(/\/$/, '');
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  async function call<T>(schema: z.ZodType<T>, method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const response = await doFetch(`${base}/api${path}`, {
      method,
      headers: { accept: 'application/json', ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      ...(signal && { signal }),
    });
    const payload: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const message = (payload as { error?: { message?: unknown } } | null)?.error?.message;
      throw new Error(typeof message === 'string' ? message : `the server answered ${response.status}`);
    }
    const parsed = schema.safeParse(payload);
    if (!parsed.success) throw new Error(`the server sent ${path} in a form this page cannot read`);
    return parsed.data;
  }
  let project: Promise<ProjectView> | null = null;
  const findOrCreate = async () => {
    const { projects } = await call(ProjectListSchema, 'GET', '/projects');
    return projects[0] ?? (await call(ProjectSchema, 'POST', '/projects', { name: DEFAULT_PROJECT_NAME }));
  };
  return {
    project: () => {
      // A failure is not kept: the next ask tries again.
      project ??= findOrCreate().catch((error: unknown) => {
        project = null;
        throw error;
      });
      return project;
    },
    documents: async (projectId, signal) => (await call(DocumentListSchema, 'GET', `/projects/${projectId}/documents`, undefined, signal)).documents,
  };
}

/** What a reply's `DOCUMENT_AGENT` artifact says it did, as far as the page reads it. */
const AgentArtifactSchema = z.object({
  type: z.literal('DOCUMENT_AGENT'),
  decision: z.object({ document_id: z.number().int().nullish() }).nullish(),
  outcome: z.object({ kind: z.string(), name: z.string().optional(), documentId: z.number().int().optional() }).nullish(),
});

/**
 * The document a reply is about, to show it: the one it created or changed,
 * the existing one a duplicate name points at, or the one the agent asks to
 * change (a confirmation); null when it names none (a greeting, a question).
 */
export function documentInFocus(reply: ReplyEnvelope | null): { id: number } | { name: string } | null {
  const parsed = AgentArtifactSchema.safeParse(reply?.artifacts.find((a) => a.type === 'DOCUMENT_AGENT'));
  if (!parsed.success) return null;
  const { decision, outcome } = parsed.data;
  if (outcome?.documentId !== undefined) return { id: outcome.documentId };
  if ((outcome?.kind === 'created' || outcome?.kind === 'duplicate') && outcome.name !== undefined) return { name: outcome.name };
  if (outcome?.kind === 'confirm' && typeof decision?.document_id === 'number') return { id: decision.document_id };
  return null;
}

type ProjectState = { project: ProjectView | null; error: string | null };

/** The project the page works on, asked for once; `retry` asks again after a failure. */
function useProject(source: DocumentsSource): ProjectState & { retry: () => void } {
  const [state, setState] = useState<ProjectState>({ project: null, error: null });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    source.project().then(
      (project) => current && setState({ project, error: null }),
      (error: Error) => current && setState({ project: null, error: error.message }),
    );
    return () => {
      current = false;
    };
  }, [source, attempt]);
  return { ...state, retry: () => setAttempt((n) => n + 1) };
}

type DocumentsState = { documents: DocumentView[] | null; error: string | null };

/**
 * The project's documents, read at once and again whenever `version`
 * changes: the newest read wins, an older one answering late is dropped.
 */
function useDocuments(source: DocumentsSource, projectId: number, version: unknown): DocumentsState {
  const [state, setState] = useState<DocumentsState>({ documents: null, error: null });
  useEffect(() => {
    const abort = new AbortController();
    source.documents(projectId, abort.signal).then(
      (documents) => {
        if (!abort.signal.aborted) setState({ documents, error: null });
      },
      (error: Error) => {
        if (!abort.signal.aborted) setState((s) => ({ documents: s.documents, error: error.message }));
      },
    );
    return () => abort.abort();
  }, [source, projectId, version]);
  return state;
}

export interface DocumentAgentProps {
  source: DocumentsSource;
  /** The chat's transport for a project: it starts each session with `{ projectId }` as its context. */
  transportFor: (projectId: number) => Transport;
  title?: string;
  /** The session to resume for the project (kept across reloads), if any. */
  sessionIdFor?: (projectId: number) => string | null;
  onSessionId?: (projectId: number, sessionId: string) => void;
  inspect?: ChatWidgetProps['inspect'];
}

/** The chat with the document agent and, beside it, the project's documents. */
export function DocumentAgent({ source, transportFor, title = 'Document agent', sessionIdFor, onSessionId, inspect }: DocumentAgentProps) {
  const { project, error, retry } = useProject(source);
  if (error)
    return (
      <div className="da-error" role="alert">
        <style href="gateflow-demo-document-agent" precedence="default">
          {PANEL_CSS}
        </style>
        <p>Cannot open the project: {error}</p>
        <button type="button" onClick={retry}>
          Retry
        </button>
      </div>
    );
  if (!project) return <p>Opening the project…</p>;
  return (
    <ProjectChat
      key={project.id}
      project={project}
      source={source}
      transportFor={transportFor}
      title={title}
      sessionIdFor={sessionIdFor}
      onSessionId={onSessionId}
      inspect={inspect}
    />
  );
}

function ProjectChat({
  project,
  source,
  transportFor,
  title,
  sessionIdFor,
  onSessionId,
  inspect,
}: Omit<DocumentAgentProps, 'title' | 'inspect'> & { project: ProjectView; title: string; inspect: ChatWidgetProps['inspect'] }) {
  // One transport per project: made once, as the widget keeps the one it was given.
  const [transport] = useState(() => transportFor(project.id));
  const [reply, setReply] = useState<ReplyEnvelope | null>(null);
  const [sessionId] = useState(() => sessionIdFor?.(project.id) ?? null);
  const keepSessionId = useCallback((id: string) => onSessionId?.(project.id, id), [onSessionId, project.id]);
  return (
    <div className="da-layout">
      <ChatWidget
        transport={transport}
        flowId={DOCUMENT_AGENT_FLOW}
        title={title}
        sessionId={sessionId}
        onSessionId={keepSessionId}
        onReply={setReply}
        inspect={inspect}
      />
      <DocumentsPanel source={source} project={project} transport={transport} reply={reply} />
    </div>
  );
}

/**
 * The project's documents: their names (press one to read it) and the
 * selected one rendered. Read again after each reply and on each
 * `agent.action_completed` of the project on the events stream.
 */
export function DocumentsPanel({
  source,
  project,
  transport,
  reply,
}: {
  source: DocumentsSource;
  project: ProjectView;
  /** For the events stream; none: the documents are read again after replies only. */
  transport?: Transport;
  /** The chat's latest reply: each one is a reason to read the documents again. */
  reply: ReplyEnvelope | null;
}) {
  const listId = useId();
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    if (!transport) return;
    const changed = () => setChanges((n) => n + 1);
    return transport.events(
      (event) => {
        if (event.type === 'agent.action_completed' && event.data.project_id === project.id) changed();
      },
      { workflowId: DOCUMENT_AGENT_FLOW },
      // Events sent while the stream was not connected may be missing: read again.
      { onOpen: changed },
    );
  }, [transport, project.id]);
  const version = useMemo(() => ({ reply, changes }), [reply, changes]);
  const { documents, error } = useDocuments(source, project.id, version);

  const [selected, setSelected] = useState<number | null>(null);
  /** The document the latest reply is about: selected as soon as the list holds it. */
  const [wanted, setWanted] = useState<{ id: number } | { name: string } | null>(null);
  useEffect(() => setWanted(documentInFocus(reply)), [reply]);
  useEffect(() => {
    if (!documents || !wanted) return;
    const found = documents.find((d) => ('id' in wanted ? d.id === wanted.id : d.name.toLowerCase() === wanted.name.toLowerCase()));
    if (!found) return;
    setSelected(found.id);
    setWanted(null);
  }, [documents, wanted]);
  const shown = documents?.find((d) => d.id === selected) ?? documents?.[0] ?? null;

  return (
    <div className="da-panel">
      <style href="gateflow-demo-document-agent" precedence="default">
        {PANEL_CSS}
      </style>
      <section aria-labelledby={listId}>
        <h2 id={listId}>Documents</h2>
        <p className="da-muted">Project: {project.name}</p>
        {error && (
          <p role="alert" className="da-error">
            Cannot read the documents: {error}
          </p>
        )}
        {documents === null ? (
          !error && <p className="da-muted">Reading the documents…</p>
        ) : documents.length === 0 ? (
          <p className="da-muted">No documents yet: ask the agent to create one.</p>
        ) : (
          <ul className="da-names">
            {documents.map((d) => (
              <li key={d.id}>
                <button type="button" aria-current={d.id === shown?.id ? 'true' : undefined} onClick={() => setSelected(d.id)}>
                  {d.name}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      {shown && <DocumentPane document={shown} />}
    </div>
  );
}

/** One document: its name, version and time of the last change, and its content rendered. */
function DocumentPane({ document }: { document: DocumentView }) {
  const nameId = useId();
  return (
    <article className="da-document" aria-labelledby={nameId}>
      <header>
        <h2 id={nameId}>{document.name}</h2>
        <p className="da-muted">
          Version {document.version} · changed <time dateTime={document.updatedAt}>{timeInWords(document.updatedAt)}</time>
        </p>
      </header>
      {document.content.trim() === '' ? <p className="da-muted">This document is empty.</p> : <DocumentMarkdown text={document.content} />}
    </article>
  );
}

/** "2:05 PM" today, "Nov 24, 2:05 PM" another day (in the reader's locale). */
function timeInWords(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const sameDay = at.toDateString() === new Date().toDateString();
  return at.toLocaleString(undefined, sameDay ? { hour: 'numeric', minute: '2-digit' } : { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

export type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'quote'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'rule' };

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const ITEM = /^ {0,3}(?:([-*+])|(\d{1,9})[.)])[ \t]+(.*)$/;
const QUOTE = /^ {0,3}>[ \t]?(.*)$/;

/**
 * A document's Markdown in blocks: headings (on a line of their own, text
 * may follow on the next line), paragraphs, bulleted and numbered lists,
 * quotes, fenced code and rules. What the chat's `Markdown` does inside a
 * block (bold, escapes, line breaks) it does here too. Never HTML.
 */
export function blocksOf(content: string): Block[] {
  const blocks: Block[] = [];
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  let quote: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join('\n') });
    if (quote.length) blocks.push({ kind: 'quote', text: quote.join('\n') });
    if (list) blocks.push({ kind: 'list', ...list });
    paragraph = [];
    quote = [];
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trim().startsWith(fence[1]!); i++) code.push(lines[i]!);
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1]!.length, text: heading[2] ?? '' });
      continue;
    }
    if (RULE.test(line)) {
      flush();
      blocks.push({ kind: 'rule' });
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const ordered = item[2] !== undefined;
      if (!list || list.ordered !== ordered) {
        flush();
        list = { ordered, items: [] };
      }
      list.items.push(item[3]!);
      continue;
    }
    const quoted = QUOTE.exec(line);
    if (quoted) {
      if (!quote.length) flush();
      quote.push(quoted[1]!);
      continue;
    }
    // A line under a list item continues it; under a quote, the quote.
    if (list) {
      const items: string[] = list.items;
      items[items.length - 1] += `\n${line.trim()}`;
    } else if (quote.length) quote.push(line.trim());
    else paragraph.push(line);
  }
  flush();
  return blocks;
}

/** A heading's text without its Markdown marks (bold, escapes): headings are shown plain. */
const plainText = (text: string) => text.replace(/\*\*(.+?)\*\*/g, '$1').replace(/\\([!-/:-@[-`{-~])/g, '$1');

/**
 * The document's headings sit under its name (an h2): its top level (`#`,
 * or `##` in a document that has no `#`) is an h3, the next an h4, and so
 * on down to h6.
 */
function Heading({ depth, children }: { depth: number; children: ReactNode }) {
  const Tag = (['h3', 'h4', 'h5', 'h6'] as const)[Math.min(depth, 3)]!;
  return <Tag>{children}</Tag>;
}

/** A document rendered from its Markdown (see `blocksOf`). */
export function DocumentMarkdown({ text }: { text: string }) {
  const blocks = blocksOf(text);
  const top = Math.min(...blocks.map((b) => (b.kind === 'heading' ? b.level : 6)));
  return (
    <div className="da-content">
      {blocks.map((block, i) => {
        switch (block.kind) {
          case 'heading':
            return (
              <Heading key={i} depth={block.level - top}>
                {plainText(block.text)}
              </Heading>
            );
          case 'paragraph':
            return <Markdown key={i} text={block.text} />;
          case 'quote':
            return (
              <blockquote key={i}>
                <Markdown text={block.text} />
              </blockquote>
            );
          case 'code':
            return (
              <pre key={i}>
                <code>{block.text}</code>
              </pre>
            );
          case 'rule':
            return <hr key={i} />;
          case 'list': {
            const List = block.ordered ? 'ol' : 'ul';
            return (
              <List key={i}>
                {block.items.map((item, j) => (
                  <li key={j}>
                    <Markdown text={item} />
                  </li>
                ))}
              </List>
            );
          }
        }
      })}
    </div>
  );
}

/** The widget's colours (src/react/chat-widget-css.ts), so the panel sits beside it as one page. */
const PANEL_CSS = `
.da-layout { display: grid; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr)); gap: 1.5rem; align-items: start; }
.da-panel { display: flex; flex-direction: column; gap: 1rem; min-width: 0; color: #1d2330; }
.da-panel section, .da-document { border: 1px solid #d5d9e2; border-radius: 12px; padding: 0.75rem; }
.da-panel h2 { font-size: 1.1rem; margin: 0 0 0.25rem; }
.da-muted { color: #5b6475; margin: 0; }
.da-error { background: #fdecec; color: #8a1c1c; border-radius: 12px; padding: 0.5rem 0.75rem; margin: 0.5rem 0 0; }
.da-names { list-style: none; margin: 0.5rem 0 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.5rem; }
.da-names button, .da-error button { font: inherit; border-radius: 999px; border: 1px solid #2457d6; background: #fff; color: #2457d6; padding: 0.3rem 0.8rem; cursor: pointer; }
.da-names button:hover { background: #e8eefc; }
.da-names button[aria-current="true"] { background: #2457d6; color: #fff; }
.da-names button:focus-visible, .da-error button:focus-visible { outline: 3px solid #2457d6; outline-offset: 2px; }
.da-document header { border-bottom: 1px solid #d5d9e2; padding-bottom: 0.5rem; margin-bottom: 0.5rem; }
.da-content { overflow-wrap: anywhere; line-height: 1.45; }
.da-content h3 { font-size: 1.15rem; margin: 0.9rem 0 0.35rem; }
.da-content h4 { font-size: 1.05rem; margin: 0.8rem 0 0.3rem; }
.da-content h5, .da-content h6 { font-size: 1rem; margin: 0.7rem 0 0.25rem; }
.da-content > :first-child { margin-top: 0; }
.da-content p { margin: 0.4rem 0; }
.da-content li p { margin: 0; }
.da-content ul, .da-content ol { margin: 0.4rem 0; padding-left: 1.5rem; }
.da-content blockquote { margin: 0.4rem 0; padding-left: 0.75rem; border-left: 3px solid #d5d9e2; color: #5b6475; }
.da-content pre { background: #f4f5f8; border-radius: 8px; padding: 0.5rem 0.75rem; overflow-x: auto; font-size: 0.9rem; }
.da-content hr { border: 0; border-top: 1px solid #d5d9e2; }
`;
