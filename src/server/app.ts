import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { verify } from 'hono/jwt';
import type { Runtime } from '../runtime/runtime.js';
import { HttpError, toHttpError } from './errors.js';
import { openApiDocument } from './openapi.js';

/** Request bodies larger than this are refused with 413. */
export const MAX_BODY_BYTES = 16 * 1024;

export interface AppOptions {
  runtime: Runtime;
  /** When set, requests need `Authorization: Bearer <HS256 JWT>`; sessions belong to its `sub`. */
  jwtSecret?: string | undefined;
  /** Called with errors that are not the caller's fault (500s). */
  onError?: (error: unknown) => void;
}

type Env = { Variables: { owner: string | null } };

/**
 * The HTTP API as a Fetch-standard handler (`app.fetch`): it runs on Node
 * through `serve()`, or anywhere that speaks Request and Response.
 */
export function createApp(options: AppOptions) {
  const { runtime, jwtSecret } = options;
  const app = new Hono<Env>();
  const openapi = openApiDocument({ auth: Boolean(jwtSecret) });

  app.onError((error, c) => {
    const http = toHttpError(error);
    if (http.status >= 500 && http.code !== 'store_unavailable') options.onError?.(error);
    return c.json({ error: { code: http.code, message: http.message } }, http.status);
  });
  app.notFound((c) => c.json({ error: { code: 'not_found', message: `no route ${c.req.method} ${c.req.path}` } }, 404));

  app.get('/api/health', (c) => c.json({ status: 'ok' }));
  app.get('/api/openapi.json', (c) => c.json(openapi));

  app.use(
    '/api/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new HttpError(413, 'payload_too_large', `request body is larger than ${MAX_BODY_BYTES} bytes`);
      },
    }),
  );
  app.use('/api/*', async (c, next) => {
    c.set('owner', jwtSecret ? await subjectOf(c, jwtSecret) : null);
    await next();
  });

  app.get('/api/flows', (c) => c.json({ flows: runtime.flows() }));

  app.post('/api/flows/:flowId/sessions', async (c) => {
    await readJson(c, { optional: true });
    const started = await runtime.start(c.req.param('flowId'), { owner: c.get('owner') });
    return c.json(started, 201);
  });

  app.post('/api/sessions/:sessionId/turns', async (c) => {
    const turn = await readJson(c, { optional: false });
    return c.json(await runtime.turn(c.req.param('sessionId'), turn, { owner: c.get('owner') }));
  });

  app.get('/api/sessions/:sessionId', async (c) => c.json(await runtime.session(c.req.param('sessionId'), { owner: c.get('owner') })));

  return app;
}

async function readJson(c: Context, { optional }: { optional: boolean }): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') {
    if (optional) return undefined;
    throw new HttpError(400, 'invalid_json', 'the request body is empty: send {"text": ...} or {"button": ...}');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, 'invalid_json', `the request body is not JSON: ${(error as Error).message}`);
  }
}

async function subjectOf(c: Context, secret: string): Promise<string> {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new HttpError(401, 'unauthorized', 'send Authorization: Bearer <JWT>');
  let payload: Record<string, unknown>;
  try {
    payload = await verify(match[1]!, secret, 'HS256');
  } catch (error) {
    throw new HttpError(401, 'unauthorized', `invalid token: ${(error as Error).message}`);
  }
  if (typeof payload.sub !== 'string' || payload.sub === '') throw new HttpError(401, 'unauthorized', 'the token has no subject (sub)');
  return payload.sub;
}
