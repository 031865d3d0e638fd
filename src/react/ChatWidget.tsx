import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import type { InspectionEvent } from 'xstate';
import { CHAT_WIDGET_CSS } from './chat-widget-css.js';
import { roleInWords } from './deadline.js';
import { Markdown } from './markdown.js';
import { retryingImport } from './retrying-import.js';
import type { StatelyInspector } from './stately-inspector.js';
import type { Transport } from './transport.js';
import { useConversation, type Conversation } from './use-conversation.js';
import type { ChatReply } from '../../machines/chat-session.js';
import { MAX_TURN_TEXT_LENGTH } from '../workflow/turn-limits.js';

export interface ChatWidgetProps {
  transport: Transport;
  flowId: string;
  /** Resume this session instead of starting one. */
  sessionId?: string | null;
  /** Told the session id once known (store it to resume after a reload). */
  onSessionId?: (sessionId: string) => void;
  /**
   * Connect the widget's actors to an inspector: your own `inspect` function,
   * or the Stately inspector, `statelyInspector()` from
   * `gateflow/react/inspector` (it needs `@statelyai/inspect`, and opens the
   * hosted inspector on stately.ai in a window; without a way there the widget
   * says so instead). Kept out of this module so that an app without the
   * inspector package still builds.
   */
  inspect?: false | ((event: InspectionEvent) => void) | StatelyInspector;
  title?: string;
  className?: string;
  /**
   * How open input gates are shown (the seed's "shush" mode): `inline` (the
   * default) puts their forms, and lines saying whom the conversation waits
   * for, in the conversation; `badge` shows only their number in the header,
   * which opens the list.
   */
  notify?: Notify;
  /**
   * Told each reply the widget shows (the first, every answer, a session
   * resumed or moved by others), so the page around it can show what the
   * reply carries beside the chat: its artifacts, say.
   */
  onReply?: (reply: ChatReply) => void;
}

export type Notify = 'inline' | 'badge';

/** The value of a summary's confirm button (`{ "button": "confirm" }`). */
const CONFIRM_VALUE = 'confirm';
/** The text box grows with the lines typed up to this many, then scrolls. */
const MAX_TEXT_ROWS = 8;

/**
 * The forms of a conversation's input gates (./ConversationInputs.tsx, with
 * InputForm) are a chunk of their own: the first paint has no gate. It is
 * asked for as the widget first shows, so it is there before a reply can open
 * a gate; a failed load is tried again (./retrying-import.ts).
 */
const conversationInputs = retryingImport(() => import('./ConversationInputs.js').then((module) => module.ConversationInputs));

/** A chat widget for a gateflow conversation. Themable with `--gf-*` CSS variables. */
export function ChatWidget(props: ChatWidgetProps) {
  const { inspect, note } = useInspector(props.inspect);
  const conversation = useConversation({
    transport: props.transport,
    flowId: props.flowId,
    ...(props.sessionId !== undefined && { sessionId: props.sessionId }),
    ...(inspect && { inspect }),
  });
  // The host's callbacks are often written inline (a new function on every
  // render of the host): each is told each new value once, whatever it is.
  const onSessionId = useLatest(props.onSessionId);
  const onReply = useLatest(props.onReply);
  useOnNew(conversation.sessionId, (sessionId) => onSessionId.current?.(sessionId));
  useOnNew(conversation.reply, (reply) => onReply.current?.(reply));
  return <ChatView conversation={conversation} title={props.title} className={props.className} note={note} notify={props.notify} />;
}

