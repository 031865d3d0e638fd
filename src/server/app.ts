import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { secureHeaders } from 'hono/secure-headers';
import { z } from 'zod';
import type { Caller, Runtime } from '../runtime/runtime.js';
import { InvalidPageError, InvalidTurnError } from '../runtime/errors.js';
import { parseTurn } from '../workflow/turn.js';
import { createJwtAuth, type JwtAuthOptions } from './auth.js';
import { documentRoutes, type DocumentAgentSource } from './documents.js';
import { documentLimits } from '../documents/limits.js';
import { drawingRoutes, drawingSource, type DrawingSource } from './drawings.js';
import { DOCUMENT_AGENT_ID, DocumentAgentStartSchema } from '../document-agent/workflow.js';
import { StoreUnavailableError } from '../store/types.js';
import { HttpError, toHttpError, unconfirmedTurn } from './errors.js';
import { eventStream, DEFAULT_HEARTBEAT_MS, StreamSlots, type EventStreamLimits } from './events.js';
import { GraphQueryParamsSchema, noGraphSource, type GraphSource } from './graph.js';
import { hostCheck, LOOPBACK_HOSTS } from './host-check.js';
import { AnswerBodySchema, EventQuerySchema, InputQuerySchema, readQuery } from './inputs.js';
import { limitBody, readJsonBody } from './json-body.js';
import { openApiDocument } from './openapi.js';
import { ForkBodySchema, SessionQuerySchema } from './sessions.js';

/** Request bodies larger than this are refused with 413. */
export const MAX_BODY_BYTES = 16 * 1024;

export interface AppOptions {
  runtime: Runtime;
  /** When set, requests need `Authorization: Bearer <HS256 JWT>`; sessions belong to its `sub`. At least 32 bytes. */
  jwtSecret?: string | undefined;
  /** With `jwtSecret`: the `iss` and `aud` a token must carry, and the clock skew allowed. */
  jwt?: Omit<JwtAuthOptions, 'secret'>;
  /** Host names the server answers to (any port): loopback names by default; `'*'` for any. */
  allowedHosts?: readonly string[] | '*';
  /**
   * Origins whose pages may call `/api` from the browser (CORS: preflights
   * answered, `Access-Control-Allow-Origin` on answers), e.g.
   * `['https://app.example.com']`, or `'*'` for any. None by default. Requests
   * still need the server's host (`allowedHosts`) and, with `jwtSecret`, a token.
   */
  corsOrigins?: readonly string[] | '*';
  /** Called with errors that are not the caller's fault (500s). */
  onError?: (error: unknown) => void;
  /** The reply schema of the workflows served, for the OpenAPI document (the common envelope when absent). */
  replySchema?: z.ZodType;
  /** How often an events stream sends a comment while nothing happens, so proxies keep it open (default 15 s). */
  heartbeatMs?: number;
  /** How many events streams may be open at once, per caller and in total (429 / 503 beyond); see `EventStreamLimits`. */
  eventStreams?: EventStreamLimits;
  /** When aborted, open events streams end (the server is shutting down: `server.close()` waits for them otherwise). */
  shutdown?: AbortSignal;
  /** The task agent's graph for `GET /api/graph` (`storeGraphSource`); absent: that route answers 503 `graph_unavailable`. */
  graph?: GraphSource;
  /**
   * The document agent's data for `/api/agent/act`, `/api/projects`, `/api/documents`, `/api/chats`
   * (the runtime serves the `document-agent` workflow on the same store); absent: those routes answer 503 `document_agent_unavailable`.
   */
  documentAgent?: DocumentAgentSource;
  /**
   * What `/api/drawings` draws (the viewer's list, drawings and coverage);
   * by default the runtime's workflows, without machines or coverage.
   */
  drawings?: DrawingSource;
}

/** 5xx codes that are an outage, a missing feature or a model's failure (said in the answer), not a bug to log. */
const EXPECTED_5XX_CODES = new Set(['store_unavailable', 'graph_unavailable', 'document_agent_unavailable', 'model_error', 'streams_unavailable']);

/** Who asks: the token's subject (a session's owner) and roles; `{ owner: null, roles: [] }` without auth. */
type Env = { Variables: { caller: Caller } };

