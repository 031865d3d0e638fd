import type { SessionResumed, SessionStarted } from '../../machines/chat-session.js';
import type { FlowSummary } from '../runtime/runtime.js';
import type { Reply } from '../runtime/reply.js';
import type { Turn } from '../runtime/turn.js';

/** How the widget reaches sessions: over HTTP, or a runtime in the page. */
export interface Transport {
  flows(): Promise<FlowSummary[]>;
  start(flowId: string): Promise<SessionStarted>;
  turn(sessionId: string, turn: Turn): Promise<Reply>;
  session(sessionId: string): Promise<SessionResumed>;
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
