import { stateText, statusWord } from './words.js';

/**
 * What the session list and the session page show alike: a session's status
 * as a tag, its state value in one line, and the addresses of a session and
 * of a workflow's sessions.
 */

/**
 * A session's status (`active`, `waiting`, `done`, `cancelled`, `failed`) as a
 * coloured tag; with the reply's completion reason, a finished session says
 * how it ended (completed, stopped, handed off: see statusWord).
 */
export function StatusTag({ status, reason }: { status: string; reason?: string }) {
  const word = statusWord(status, reason);
  return (
    <span className={`gv-tag gv-status-${status} gv-status-${word.replace(/ /g, '-')}`} data-status={status} data-ending={word}>
      {word}
    </span>
  );
}

/** A machine's state value in one line (`a.b`, `{ a: b, c: d }`). */
export function StateCode({ state }: { state: unknown }) {
  return <code className="gv-state">{stateText(state)}</code>;
}

/** The viewer's page of one session. */
export const sessionHref = (sessionId: string) => `/viewer?session=${encodeURIComponent(sessionId)}`;

/** The viewer's session list, filtered to one workflow. */
export const sessionsHref = (workflowId: string) => `/viewer?sessions&workflowId=${encodeURIComponent(workflowId)}`;