/** The start and cancel routes take no parameters: an empty body or `{}`. */
const EmptyBodySchema = z.strictObject({});

/**
 * The workflows a client starts with a context (`{"context": ...}`), each with
 * the schema it must fit: only the document agent, whose chat names its
 * project (`{ projectId }`, whose owner its first step checks). A flow's start
 * context holds the host's facts (its declared `inputs`), which no client may set.
 */
const CLIENT_START_CONTEXTS = new Map<string, z.ZodType<Record<string, unknown>>>([[DOCUMENT_AGENT_ID, DocumentAgentStartSchema]]);

/** The API's answers are JSON for programs: nothing to run, frame or cache. */
const apiHeaders = secureHeaders({
  strictTransportSecurity: false,
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
});
/**
 * The demo page: its own scripts only; inline styles (the widget's stylesheet
 * is a React-hoisted <style>); never framed. Popups keep their opener so the
 * Stately inspector window (`?inspect`) can talk to the page.
 */
const pageHeaders = secureHeaders({
  strictTransportSecurity: false,
  crossOriginOpenerPolicy: 'same-origin-allow-popups',
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
});

/**
 * The HTTP API as a Fetch-standard handler (`app.fetch`): it runs on Node
 * through `serve()`, or anywhere that speaks Request and Response. Routes
 * added to the returned app outside `/api` (the demo page) get the page's
 * security headers.
 */
