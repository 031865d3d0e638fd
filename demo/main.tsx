// First, before any module that builds a zod schema: no `new Function` probe under the page's CSP.
import { ZOD_JITLESS } from '../src/react/zod-jitless.js';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatWidget, createHttpTransport, InputsInbox } from '../src/react/index.js';
import { statelyInspector } from '../src/react/stately-inspector.js';
import type { ReplyEnvelope } from '../src/workflow/reply.js';
import type { WorkflowSummary as FlowSummary } from '../src/workflow/types.js';
import { goalFinished, NewGoal, TASK_AGENT_FLOW, TaskAgentPanel } from './task-agent-panel.js';
import { DOCUMENT_AGENT_FLOW, DocumentAgent, httpDocumentsSource } from './document-agent-panel.js';

const transport = createHttpTransport();
const params = new URLSearchParams(location.search);
const inspect = params.has('inspect') ? statelyInspector() : undefined;
/** `?inbox`: the page of the people who answer gates (a manager's approvals), instead of the chat. */
const inbox = params.has('inbox');
const storageKey = (flowId: string) => `gateflow:session:${flowId}`;
/** The document agent's project and the transport that starts its chats there (each session's context is `{ projectId }`). */
const documents = httpDocumentsSource();
const documentAgentTransport = (projectId: number) =>
  createHttpTransport({ startContext: (flowId) => (flowId === DOCUMENT_AGENT_FLOW ? { projectId } : undefined) });
/** A document agent's chat is a session of one project: kept per project. */
const documentSessionKey = (projectId: number) => `${storageKey(DOCUMENT_AGENT_FLOW)}:${projectId}`;
/** Flows shown with a panel beside the chat: the page is wider for them. */
const WIDE_FLOWS = new Set([TASK_AGENT_FLOW, DOCUMENT_AGENT_FLOW]);

/**
 * The flow in the address (`?flow=led-sales`), so a reload or a shared link
 * opens the same flow; other parameters (`?inspect`) are kept.
 */
function showFlowInUrl(flowId: string): void {
  const url = new URL(location.href);
  if (url.searchParams.get('flow') === flowId) return;
  url.searchParams.set('flow', flowId);
  history.replaceState(history.state, '', url);
}

/**
 * Pick a flow, then chat. The session id is kept per flow so a reload
 * continues the same session; the widget's "Start over" begins a new one.
 */
