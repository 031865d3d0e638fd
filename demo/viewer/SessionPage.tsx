import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { CHAT_WIDGET_CSS } from '../../src/react/chat-widget-css.js';
import { createHttpTransport } from '../../src/react/http-transport.js';
import { InputForm } from '../../src/react/InputForm.js';
import type { InputValue } from '../../src/inputs/coerce.js';
import type { OpenInput } from '../../src/inputs/gate.js';
import type { Turn } from '../../src/workflow/turn.js';
import type { WorkflowDrawing } from '../../src/viz/drawing.js';
import { activeIds, outlineEdgeTransitions } from '../../src/viz/overlay.js';
import { conversationOf } from '../../src/testing/conversation-format.js';
import { forkSession, getSession, type HistoryEntry, type SessionHistory, type ViewerReply } from './api.js';
import { DrawingView } from './DrawingView.js';
import type { Marks } from './DrawingCanvas.js';
import { ErrorMessage } from './ErrorMessage.js';
import { setParam, shownLevel, useDrawing, type Level } from './use-drawing.js';
import { StateCode, StatusTag, sessionHref, sessionsHref } from './session-parts.js';
import { shortText, statusWord, traceLine, turnText, valueText } from './words.js';

/** The API's events stream and gate answers (same origin, no token: the demo runs without sign-in). */
const transport = createHttpTransport();

type Live = 'connecting' | 'live' | 'reconnecting';

/**
 * `?session=<id>`: a session over its workflow's drawing: the current state
 * highlighted, the states it went through marked, and beside it the status,
 * the answers, the open input gates with their forms, and every turn with
 * what the machine did (its trace events). The events stream says when a
 * step was saved; the session is read again then, so the page follows a
 * conversation going on elsewhere.
 */
export function SessionPage({ sessionId, initialLevel }: { sessionId: string; initialLevel: Level }) {
  const [session, setSession] = useState<SessionHistory | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [live, setLive] = useState<Live>('connecting');
  const reading = useRef<{ running: boolean; again: boolean }>({ running: false, again: false });

  /** Reads the whole session again; a read asked for while one runs is done once after it. */
  const reload = useCallback(async () => {
    const state = reading.current;
    if (state.running) {
      state.again = true;
      return;
    }
    state.running = true;
    try {
      do {
        state.again = false;
        try {
          setSession(await getSession(sessionId));
          setError(null);
        } catch (e) {
          setError(e as Error);
        }
      } while (state.again);
    } finally {
      state.running = false;
    }
  }, [sessionId]);

  useEffect(() => {
    void reload();
    // Every step saved (`session.stepped`), gate opened or answered, session finished: read it again.
    const stop = transport.events(() => void reload(), { sessionId }, {
      onOpen: () => {
        setLive('live');
        void reload();
      },
      onError: () => setLive('reconnecting'),
    });
    return stop;
  }, [sessionId, reload]);

  const flowId = session?.reply.flowId ?? null;
  const drawing = useDrawing(flowId);
  // Time travel: the step shown (its seq), or null for the latest, which follows the session live.
  const [step, setStep] = useState<number | null>(null);
  const shown = useMemo(() => (session ? sessionAt(session, step) : null), [session, step]);

  if (!session && error) return <ErrorMessage what={`session “${sessionId}”`} notFound={`There is no session “${sessionId}” that you may see`} error={error} />;
  if (!session || !shown) return <p role="status">Loading session {sessionId}…</p>;
  const panels = (
    <>
      <StepBar sessionId={sessionId} session={session} step={step} onStep={setStep} />
      <SessionPanels sessionId={sessionId} session={shown} past={step !== null} onChanged={reload} onStep={setStep} />
    </>
  );
  return (
    <>
      <h1 className="gv-title">
        Session <code>{sessionId}</code> <span className="gv-muted">of {session.reply.flowId}</span>{' '}
        <span className={`gv-live gv-live-${live}`} role="status">
          {live === 'live' ? 'live' : live === 'connecting' ? 'connecting…' : 'reconnecting…'}
        </span>{' '}
        <a className="gv-title-link" href={sessionsHref(session.reply.flowId)}>
          all sessions of {session.reply.flowId}
        </a>
      </h1>
      {error && (
        <p role="alert" className="gv-error">
          Cannot read the session again: {error.message}
        </p>
      )}
      {/* One place for the panels, drawing or not: the reply box keeps what is typed when the drawing comes. */}
      <SessionDrawing
        drawing={drawing?.status === 'ready' ? drawing.value : null}
        pending={
          drawing?.status === 'failed' ? (
            <ErrorMessage what={`the drawing of “${flowId}”`} notFound={`There is no drawing of “${flowId}”`} error={drawing.error} />
          ) : (
            <p role="status">Loading the drawing of {flowId}…</p>
          )
        }
        session={shown}
        initialLevel={initialLevel}
      >
        {panels}
      </SessionDrawing>
    </>
  );
}

