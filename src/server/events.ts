import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { z } from 'zod';
import type { Caller, Runtime, RuntimeEvent } from '../runtime/runtime.js';
import { SESSION_EVENT_TYPES } from '../store/types.js';

/** How often a quiet events stream sends a comment, so proxies and load balancers keep it open. */
export const DEFAULT_HEARTBEAT_MS = 15_000;
/** Events written but not yet taken by a slow client beyond which its stream is ended (it reconnects and reloads). */
const MAX_PENDING_WRITES = 1000;

/** One event of the stream, as its `data` line carries it (for the OpenAPI document; the runtime's `RuntimeEvent`). */
export const RuntimeEventSchema = z.object({
  id: z.number().int().describe('Its place in the stream, also the SSE `id`'),
  type: z
    .enum(SESSION_EVENT_TYPES)
    .describe('Also the SSE `event`'),
  sessionId: z.string(),
  workflowId: z.string(),
  gateId: z.string().nullable().describe("The gate, for the input events"),
  to: z.string().nullable().describe('The role the gate is addressed to; null: the person in the conversation'),
  data: z.record(z.string(), z.unknown()).describe("Small facts to act on: the gate's name and how it closed, the session's status"),
  at: z.string().describe('ISO time it was written'),
}) satisfies z.ZodType<RuntimeEvent>;

export interface EventStreamOptions {
  runtime: Runtime;
  /** Who listens: the runtime passes on only what they may see. */
  caller: Caller;
  /** Only this session's events. */
  sessionId?: string;
  heartbeatMs: number;
  /** Ends the stream (the server is closing). */
  shutdown?: AbortSignal;
}

/**
 * `GET /api/events`: the runtime's announcements as server-sent events, each
 * `id: <id>`, `event: <type>`, `data: <the RuntimeEvent as JSON>`, from the
 * moment the stream opens. It lasts until the client goes away (or the
 * server closes); then it stops listening, so a closed page costs nothing.
 */
export function eventStream(c: Context, options: EventStreamOptions): Response {
  return streamSSE(c, async (stream) => {
    const ended = new Promise<void>((resolve) => {
      stream.onAbort(resolve);
      c.req.raw.signal.addEventListener('abort', () => resolve(), { once: true });
      if (options.shutdown?.aborted) resolve();
      options.shutdown?.addEventListener('abort', () => resolve(), { once: true });
    });
    // Writes go out one after another; a client that takes none for a long while is let go.
    let pending = 0;
    let end: () => void = () => {};
    const tooSlow = new Promise<void>((resolve) => (end = resolve));
    let writing = Promise.resolve();
    const write = (send: (s: SSEStreamingApi) => Promise<unknown>) => {
      if (++pending > MAX_PENDING_WRITES) return end();
      writing = writing.then(() => send(stream)).then(
        () => void pending--,
        () => void pending--,
      );
    };
    const unsubscribe = options.runtime.subscribe((event: RuntimeEvent) => {
      if (options.sessionId !== undefined && event.sessionId !== options.sessionId) return;
      write((s) => s.writeSSE({ id: String(event.id), event: event.type, data: JSON.stringify(event) }));
    }, options.caller);
    // A first line at once: the client knows the stream is open (and a proxy sends the headers on).
    write((s) => s.write(': connected\n\n'));
    const heartbeat = setInterval(() => write((s) => s.write(': heartbeat\n\n')), options.heartbeatMs);
    try {
      await Promise.race([ended, tooSlow]);
    } finally {
      clearInterval(heartbeat);
      unsubscribe();
    }
  });
}
