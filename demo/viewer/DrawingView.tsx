import { useMemo, useState, type ReactNode } from 'react';
import type { WorkflowDrawing } from '../../src/viz/drawing.js';
import { outlineEdgeTransitions } from '../../src/viz/overlay.js';
import { Details } from './Details.js';
import { DrawingCanvas, type Marks, type Picked } from './DrawingCanvas.js';
import { shownLevel, useDrawingSvg, type Level } from './use-drawing.js';

export interface DrawingViewProps {
  /** Null while the drawing loads or if it failed: the stage shows `pending`, the side only the page's panels. */
  drawing: WorkflowDrawing | null;
  /** What the stage shows with no drawing (a loading note, an error). */
  pending?: ReactNode;
  level: Level;
  onLevel: (level: Level) => void;
  /** The marks over the drawing at the level shown (`shownLevel(drawing, level)`): active, visited, uncovered. */
  marks: Marks;
  /** The box to keep in view (a live session's current state). */
  follow?: string | null;
  /** More buttons in the toolbar (the coverage toggle). */
  tools?: ReactNode;
  /** Panels under the details (coverage; a session's status, answers and turns). */
  children?: ReactNode;
}

/**
 * A drawing with its toolbar (the level toggle, zoom), and beside it the
 * details of what was clicked and the panels the page adds. The panels keep
 * their place in the page whether the drawing is there yet or not: a panel
 * mounted again would lose what a person was typing into it.
 */
export function DrawingView({ drawing, pending, level, onLevel, marks, follow, tools, children }: DrawingViewProps) {
  const shown = drawing ? shownLevel(drawing, level) : level;
  const svg = useDrawingSvg(drawing, shown);
  const [picked, setPicked] = useState<Picked | null>(null);
  const nodes = useMemo(() => new Map((drawing?.outline?.nodes ?? []).map((n) => [n.id, n])), [drawing]);
  const edgeTransitions = (edgeId: string) => {
    const edge = drawing?.outline?.edges.find((e) => e.id === edgeId);
    return edge && drawing ? outlineEdgeTransitions(edge, nodes, drawing.machine.transitions) : [];
  };
  const changeLevel = (next: Level) => {
    setPicked(null);
    onLevel(next);
  };
  const name = drawing ? (drawing.title ?? drawing.id) : '';

  return (
    <div className="gv-drawing">
      <div className="gv-stage">
        {!drawing && pending}
        {drawing && (
        <div className="gv-toolbar">
          {drawing.outline ? (
            <div role="group" aria-label="Level" className="gv-toggle">
              <button type="button" aria-pressed={shown === 'outline'} onClick={() => changeLevel('outline')}>
                As written
              </button>
              <button type="button" aria-pressed={shown === 'machine'} onClick={() => changeLevel('machine')}>
                Machine
              </button>
            </div>
          ) : (
            <span className="gv-muted">Hand-written machine: drawn as its states</span>
          )}
          {tools}
        </div>
        )}
        {svg?.status === 'loading' && (
          <p role="status" className="gv-muted gv-canvas-note">
            Laying out…
          </p>
        )}
        {svg?.status === 'failed' && (
          <p role="alert" className="gv-error gv-canvas-note">
            Cannot draw {name}: {svg.error.message}
          </p>
        )}
        {svg?.status === 'ready' && (
          <DrawingCanvas
            svg={svg.value}
            marks={marks}
            selected={picked}
            onPick={setPicked}
            label={`${name}, ${shown === 'outline' ? 'as written' : 'machine'}`}
            follow={follow ?? null}
          />
        )}
      </div>
      <aside className="gv-side" aria-label="About the drawing">
        {drawing && <Details drawing={drawing} level={shown} picked={picked} edgeTransitions={edgeTransitions} />}
        {children}
      </aside>
    </div>
  );
}
