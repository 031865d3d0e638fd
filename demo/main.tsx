import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatWidget, createHttpTransport } from '../src/react/index.js';
import type { WorkflowSummary as FlowSummary } from '../src/workflow/types.js';

const transport = createHttpTransport();
const params = new URLSearchParams(location.search);
const inspect = params.has('inspect');
const storageKey = (flowId: string) => `gateflow:session:${flowId}`;

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
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: '44rem', margin: '2rem auto', padding: '0 1rem' }}>
      <h1>gateflow</h1>
      <p>
        <label>
          Flow{' '}
          <select
            value={flowId}
            onChange={(e) => {
              setUnknown(null);
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
      {flow && (
        <ChatWidget
          key={flowId}
          transport={transport}
          flowId={flowId}
          title={flow.title ?? flow.id}
          sessionId={localStorage.getItem(storageKey(flowId))}
          onSessionId={(id) => localStorage.setItem(storageKey(flowId), id)}
          inspect={inspect}
        />
      )}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Demo />
  </StrictMode>,
);
