import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatWidget, createHttpTransport } from '../src/react/index.js';
import type { WorkflowSummary as FlowSummary } from '../src/workflow/types.js';

const transport = createHttpTransport();
const params = new URLSearchParams(location.search);
const inspect = params.has('inspect');
const storageKey = (flowId: string) => `gateflow:session:${flowId}`;

/** Pick a flow, then chat. The session id is kept so a reload continues the same session. */
function Demo() {
  const [flows, setFlows] = useState<FlowSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [flowId, setFlowId] = useState(() => params.get('flow') ?? '');
  const [run, setRun] = useState(0);

  useEffect(() => {
    transport.flows().then(
      (list) => {
        setFlows(list);
        setFlowId((current) => current || list[0]?.id || '');
      },
      (e: Error) => setError(e.message),
    );
  }, []);

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
              setFlowId(e.target.value);
              setRun((n) => n + 1);
            }}
          >
            {flows.map((f) => (
              <option key={f.id} value={f.id}>
                {f.title ?? f.id} ({f.version})
              </option>
            ))}
          </select>
        </label>{' '}
        <button
          type="button"
          onClick={() => {
            localStorage.removeItem(storageKey(flowId));
            setRun((n) => n + 1);
          }}
        >
          New session
        </button>
      </p>
      {flow && (
        <ChatWidget
          key={`${flowId}:${run}`}
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