/** The widget's view of a conversation: usable with any `Conversation` (stories render it directly). */
export function ChatView({
  conversation,
  title,
  className,
  note,
  notify = 'inline',
}: {
  conversation: Conversation;
  title?: string | undefined;
  className?: string | undefined;
  /** A line about the widget itself (e.g. that the inspector is off), shown under the header. */
  note?: string | undefined;
  notify?: Notify | undefined;
}) {
  const { status, reply, transcript, buttons, error, inputs } = conversation;
  const headingId = useId();
  const inputId = useId();
  const countId = useId();
  const askId = useId();
  const inputsId = useId();
  const [draft, setDraft] = useState('');
  // A message longer than a turn may carry is kept whole and said so (near the limit, counted), never cut.
  const tooLong = draft.length > MAX_TURN_TEXT_LENGTH;
  const nearLimit = draft.length >= MAX_TURN_TEXT_LENGTH * 0.9;
  const [askingRestart, setAskingRestart] = useState(false);
  const [askingCancel, setAskingCancel] = useState(false);
  /** The session is being cancelled; or why it could not be. */
  const [cancelling, setCancelling] = useState<{ error: string | null } | null>(null);
  const [listOpen, setListOpen] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const pendingInputs = useRef<HTMLDivElement>(null);
  const restartButton = useRef<HTMLButtonElement>(null);
  const keepGoing = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const keepWaiting = useRef<HTMLButtonElement>(null);
  const cancelAskId = useId();
  const end = useRef<HTMLLIElement>(null);
  // The summary: the buttons to confirm or edit, the confirm one first and the one that sends.
  // (Other replies of a confirmation step, such as "which answer?", are choices like any other.)
  const confirmation = reply?.buttonContext === 'gate_confirmation' && (reply.buttons ?? []).some((b) => b.value === CONFIRM_VALUE);
  const finished = status === 'finished';
  // Someone else is asked (a manager's approval): the person may withdraw the request rather than wait.
  const waitingForOthers = !finished && reply?.status === 'waiting' && inputs.some((g) => g.to !== null);
  // The gates in view: always inline; behind the badge only when it is opened.
  const showInputs = inputs.length > 0 && (notify === 'inline' || listOpen);
  // The person's own gates shown as forms are where they answer: no second text box beside them,
  // unless a gate takes other words as a new request (a document agent's Proceed / Cancel).
  // Waiting for others only, there is nothing to say until they have answered.
  const answersOnly = inputs.some((g) => g.to === null && g.spec.passOtherText !== true);
  const textBox = !finished && status !== 'waiting' && !(showInputs && notify === 'inline' && answersOnly);
  // What the person wrote, shown as written wherever a reply repeats it.
  const typed = useMemo(() => transcript.filter((e) => e.role === 'user').map((e) => e.text), [transcript]);
  const ConversationInputs = useSyncExternalStore(conversationInputs.subscribe, conversationInputs.current, conversationInputs.current);
  useEffect(() => {
    // A failure leaves the gates unshown (and is tried again): each new gate asks again.
    if (!ConversationInputs) conversationInputs.load().catch(() => undefined);
  }, [ConversationInputs, inputs.length]);

  // The newest message in view; the focus where the person is. A pressed
  // choice disappears while its turn is sent, which leaves the focus nowhere:
  // it goes to the text box, never to a button, so typing goes on where it
  // was and Enter sends the text instead of pressing a choice someone did not
  // pick. A focus the person put anywhere else stays there.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
    if (status !== 'idle') return;
    const active = document.activeElement;
    if (active !== null && active !== document.body) return;
    // Where the person answers: the text box, else the first form of a gate addressed to them.
    const target = input.current ?? pendingInputs.current?.querySelector<HTMLElement>('input, select, textarea');
    target?.focus({ preventScroll: true });
  }, [status, transcript.length, ConversationInputs]);

  useEffect(() => {
    if (askingRestart) keepGoing.current?.focus();
  }, [askingRestart]);
  useEffect(() => {
    if (askingCancel) keepWaiting.current?.focus();
  }, [askingCancel]);
  // Nothing left to cancel (answered meanwhile, or cancelled): the question goes.
  useEffect(() => {
    if (!waitingForOthers) setAskingCancel(false);
  }, [waitingForOthers]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Not now (a reply is pending, or there is nothing to send): the draft is kept as typed.
    if (status !== 'idle' || draft.trim() === '' || draft.length > MAX_TURN_TEXT_LENGTH) return;
    conversation.sendText(draft);
    setDraft('');
  };

  /** Cancels the session; false (and says why) when the server could not be told. */
  const cancelSession = async (): Promise<boolean> => {
    setCancelling({ error: null });
    try {
      await conversation.cancel();
      setCancelling(null);
      return true;
    } catch (e) {
      setCancelling({ error: (e as Error).message });
      return false;
    }
  };
  const cancelNow = () => {
    setAskingCancel(false);
    void cancelSession();
  };
  const keepWaitingNow = () => {
    setAskingCancel(false);
    cancelButton.current?.focus();
  };

  const restartNow = async () => {
    setAskingRestart(false);
    setDraft('');
    // A request others are asked about is withdrawn first: discarded here, it must not be approved there.
    if (waitingForOthers && !(await cancelSession())) return;
    conversation.restart();
  };
  // Only a conversation with answers in it and not finished has something to lose.
  const startOver = () => (!finished && typed.length > 0 ? setAskingRestart(true) : void restartNow());
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
        {inputs.length > 0 &&
          (notify === 'badge' ? (
            <button
              type="button"
              className="gf-badge"
              aria-expanded={listOpen}
              aria-controls={listOpen ? inputsId : undefined}
              aria-label={pendingLabel(inputs.length)}
              onClick={() => setListOpen((open) => !open)}
            >
              {inputs.length}
            </button>
          ) : (
            <span className="gf-badge" role="status" aria-label={pendingLabel(inputs.length)}>
              {inputs.length}
            </span>
          ))}
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

      {notify === 'badge' && showInputs && (
        <div ref={pendingInputs} className="gf-inputs-panel">
          {ConversationInputs && <ConversationInputs conversation={conversation} id={inputsId} />}
        </div>
      )}

      {askingRestart && (
        <div
          className="gf-ask"
          role="alertdialog"
          aria-labelledby={askId}
          onKeyDown={(e) => {
            if (e.key === 'Escape') keep();
          }}
        >
          <p id={askId}>
            Start over? The answers given in this conversation will be discarded
            {waitingForOthers ? `, and the request waiting for ${othersInWords(inputs)} cancelled.` : '.'}
          </p>
          <button type="button" onClick={() => void restartNow()}>
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

      {notify === 'inline' && showInputs && (
        <div ref={pendingInputs}>
          {ConversationInputs && <ConversationInputs conversation={conversation} id={inputsId} />}
        </div>
      )}

      {waitingForOthers && (
        <div className="gf-waiting-actions">
          <button
            ref={cancelButton}
            type="button"
            onClick={() => setAskingCancel(true)}
            disabled={cancelling !== null && cancelling.error === null}
            aria-expanded={askingCancel}
          >
            {cancelling !== null && cancelling.error === null ? 'Cancelling…' : 'Cancel request'}
          </button>
        </div>
      )}

      {askingCancel && (
        <div
          className="gf-ask"
          role="alertdialog"
          aria-labelledby={cancelAskId}
          onKeyDown={(e) => {
            if (e.key === 'Escape') keepWaitingNow();
          }}
        >
          <p id={cancelAskId}>Cancel this request? {capitalized(othersInWords(inputs))} will no longer be asked, and this conversation ends.</p>
          <button type="button" onClick={cancelNow}>
            Cancel the request
          </button>
          <button ref={keepWaiting} type="button" onClick={keepWaitingNow}>
            Keep waiting
          </button>
        </div>
      )}

      {cancelling?.error && (
        <p className="gf-error" role="alert">
          Could not cancel: {cancelling.error}
        </p>
      )}

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

      {textBox && (
        // Stays enabled while a reply is pending: what is typed meanwhile is kept, and sent once the reply is in.
        <form className="gf-input" onSubmit={submit}>
          <label htmlFor={inputId} className="gf-visually-hidden">
            Your answer
          </label>
          {/* Several lines (Shift+Enter), so that Markdown (lists, paragraphs) reaches the agent as written; Enter sends. */}
          <textarea
            ref={input}
            id={inputId}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              // Enter while an input method composes a word picks the word; it does not send.
              if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }}
            rows={Math.min(MAX_TEXT_ROWS, draft.split('\n').length)}
            placeholder={confirmation ? 'Or type what to change, then press Enter…' : 'Type your answer…'}
            title="Enter sends; Shift+Enter starts a new line"
            autoComplete="off"
            enterKeyHint="send"
            aria-invalid={tooLong || undefined}
            aria-describedby={nearLimit ? countId : undefined}
          />
          {/* At the summary the confirm button is the one that sends: no second "Send" beside it (Enter sends the text). */}
          {!confirmation && (
            <button type="submit" className="gf-primary" disabled={status !== 'idle' || draft.trim() === '' || tooLong}>
              Send
            </button>
          )}
          {/* No maxLength on the box: the browser would drop what is typed or pasted past it, unsaid. Counted here instead, and kept whole. */}
          {nearLimit && (
            <p id={countId} className={`gf-count${tooLong ? ' gf-count-over' : ''}`} role="status">
              {tooLong
                ? `${draft.length} characters: a message can have at most ${MAX_TURN_TEXT_LENGTH}. Shorten it by ${draft.length - MAX_TURN_TEXT_LENGTH} to send it.`
                : `${draft.length} of ${MAX_TURN_TEXT_LENGTH} characters`}
            </p>
          )}
        </form>
      )}
    </section>
  );
}

