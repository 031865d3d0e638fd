import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { InspectionEvent } from 'xstate';
import { CHAT_WIDGET_CSS } from './chat-widget-css.js';
import { Markdown } from './markdown.js';
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
   * which opens the hosted inspector), or pass your own `inspect` function.
   */
  inspect?: boolean | ((event: InspectionEvent) => void);
  title?: string;
  className?: string;
}

/** A chat widget for a gateflow conversation. Themable with `--gf-*` CSS variables. */
export function ChatWidget(props: ChatWidgetProps) {
  const inspect = useInspector(props.inspect);
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
  return <ChatView conversation={conversation} title={props.title} className={props.className} />;
}

/** The widget's view of a conversation: usable with any `Conversation` (stories render it directly). */
export function ChatView({ conversation, title, className }: { conversation: Conversation; title?: string | undefined; className?: string | undefined }) {
  const { status, reply, transcript, buttons, error } = conversation;
  const headingId = useId();
  const inputId = useId();
  const [draft, setDraft] = useState('');
  const actions = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const end = useRef<HTMLLIElement>(null);
  const confirmation = reply?.buttonContext === 'gate_confirmation';
  const finished = status === 'finished';

  // Focus follows the conversation: the first choice when there are buttons, else the text box.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
    if (status !== 'idle') return;
    const first = actions.current?.querySelector<HTMLButtonElement>('button');
    (first ?? input.current)?.focus();
  }, [status, transcript.length]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (status !== 'idle' || draft.trim() === '') return;
    conversation.sendText(draft);
    setDraft('');
  };

  return (
    <section className={`gf-chat${className ? ` ${className}` : ''}`} aria-labelledby={headingId} data-status={status}>
      <style href="gateflow-chat-widget" precedence="default">
        {CHAT_WIDGET_CSS}
      </style>
      <header className="gf-header">
        <h2 id={headingId}>{title ?? 'Intake'}</h2>
        <button type="button" className="gf-restart" onClick={conversation.restart} disabled={status === 'starting'}>
          Start over
        </button>
      </header>

      <ol className="gf-transcript" aria-live="polite" aria-relevant="additions" aria-label="Conversation">
        {transcript.map((entry, i) => {
          const last = i === transcript.length - 1;
          const summary = last && confirmation && entry.role === 'assistant';
          return (
            <li key={entry.id} className={`gf-message gf-${entry.role}${summary ? ' gf-summary' : ''}`}>
              <span className="gf-visually-hidden">{entry.role === 'user' ? 'You: ' : 'Assistant: '}</span>
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
        <div ref={actions} className={`gf-buttons${confirmation ? ' gf-confirmation' : ''}`} role="group" aria-label={confirmation ? 'Confirm or edit' : 'Choices'}>
          {buttons.map((button) => (
            <button key={button.value} type="button" onClick={() => conversation.press(button)}>
              {button.label}
            </button>
          ))}
        </div>
      )}

      {!finished && (
        <form className="gf-input" onSubmit={submit}>
          <label htmlFor={inputId} className="gf-visually-hidden">
            Your answer
          </label>
          <input
            ref={input}
            id={inputId}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder={confirmation ? 'Or say what to change…' : 'Type your answer…'}
            autoComplete="off"
            disabled={status !== 'idle'}
            maxLength={4000}
          />
          <button type="submit" disabled={status !== 'idle' || draft.trim() === ''}>
            Send
          </button>
        </form>
      )}
    </section>
  );
}

/** The inspect function to use: none, the caller's own, or the Stately inspector's. */
function useInspector(option: ChatWidgetProps['inspect']): ((event: InspectionEvent) => void) | undefined {
  if (typeof option === 'function') return option;
  return option === true && typeof window !== 'undefined' ? statelyInspector() : undefined;
}

let shared: ((event: InspectionEvent) => void) | undefined;

/**
 * One Stately inspector client for the page, shared by every widget and made
 * on first use (it opens the hosted inspector in a window; render code that
 * runs twice, as StrictMode does, must not open it twice).
 */
function statelyInspector(): (event: InspectionEvent) => void {
  if (shared) return shared;
  const queue: InspectionEvent[] = [];
  let forward: ((event: InspectionEvent) => void) | undefined;
  void import('@statelyai/inspect').then(({ createBrowserInspector }) => {
    const browser = createBrowserInspector();
    forward = (event) => browser.inspect.next?.(event);
    queue.splice(0).forEach(forward);
  });
  shared = (event) => (forward ? forward(event) : void queue.push(event));
  return shared;
}

/** The line under a finished conversation: what the runtime knows (the message says it in the workflow's words). */
function finishedLine(reply: ChatReply): string {
  if (reply.status === 'cancelled') return 'Cancelled.';
  if (reply.status === 'failed') return 'Stopped: something went wrong.';
  return reply.completion.readyForHandoff ? 'Finished: handed off.' : 'Finished.';
}
