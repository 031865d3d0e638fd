import type { FlowTraceEvent } from '../../src/flow/trace.js';
import type { OpenInput } from '../../src/inputs/gate.js';
import type { JournalTurn, StepTrace } from '../../src/store/types.js';
import type { DrawingSummary } from '../../src/server/drawings.js';
import type { SessionList } from '../../src/runtime/runtime.js';
import type { CoverageReport } from '../../src/testing/coverage-report.js';
import type { WorkflowDrawing } from '../../src/viz/drawing.js';
import type { DrawingLayout } from '../../src/viz/layout.js';
import type { DrawingLevel } from '../../src/viz/overlay.js';
import type { ReplyEnvelope } from '../../src/workflow/reply.js';

/**
 * The viewer's reads of the HTTP API (same origin, no token: the demo runs
 * without sign-in). Every failure becomes an `ApiError` carrying the API's
 * own message, which the page shows as it is.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { accept: 'application/json' }, ...(signal && { signal }) });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, 'network', `cannot reach the server: ${(error as Error).message}`);
  }
  const payload = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  if (!response.ok)
    throw new ApiError(response.status, payload?.error?.code ?? `http_${response.status}`, payload?.error?.message ?? `the server answered ${response.status}`);
  return payload as T;
}

export type { CoverageReport, DrawingSummary };

export const listDrawings = async () => (await getJson<{ drawings: DrawingSummary[] }>('/api/drawings')).drawings;

export const getDrawing = (id: string) => getJson<WorkflowDrawing>(`/api/drawings/${encodeURIComponent(id)}`);

/** `GET /api/drawings/{id}/layout?level=`: the drawing laid out on the server (made once per version and kept there). */
export const getLayout = (id: string, level: DrawingLevel) => getJson<DrawingLayout>(`/api/drawings/${encodeURIComponent(id)}/layout?level=${level}`);

/** `GET /api/drawings/{id}/coverage`: the model-based coverage of a flow and why what is missed cannot be reached. */
export const getCoverage = (id: string) => getJson<CoverageReport>(`/api/drawings/${encodeURIComponent(id)}/coverage`);

/** A reply as the viewer reads it: the common envelope, and a flow's answers when there are any. */
export type ViewerReply = ReplyEnvelope & {
  answers?: Record<string, { value: unknown; confidence: number; source: string; raw?: string }>;
  inputs?: OpenInput[];
};

/** One journal entry: what caused the step, the reply after it, and what the machine emitted meanwhile. */
export interface HistoryEntry {
  seq: number;
  turn: JournalTurn | null;
  reply: ViewerReply;
  trace?: StepTrace | FlowTraceEvent[];
}

export interface SessionHistory {
  reply: ViewerReply;
  history: HistoryEntry[];
}

interface SessionPage extends SessionHistory {
  nextAfter: number | null;
}

/** `GET /api/sessions/{id}?trace=true`, every page (a session's turns are capped: a few pages at most), each step with its trace events. */
export async function getSession(sessionId: string): Promise<SessionHistory> {
  const page = (after: number) => getJson<SessionPage>(`/api/sessions/${encodeURIComponent(sessionId)}?after=${after}&limit=200&trace=true`);
  let current = await page(0);
  const history = [...current.history];
  while (current.nextAfter !== null) {
    current = await page(current.nextAfter);
    history.push(...current.history);
  }
  return { reply: current.reply, history };
}

export type { SessionList };

/** `GET /api/sessions`: one page of sessions, newest first, with the filters given. */
export function listSessions(query: { workflowId?: string; status?: string; after?: number }, signal?: AbortSignal): Promise<SessionList> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  return getJson<SessionList>(`/api/sessions${params.size > 0 ? `?${params}` : ''}`, signal);
}

/** `POST /api/sessions/{id}/fork`: a new session from step `seq` of this one. */
export async function forkSession(sessionId: string, seq: number): Promise<{ sessionId: string }> {
  let response: Response;
  try {
    response = await fetch(`/api/sessions/${encodeURIComponent(sessionId)}/fork`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ seq }),
    });
  } catch (error) {
    throw new ApiError(0, 'network', `cannot reach the server: ${(error as Error).message}`);
  }
  const payload = (await response.json().catch(() => null)) as { sessionId?: string; error?: { code?: string; message?: string } } | null;
  if (!response.ok || typeof payload?.sessionId !== 'string')
    throw new ApiError(response.status, payload?.error?.code ?? `http_${response.status}`, payload?.error?.message ?? `the server answered ${response.status}`);
  return { sessionId: payload.sessionId };
}
