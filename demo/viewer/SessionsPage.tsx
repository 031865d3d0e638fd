import { useEffect, useState } from 'react';
import { listDrawings, listSessions, type DrawingSummary, type SessionList } from './api.js';
import { setParam } from './use-drawing.js';
import { StateCode, StatusTag, sessionHref } from './session-parts.js';

const STATUSES = ['active', 'waiting', 'done', 'cancelled', 'failed'] as const;

/**
 * `?sessions`: every session the caller may see, newest first, filtered by
 * workflow and status (kept in the address: `&workflowId=…&status=…`), a page
 * at a time. Each links to its session page, where its steps can be walked
 * through, forked and saved as a test.
 */
export function SessionsPage({ initialWorkflow, initialStatus }: { initialWorkflow: string; initialStatus: string }) {
  const [workflowId, setWorkflowId] = useState(initialWorkflow);
  const [status, setStatus] = useState(initialStatus);
  const [pages, setPages] = useState<SessionList[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [workflows, setWorkflows] = useState<DrawingSummary[]>([]);

  useEffect(() => {
    listDrawings().then((d) => setWorkflows(d.filter((x) => x.kind === 'workflow')), () => setWorkflows([]));
  }, []);
  useEffect(() => {
    const abort = new AbortController();
    setLoading(true);
    listSessions({ workflowId, status }, abort.signal).then(
      (page) => {
        setPages([page]);
        setError(null);
        setLoading(false);
      },
      (e: Error) => {
        if (abort.signal.aborted) return;
        setError(e.message);
        setLoading(false);
      },
    );
    return () => abort.abort();
  }, [workflowId, status]);

  const more = async () => {
    const after = pages.at(-1)?.nextAfter;
    if (after == null) return;
    try {
      const page = await listSessions({ workflowId, status, after });
      setPages((p) => [...p, page]);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const sessions = pages.flatMap((p) => p.sessions);
  const title = (id: string) => workflows.find((w) => w.id === id)?.title ?? id;

  return (
    <>
      <h1 className="gv-title">Sessions</h1>
      <form className="gv-toolbar gv-filters" onSubmit={(e) => e.preventDefault()} aria-label="Filters">
        <label>
          Workflow{' '}
          <select
            value={workflowId}
            onChange={(e) => {
              setWorkflowId(e.target.value);
              setParam('workflowId', e.target.value || null);
            }}
          >
            <option value="">all</option>
            {workflows.map((w) => (
              <option key={w.id} value={w.id}>
                {w.title ?? w.id}
              </option>
            ))}
            {workflowId && !workflows.some((w) => w.id === workflowId) && <option value={workflowId}>{workflowId}</option>}
          </select>
        </label>
        <label>
          Status{' '}
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setParam('status', e.target.value || null);
            }}
          >
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </form>
      {error && (
        <p role="alert" className="gv-error">
          Cannot list the sessions: {error}
        </p>
      )}
      {loading && <p role="status">Loading sessions…</p>}
      {!loading && sessions.length === 0 && !error && <p className="gv-muted">No session{workflowId || status ? ' matches these filters' : ' yet'}.</p>}
      {sessions.length > 0 && (
        <table className="gv-sessions">
          <thead>
            <tr>
              <th scope="col">Session</th>
              <th scope="col">Workflow</th>
              <th scope="col">Status</th>
              <th scope="col">Steps</th>
              <th scope="col">State</th>
              <th scope="col">Last step</th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.sessionId} data-session={s.sessionId}>
                <th scope="row">
                  <a href={sessionHref(s.sessionId)}>
                    <code>{s.sessionId}</code>
                  </a>
                </th>
                <td>
                  {title(s.workflowId)} <span className="gv-muted">v{String(s.flowVersion)}</span>
                </td>
                <td>
                  <StatusTag status={s.status} />
                </td>
                <td>{s.steps}</td>
                <td>
                  <StateCode state={s.state} />
                </td>
                <td>{new Date(s.updatedAt).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pages.at(-1)?.nextAfter != null && (
        <p>
          <button type="button" className="gv-button" onClick={() => void more()}>
            Older sessions
          </button>
        </p>
      )}
    </>
  );
}
