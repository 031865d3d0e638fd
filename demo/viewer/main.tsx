// First, before any module that builds a zod schema: no `new Function` probe under the page's CSP.
import { ZOD_JITLESS } from '../../src/react/zod-jitless.js';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { listDrawings, type DrawingSummary } from './api.js';
import { SessionPage } from './SessionPage.js';
import { SessionsPage } from './SessionsPage.js';
import { levelParam } from './use-drawing.js';
import { WorkflowPage } from './WorkflowPage.js';
import './viewer.css';

/**
 * The viewer (`/viewer`): every workflow and machine the server draws, listed
 * at the side. `?workflow=<id>` shows one (`&level=outline|machine`);
 * `?session=<id>` shows a session live over its workflow's drawing. Each is
 * a page of its own (a link, not client-side routing): an address always
 * shows the same thing.
 */
const params = new URLSearchParams(location.search);
const workflow = params.get('workflow');
const session = params.get('session');
const sessions = params.has('sessions');
const level = levelParam(params);

function Viewer() {
  return (
    <div className="gv-page">
      <header className="gv-header">
        <a className="gv-brand" href="/viewer">
          gateflow viewer
        </a>
        <nav aria-label="Pages">
          <a href="/viewer?sessions" aria-current={sessions ? 'page' : undefined}>
            Sessions
          </a>
          <a href="/">Demo</a>
        </nav>
      </header>
      <div className="gv-body">
        <DrawingList current={session || sessions ? null : workflow} />
        <main className="gv-main">
          {sessions ? (
            <SessionsPage initialWorkflow={params.get('workflowId') ?? ''} initialStatus={params.get('status') ?? ''} />
          ) : session ? (
            <SessionPage sessionId={session} initialLevel={level} />
          ) : workflow ? (
            <WorkflowPage id={workflow} initialLevel={level} />
          ) : (
            <Welcome />
          )}
        </main>
      </div>
    </div>
  );
}

function Welcome() {
  return (
    <>
      <h1 className="gv-title">Workflows and machines</h1>
      <p>
        Choose one in the list to see its drawing: the flow as its author wrote it, or the compiled machine in full. Drag to move it, use the wheel or
        the buttons to zoom, click a box or an edge for its details. <strong>Coverage</strong> marks the transitions no generated test path takes.
      </p>
      <p>
        <a href="/viewer?sessions">Sessions</a> lists every session, newest first; each is shown live at <code>/viewer?session=&lt;session id&gt;</code>,
        where its steps can be walked back and forth, forked from any step, and saved as a test.
      </p>
    </>
  );
}

/** `GET /api/drawings`: workflows first (what sessions run), then the machines they use. */
function DrawingList({ current }: { current: string | null }) {
  const [drawings, setDrawings] = useState<DrawingSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    listDrawings().then(setDrawings, (e: Error) => setError(e.message));
  }, []);
  const group = (kind: DrawingSummary['kind'], title: string) => {
    const items = (drawings ?? []).filter((d) => d.kind === kind);
    if (items.length === 0) return null;
    return (
      <>
        <h2>{title}</h2>
        <ul>
          {items.map((d) => (
            <li key={d.id}>
              <a href={`/viewer?workflow=${encodeURIComponent(d.id)}`} aria-current={d.id === current ? 'page' : undefined}>
                {d.title ?? d.id}
                {d.title && d.title !== d.id ? <span className="gv-list-id">{d.id}</span> : null}
              </a>
            </li>
          ))}
        </ul>
      </>
    );
  };
  return (
    <nav className="gv-list-nav" aria-label="Drawings">
      {error && (
        <p role="alert" className="gv-error">
          Cannot list the drawings: {error}
        </p>
      )}
      {!drawings && !error && <p role="status">Loading…</p>}
      {group('workflow', 'Workflows')}
      {group('machine', 'Machines')}
    </nav>
  );
}

// The page's CSP refuses eval: zod must not compile (a warning, not a failure: the page still works).
if (!ZOD_JITLESS) console.warn('gateflow: zod JIT is on');
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Viewer />
  </StrictMode>,
);
