import type { ChatReply, SessionResumed, SessionStarted } from '../../machines/chat-session.js';
import type { InputValue } from '../inputs/coerce.js';
import type { OpenInput } from '../inputs/gate.js';
import type { RuntimeEvent } from '../runtime/runtime.js';
import type { WorkflowSummary } from '../workflow/types.js';
import type { Turn } from '../workflow/turn.js';

/** Which open gates (or which events) a caller wants: of one session, of one workflow, or all it may see. */
export interface InputQuery {
  sessionId?: string;
  workflowId?: string;
}

/** What an events stream tells besides its events. */
export interface EventsHandlers {
  /**
   * The stream is (again) connected. Events sent while it was not may be
   * missing: whoever shows what the events describe reads it again here.
   */
  onOpen?: () => void;
  /** The stream failed; it reconnects by itself unless the error is one that asking again cannot fix. */
  onError?: (error: TransportError) => void;
}

/** How the widget reaches sessions: over HTTP, or a runtime in the page. */
export interface Transport {
  flows(): Promise<WorkflowSummary[]>;
  start(flowId: string): Promise<SessionStarted>;
  turn(sessionId: string, turn: Turn): Promise<ChatReply>;
  session(sessionId: string): Promise<SessionResumed>;
  /** The open input gates the caller may answer (of one session or workflow when asked), oldest first. */
  inputs(query?: InputQuery): Promise<OpenInput[]>;
  /** Answers one gate; the value is read by the gate's type (`"42"` → 42). Resolves to the session's new reply. */
  answer(gateId: string, value: InputValue): Promise<ChatReply>;
  /** Ends a session as cancelled (its gates close). */
  cancel(sessionId: string): Promise<ChatReply>;
  /**
   * Listens to gates opened, answered, timed out and closed, and sessions
   * finished or cancelled (of one session or workflow when asked). Returns
   * the function that stops listening.
   */
  events(listener: (event: RuntimeEvent) => void, query?: InputQuery, handlers?: EventsHandlers): () => void;
}

/** Whether an event is about what `query` asks for. */
export function eventMatches(event: RuntimeEvent, query: InputQuery = {}): boolean {
  return (query.sessionId === undefined || event.sessionId === query.sessionId) && (query.workflowId === undefined || event.workflowId === query.workflowId);
}

/** One page of a session as the API gives it: `nextAfter` names where the next page starts. */
export interface SessionPage extends SessionResumed {
  nextAfter: number | null;
}

/**
 * The whole history of a session, read page by page (a session's turns are
 * capped, so this is a few pages at most).
 */
export async function readWholeSession(readPage: (after: number) => Promise<SessionPage>): Promise<SessionResumed> {
  let page = await readPage(0);
  const history = [...page.history];
  while (page.nextAfter !== null) {
    page = await readPage(page.nextAfter);
    history.push(...page.history);
  }
  return { reply: page.reply, history };
}

/** A failed call, with the API's error code when there is one (`network` when the server is unreachable). */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  constructor(
    readonly code: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
