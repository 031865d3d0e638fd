import type { ChatReply, SessionResumed, SessionStarted } from '../../machines/chat-session.js';
import type { WorkflowSummary } from '../workflow/types.js';
import type { Turn } from '../workflow/turn.js';

/** How the widget reaches sessions: over HTTP, or a runtime in the page. */
export interface Transport {
  flows(): Promise<WorkflowSummary[]>;
  start(flowId: string): Promise<SessionStarted>;
  turn(sessionId: string, turn: Turn): Promise<ChatReply>;
  session(sessionId: string): Promise<SessionResumed>;
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
