import type { JournalTurn } from '../../src/store/types.js';
import type { Button } from '../../src/workflow/reply.js';

/**
 * How the viewer puts a session's turns and trace events into words: one
 * readable line each, never raw JSON (a value that is an object is written
 * compactly inside the line).
 */

/** A value as it reads in a line: strings quoted, the rest compact JSON. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return `“${value}”`;
  if (value === undefined) return '—';
  return JSON.stringify(value) ?? String(value);
}

/**
 * A session's status in a word, as a person tells endings apart: `done` is
 * `completed`, `stopped` (a stop: a limiting answer, a decision, a person who
 * gave up) or `handed off`, by the reason the reply gives; `cancelled` stays
 * cancelled. A reason the viewer does not know keeps the status itself.
 */
export function statusWord(status: string, reason?: string): string {
  if (status !== 'done' || reason === undefined) return status;
  if (reason === 'completed') return 'completed';
  if (reason === 'stopped' || reason.startsWith('stopped_')) return 'stopped';
  if (reason === 'handed_off') return 'handed off';
  return status;
}

/**
 * What caused a step: the opening, a person's text or button, a gate
 * answered, deadlines, a cancel. A button turn holds the button's value
 * (`back`, `confirm`): with the buttons the reply before it offered, it is
 * shown as the label the person clicked (“Go back”).
 */
export function turnText(turn: JournalTurn | null, offered?: readonly Button[] | null): string {
  if (turn === null) return 'Session started';
  if ('text' in turn) return `Typed ${valueText(turn.text)}`;
  if ('button' in turn) {
    const label = offered?.find((b) => b.value === turn.button)?.label;
    return `Pressed ${valueText(label ?? turn.button)}`;
  }
  if ('input' in turn) return `Input “${turn.name}” answered ${valueText(turn.value)}${turn.by ? ` by ${turn.by}` : ''}`;
  if ('timeout' in turn) return `Deadline passed (${turn.timeout.join(', ') || 'a gate'})`;
  if ('cancel' in turn) return `Cancelled${turn.by ? ` by ${turn.by}` : ''}`;
  return 'Unknown turn';
}

/**
 * A message cut to about `max` characters, as plain text: Markdown headings
 * and emphasis marks removed, and the backslash escapes replies put before
 * a person's or an author's marks (`\<b\>`, `\*`) read once, so that
 * `<b>` shows as `<b>` (React escapes it for the page), not `\<b\>`.
 */
export function shortText(text: string, max = 160): string {
  const plain = text
    .replace(/^#{1,6}\s+/gm, '')
    // Bold marks, unless escaped (an escaped mark is the person's own character).
    .replace(/(?<!\\)(?:\*\*|__)/g, '')
    .replace(MARKDOWN_ESCAPE, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length <= max ? plain : `${plain.slice(0, max - 1).trimEnd()}…`;
}

/** A backslash before an ASCII punctuation mark is CommonMark's escape: the mark itself. */
const MARKDOWN_ESCAPE = /\\([!-/:-@[-`{-~])/g;

/** A machine's state value in one line: `a.b` or `{ a: b, c: d }`. */
export function stateText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return String(value);
  const parts = Object.entries(value as Record<string, unknown>).map(([key, child]) => `${key}.${stateText(child)}`);
  return parts.length === 1 ? parts[0]! : `{ ${parts.join(', ')} }`;
}

/** A trace event in words; `node` names the node it is about, if any (the page links it to its box). */
export interface TraceLine {
  type: string;
  node: string | null;
  text: string;
  /** A failure or a refusal: shown as such. */
  bad: boolean;
}

type Event = { type: string; [key: string]: unknown };

const str = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));
const percent = (value: unknown) => (typeof value === 'number' ? `${Math.round(value * 100)}%` : '?');

/** One trace event (FlowTraceEvent, or any other machine's `{ type, ... }`) as a line of words. */
export function traceLine(event: Event): TraceLine {
  const node = typeof event.node === 'string' ? event.node : null;
  const line = (text: string, bad = false): TraceLine => ({ type: event.type, node, text, bad });
  switch (event.type) {
    case 'node.enter':
      return line(`entered ${node} (${str(event.kind)})`);
    case 'node.exit':
      return line(`left ${node}`);
    case 'guard.evaluated': {
      const guards = Array.isArray(event.guards) ? (event.guards as { guard: string; result: boolean }[]) : [];
      const tried = guards.map((g) => `${g.guard} ${g.result ? '✓' : '✗'}`).join('; ');
      return line(`on ${str(event.outcome)} from ${node}: ${tried || 'no guard'} → ${str(event.target)}`);
    }
    case 'guard.ambiguous': {
      const also = Array.isArray(event.alsoTrue) ? (event.alsoTrue as string[]).join('; ') : '';
      return line(`on ${str(event.outcome)} from ${node}: several guards held; took ${str(event.taken)}, also true: ${also}`, true);
    }
    case 'answer.committed':
      return line(`answer ${str(event.key)} = ${valueText(event.value)} (${str(event.source)})`);
    case 'answer.skipped':
      return line(`skipped ${str(event.key)} (${str(event.reason).replace(/_/g, ' ')})`);
    case 'validation.failed':
      return line(`refused ${str(event.key)}: ${str(event.message)} (attempt ${str(event.attempt)} of ${str(event.maxAttempts)})`, true);
    case 'action.done': {
      const assigned = Array.isArray(event.assigned) ? (event.assigned as string[]) : [];
      return line(`action ${str(event.actor)} done${assigned.length ? `, set ${assigned.join(', ')}` : ''}`);
    }
    case 'action.failed':
      return line(`action ${str(event.actor)} failed: ${str(event.message)}`, true);
    case 'constraint.failed':
      return line(`constraint ${str(event.name)} failed: ${str(event.message)} (fallback ${str(event.fallback)})`, true);
    case 'path.vote': {
      const votes = event.votes && typeof event.votes === 'object' ? Object.entries(event.votes as Record<string, number>) : [];
      const voteText = votes.length ? votes.map(([path, n]) => `${path} ${n}`).join(', ') : 'none';
      const lock = event.locked ? `locked ${str(event.locked)}` : event.tentative ? `tentative ${str(event.tentative)}` : 'no path yet';
      const said = event.path ? `${str(event.path)} at ${percent(event.confidence)}` : 'no path';
      const why = typeof event.rationale === 'string' && event.rationale ? ` — ${event.rationale}` : '';
      return line(`path vote (turn ${str(event.turn)}): ${said}, ${str(event.outcome)}; votes ${voteText}; ${lock}${why}`);
    }
    default: {
      const rest = Object.entries(event)
        .filter(([key]) => key !== 'type')
        .map(([key, value]) => `${key} ${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join(', ');
      return line(rest ? `${event.type}: ${rest}` : event.type);
    }
  }
}
