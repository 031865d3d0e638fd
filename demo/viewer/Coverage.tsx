import { useEffect, useId, useState } from 'react';
import { ApiError, getCoverage, type CoverageReport } from './api.js';

export type CoverageState =
  | { status: 'off' }
  | { status: 'computing' }
  | { status: 'ready'; report: CoverageReport }
  | { status: 'unavailable' }
  | { status: 'failed'; message: string };

/** Reports asked for on this page, by workflow: the server caches them too, but a toggle off and on asks nothing. */
const reports = new Map<string, Promise<CoverageReport>>();

/** The coverage of a flow while `on`: computing it may take seconds (thousands of paths). */
export function useCoverage(id: string, on: boolean): CoverageState {
  const [state, setState] = useState<CoverageState>({ status: 'off' });
  useEffect(() => {
    if (!on) return setState({ status: 'off' });
    let live = true;
    let report = reports.get(id);
    if (!report) {
      report = getCoverage(id);
      reports.set(id, report);
      report.catch(() => reports.delete(id));
    }
    setState({ status: 'computing' });
    report.then(
      (value) => live && setState({ status: 'ready', report: value }),
      (error: Error) => {
        if (!live) return;
        if (error instanceof ApiError && error.status === 404) setState({ status: 'unavailable' });
        else setState({ status: 'failed', message: error.message });
      },
    );
    return () => {
      live = false;
    };
  }, [id, on]);
  return state;
}

/** The coverage in numbers, and what no generated path reaches, with the reason. */
export function CoveragePanel({ state }: { state: CoverageState }) {
  const headingId = useId();
  if (state.status === 'off') return null;
  return (
    <section className="gv-panel gv-coverage" aria-labelledby={headingId} aria-busy={state.status === 'computing'}>
      <h2 id={headingId}>Coverage</h2>
      {state.status === 'computing' && (
        <p role="status" className="gv-muted">
          Computing… (every path through the flow is generated: this may take a few seconds)
        </p>
      )}
      {state.status === 'unavailable' && <p role="status">Coverage is available for flows (this is a hand-written machine).</p>}
      {state.status === 'failed' && (
        <p role="alert" className="gv-error">
          Cannot compute the coverage: {state.message}
        </p>
      )}
      {state.status === 'ready' && <CoverageReportView report={state.report} />}
    </section>
  );
}

function CoverageReportView({ report }: { report: CoverageReport }) {
  const { states, transitions, unreached } = report;
  return (
    <>
      <p role="status">
        States {states.covered}/{states.total} ({formatPercent(states.percent)}), transitions {transitions.covered}/{transitions.total} (
        {formatPercent(transitions.percent)}), from {report.paths} generated {report.paths === 1 ? 'path' : 'paths'}.
      </p>
      {unreached.length === 0 ? (
        <p>Every state and transition is reached.</p>
      ) : (
        <>
          <p>Not reached (marked with a dashed red line in the drawing):</p>
          <ul className="gv-unreached">
            {unreached.map((u) => (
              <li key={`${u.kind}:${u.id}`}>
                <span className="gv-tag">{u.kind}</span> <code>{u.id}</code>: {u.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {(report.warnings?.length ?? 0) > 0 && (
        <>
          <p>The flow checker warns:</p>
          <ul className="gv-unreached">
            {report.warnings!.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

/** The API's percent (0–100), at most one decimal. */
const formatPercent = (percent: number) => `${Math.round(percent * 10) / 10}%`;
