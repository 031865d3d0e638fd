import { useId, type ReactNode } from 'react';
import type { OutlineDetail, WorkflowDrawing } from '../../src/viz/drawing.js';
import type { DrawnState, DrawnTransition } from '../../src/viz/model.js';
import type { Picked } from './DrawingCanvas.js';
import type { Level } from './use-drawing.js';

/** A term and its description, as the details list shows it. */
type Row = { label: string; value: ReactNode };

export interface DetailsProps {
  drawing: WorkflowDrawing;
  level: Level;
  picked: Picked | null;
  /** The machine transitions an outline edge stands for (its `data-transitions`), read from the drawing. */
  edgeTransitions?: (edgeId: string) => string[];
}

/**
 * What a clicked box or edge is, from the drawing's JSON: an outline node's
 * details (prompt, answer type, guards, validators, actors, inputs) or a
 * machine state's id, type, tags, actors, inputs, meta and transitions; an
 * edge's outcome and guard, or its event, guard and actions.
 */
export function Details({ drawing, level, picked, edgeTransitions }: DetailsProps) {
  const headingId = useId();
  const content = picked ? describe(drawing, level, picked, edgeTransitions) : null;
  return (
    <section className="gv-panel gv-details" aria-labelledby={headingId}>
      <h2 id={headingId}>Details</h2>
      {!picked && <p className="gv-muted">Click a box or an edge (or focus it and press Enter) to see what it is.</p>}
      {picked && !content && <p className="gv-muted">Nothing is known about “{picked.id}”.</p>}
      {content && (
        <>
          <h3 className="gv-details-title">{content.title}</h3>
          <dl className="gv-dl">
            {content.rows.map((row, i) => (
              <div key={`${row.label}#${i}`}>
                <dt>{row.label}</dt>
                <dd>{row.value}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </section>
  );
}

function describe(drawing: WorkflowDrawing, level: Level, picked: Picked, edgeTransitions?: (id: string) => string[]): { title: string; rows: Row[] } | null {
  const outline = level === 'outline' ? drawing.outline : null;
  if (outline && picked.kind === 'node') {
    const node = outline.nodes.find((n) => n.id === picked.id);
    if (!node) return null;
    const rows: Row[] = [
      { label: 'Node', value: <code>{node.id}</code> },
      // The kind, unless the node's own details say it.
      ...(node.details.some((d) => d.label === 'Kind') ? [] : [{ label: 'Kind', value: node.kind }]),
      ...(node.marks.length ? [{ label: 'Marks', value: node.marks.join(', ') }] : []),
      ...node.details.map(detailRow),
      ...(node.state ? [{ label: 'Machine state', value: <code>{node.state}</code> }] : []),
    ];
    return { title: node.label || node.id, rows };
  }
  if (outline && picked.kind === 'edge') {
    const edge = outline.edges.find((e) => e.id === picked.id);
    if (!edge) return null;
    const name = (id: string) => outline.nodes.find((n) => n.id === id)?.label || id;
    const transitions = edgeTransitions?.(edge.id) ?? [];
    const rows: Row[] = [
      { label: 'From', value: `${name(edge.source)} (${edge.source})` },
      { label: 'To', value: `${name(edge.target)} (${edge.target})` },
      { label: 'Outcome', value: edge.outcome ?? '—' },
      { label: 'Guard', value: edge.guard ? <code>{edge.guard}</code> : 'none' },
      ...(transitions.length ? [{ label: 'Machine transitions', value: list(transitions.map((t) => <code key={t}>{t}</code>)) }] : []),
    ];
    return { title: `${name(edge.source)} → ${name(edge.target)}`, rows };
  }
  const machine = drawing.machine;
  if (picked.kind === 'node') {
    const state = machine.states.find((s) => s.id === picked.id);
    return state ? { title: state.key, rows: stateRows(state, machine.transitions.filter((t) => t.source === state.id)) } : null;
  }
  const transitions = machine.transitions.filter((t) => t.id === picked.id);
  const first = transitions[0];
  if (!first) return null;
  const rows: Row[] = [
    { label: 'Transition', value: <code>{first.id}</code> },
    { label: 'From', value: <code>{first.source}</code> },
    { label: 'To', value: list(transitions.map((t) => <code key={String(t.target)}>{t.target ?? '(stays: actions only)'}</code>)) },
    { label: 'Event', value: <code>{first.event}</code> },
    { label: 'Guard', value: first.guard ? <code>{first.guard}</code> : 'none' },
    { label: 'Actions', value: first.actions.length ? list(first.actions.map((a, i) => <code key={`${a}#${i}`}>{a}</code>)) : 'none' },
  ];
  return { title: `${first.event} from ${shortId(first.source)}`, rows };
}

function stateRows(state: DrawnState, transitions: DrawnTransition[]): Row[] {
  return [
    { label: 'State', value: <code>{state.id}</code> },
    { label: 'Type', value: state.type },
    ...(state.initial ? [{ label: 'Initial child', value: <code>{state.initial}</code> }] : []),
    { label: 'Tags', value: state.tags.length ? state.tags.join(', ') : 'none' },
    {
      label: 'Invokes (actors)',
      value: state.invoke.length ? list(state.invoke.map((i) => <code key={i.id}>{i.src === i.id ? i.src : `${i.src} (${i.id})`}</code>)) : 'none',
    },
    ...(state.inputs.length
      ? [
          {
            label: 'Inputs',
            value: list(
              state.inputs.map((i) => (
                <span key={i.name}>
                  <code>{i.name}</code>: {i.type}
                  {i.to ? `, to ${i.to}` : ''}
                  {i.deadline ? `, deadline ${i.deadline}` : ''}
                </span>
              )),
            ),
          },
        ]
      : []),
    ...(state.meta ? [{ label: 'Meta', value: <pre className="gv-pre">{JSON.stringify(state.meta, null, 2)}</pre> }] : []),
    {
      label: 'Transitions',
      value: transitions.length
        ? list(
            transitions.map((t, i) => (
              <span key={`${t.id}#${i}`}>
                on <code>{t.event}</code>
                {t.guard ? (
                  <>
                    {' '}
                    if <code>{t.guard}</code>
                  </>
                ) : null}{' '}
                → {t.target ? <code>{shortId(t.target)}</code> : '(stays)'}
                {t.actions.length ? <> — {t.actions.join(', ')}</> : null}
              </span>
            )),
          )
        : 'none',
    },
  ];
}

function detailRow(detail: OutlineDetail): Row {
  const value = Array.isArray(detail.value) ? list(detail.value.map((v, i) => <span key={i}>{v}</span>)) : detail.value;
  return { label: detail.label, value };
}

function list(items: ReactNode[]): ReactNode {
  if (items.length === 1) return items[0];
  return (
    <ul className="gv-list">
      {items.map((item, i) => (
        <li key={i}>{item}</li>
      ))}
    </ul>
  );
}

/** A state id without its machine's id in front, for lines where the machine is plain. */
const shortId = (id: string) => id.slice(id.indexOf('.') + 1) || id;