export function createApp(options: AppOptions) {
  const { runtime } = options;
  const subjectOf = options.jwtSecret ? createJwtAuth({ ...options.jwt, secret: options.jwtSecret }) : null;
  const limits = documentLimits(options.documentAgent?.limits);
  // Built on its first request, not at start: it converts every schema to JSON Schema (a tenth of a server's start).
  let openapi: ReturnType<typeof openApiDocument> | undefined;
  const openapiDocument = () =>
    (openapi ??= openApiDocument({
      auth: subjectOf !== null,
      ...(options.replySchema && { replySchema: options.replySchema }),
      documentLimits: limits,
    }));

  const streamSlots = new StreamSlots(options.eventStreams);
  // One listener for every stream: each stream ends when the server shuts down.
  if (options.shutdown?.aborted) streamSlots.endAll();
  else options.shutdown?.addEventListener('abort', () => streamSlots.endAll(), { once: true });

  const app = new Hono<Env>();
  app.onError((error, c) => {
    const http = toHttpError(error);
    // An outage or a store without AGE is the operator's to fix, not a bug: the answer says so, the log does not.
    if (http.status >= 500 && !EXPECTED_5XX_CODES.has(http.code)) options.onError?.(error);
    if (http.status === 401) c.header('WWW-Authenticate', 'Bearer');
    if (error instanceof HttpError && error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
    return c.json({ error: { code: http.code, message: http.message } }, http.status);
  });
  app.notFound((c) => c.json({ error: { code: 'not_found', message: `no route ${c.req.method} ${c.req.path}` } }, 404));
  app.use('*', hostCheck(options.allowedHosts ?? LOOPBACK_HOSTS));
  app.use('*', (c, next) => (isApi(c) ? apiHeaders(c, next) : pageHeaders(c, next)));

  const api = new Hono<Env>();
  // Before methodNotAllowed: a preflight (OPTIONS) is CORS's to answer.
  if (options.corsOrigins) api.use('*', corsFor(options.corsOrigins));
  api.use(
    '*',
    methodNotAllowed({
      app: api,
      onMethodNotAllowed: (c, methods) =>
        c.json({ error: { code: 'method_not_allowed', message: `${c.req.method} is not allowed here; use ${methods.join(', ')}` } }, 405, {
          Allow: methods.join(', '),
        }),
    }),
  );
  api.use('*', async (c, next) => {
    await next();
    // Answers carry session data: no shared or browser cache keeps them.
    c.header('Cache-Control', 'no-store');
  });

  api.get('/health', (c) => c.json({ status: 'ok' }));
  api.get('/ready', async (c) => {
    await runtime.ready();
    return c.json({ status: 'ready' });
  });
  api.get('/openapi.json', (c) => c.json(openapiDocument()));

  api.use('*', async (c, next) => {
    const identity = subjectOf ? await subjectOf(c.req.header('authorization')) : null;
    c.set('caller', identity ? { owner: identity.subject, roles: identity.roles } : { owner: null, roles: [] });
    await next();
  });
  api.use('*', async (c, next) => {
    // Only JSON is taken: a cross-site form or a "simple" fetch cannot send it without a CORS preflight.
    if (c.req.method === 'POST' && !isJsonType(c.req.header('content-type')))
      throw new HttpError(415, 'unsupported_media_type', 'send the body as JSON with Content-Type: application/json');
    await next();
  });
  api.use('*', limitBody(MAX_BODY_BYTES, () => new HttpError(413, 'payload_too_large', `request body is larger than ${MAX_BODY_BYTES} bytes`)));

  api.get('/flows', (c) => c.json({ flows: runtime.workflows() }));

  api.post('/flows/:flowId/sessions', async (c) => {
    const flowId = c.req.param('flowId');
    const context = await readStartBody(c, CLIENT_START_CONTEXTS.get(flowId));
    const started = await runtime.start(flowId, c.get('caller'), context && { context });
    return c.json(started, 201);
  });

  api.post('/sessions/:sessionId/turns', async (c) => {
    const parsed = parseTurn(await readJson(c, { optional: false, expected: '{"text": ...} or {"button": ...}' }));
    if (!parsed.success) throw new InvalidTurnError(parsed.message);
    const sessionId = c.req.param('sessionId');
    const reply = await runtime.turn(sessionId, parsed.data, c.get('caller')).catch((error: unknown) => {
      // Perhaps at the commit, which may have kept the turn: said as it is.
      throw error instanceof StoreUnavailableError
        ? unconfirmedTurn(error, { what: 'turn', key: 'turnId', keyed: parsed.data.turnId !== undefined, look: `Read the session (GET /api/sessions/${encodeURIComponent(sessionId)})` })
        : error;
    });
    return c.json(reply);
  });

  api.get('/sessions', async (c) => {
    const query = readQuery(c.req.queries(), SessionQuerySchema);
    return c.json(await runtime.sessions(c.get('caller'), query));
  });

  api.post('/sessions/:sessionId/fork', async (c) => {
    const body = await readJson(c, { optional: false, expected: '{"seq": n}' });
    const parsed = ForkBodySchema.safeParse(body);
    if (!parsed.success)
      throw new HttpError(400, 'invalid_body', `the body must be {"seq": n}, the step to fork from: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
    return c.json(await runtime.fork(c.req.param('sessionId'), parsed.data.seq, c.get('caller')), 201);
  });

  api.get('/sessions/:sessionId', async (c) => {
    const page = { after: pageParam(c, 'after'), limit: pageParam(c, 'limit'), trace: flagParam(c, 'trace') };
    return c.json(await runtime.session(c.req.param('sessionId'), c.get('caller'), page));
  });

  api.post('/sessions/:sessionId/cancel', async (c) => {
    await readEmptyBody(c, 'cancel');
    return c.json(await runtime.cancel(c.req.param('sessionId'), c.get('caller')));
  });

  api.get('/inputs', async (c) => {
    const query = readQuery(c.req.queries(), InputQuerySchema);
    return c.json(await runtime.inputPage(c.get('caller'), query));
  });

  api.post('/inputs/:gateId', async (c) => {
    const body = await readJson(c, { optional: false, expected: '{"value": ...}' });
    const parsed = AnswerBodySchema.safeParse(body);
    if (!parsed.success)
      throw new HttpError(400, 'invalid_body', `the body must be {"value": ...}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    // The session's reply to its owner; a role holder answering another person's session gets the gate's receipt only.
    const outcome = await runtime.answerInput(c.req.param('gateId'), parsed.data.value, c.get('caller'));
    return c.json('reply' in outcome ? outcome.reply : outcome.receipt);
  });

  api.get('/events', async (c) => {
    const query = readQuery(c.req.queries(), EventQuerySchema);
    // The stream reads the store in the background, where a failure reaches no client: an unreachable store is 503 now, not a silent stream.
    await runtime.ready();
    // A caller over their cap is refused before the stream starts (429 / 503 as JSON); the stream takes its place when it starts.
    const slot = streamSlots.take(streamCaller(c));
    return eventStream(c, {
      slot,
      runtime,
      caller: c.get('caller'),
      ...(query.sessionId !== undefined && { sessionId: query.sessionId }),
      heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    });
  });

  const graph = options.graph ?? noGraphSource('this server was started without a graph store');
  api.get('/graph', async (c) => {
    const query = readQuery(c.req.queries(), GraphQueryParamsSchema);
    return c.json(await graph.snapshot(c.get('caller').owner ?? null, query));
  });

  api.route('/', documentRoutes(runtime, options.documentAgent));
  api.route('/', drawingRoutes(options.drawings ?? drawingSource({ workflows: () => runtime.registered() })));

  app.route('/api', api);
  return app;
}

/**
 * Whose event streams a stream counts among: the token's subject, or without
 * auth the client's address (the Node adapter's socket; one shared name where
 * the server runs on another platform).
 */
function streamCaller(c: Context<Env>): string {
  const owner = c.get('caller').owner;
  if (owner !== null) return `sub:${owner}`;
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return `addr:${env?.incoming?.socket?.remoteAddress ?? 'unknown'}`;
}

const isApi = (c: Context) => c.req.path === '/api' || c.req.path.startsWith('/api/');

function isJsonType(header: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(header?.trim() ?? '');
}

/** A non-negative integer query parameter, or undefined when absent. */
function pageParam(c: Context, name: 'after' | 'limit'): number | undefined {
  const value = c.req.query(name);
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value)) throw new InvalidPageError(`${name} must be a whole number, not ${JSON.stringify(value.slice(0, 20))}`);
  return Number(value);
}

