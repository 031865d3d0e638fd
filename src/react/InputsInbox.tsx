import { useEffect, useId, useRef, useState } from 'react';
import { answerLabel, describeError, transcriptOf, type TranscriptEntry } from '../../machines/chat-session.js';
import type { InputValue } from '../inputs/coerce.js';
import type { OpenInput } from '../inputs/gate.js';
import { CHAT_WIDGET_CSS } from './chat-widget-css.js';
import { sentence } from './ConversationInputs.js';
import { deadlineInWords, relativeTime, useNow } from './deadline.js';
import { InputForm, inputLabel } from './InputForm.js';
import { Markdown } from './markdown.js';
import type { Transport } from './transport.js';
import { useInputs } from './use-inputs.js';

export interface InputsInboxProps {
  transport: Transport;
  /** Only the gates of this session. */
  sessionId?: string;
  /** Only the gates of this workflow. */
  workflowId?: string;
  title?: string;
  className?: string;
}

/** The answers given from this inbox, newest first (a gate leaves the list once answered: this says it went through). */
interface Answered {
  gateId: string;
  text: string;
}

/**
 * The inbox of the people who answer gates addressed to them (a manager's
 * approvals): every open gate the caller may answer, by session, each with
 * the form that fits its type, its deadline in words, and the conversation
 * it comes from on request. Live through the events stream (`useInputs`).
 */