/** The inspect function to use (none, the caller's own, or the Stately inspector's) and what to say when the inspector cannot run. */
function useInspector(option: ChatWidgetProps['inspect']): { inspect?: (event: InspectionEvent) => void; note?: string } {
  const inspector = typeof option === 'object' ? option : undefined;
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

/** A ref that holds the latest value given (updated after each render, before later effects). */
function useLatest<T>(value: T) {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  });
  return ref;
}

/** Calls `tell` once for each new non-null value (not again on a re-render, nor on StrictMode's second run of effects). */
function useOnNew<T>(value: T | null | undefined, tell: (value: T) => void) {
  const told = useRef<T | null>(null);
  useEffect(() => {
    if (value === null || value === undefined || told.current === value) return;
    told.current = value;
    tell(value);
    // `tell` reads the latest callback through a ref: only a new value calls it.
  }, [value]);
}

/** The line under a finished conversation: what the runtime knows (the message says it in the workflow's words). */
function finishedLine(reply: ChatReply): string {
  if (reply.status === 'cancelled') return 'Cancelled: this conversation takes no more answers. “Start over” begins a new one.';
  if (reply.status === 'failed') return 'Stopped: something went wrong.';
  // Handed off is a flow's ending; another workflow's (a task agent's goal done) is said in its message.
  return reply.completion.reason === 'handed_off' ? 'Finished: handed off.' : 'Finished.';
}

/** Whom the open gates wait for, besides the person: "a manager", "a manager or an auditor". */
function othersInWords(inputs: Conversation['inputs']): string {
  const roles = [...new Set(inputs.flatMap((g) => (g.to === null ? [] : [g.to])))];
  return roles.map(roleInWords).join(' or ');
}

const capitalized = (words: string) => `${words.charAt(0).toUpperCase()}${words.slice(1)}`;

/** The badge's words for screen readers: "1 answer pending", "2 answers pending". */
const pendingLabel = (n: number) => `${n} ${n === 1 ? 'answer' : 'answers'} pending`;