/** A yes/no query parameter: `true` or `false` (absent: false). */
function flagParam(c: Context, name: 'trace'): boolean {
  const value = c.req.query(name);
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new HttpError(400, 'invalid_query', `${name} must be true or false, not ${JSON.stringify(value.slice(0, 20))}`);
}

/** A body that must be empty or `{}` (starting and cancelling a session take no parameters). */
/** A start body: empty or {}; for a workflow that takes a client's context, also `{"context": ...}` fitting its schema. */
async function readStartBody(c: Context, contextSchema: z.ZodType<Record<string, unknown>> | undefined): Promise<Record<string, unknown> | undefined> {
  if (!contextSchema) {
    await readEmptyBody(c, 'start');
    return undefined;
  }
  const body = await readJson(c, { optional: true, expected: '{} or {"context": {...}}' });
  const parsed = z.strictObject({ context: contextSchema.optional() }).safeParse(body === undefined ? {} : body);
  if (!parsed.success)
    throw new HttpError(400, 'invalid_body', `the start body must be empty, {} or {"context": {...}}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
  return parsed.data.context;
}

async function readEmptyBody(c: Context, what: 'start' | 'cancel'): Promise<void> {
  const body = await readJson(c, { optional: true, expected: '{}' });
  const parsed = EmptyBodySchema.safeParse(body === undefined ? {} : body);
  if (!parsed.success)
    throw new HttpError(400, 'invalid_body', `the ${what} body must be empty or {}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
}

const readJson = readJsonBody;

/**
 * CORS for the listed origins (Hono's middleware): the API's methods and the
 * headers a client sends (JSON bodies, a bearer token, an events stream's
 * resume point). An origin not listed gets no CORS headers, so its page
 * cannot read the answers.
 */
function corsFor(origins: readonly string[] | '*') {
  const allowed = origins === '*' ? '*' : origins.map(checkedOrigin);
  return cors({
    origin: allowed === '*' ? '*' : (origin) => (allowed.includes(origin) ? origin : null),
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['Content-Type', 'Authorization', 'Last-Event-ID'],
    maxAge: 600,
  });
}

/** An allowed origin as browsers send it (`https://host[:port]`, no path): a mistake is said at start, not found as a blocked page. */
function checkedOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new TypeError(`corsOrigins: "${origin.slice(0, 100)}" is not an origin (scheme://host[:port])`);
  }
  if (url.origin === 'null' || url.origin !== origin.replace(/\/$/, '')) throw new TypeError(`corsOrigins: "${origin.slice(0, 100)}" is not an origin: write it as ${url.origin === 'null' ? 'scheme://host[:port]' : url.origin}`);
  return url.origin;
}