/** The session as it was after step `seq` (null: as it is now): that step's reply, and the steps up to it. */
function sessionAt(session: SessionHistory, seq: number | null): SessionHistory {
  if (seq === null) return session;
  const upTo = session.history.filter((e) => e.seq <= seq);
  const entry = upTo.at(-1);
  return entry ? { reply: entry.reply, history: upTo } : session;
}

/**
 * Back and forth through the session's steps (the drawing, status, answers
 * and turns show the session as it was then), "Fork from here" (a new
 * session from that step: `POST /api/sessions/{id}/fork`), and "Save as test"
 * (the conversation as a gateflow.conversation/1 file for `gateflow test --conversations`).
 */
function StepBar({ sessionId, session, step, onStep }: { sessionId: string; session: SessionHistory; step: number | null; onStep: (seq: number | null) => void }) {
  const steps = session.history.map((e) => e.seq);
  const last = steps.at(-1) ?? 1;
  const at = step ?? last;
  const index = steps.indexOf(at);
  const [forking, setForking] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  // The step last asked for: two clicks before the page renders again move two steps, not one.
  const asked = useRef(index);
  asked.current = index;
  const move = (by: number) => {
    const i = Math.max(0, Math.min(steps.length - 1, asked.current + by));
    asked.current = i;
    const seq = steps[i]!;
    onStep(seq === last ? null : seq);
  };
  const fork = async () => {
    setForking(true);
    setRefused(null);
    try {
      const { sessionId: forked } = await forkSession(sessionId, at);
      location.href = sessionHref(forked);
    } catch (e) {
      setRefused((e as Error).message);
      setForking(false);
    }
  };
  const saveTest = () => {
    const test = conversationOf(session.history, { sessionId });
    const url = URL.createObjectURL(new Blob([`${JSON.stringify(test, null, 2)}\n`], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${test.workflowId}-${sessionId}.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <Panel title="Steps" className="gv-steps">
      <div className="gv-step-bar" role="group" aria-label="Step through the session">
        <button type="button" onClick={() => move(-1)} disabled={index <= 0} aria-label="Step back">
          ◀ Back
        </button>
        <span className="gv-step-at" role="status">
          Step {at} of {last}
          {step !== null && <span className="gv-muted"> (past)</span>}
        </span>
        <button type="button" onClick={() => move(1)} disabled={index >= steps.length - 1} aria-label="Step forward">
          Forward ▶
        </button>
        <button type="button" onClick={() => onStep(null)} disabled={step === null}>
          Latest
        </button>
      </div>
      <div className="gv-step-bar">
        <button type="button" onClick={() => void fork()} disabled={forking} title="Start a new session from this step, to try another answer">
          {forking ? 'Forking…' : `Fork from step ${at}`}
        </button>
        <button type="button" onClick={saveTest} title="Download this conversation as a test for gateflow test --conversations">
          Save as test
        </button>
      </div>
      {refused && (
        <p role="alert" className="gv-error">
          Cannot fork: {refused}
        </p>
      )}
    </Panel>
  );
}

function SessionDrawing({ drawing, pending, session, initialLevel, children }: { drawing: WorkflowDrawing | null; pending: ReactNode; session: SessionHistory; initialLevel: Level; children: ReactNode }) {
  const [level, setLevel] = useState(initialLevel);
  const shown = drawing ? shownLevel(drawing, level) : level;
  const { marks, follow } = useMemo(() => (drawing ? sessionMarks(drawing, shown, session) : { marks: {}, follow: null }), [drawing, shown, session]);
  return (
    <DrawingView
      drawing={drawing}
      pending={pending}
      level={level}
      onLevel={(next) => {
        setLevel(next);
        setParam('level', next);
      }}
      marks={marks}
      follow={follow}
    >
      {children}
    </DrawingView>
  );
}

/**
 * The current state's boxes (active), and every box the session was in after
 * a step or passed through during one (its trace's node entries): the path taken.
 */
function sessionMarks(drawing: WorkflowDrawing, level: Level, session: SessionHistory): { marks: Marks; follow: string | null } {
  // The machine's root is always active: marking it would only frame the whole drawing.
  const root = drawing.machine.states.find((s) => s.parent === null)?.id;
  const boxesOf = (state: unknown) => activeIds(drawing, level, state).filter((id) => id !== root);
  const active = boxesOf(session.reply.state);
  const visited = new Set<string>();
  const outline = new Map((drawing.outline?.nodes ?? []).map((n) => [n.id, n]));
  const taken = new Set<string>();
  const outlineEdges = drawing.outline?.edges ?? [];
  for (const entry of session.history) {
    for (const id of boxesOf(entry.reply.state)) visited.add(id);
    for (const event of entry.trace ?? []) {
      if (event.type === 'node.enter' && typeof event.node === 'string') {
        const node = outline.get(event.node);
        if (!node) continue;
        if (level === 'outline') visited.add(node.id);
        else if (node.state) visited.add(node.state);
      }
      // The edge a step left a node by: its outcome and the target its guards chose.
      if (event.type === 'guard.evaluated') {
        const edges = outlineEdges.filter((e) => e.source === event.node && e.target === event.target && (e.outcome === null || e.outcome === event.outcome));
        const edge = edges.length > 1 ? (edges.find((e) => e.outcome === event.outcome) ?? edges[0]) : edges[0];
        if (!edge) continue;
        if (level === 'outline') taken.add(edge.id);
        else for (const id of outlineEdgeTransitions(edge, outline, drawing.machine.transitions)) taken.add(id);
      }
    }
  }
  // The innermost active box: the one no other active box lies in.
  const parents = new Set(
    level === 'outline'
      ? active.map((id) => outline.get(id)?.parent ?? null)
      : active.map((id) => drawing.machine.states.find((s) => s.id === id)?.parent ?? null),
  );
  const follow = active.find((id) => !parents.has(id)) ?? null;
  return { marks: { nodes: { 'gf-active': active, 'gf-visited': [...visited] }, edges: { 'gf-visited': [...taken] } }, follow };
}

/** Status, answers, open gates and turns: beside the drawing, or alone while it loads (or when it cannot be drawn). */
function SessionPanels({ sessionId, session, past, onChanged, onStep }: { sessionId: string; session: SessionHistory; past: boolean; onChanged: () => void; onStep: (seq: number) => void }) {
  const { reply } = session;
  return (
    <>
      <StatusPanel reply={reply} />
      {/* A turn goes to the session as it is now: a fork is where an author tries another answer. */}
      {!past && reply.status === 'active' && <TurnPanel key={reply.message} sessionId={sessionId} reply={reply} onChanged={onChanged} />}
      {reply.answers && <AnswersPanel answers={reply.answers} />}
      {/* Gates are answered on the session as it is now, not at a step in the past. */}
      {!past && <InputsPanel inputs={reply.inputs ?? []} onChanged={onChanged} />}
      <TurnsPanel history={session.history} onStep={onStep} />
    </>
  );
}

function Panel({ title, children, className = '' }: { title: string; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <section className={`gv-panel ${className}`} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function StatusPanel({ reply }: { reply: ViewerReply }) {
  return (
    <Panel title="Status" className="gv-status">
      <dl className="gv-dl">
        <div>
          <dt>Status</dt>
          <dd>
            <StatusTag status={reply.status} reason={reply.completion.reason} />{' '}
            {/* The reason, unless the tag says it already ("completed", "stopped"). */}
            {statusWord(reply.status, reply.completion.reason) === reply.completion.reason.replace(/_/g, ' ') ? null : reply.completion.reason.replace(/_/g, ' ')}
          </dd>
        </div>
        <div>
          <dt>State</dt>
          <dd>
            <StateCode state={reply.state} />
          </dd>
        </div>
        <div>
          <dt>Last message</dt>
          <dd>{shortText(reply.message, 200) || '—'}</dd>
        </div>
      </dl>
    </Panel>
  );
}

function AnswersPanel({ answers }: { answers: NonNullable<ViewerReply['answers']> }) {
  const entries = Object.entries(answers);
  return (
    <Panel title="Answers" className="gv-answers">
      {entries.length === 0 ? (
        <p className="gv-muted">No answer yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Value</th>
              <th scope="col">Read by</th>
            </tr>
          </thead>
          <tbody>
            {entries.map(([key, answer]) => (
              <tr key={key}>
                <th scope="row">
                  <code>{key}</code>
                </th>
                <td>{typeof answer.value === 'string' ? answer.value : valueText(answer.value)}</td>
                <td>
                  {answer.source}, {Math.round(answer.confidence * 100)}% sure
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  );
}

/**
 * Answer as the person in the conversation: the reply's buttons, or text
 * (Enter sends, Shift+Enter starts a new line), to `POST /api/sessions/{id}/turns`.
 * A refusal (a button no longer offered, a session that moved on) is shown here.
 */
function TurnPanel({ sessionId, reply, onChanged }: { sessionId: string; reply: ViewerReply; onChanged: () => void }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const id = useId();
  const send = async (turn: Turn) => {
    setBusy(true);
    setRefused(null);
    try {
      await transport.turn(sessionId, turn);
      setText('');
      onChanged();
    } catch (e) {
      setRefused((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  // The text as the box holds it now (a key pressed right after typing may come before the re-render that holds it in state).
  const sendText = (value: string) => {
    if (value.trim() !== '' && !busy) void send({ text: value });
  };
  return (
    <Panel title="Reply as the person" className="gv-reply">
      <p className="gv-muted">{shortText(reply.message, 200)}</p>
      {(reply.buttons?.length ?? 0) > 0 && (
        <div className="gv-step-bar" role="group" aria-label="The reply's buttons">
          {reply.buttons!.map((b) => (
            <button key={b.value} type="button" disabled={busy} onClick={() => void send({ button: b.value })}>
              {b.label}
            </button>
          ))}
        </div>
      )}
      <form
        className="gv-reply-form"
        onSubmit={(e) => {
          e.preventDefault();
          sendText(text);
        }}
      >
        <label htmlFor={id} className="gv-muted">
          Or type an answer (Shift+Enter for a new line)
        </label>
        <textarea
          id={id}
          rows={2}
          value={text}
          disabled={busy}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              sendText(e.currentTarget.value);
            }
          }}
        />
        <button type="submit" className="gv-button" disabled={busy || text.trim() === ''}>
          {busy ? 'Sending…' : 'Send'}
        </button>
      </form>
      {refused && (
        <p role="alert" className="gv-error">
          Not sent: {refused}
        </p>
      )}
    </Panel>
  );
}

/** The open gates with their forms; an answer goes to `POST /api/inputs/{gateId}`, a refusal is shown by its form. */
function InputsPanel({ inputs, onChanged }: { inputs: OpenInput[]; onChanged: () => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [refused, setRefused] = useState<Record<string, string>>({});
  const answer = async (input: OpenInput, value: InputValue) => {
    setBusy(input.gateId);
    try {
      await transport.answer(input.gateId, value);
      setRefused(({ [input.gateId]: _, ...rest }) => rest);
      onChanged();
    } catch (e) {
      setRefused((r) => ({ ...r, [input.gateId]: (e as Error).message }));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Panel title="Open input gates" className="gv-inputs">
      {inputs.length === 0 ? (
        <p className="gv-muted">No gate is open.</p>
      ) : (
        <div className="gf-chat gv-input-forms">
          <style href="gateflow-chat-widget" precedence="default">
            {CHAT_WIDGET_CSS}
          </style>
          {inputs.map((input) => (
            <div key={input.gateId} className="gv-input">
              <p className="gv-muted">
                <code>{input.name}</code> ({input.type}){input.to ? `, to ${input.to}` : ', to the person in the conversation'}
                {input.deadline ? `, until ${new Date(input.deadline).toLocaleString()}` : ''}
              </p>
              <InputForm input={input} busy={busy === input.gateId} error={refused[input.gateId] ?? null} submitLabel="Answer" onAnswer={(value) => void answer(input, value)} />
            </div>
          ))}
        </div>
      )}
    </Panel>
  );
}

/** Every step, the latest first: what caused it, the reply, and the machine's trace events in words. */
function TurnsPanel({ history, onStep }: { history: HistoryEntry[]; onStep: (seq: number) => void }) {
  const latestFirst = [...history].reverse();
  // The buttons the person saw before each step: those of the reply one step earlier.
  const offeredBefore = new Map(history.map((entry) => [entry.seq + 1, entry.reply.buttons]));
  return (
    <Panel title="Turns" className="gv-turns">
      <ol className="gv-turn-list">
        {latestFirst.map((entry) => (
          <li key={entry.seq} className="gv-turn" data-seq={entry.seq}>
            <p className="gv-turn-head">
              <button type="button" className="gv-tag gv-step-link" onClick={() => onStep(entry.seq)} title={`Show the session as it was after step ${entry.seq}`}>
                #{entry.seq}
              </button>{' '}
              <strong>{turnText(entry.turn, offeredBefore.get(entry.seq))}</strong>
            </p>
            <p className="gv-turn-reply">
              <span className="gv-muted">Reply:</span> {shortText(entry.reply.message) || '—'} <span className="gv-muted">({statusWord(entry.reply.status, entry.reply.completion.reason)}, at </span>
              <StateCode state={entry.reply.state} />
              <span className="gv-muted">)</span>
            </p>
            {(entry.trace?.length ?? 0) > 0 && (
              <ul className="gv-trace" aria-label={`What the machine did in step ${entry.seq}`}>
                {(entry.trace ?? []).map((event, i) => {
                  const line = traceLine(event);
                  return (
                    <li key={i} className={line.bad ? 'gv-trace-bad' : undefined} data-type={line.type}>
                      <span className="gv-trace-type">{line.type}</span> {line.text}
                    </li>
                  );
                })}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </Panel>
  );
}