function Demo() {
  const [flows, setFlows] = useState<FlowSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [flowId, setFlowId] = useState(() => params.get('flow') ?? '');
  /** A `?flow=` that names no flow: said once, then the first flow is shown. */
  const [unknown, setUnknown] = useState<string | null>(null);
  /** The widget's latest reply: the task agent's panel shows what it carries. */
  const [reply, setReply] = useState<ReplyEnvelope | null>(null);
  /** Goals begun on this page: a new goal is a new session, so a new widget. */
  const [goal, setGoal] = useState(0);
  /** The chat's session as the widget reports it: the viewer link shows it live. */
  const [sessionId, setSessionId] = useState<string | null>(null);

  useEffect(() => {
    transport.flows().then(
      (list) => {
        setFlows(list);
        const wanted = params.get('flow');
        if (wanted && list.some((f) => f.id === wanted)) return;
        if (wanted) setUnknown(wanted);
        setFlowId(list[0]?.id ?? '');
      },
      (e: Error) => setError(e.message),
    );
  }, []);

  useEffect(() => {
    if (flows && flowId) showFlowInUrl(flowId);
  }, [flows, flowId]);

  if (error) return <p role="alert">Cannot load the flows: {error}</p>;
  if (!flows) return <p>Loading flows…</p>;
  const flow = flows.find((f) => f.id === flowId);
  return (
    <main style={WIDE_FLOWS.has(flowId) ? { ...MAIN_STYLE, maxWidth: '76rem' } : MAIN_STYLE}>
      <h1>gateflow</h1>
      <Tabs current="chat" />
      <p>
        <label>
          Flow{' '}
          <select
            value={flowId}
            onChange={(e) => {
              setUnknown(null);
              setReply(null);
              setSessionId(null);
              setFlowId(e.target.value);
            }}
          >
            {flows.map((f) => (
              <option key={f.id} value={f.id}>
                {f.title ?? f.id} ({f.version})
              </option>
            ))}
          </select>
        </label>
      </p>
      {unknown && <p role="status">There is no flow named “{unknown}”: showing {flow?.title ?? flowId} instead.</p>}
      {flow && !WIDE_FLOWS.has(flowId) && (
        <ChatWidget
          key={flowId}
          transport={transport}
          flowId={flowId}
          title={flow.title ?? flow.id}
          sessionId={localStorage.getItem(storageKey(flowId))}
          onSessionId={(id) => (localStorage.setItem(storageKey(flowId), id), setSessionId(id))}
          inspect={inspect}
        />
      )}
      {flow && flowId === TASK_AGENT_FLOW && (
        // The task agent: its chat, and beside it the steps taken and the graph.
        <div style={TASK_AGENT_LAYOUT}>
          <div>
            <ChatWidget
              key={`${flowId}#${goal}`}
              transport={transport}
              flowId={flowId}
              title={flow.title ?? flow.id}
              sessionId={localStorage.getItem(storageKey(flowId))}
              onSessionId={(id) => (localStorage.setItem(storageKey(flowId), id), setSessionId(id))}
              onReply={setReply}
              inspect={inspect}
            />
            {reply?.flowId === flowId && goalFinished(reply) && (
              <NewGoal
                onNewGoal={() => {
                  // One session per goal: the finished one is left, the next starts afresh.
                  localStorage.removeItem(storageKey(flowId));
                  setReply(null);
                  setSessionId(null);
                  setGoal((n) => n + 1);
                }}
              />
            )}
          </div>
          <TaskAgentPanel reply={reply?.flowId === flowId ? reply : null} />
        </div>
      )}
      {flow && flowId === DOCUMENT_AGENT_FLOW && (
        // The document agent: its chat, and beside it the project's documents.
        <DocumentAgent
          source={documents}
          transportFor={documentAgentTransport}
          title={flow.title ?? flow.id}
          sessionIdFor={(projectId) => localStorage.getItem(documentSessionKey(projectId))}
          onSessionId={(projectId, id) => (localStorage.setItem(documentSessionKey(projectId), id), setSessionId(id))}
          inspect={inspect}
        />
      )}
      {sessionId && (
        <p>
          <a href={`/viewer?session=${encodeURIComponent(sessionId)}`}>See this session in the viewer</a>
        </p>
      )}
    </main>
  );
}

const MAIN_STYLE = { fontFamily: 'system-ui, sans-serif', maxWidth: '44rem', margin: '2rem auto', padding: '0 1rem' } as const;
/** Chat and panel side by side where the window is wide enough, one under the other where not. */
const TASK_AGENT_LAYOUT = { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(22rem, 1fr))', gap: '1.5rem', alignItems: 'start' } as const;

/**
 * The two pages of the demo as links, so that each opens in a tab of its own
 * (the customer's chat in one, the manager's inbox in another). The chat
 * keeps the flow in its address.
 */
function Tabs({ current }: { current: 'chat' | 'inbox' }) {
  const chat = new URL(location.href);
  chat.searchParams.delete('inbox');
  const inboxUrl = new URL(location.href);
  inboxUrl.search = '?inbox';
  return (
    <nav aria-label="Demo pages" style={{ display: 'flex', gap: '1rem', marginBottom: '1rem' }}>
      <a href={`${chat.pathname}${chat.search}`} aria-current={current === 'chat' ? 'page' : undefined}>
        Chat
      </a>
      <a href={`${inboxUrl.pathname}${inboxUrl.search}`} aria-current={current === 'inbox' ? 'page' : undefined}>
        Inbox
      </a>
      <a href="/viewer">Viewer</a>
    </nav>
  );
}

/**
 * The inbox of the people who answer gates (`?inbox`): every open gate, live.
 * The demo runs without sign-in, so it shows every gate of every session; with
 * a JWT (`createHttpTransport({ token })`) it would show the caller's.
 */
function Inbox() {
  return (
    <main style={MAIN_STYLE}>
      <h1>gateflow</h1>
      <Tabs current="inbox" />
      <InputsInbox transport={transport} title="Inbox" />
    </main>
  );
}

// The page's CSP refuses eval: zod must not compile (a warning, not a failure: the page still works).
if (!ZOD_JITLESS) console.warn('gateflow: zod JIT is on');
createRoot(document.getElementById('root')!).render(<StrictMode>{inbox ? <Inbox /> : <Demo />}</StrictMode>);
