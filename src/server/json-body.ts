import type { Context, MiddlewareHandler } from 'hono';
import { HttpError } from './errors.js';

/** How deep arrays and objects may nest in a request body: far more than any route takes, far less than a reader's stack. */
export const MAX_JSON_DEPTH = 64;

/**
 * A request body as JSON: empty is `undefined` when `optional`, 400
 * `invalid_json` otherwise; not JSON, or nested deeper than
 * {@link MAX_JSON_DEPTH}, is 400 `invalid_json`. The depth is checked on the
 * text before parsing, so that no schema (zod's `z.json()` recurses) or
 * reader ever walks a value 2,000 levels deep.
 */
export async function readJsonBody(c: Context, { optional, expected }: { optional: boolean; expected: string }): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') {
    if (optional) return undefined;
    throw new HttpError(400, 'invalid_json', `the request body is empty: send ${expected}`);
  }
  const depth = nestingDepth(text);
  if (depth > MAX_JSON_DEPTH) throw new HttpError(400, 'invalid_json', `the request body nests arrays and objects ${depth > 999 ? 'more than 999' : depth} levels deep; at most ${MAX_JSON_DEPTH} are taken`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, 'invalid_json', `the request body is not JSON: ${(error as Error).message}`);
  }
}

/** The deepest nesting of `[` and `{` in JSON text, strings skipped (stops counting past 1000). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 91 /* [ */ || ch === 123 /* { */) {
      if (++depth > deepest) deepest = depth;
      if (deepest > 1000) return deepest;
    } else if (ch === 93 /* ] */ || ch === 125 /* } */) depth--;
  }
  return deepest;
}

/** What is read and dropped of a body over the limit so that its connection can serve the next request; beyond it, the connection closes. */
export const MAX_DRAIN_BYTES = 8 * 1024 * 1024;

/**
 * Refuses a request body over `maxBytes` with 413 (`tooLarge()`), as Hono's
 * `bodyLimit` does, and also reads the rest of it (up to
 * {@link MAX_DRAIN_BYTES}) before answering. The Node adapter hands the body
 * over as a web stream: one left unread holds the socket's data back, so the
 * adapter gives up draining it and drops the keep-alive connection after the
 * 413. Read to its end, the connection serves the client's next request.
 */
export function limitBody(maxBytes: number, tooLarge: () => Error): MiddlewareHandler {
  return async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const declared = c.req.raw.headers.has('transfer-encoding') ? null : c.req.raw.headers.get('content-length');
    if (declared !== null && Number(declared) <= maxBytes) return next();
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxBytes) {
        if (!(await drain(reader, MAX_DRAIN_BYTES - size))) c.header('Connection', 'close');
        throw tooLarge();
      }
      chunks.push(value);
    }
    const whole = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      whole.set(chunk, at);
      at += chunk.length;
    }
    c.req.raw = new Request(c.req.raw, { body: whole });
    return next();
  };
}

/** Reads and drops the rest of a body, at most `budget` more bytes: true when it ended within them. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): Promise<boolean> {
  let left = budget;
  while (left >= 0) {
    const { done, value } = await reader.read();
    if (done) return true;
    left -= value.length;
  }
  await reader.cancel().catch(() => undefined);
  return false;
}
