import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { z } from 'zod';
import type { Caller, Runtime, RuntimeEvent } from '../runtime/runtime.js';
import { SESSION_EVENT_TYPES } from '../store/types.js';
import { ServerConfigError } from './auth.js';
import { HttpError } from './errors.js';

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
  /** Ends the stream (the server is closing). The app ends its streams through their `slot` instead, from one listener. */
  shutdown?: AbortSignal;
  /** The place this stream holds among the open streams (see {@link StreamSlots}), released when it ends. */
  slot?: StreamSlot;
}

/** Concurrent event streams allowed, unless configured: per caller, and in total. */
export const DEFAULT_MAX_STREAMS_PER_CALLER = 20;
export const DEFAULT_MAX_STREAMS = 1000;

/** How many event streams may be open at once: per caller (429 beyond) and in the whole server (503 beyond). */
export interface EventStreamLimits {
  /** Per caller: the token's subject, or the client's address without auth (default {@link DEFAULT_MAX_STREAMS_PER_CALLER}). */
  perCaller?: number;
  /** In total (default {@link DEFAULT_MAX_STREAMS}). */
  total?: number;
}

/**
 * The places of the open event streams: each stream takes one for its caller
 * and gives it back when it ends. Every stream holds a socket, a file
 * descriptor and a subscription, so one caller (or many) cannot take them all.
 */
export class StreamSlots {
  readonly perCaller: number;
  readonly total: number;
  private readonly held = new Map<string, number>();
  private readonly enders = new Set<() => void>();
  private count = 0;
  private closed = false;

  constructor(limits: EventStreamLimits = {}) {
    this.perCaller = wholeAtLeastOne(limits.perCaller ?? DEFAULT_MAX_STREAMS_PER_CALLER, 'perCaller');
    this.total = wholeAtLeastOne(limits.total ?? DEFAULT_MAX_STREAMS, 'total');
  }

  /**
   * Takes a place for `caller`, or throws 429 / 503 (before the stream
   * starts, so the refusal is a JSON answer). The stream binds the function
   * that ends it (called by {@link endAll}) and releases the place, once, when it ends.
   */
  take(caller: string): StreamSlot {
    if (this.closed) throw new HttpError(503, 'streams_unavailable', 'the server is shutting down', 5);
    const mine = this.held.get(caller) ?? 0;
    if (mine >= this.perCaller)
      throw new HttpError(429, 'too_many_streams', `you have ${mine} event streams open; at most ${this.perCaller} event streams at once per caller: close one first`, 5);
    if (this.count >= this.total)
      throw new HttpError(503, 'streams_unavailable', `the server serves ${this.total} event streams, its most at once; try again shortly`, 5);
    this.held.set(caller, mine + 1);
    this.count++;
    let bound: (() => void) | null = null;
    let released = false;
    return {
      bind: (end) => {
        if (released) return;
        bound = end;
        this.enders.add(end);
        if (this.closed) end();
      },
      release: () => {
        if (released) return;
        released = true;
        if (bound) this.enders.delete(bound);
        this.count--;
        const left = (this.held.get(caller) ?? 1) - 1;
        if (left > 0) this.held.set(caller, left);
        else this.held.delete(caller);
      },
    };
  }

  /** Ends every open stream and takes no more (the server is closing: `server.close()` waits for open streams otherwise). */
  endAll(): void {
    this.closed = true;
    for (const end of [...this.enders]) end();
  }
}

/** One stream's place: `bind` the function that ends the stream, `release` when it ended. */
export interface StreamSlot {
  bind(end: () => void): void;
  release(): void;
}

function wholeAtLeastOne(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new ServerConfigError(`the event stream limit ${name} must be a whole number of at least 1, not ${value}`);
  return value;
}

/**
 * `GET /api/events`: the runtime's announcements as server-sent events, each
 * `id: <id>`, `event: <type>`, `data: <the RuntimeEvent as JSON>`, from the
 * moment the stream opens. It lasts until the client goes away (or the
 * server closes); then it stops listening and lets go of everything it held
 * (its listeners on the shutdown and request signals included), so a closed
 * page costs nothing. `release` gives back the stream's place when it ends.
 */
export function eventStream(c: Context, options: EventStreamOptions): Response {
  return streamSSE(c, async (stream) => {
    const stop = new AbortController();
    const end = () => stop.abort();
    const ended = new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
    // The server ends its streams through their places when it closes (one shutdown listener for all streams).
    options.slot?.bind(end);
    // Removed in `finally`: a listener left on a long-lived signal would hold this stream.
    const request = c.req.raw.signal;
    const shutdown = options.shutdown;
    stream.onAbort(end);
    request.addEventListener('abort', end, { once: true });
    shutdown?.addEventListener('abort', end, { once: true });
    if (shutdown?.aborted || request.aborted) end();
    // Writes go out one after another; a client that takes none for a long while, or whose connection failed, is let go.
    let pending = 0;
    let writing = Promise.resolve();
    const write = (send: (s: SSEStreamingApi) => Promise<unknown>) => {
      if (stop.signal.aborted) return;
      if (++pending > MAX_PENDING_WRITES) return end();
      writing = writing
        .then(() => (stream.closed || stop.signal.aborted ? undefined : send(stream)))
        .then(
          () => void pending--,
          () => {
            pending--;
            end();
          },
        );
    };
    const unsubscribe = options.runtime.subscribe((event: RuntimeEvent) => {
      if (options.sessionId !== undefined && event.sessionId !== options.sessionId) return;
      write((s) => s.writeSSE({ id: String(event.id), event: event.type, data: JSON.stringify(event) }));
    }, options.caller);
    // A first line at once: the client knows the stream is open (and a proxy sends the headers on).
    write((s) => s.write(': connected\n\n'));
    // Heartbeats keep proxies from closing a quiet stream, and find a client that is gone (the write fails).
    const heartbeat = setInterval(() => write((s) => s.write(': heartbeat\n\n')), options.heartbeatMs);
    try {
      await ended;
    } finally {
      clearInterval(heartbeat);
      unsubscribe();
      request.removeEventListener('abort', end);
      shutdown?.removeEventListener('abort', end);
      options.slot?.release();
    }
  });
}