export function InputsInbox({ transport, sessionId, workflowId, title = 'Waiting for your answer', className }: InputsInboxProps) {
  const { inputs, answer, error, loading } = useInputs({
    transport,
    ...(sessionId !== undefined && { sessionId }),
    ...(workflowId !== undefined && { workflowId }),
  });
  const headingId = useId();
  const now = useNow();
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [refused, setRefused] = useState<Readonly<Record<string, string>>>({});
  const [answered, setAnswered] = useState<Answered[]>([]);
  const root = useRef<HTMLElement>(null);
  /** A gate answered here left the list: where the person goes on (see below). */
  const refocus = useRef(false);

  // The form just answered disappears, and with it the focus: it goes to the
  // next gate's control, so answering one after another needs no pointer.
  // A focus the person put anywhere else stays there.
  useEffect(() => {
    if (!refocus.current) return;
    const active = document.activeElement;
    if (active !== null && active !== document.body) return;
    refocus.current = false;
    root.current?.querySelector<HTMLElement>('.gf-input-form input, .gf-input-form select, .gf-input-form textarea')?.focus();
  }, [inputs]);

  /** Gates whose answer is under way, known at once (a double click comes before the busy state is rendered). */
  const sending = useRef(new Set<string>());

  const give = async (input: OpenInput, value: InputValue, label: string) => {
    if (sending.current.has(input.gateId)) return;
    sending.current.add(input.gateId);
    setBusy((b) => new Set(b).add(input.gateId));
    try {
      await answer(input.gateId, value);
      refocus.current = true;
      setRefused(({ [input.gateId]: _, ...rest }) => rest);
      setAnswered((list) => [{ gateId: input.gateId, text: `Answered “${inputLabel(input)}”: ${label}.` }, ...list].slice(0, 3));
    } catch (e) {
      const { code, message } = describeError(e);
      // Someone else was first (or the session ended): the gate leaves the list, so this is said above it.
      if (code === 'input_closed' || code === 'input_not_found') {
        refocus.current = true;
        const why = 'it no longer waits for an answer (answered elsewhere, past its deadline, or the conversation was cancelled)';
        setAnswered((list) => [{ gateId: input.gateId, text: `“${inputLabel(input)}” was not sent: ${why}.` }, ...list].slice(0, 3));
      } else setRefused((r) => ({ ...r, [input.gateId]: message }));
    } finally {
      sending.current.delete(input.gateId);
      setBusy((b) => {
        const next = new Set(b);
        next.delete(input.gateId);
        return next;
      });
    }
  };

  const sessions = bySession(inputs);
  return (
    <section ref={root} className={`gf-chat gf-inbox${className ? ` ${className}` : ''}`} aria-labelledby={headingId} aria-busy={loading}>
      <style href="gateflow-chat-widget" precedence="default">
        {CHAT_WIDGET_CSS}
      </style>
      <header className="gf-header">
        <h2 id={headingId}>{title}</h2>
        {inputs.length > 0 && (
          <span className="gf-badge" role="status" aria-label={`${inputs.length} waiting for an answer`}>
            {inputs.length}
          </span>
        )}
      </header>
      {answered.length > 0 && (
        <ul className="gf-answered" role="status" aria-label="Answered here">
          {answered.map((a) => (
            <li key={a.gateId}>{a.text}</li>
          ))}
        </ul>
      )}
      {error && (
        <div className="gf-error" role="alert">
          <p>{error.message}</p>
        </div>
      )}
      {loading ? (
        <p className="gf-status" role="status">
          Loading…
        </p>
      ) : inputs.length === 0 ? (
        <p className="gf-status">Nothing is waiting for an answer.</p>
      ) : (
        <ul className="gf-inbox-sessions" aria-label="Sessions waiting">
          {sessions.map(([id, gates]) => (
            <li key={id} className="gf-inbox-session">
              <h3>
                {gates[0]!.workflowId} <span className="gf-inbox-meta">· conversation {id.slice(0, 8)} · waiting since {relativeTime(new Date(gates[0]!.openedAt), now)}</span>
              </h3>
              <SessionTranscript transport={transport} sessionId={id} />
              <div className="gf-inputs">
                {gates.map((input) => (
                  <InputForm
                    key={input.gateId}
                    input={input}
                    busy={busy.has(input.gateId)}
                    error={refused[input.gateId] ?? null}
                    submitLabel="Answer"
                    note={input.deadline ? sentence(deadlineInWords(input.deadline, now)) : undefined}
                    onAnswer={(value, label) => void give(input, value, label || answerLabel(input, value))}
                  />
                ))}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The gates grouped by session, sessions in the order of their oldest gate. */
function bySession(inputs: OpenInput[]): [string, OpenInput[]][] {
  const groups = new Map<string, OpenInput[]>();
  for (const input of inputs) groups.set(input.sessionId, [...(groups.get(input.sessionId) ?? []), input]);
  return [...groups.entries()];
}

/** The conversation a gate comes from, read when opened: what the person asked for, before deciding. */
function SessionTranscript({ transport, sessionId }: { transport: Transport; sessionId: string }) {
  const [state, setState] = useState<{ transcript: TranscriptEntry[] } | { error: string } | null>(null);
  const list = useRef<HTMLOListElement>(null);
  // Read from its end: the newest messages (the request as confirmed) are what the answer is about.
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [state]);
  const load = () => {
    if (state && 'transcript' in state) return;
    transport.session(sessionId).then(
      (s) => setState({ transcript: transcriptOf(s.history) }),
      (e: unknown) => setState({ error: describeError(e).message }),
    );
  };
  return (
    <details className="gf-inbox-transcript" onToggle={(e) => (e.currentTarget.open ? load() : undefined)}>
      <summary>The conversation</summary>
      {state === null && <p className="gf-status">Loading…</p>}
      {state && 'error' in state && <p className="gf-input-error">{state.error}</p>}
      {state && 'transcript' in state && (
        <ol ref={list} className="gf-transcript" aria-label="Conversation">
          {state.transcript.map((entry) => (
            <li key={entry.id} className={`gf-message gf-${entry.role}`}>
              <span className="gf-visually-hidden">{entry.role === 'user' ? 'Person: ' : 'Assistant: '}</span>
              {entry.role === 'assistant' ? <Markdown text={entry.text} /> : <p>{entry.text}</p>}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
