import { useEffect, useId, useState } from 'react';
import { z } from 'zod';
import { GraphSnapshotSchema, type GraphSnapshot, type NodeRef, type Properties } from '../src/graph/model.js';
import type { ReplyEnvelope } from '../src/workflow/reply.js';

/**
 * The task agent's side of the demo page: beside its chat, the steps the
 * latest reply recounts (its `TASK_STEPS` artifact) and the graph as
 * `GET /api/graph` gives it, read again after every reply. The page shows
 * what the agent did and what the graph now holds, in plain lists and
 * tables a screen reader can walk.
 */

/** The task agent's workflow id (src/task-agent/workflow.ts), named here so the page does not bundle the agent. */
export const TASK_AGENT_FLOW = 'task-agent';

/** One step of the `TASK_STEPS` artifact, as far as the page reads it. */
const TaskStepSchema = z.object({
  tool: z.string(),
  ok: z.boolean(),
  write: z.boolean(),
  /** The step and its outcome in words. */
  text: z.string(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type TaskStepView = z.infer<typeof TaskStepSchema>;

const TaskStepsSchema = z.object({ type: z.literal('TASK_STEPS'), steps: z.array(TaskStepSchema) });

/** The steps a reply recounts: null when it has none (the greeting, before any goal). */
export function stepsOf(reply: ReplyEnvelope | null): TaskStepView[] | null {
  const artifact = reply?.artifacts.find((a) => a.type === 'TASK_STEPS');
  const parsed = TaskStepsSchema.safeParse(artifact);
  return parsed.success ? parsed.data.steps : null;
}

/** Whether the goal is over (done, stopped, cancelled): the session takes no more turns. */
export const goalFinished = (reply: ReplyEnvelope | null) => reply?.completion.isComplete === true;

type GraphState = { graph: GraphSnapshot | null; error: string | null };

/**
 * The shared graph (`GET /api/graph`), read at load and again whenever
 * `version` changes (each reply): the newest read wins, an older one
 * answering late is dropped.
 */
function useGraph(version: unknown): GraphState {
  const [state, setState] = useState<GraphState>({ graph: null, error: null });
  useEffect(() => {
    const abort = new AbortController();
    void readGraph(abort.signal).then(
      (graph) => setState({ graph, error: null }),
      (error: Error) => {
        if (!abort.signal.aborted) setState((s) => ({ graph: s.graph, error: error.message }));
      },
    );
    return () => abort.abort();
  }, [version]);
  return state;
}

async function readGraph(signal: AbortSignal): Promise<GraphSnapshot> {
  const response = await fetch('/api/graph', { signal, headers: { accept: 'application/json' } });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
    throw new Error(typeof message === 'string' ? message : `the server answered ${response.status}`);
  }
  const parsed = GraphSnapshotSchema.safeParse(body);
  if (!parsed.success) throw new Error('the server sent a graph this page cannot read');
  return parsed.data;
}

/** The steps of the latest reply and the graph, for the task agent's chat. */
export function TaskAgentPanel({ reply }: { reply: ReplyEnvelope | null }) {
  const stepsId = useId();
  const graphId = useId();
  const steps = stepsOf(reply);
  const { graph, error } = useGraph(reply);
  return (
    <div className="ta-panel">
      <style href="gateflow-demo-task-agent" precedence="default">
        {PANEL_CSS}
      </style>
      <section aria-labelledby={stepsId}>
        <h2 id={stepsId}>Steps</h2>
        {steps === null ? (
          <p className="ta-muted">No goal yet: type one in the chat.</p>
        ) : steps.length === 0 ? (
          <p className="ta-muted">No tool called yet.</p>
        ) : (
          <ol className="ta-steps">
            {steps.map((step, i) => (
              <li key={i} className={step.ok ? 'ta-ok' : 'ta-failed'}>
                <span className="ta-mark" aria-hidden="true">
                  {step.ok ? '✓' : '✗'}
                </span>{' '}
                <span className="ta-visually-hidden">{step.ok ? 'Done: ' : 'Failed: '}</span>
                {step.text} <code className="ta-tool">{step.tool}</code>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby={graphId}>
        <h2 id={graphId}>Graph</h2>
        {error && (
          <p role="alert" className="ta-error">
            Cannot read the graph: {error}
          </p>
        )}
        {graph === null ? (
          !error && <p className="ta-muted">Reading the graph…</p>
        ) : graph.nodes.length === 0 && graph.edges.length === 0 ? (
          <p className="ta-muted">The graph is empty.</p>
        ) : (
          <GraphTables graph={graph} />
        )}
      </section>
    </div>
  );
}

/** Nodes (label, key, properties) and edges (from -TYPE-> to), one table each. */
function GraphTables({ graph }: { graph: GraphSnapshot }) {
  const nodesId = useId();
  const edgesId = useId();
  return (
    <>
      <h3 id={nodesId}>Nodes ({graph.nodes.length})</h3>
      <table className="ta-table" aria-labelledby={nodesId}>
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Key</th>
            <th scope="col">Properties</th>
          </tr>
        </thead>
        <tbody>
          {graph.nodes.map((node) => (
            <tr key={`${node.label}\u0000${node.key}`}>
              <td>{node.label}</td>
              <td>{node.key}</td>
              <td>
                <PropertyList properties={node.properties} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3 id={edgesId}>Edges ({graph.edges.length})</h3>
      {graph.edges.length === 0 ? (
        <p className="ta-muted">No edges.</p>
      ) : (
        <table className="ta-table" aria-labelledby={edgesId}>
          <thead>
            <tr>
              <th scope="col">Edge</th>
              <th scope="col">Properties</th>
            </tr>
          </thead>
          <tbody>
            {graph.edges.map((edge) => (
              <tr key={`${edge.type}\u0000${refText(edge.from)}\u0000${refText(edge.to)}`}>
                <td>
                  {refText(edge.from)} <strong>-{edge.type}-&gt;</strong> {refText(edge.to)}
                </td>
                <td>
                  <PropertyList properties={edge.properties} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

const refText = (ref: NodeRef) => `${ref.label} ${ref.key}`;

/** `name: value` per line; a list value joined with commas; none: a dash. */
function PropertyList({ properties }: { properties: Properties }) {
  const entries = Object.entries(properties);
  if (entries.length === 0) return <span className="ta-muted">none</span>;
  return (
    <ul className="ta-props">
      {entries.map(([name, value]) => (
        <li key={name}>
          {name}: {Array.isArray(value) ? value.join(', ') : String(value)}
        </li>
      ))}
    </ul>
  );
}

/** The widget's colours (src/react/chat-widget-css.ts), so the panel sits beside it as one page. */
const PANEL_CSS = `
.ta-panel { display: flex; flex-direction: column; gap: 1rem; min-width: 0; color: #1d2330; }
.ta-panel section { border: 1px solid #d5d9e2; border-radius: 12px; padding: 0.75rem; }
.ta-panel h2 { font-size: 1.1rem; margin: 0 0 0.5rem; }
.ta-panel h3 { font-size: 1rem; margin: 0.75rem 0 0.25rem; }
.ta-muted { color: #5b6475; margin: 0; }
.ta-steps { margin: 0; padding-left: 1.5rem; display: flex; flex-direction: column; gap: 0.35rem; }
.ta-mark { font-weight: 700; }
.ta-ok .ta-mark { color: #1b5e33; }
.ta-failed .ta-mark { color: #8a1c1c; }
.ta-failed { overflow-wrap: anywhere; }
.ta-tool { font-size: 0.8rem; color: #5b6475; }
.ta-error { background: #fdecec; color: #8a1c1c; border-radius: 12px; padding: 0.5rem 0.75rem; margin: 0; }
.ta-table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
.ta-table th, .ta-table td { text-align: left; vertical-align: top; padding: 0.3rem 0.5rem; border-bottom: 1px solid #d5d9e2; overflow-wrap: anywhere; }
.ta-table th { color: #5b6475; font-weight: 600; }
.ta-props { list-style: none; margin: 0; padding: 0; }
.ta-visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.ta-next { display: flex; align-items: center; gap: 0.75rem; margin: 0.75rem 0 0; }
.ta-new-goal { font: inherit; border-radius: 999px; border: 1px solid #2457d6; background: #2457d6; color: #fff; padding: 0.4rem 0.9rem; cursor: pointer; }
.ta-new-goal:hover { background: #1a3f9e; border-color: #1a3f9e; }
.ta-new-goal:focus-visible { outline: 3px solid #2457d6; outline-offset: 2px; }
`;

/**
 * Under a finished goal: one session is one goal, so the next goal is a new
 * session. Said in words, with the button that starts it.
 */
export function NewGoal({ onNewGoal }: { onNewGoal: () => void }) {
  return (
    <p className="ta-next">
      This goal is finished.{' '}
      <button type="button" className="ta-new-goal" onClick={onNewGoal}>
        New goal
      </button>
    </p>
  );
}
