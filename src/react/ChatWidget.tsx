import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import type { InspectionEvent } from 'xstate';
import { CHAT_WIDGET_CSS } from './chat-widget-css.js';
import { Markdown } from './markdown.js';
import { statelyInspector } from './stately-inspector.js';
import type { Transport } from './transport.js';
import { useConversation, type Conversation } from './use-conversation.js';
import type { ChatReply } from '../../machines/chat-session.js';

export interface ChatWidgetProps {
  transport: Transport;
  flowId: string;
  /** Resume this session instead of starting one. */
  sessionId?: string | null;
  /** Told the session id once known (store it to resume after a reload). */
  onSessionId?: (sessionId: string) => void;
  /**
   * Connect the widget's actors to the Stately inspector (`@statelyai/inspect`,
   * which opens the hosted inspector on stately.ai in a window; without a way
   * there the widget says so instead), or pass your own `inspect` function.
   */
  inspect?: boolean | ((event: InspectionEvent) => void);
  title?: string;
  className?: string;
}

/** The value of a summary's confirm button (`{ "button": "confirm" }`). */
const CONFIRM_VALUE = 'confirm';

/** A chat widget for a gateflow conversation. Themable with `--gf-*` CSS variables. */
export function ChatWidget(props: ChatWidgetProps) {
  const { inspect, note } = useInspector(props.inspect);
  const conversation = useConversation({
    transport: props.transport,
    flowId: props.flowId,
    ...(props.sessionId !== undefined && { sessionId: props.sessionId }),
    ...(inspect && { inspect }),
  });
  const { onSessionId } = props;
  useEffect(() => {
    if (conversation.sessionId) onSessionId?.(conversation.sessionId);
  }, [conversation.sessionId, onSessionId]);
  return <ChatView conversation={conversation} title={props.title} className={props.className} note={note} />;
}

