import { useMemo, useState } from 'react';
import type { WorkflowDrawing } from '../../src/viz/drawing.js';
import { uncoveredEdgeIds } from '../../src/viz/overlay.js';
import { CoveragePanel, useCoverage } from './Coverage.js';
import { DrawingView } from './DrawingView.js';
import type { Marks } from './DrawingCanvas.js';
import { ErrorMessage } from './ErrorMessage.js';
import { sessionsHref } from './session-parts.js';
import { setParam, shownLevel, useDrawing, type Level } from './use-drawing.js';

/** `?workflow=<id>`: one drawing, at the level in the address, with the coverage overlay on demand. */
export function WorkflowPage({ id, initialLevel }: { id: string; initialLevel: Level }) {
  const drawing = useDrawing(id);
  if (!drawing || drawing.status === 'loading') return <p role="status">Loading {id}…</p>;
  if (drawing.status === 'failed') return <ErrorMessage what={`the drawing of “${id}”`} notFound={`There is no workflow or machine “${id}”`} error={drawing.error} />;
  return <WorkflowDrawingView drawing={drawing.value} initialLevel={initialLevel} />;
}

function WorkflowDrawingView({ drawing, initialLevel }: { drawing: WorkflowDrawing; initialLevel: Level }) {
  const [level, setLevel] = useState(initialLevel);
  const [coverageOn, setCoverageOn] = useState(false);
  const coverage = useCoverage(drawing.id, coverageOn);
  const shown = shownLevel(drawing, level);
  const missing = coverage.status === 'ready' ? coverage.report.transitions.missing : null;
  const marks = useMemo<Marks>(() => (missing ? { edges: { 'gf-uncovered': uncoveredEdgeIds(drawing, shown, missing) } } : {}), [drawing, shown, missing]);
  const name = drawing.title ?? drawing.id;

  return (
    <>
      <h1 className="gv-title">
        {name} <span className="gv-muted">({drawing.kind === 'workflow' ? `workflow ${drawing.id}, version ${String(drawing.version)}` : `machine ${drawing.id}`})</span>
        {drawing.kind === 'workflow' && (
          <a className="gv-title-link" href={sessionsHref(drawing.id)}>
            its sessions
          </a>
        )}
      </h1>
      <DrawingView
        drawing={drawing}
        level={level}
        onLevel={(next) => {
          setLevel(next);
          setParam('level', next);
        }}
        marks={marks}
        tools={
          <button type="button" aria-pressed={coverageOn} onClick={() => setCoverageOn((on) => !on)}>
            Coverage
          </button>
        }
      >
        <CoveragePanel state={coverage} />
      </DrawingView>
    </>
  );
}