/** The widget's view of a conversation: usable with any `Conversation` (stories render it directly). */
export function ChatView({
  conversation,
  title,
  className,
  note,
}: {
  conversation: Conversation;
  title?: string | undefined;
  className?: string | undefined;
  /** A line about the widget itself (e.g. that the inspector is off), shown under the header. */
  note?: string | undefined;
}) {
  const { status, reply, transcript, buttons, error } = conversation;
  const headingId = useId();
  const inputId = useId();
  const askId = useId();
  const [draft, setDraft] = useState('');
  const [askingRestart, setAskingRestart] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const restartButton = useRef<HTMLButtonElement>(null);
  const keepGoing = useRef<HTMLButtonElement>(null);
  const end = useRef<HTMLLIElement>(null);
  // The summary: the buttons to confirm or edit, the confirm one first and the one that sends.
  // (Other replies of a confirmation step, such as "which answer?", are choices like any other.)
  const confirmation = reply?.buttonContext === 'gate_confirmation' && (reply.buttons ?? []).some((b) => b.value === CONFIRM_VALUE);
  const finished = status === 'finished';
  // What the person wrote, shown as written wherever a reply repeats it.
  const typed = useMemo(() => transcript.filter((e) => e.role === 'user').map((e) => e.text), [transcript]);

  // The newest message in view; the focus where the person is. A pressed
  // choice disappears while its turn is sent, which leaves the focus nowhere:
  // it goes to the text box, never to a button, so typing goes on where it
  // was and Enter sends the text instead of pressing a choice someone did not
  // pick. A focus the person put anywhere else stays there.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
    if (status !== 'idle') return;
    const active = document.activeElement;
    if (active === null || active === document.body) input.current?.focus({ preventScroll: true });
  }, [status, transcript.length]);

  useEffect(() => {
    if (askingRestart) keepGoing.current?.focus();
  }, [askingRestart]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Not now (a reply is pending, or there is nothing to send): the draft is kept as typed.
    if (status !== 'idle' || draft.trim() === '') return;
    conversation.sendText(draft);
    setDraft('');
  };

  const restartNow = () => {
    setAskingRestart(false);
    setDraft('');
    conversation.restart();
  };
  // Only a conversation with answers in it and not finished has something to lose.
  const startOver = () => (!finished && typed.length > 0 ? setAskingRestart(true) : restartNow());
  const keep = () => {
    setAskingRestart(false);
    restartButton.current?.focus();
  };

  return (
    <section className={`gf-chat${className ? ` ${className}` : ''}`} aria-labelledby={headingId} data-status={status}>
      <style href="gateflow-chat-widget" precedence="default">
        {CHAT_WIDGET_CSS}
      </style>
      <header className="gf-header">
        <h2 id={headingId}>{title ?? 'Intake'}</h2>
        <button
          ref={restartButton}
          type="button"
          className="gf-restart"
          onClick={startOver}
          disabled={status === 'starting'}
          aria-expanded={askingRestart}
        >
          Start over
        </button>
      </header>

      {askingRestart && (
        <div
          className="gf-ask"
          role="alertdialog"
          aria-labelledby={askId}
          onKeyDown={(e) => {
            if (e.key === 'Escape') keep();
          }}
        >
          <p id={askId}>Start over? The answers given in this conversation will be discarded.</p>
          <button type="button" onClick={restartNow}>
            Discard and start over
          </button>
          <button ref={keepGoing} type="button" onClick={keep}>
            Keep going
          </button>
        </div>
      )}

      {note && (
        <p className="gf-note" role="status">
          {note}
        </p>
      )}

      <ol className="gf-transcript" aria-live="polite" aria-relevant="additions" aria-label="Conversation">
        {transcript.map((entry, i) => {
          const last = i === transcript.length - 1;
          const summary = last && confirmation && entry.role === 'assistant';
          return (
            <li key={entry.id} className={`gf-message gf-${entry.role}${summary ? ' gf-summary' : ''}`}>
              <span className="gf-visually-hidden">{entry.role === 'user' ? 'You: ' : 'Assistant: '}</span>
              {/* The person's text is shown as typed: never read as Markdown. */}
              {entry.role === 'assistant' ? <Markdown text={entry.text} /> : <p>{entry.text}</p>}
            </li>
          );
        })}
        {status === 'sending' && (
          <li className="gf-message gf-assistant gf-thinking" role="status">
            <span className="gf-dots" aria-hidden="true" />
            Thinking…
          </li>
        )}
        <li ref={end} aria-hidden="true" className="gf-end" />
      </ol>

      {status === 'starting' && (
        <p className="gf-status" role="status">
          Connecting…
        </p>
      )}

      {status === 'failed' && error && (
        <div className="gf-error" role="alert">
          <p>
            Something went wrong: {error.message}
          </p>
          <button type="button" onClick={conversation.retry}>
            Retry
          </button>
        </div>
      )}

      {finished && reply && (
        <p className={`gf-finished gf-${reply.completion.reason}`} role="status">
          {finishedLine(reply)}
        </p>
      )}

      {buttons && buttons.length > 0 && (
        <div className={`gf-buttons${confirmation ? ' gf-confirmation' : ''}`} role="group" aria-label={confirmation ? 'Confirm or edit' : 'Choices'}>
          {buttons.map((button, i) => (
            <button key={button.value} type="button" className={confirmation && i === 0 ? 'gf-primary' : undefined} onClick={() => conversation.press(button)}>
              {button.label}
            </button>
          ))}
        </div>
      )}

      {!finished && (
        // Stays enabled while a reply is pending: what is typed meanwhile is kept, and sent once the reply is in.
        <form className="gf-input" onSubmit={submit}>
          <label htmlFor={inputId} className="gf-visually-hidden">
            Your answer
          </label>
          <input
            ref={input}
            id={inputId}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder={confirmation ? 'Or type what to change, then press Enter…' : 'Type your answer…'}
            autoComplete="off"
            enterKeyHint="send"
            maxLength={4000}
          />
          {/* At the summary the confirm button is the one that sends: no second "Send" beside it (Enter sends the text). */}
          {!confirmation && (
            <button type="submit" className="gf-primary" disabled={status !== 'idle' || draft.trim() === ''}>
              Send
            </button>
          )}
        </form>
      )}
    </section>
  );
}

/** The inspect function to use (none, the caller's own, or the Stately inspector's) and what to say when the inspector cannot run. */
function useInspector(option: ChatWidgetProps['inspect']): { inspect?: (event: InspectionEvent) => void; note?: string } {
  const inspector = option === true && typeof window !== 'undefined' ? statelyInspector() : undefined;
  const state = useSyncExternalStore(
    inspector?.subscribe ?? noSubscription,
    () => inspector?.state(),
    () => undefined,
  );
  if (typeof option === 'function') return { inspect: option };
  if (!inspector) return {};
  return { inspect: inspector.inspect, ...(state?.status === 'unavailable' && { note: state.reason }) };
}

const noSubscription = () => () => {};

/** The line under a finished conversation: what the runtime knows (the message says it in the workflow's words). */
function finishedLine(reply: ChatReply): string {
  if (reply.status === 'cancelled') return 'Cancelled.';
  if (reply.status === 'failed') return 'Stopped: something went wrong.';
  return reply.completion.readyForHandoff ? 'Finished: handed off.' : 'Finished.';
}
