import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { actLimitsOf } from '../document-agent/act-limits.js';
import { AgentDecisionSchema } from '../document-agent/schemas.js';
import { DOCUMENT_AGENT_ID } from '../document-agent/workflow.js';
import { actClaims, withActClaim } from '../documents/act-claims.js';
import { ActInProgressError, ChatNotFoundError, DocumentNotFoundError } from '../documents/errors.js';
import { GateflowError } from '../error/gateflow-error.js';
import { documentRepository, type DocumentRepository } from '../documents/repository.js';
import { documentLimits, type DocumentLimitsInput } from '../documents/limits.js';
import { NewProjectSchema, type Chat, type Document, type Message, type Project } from '../documents/schemas.js';
import type { ActLimits } from '../../machines/document-agent.js';
import type { Caller, Runtime } from '../runtime/runtime.js';
import { StoreUnavailableError, type SqlDatabase } from '../store/types.js';
import type { ReplyEnvelope } from '../workflow/reply.js';
import { MAX_TURN_TEXT_LENGTH } from '../workflow/turn.js';
import { isWellFormed, quote } from '../workflow/untrusted-string.js';
import { HttpError, unconfirmedTurn } from './errors.js';
import { readJsonBody } from './json-body.js';
import { readQuery } from './inputs.js';

/**
 * The document agent over HTTP (seed 002, steps 1, 2, 7 and 8):
 * `POST /api/agent/act` and the projects, documents and chat messages it
 * works on. A chat is a session of the `document-agent` workflow; a message is
 * a text turn of it, so that gates (a confirmation, a duplicate name's
 * choice), replays by turn id, the events stream and the store's transactions
 * are the runtime's, the same as for every flow. JSON is snake_case, as the
 * seed's API has it. The caller (the JWT subject; null without auth) owns
 * the projects; another owner's are "not found".
 */

// ── Bodies, queries and answers (the single source of the OpenAPI document) ──

const SAFE_ID = Number.MAX_SAFE_INTEGER;
/** A JSON field's id: a positive whole number, said plainly when it is missing or of another type. */
const idField = () =>
  z
    .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a number') })
    .int('must be a whole number')
    .positive('must be positive')
    .max(SAFE_ID, `must be at most ${SAFE_ID}`);

/** `POST /api/agent/act`'s body: the seed's request, plus an optional turn id for a retry that must not act twice. */
export const ActRequestSchema = z.strictObject(
  {
    message: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
      .min(1, 'must not be empty')
      .max(MAX_TURN_TEXT_LENGTH, `must be at most ${MAX_TURN_TEXT_LENGTH} characters`)
      .refine((s) => s.trim().length > 0, 'must not be blank')
      .refine((s) => !s.includes('\u0000'), 'must not contain a NUL character')
      .refine(isWellFormed, 'must be well-formed text (no lone surrogate)')
      .describe('What the person wrote (1 to 4000 characters)'),
    project_id: idField().describe("The project the chat belongs to (the caller's)"),
    document_id: idField()
      .nullable()
      .optional()
      .describe('The document the person has open, which "add this" refers to; null clears it; absent keeps what the chat had'),
    chat_id: idField()
      .nullable()
      .optional()
      .describe("The chat to continue; absent, unknown, another project's or another owner's: a new chat in the project"),
    turn_id: z
      .string({ error: 'must be a string' })
      .min(1, 'must not be empty')
      .max(200, 'must be at most 200 characters')
      .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')
      .refine(isWellFormed, 'must be well-formed text (no lone surrogate)')
      .optional()
      .describe('An id for this message (or the Idempotency-Key header): sent again, with or without the chat_id the first answer gave, it returns the stored answer and acts once'),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}` : 'the body must be a JSON object') },
);
export type ActRequest = z.infer<typeof ActRequestSchema>;

/** `POST /api/projects`'s body: a name (1 to 200 characters) and an optional description. */
export const ProjectRequestSchema = NewProjectSchema;

export const ProjectJsonSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  created_at: z.string().describe('ISO time'),
});
export const DocumentJsonSchema = z.object({
  id: z.number().int(),
  project_id: z.number().int(),
  name: z.string(),
  standing_instruction: z.string().describe('What the agent keeps doing whenever it edits this document'),
  content: z.string().describe('Markdown'),
  version: z.number().int().describe('1 when created; each saved change adds one'),
  created_at: z.string(),
  updated_at: z.string(),
});
export const MessageJsonSchema = z.object({
  id: z.number().int(),
  chat_id: z.number().int(),
  seq: z.number().int().describe("1, 2, 3… in the chat's order"),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()).describe("The assistant's: the decision, web_search_performed, document_updated, needs_clarification, pending_confirmation, should_create, outcome, model_calls"),
  created_at: z.string(),
});
/** The question the agent waits on (a confirmation, a duplicate name's choice): answer with one of the values as the next message. */
export const AwaitingSchema = z.object({
  gate_id: z.string().describe('Also answerable with POST /api/inputs/{gateId}'),
  name: z.string().describe('confirmation or duplicate_choice'),
  options: z.array(z.object({ label: z.string(), value: z.string() })),
});
export const ActResponseSchema = z.object({
  document: DocumentJsonSchema.nullable().describe('The document this message created or changed, as saved; null when none'),
  chat_message: MessageJsonSchema.describe("The agent's reply, as stored in the chat"),
  agent_decision: AgentDecisionSchema.nullable().describe('The decision the message was handled by (read offline or by the model)'),
  web_search_performed: z.boolean(),
  chat_id: z.number().int().describe('The chat: send it with the next message to continue'),
  session_id: z.string().describe("The chat's session (GET /api/sessions/{sessionId}, the events stream's sessionId)"),
  awaiting: AwaitingSchema.nullable().describe('What the agent waits for before acting, or null'),
});
export type ActResponse = z.infer<typeof ActResponseSchema>;

const nextAfter = (what: string) => z.number().int().nullable().describe(`Pass as \`after\` to read the next page; null on the last page (${what})`);
export const ProjectListSchema = z.object({ projects: z.array(ProjectJsonSchema).describe('One page, oldest first'), nextAfter: nextAfter("a project's id") });
export const DocumentListSchema = z.object({ documents: z.array(DocumentJsonSchema).describe('One page, oldest first'), nextAfter: nextAfter("a document's id") });
export const MessageListSchema = z.object({ messages: z.array(MessageJsonSchema).describe('One page, in order'), nextAfter: nextAfter("a message's seq") });

const wholeNumber = () => z.string().regex(/^\d{1,15}$/, 'must be a whole number').transform(Number);
/**
 * `GET /api/projects` and `GET /api/projects/{id}/documents`'s query: the rows
 * after id `after` (0), at most `limit` (the server's default and maximum:
 * `DocumentLimits`; 50 and 500 projects, 20 and 100 documents unless set).
 */
export const listQuerySchema = (byDefault: number, max: number) =>
  z.strictObject({
    after: wholeNumber().optional().describe('The `nextAfter` of the page before (default 0: from the first)'),
    limit: wholeNumber()
      .refine((n) => n >= 1 && n <= max, `must be from 1 to ${max}`)
      .optional()
      .describe(`At most this many (1 to ${max}, default ${byDefault})`),
  });
/** `GET /api/chats/{id}/messages`'s query: the messages after seq `after` (0), at most `limit` (100, at most 1000). */
export const MessageQuerySchema = z.strictObject({
  after: wholeNumber().optional().describe('Only the messages after this seq (default 0)'),
  limit: wholeNumber()
    .refine((n) => n >= 1 && n <= 1000, 'must be from 1 to 1000')
    .optional()
    .describe('At most this many (1 to 1000, default 100)'),
});

const iso = (d: Date) => d.toISOString();
const projectJson = (p: Project): z.infer<typeof ProjectJsonSchema> => ({ id: p.id, name: p.name, description: p.description, created_at: iso(p.createdAt) });
const documentJson = (d: Document): z.infer<typeof DocumentJsonSchema> => ({
  id: d.id,
  project_id: d.projectId,
  name: d.name,
  standing_instruction: d.standingInstruction,
  content: d.content,
  version: d.version,
  created_at: iso(d.createdAt),
  updated_at: iso(d.updatedAt),
});
const messageJson = (m: Message): z.infer<typeof MessageJsonSchema> => ({
  id: m.id,
  chat_id: m.chatId,
  seq: m.seq,
  role: m.role,
  content: m.content,
  metadata: m.metadata,
  created_at: iso(m.createdAt),
});

// ── Where the data is ────────────────────────────────────────────────────────

/** The document agent's data, where the server serves it; absent, every route answers 503 `document_agent_unavailable`. */
export interface DocumentAgentSource {
  /** The store's database, where the runtime serves the `document-agent` workflow. */
  database: Pick<SqlDatabase, 'query'>;
  /** The store's ping: a read that failed is a 503 `store_unavailable` when the store is down. */
  ping?: () => Promise<void>;
  /** The caps on names, documents and list pages (the defaults of `DocumentLimits` when absent); the agent's host takes the same. */
  limits?: DocumentLimitsInput;
  /** The agent's limits per act, as its host has them (`DEFAULT_ACT_LIMITS` when absent): a send waits for another with its key at most `maxActMs`. */
  actLimits?: Partial<ActLimits>;
}

/** A key's claim outlives the act's limit by this much before another may take it over (its holder renews it while alive). */
export const ACT_CLAIM_MARGIN_MS = 15_000;

const unavailable = (reason: string) =>
  new HttpError(503, 'document_agent_unavailable', `the document agent is not served here: ${reason}; flows keep working`);

/** What the reply's `DOCUMENT_AGENT` artifact says (src/document-agent/workflow.ts): the decision and how the message ended. */
const AgentArtifactSchema = z.looseObject({
  type: z.literal('DOCUMENT_AGENT'),
  decision: AgentDecisionSchema.nullable().catch(null),
  outcome: z
    .looseObject({ kind: z.string(), name: z.string().optional(), documentId: z.number().optional(), stage: z.string().optional(), message: z.string().optional(), code: z.string().nullable().optional() })
    .nullable()
    .catch(null),
  webSearchPerformed: z.boolean().catch(false),
});
type AgentArtifact = z.infer<typeof AgentArtifactSchema>;

/** The failures that are a cap's (src/documents/limits.ts), with their status. */
const CAP_STATUS: Record<string, 413 | 422> = { document_too_large: 413, text_too_long: 422 };

/** The stages whose failure is the model's (the others are the store's or the agent's own). */
const MODEL_STAGES = new Set(['decide', 'edit', 'converse']);

type Env = { Variables: { caller: Caller } };

/**
 * The routes, to mount under `/api` after the caller, JSON and body-size
 * middleware: `POST /agent/act`, `POST|GET /projects`,
 * `GET /projects/{id}/documents`, `GET /documents/{id}`, `GET /chats/{id}/messages`.
 */
export function documentRoutes(runtime: Runtime, source: DocumentAgentSource | undefined, reason = 'this server was started without one (it needs a SQL store: PGlite or PostgreSQL)'): Hono<Env> {
  const routes = new Hono<Env>();
  const limits = documentLimits(source?.limits);
  const repo = source ? documentRepository(source.database, limits) : null;
  const projectQuery = listQuerySchema(limits.defaultProjectPage, limits.maxProjectPage);
  const documentQuery = listQuerySchema(limits.defaultDocumentPage, limits.maxDocumentPage);

  /** The repository, and who asks; a read that fails on a store that is down is a 503. */
  const handle =
    <T extends Response>(fn: (repo: DocumentRepository, owner: string | null, c: Context<Env>) => Promise<T>) =>
    async (c: Context<Env>): Promise<T> => {
      if (!repo) throw unavailable(reason);
      try {
        return await fn(repo, c.get('caller').owner ?? null, c);
      } catch (error) {
        if (error instanceof GateflowError || !source?.ping) throw error;
        await source.ping();
        throw error;
      }
    };

  const { maxActMs } = actLimitsOf(source?.actLimits, 'documentRoutes');
  const claims = source ? actClaims(source.database) : null;
  // Messages under way here by their idempotency key: a retry in this process waits for the first without polling.
  const underWay = new Map<string, Promise<unknown>>();
  routes.post(
    '/agent/act',
    handle(async (repo, owner, c) => {
      const body = withIdempotencyKey(parseBody(ActRequestSchema, await readJson(c)), c.req.header('idempotency-key'));
      if (body.turn_id === undefined || (body.chat_id !== undefined && body.chat_id !== null)) return c.json(await act(runtime, repo, c.get('caller'), owner, body));
      // Keyed and with no chat: the key alone says whether the message was applied, and where. It is claimed in the
      // database first, so that a send of it to another server at the same moment waits for this one (src/documents/act-claims.ts).
      const turnId = body.turn_id;
      const key = JSON.stringify([owner, body.project_id, turnId]);
      // However it waits (for a send here, then for the claim), a send waits at most the act's limit.
      const until = Date.now() + maxActMs;
      while (underWay.has(key) && Date.now() < until) await settledWithin(underWay.get(key)!, until - Date.now());
      const timing = { leaseMs: maxActMs + ACT_CLAIM_MARGIN_MS, waitMs: Math.max(0, until - Date.now()) };
      const work = withActClaim(claims!, { owner, projectId: body.project_id, turnId }, timing, async () => {
        const chat = await repo.findChatByTurn(owner, body.project_id, turnId);
        return act(runtime, repo, c.get('caller'), owner, chat ? { ...body, chat_id: chat.id } : body);
      }).catch((error: unknown) => {
        throw error instanceof ActInProgressError ? new HttpError(409, error.code, error.message, error.retryAfterSeconds) : error;
      });
      // A send that stopped waiting here takes the entry; only the entry's own send removes it.
      underWay.set(key, work);
      try {
        return c.json(await work);
      } finally {
        if (underWay.get(key) === work) underWay.delete(key);
      }
    }),
  );

  routes.post(
    '/projects',
    handle(async (repo, owner, c) => c.json(projectJson(await repo.createProject(owner, parseBody(ProjectRequestSchema, await readJson(c)))), 201)),
  );
  routes.get(
    '/projects',
    handle(async (repo, owner, c) => {
      const page = await repo.projectPage(owner, pageOf(readQuery(c.req.queries(), projectQuery)));
      return c.json({ projects: page.items.map(projectJson), nextAfter: page.nextAfter });
    }),
  );
  routes.get(
    '/projects/:id/documents',
    handle(async (repo, owner, c) => {
      const projectId = pathId(c, 'project');
      const query = pageOf(readQuery(c.req.queries(), documentQuery));
      const project = await repo.getProject(owner, projectId);
      const page = await repo.documentPage(project.id, query);
      return c.json({ documents: page.items.map(documentJson), nextAfter: page.nextAfter });
    }),
  );
  routes.get(
    '/documents/:id',
    handle(async (repo, owner, c) => c.json(documentJson(await repo.getDocument(owner, pathId(c, 'document'))))),
  );
  routes.get(
    '/chats/:id/messages',
    handle(async (repo, owner, c) => {
      const chatId = pathId(c, 'chat');
      const query = readQuery(c.req.queries(), MessageQuerySchema);
      const limit = query.limit ?? DEFAULT_MESSAGE_PAGE;
      // One more than asked says whether there is a next page.
      const messages = await repo.listMessages(owner, chatId, { ...(query.after !== undefined && { after: query.after }), limit: Math.min(limit + 1, MAX_MESSAGE_PAGE) });
      const items = messages.slice(0, limit);
      return c.json({ messages: items.map(messageJson), nextAfter: messages.length > limit || (items.length === MAX_MESSAGE_PAGE && (await more(repo, owner, chatId, items))) ? items.at(-1)!.seq : null });
    }),
  );
  return routes;
}

/** Waits for `promise` to settle or `ms` to pass, whichever is first. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * One message (seed steps 2 to 7): the project and the open document are the
 * caller's, the chat by the seed's rule, its session started on its first
 * message, then the message is a text turn of that session; the answer is
 * read back from what the turn committed.
 */
async function act(runtime: Runtime, repo: DocumentRepository, caller: Caller, owner: string | null, body: ActRequest): Promise<ActResponse> {
  const project = await repo.getProject(owner, body.project_id);
  if (body.document_id !== undefined && body.document_id !== null) {
    const document = await repo.getDocument(owner, body.document_id);
    if (document.projectId !== project.id) throw new DocumentNotFoundError(body.document_id);
  }
  const { chat } = await repo.getOrCreateChat(owner, project.id, body.chat_id ?? null);
  const sessionId = chat.sessionId ?? (await startChatSession(runtime, repo, caller, owner, chat));
  if (body.document_id !== undefined) await repo.focusChat(chat.id, body.document_id);

  const reply = await runtime.turn(sessionId, { text: body.message, ...(body.turn_id !== undefined && { turnId: body.turn_id }) }, caller).catch((error: unknown) => {
    // Perhaps at the commit: said as it is (src/document-agent/workflow.ts).
    throw error instanceof StoreUnavailableError
      ? unconfirmedTurn(error, { what: 'message', key: 'turn_id (or Idempotency-Key)', keyed: body.turn_id !== undefined, look: 'Look at the chat' })
      : error;
  });
  const artifact = agentArtifact(reply);
  const outcome = artifact?.outcome ?? null;
  // A model or store failure wrote nothing (no message, no document): the answer is the failure, said as the agent says it.
  if (outcome?.kind === 'failed') {
    // Over a cap (the model's output or the document with an addition): the cap and the size, said as 413 / 422.
    const capped = outcome.code ? CAP_STATUS[outcome.code] : undefined;
    if (capped) throw new HttpError(capped, outcome.code!, reply.message);
    const byModel = MODEL_STAGES.has(outcome.stage ?? '');
    throw new HttpError(502, byModel ? 'model_error' : 'agent_failed', reply.message);
  }
  const document =
    outcome?.kind === 'created' && outcome.name !== undefined
      ? await repo.findDocumentByName(project.id, outcome.name)
      : outcome?.kind === 'updated' && outcome.documentId !== undefined
        ? await repo.getDocument(owner, outcome.documentId)
        : null;
  const message = (await repo.lastMessages(chat.id, 10)).findLast((m) => m.role === 'assistant');
  // Every message that did not fail stores the agent's reply with it.
  if (!message) throw new Error(`the document agent stored no reply in chat ${chat.id}`);
  const gate = (reply.inputs ?? []).find((g) => g.to === null);
  return {
    document: document ? documentJson(document) : null,
    chat_message: messageJson(message),
    agent_decision: artifact?.decision ?? null,
    web_search_performed: artifact?.webSearchPerformed ?? false,
    chat_id: chat.id,
    session_id: sessionId,
    awaiting: gate ? { gate_id: gate.gateId, name: gate.name, options: (gate.options ?? []).map((o) => ({ label: o.label, value: String(o.value) })) } : null,
  };
}

/**
 * A chat's session, started on its first message. Two first messages at once
 * both start one; the chat keeps the first bound, and the other is left
 * unused (it holds no message).
 */
async function startChatSession(runtime: Runtime, repo: DocumentRepository, caller: Caller, owner: string | null, chat: Chat): Promise<string> {
  const { sessionId } = await runtime.start(DOCUMENT_AGENT_ID, caller, { context: { projectId: chat.projectId } });
  try {
    await repo.bindChatSession(chat.id, sessionId);
    return sessionId;
  } catch (error) {
    if (!(error instanceof ChatNotFoundError)) throw error;
    const bound = (await repo.findChat(owner, chat.id)).sessionId;
    if (bound === null) throw error;
    return bound;
  }
}

function agentArtifact(reply: ReplyEnvelope): AgentArtifact | null {
  for (const artifact of [...reply.artifacts].reverse()) {
    const parsed = AgentArtifactSchema.safeParse(artifact);
    if (parsed.success) return parsed.data;
  }
  return null;
}

const DEFAULT_MESSAGE_PAGE = 100;
const MAX_MESSAGE_PAGE = 1000;

/** A full page at the repository's maximum: whether one more message follows it. */
async function more(repo: DocumentRepository, owner: string | null, chatId: number, items: Message[]): Promise<boolean> {
  return (await repo.listMessages(owner, chatId, { after: items.at(-1)!.seq, limit: 1 })).length > 0;
}

/** A list query as the repository's page (absent fields keep its defaults). */
const pageOf = (query: { after?: number | undefined; limit?: number | undefined }) => ({
  ...(query.after !== undefined && { after: query.after }),
  ...(query.limit !== undefined && { limit: query.limit }),
});

/** A path id: a positive whole number (400 `invalid_id` otherwise, before anything is read). */
function pathId(c: Context, what: 'project' | 'document' | 'chat'): number {
  const value = c.req.param('id') ?? '';
  if (!/^[1-9]\d{0,15}$/.test(value) || Number(value) > SAFE_ID)
    throw new HttpError(400, 'invalid_id', `the ${what} id must be a positive whole number, not ${quote(value, 20)}`);
  return Number(value);
}

/**
 * The `Idempotency-Key` header as the message's turn id: the same rules as
 * `turn_id`, and the two must agree when both are sent.
 */
function withIdempotencyKey(body: ActRequest, header: string | undefined): ActRequest {
  if (header === undefined) return body;
  const key = ActRequestSchema.shape.turn_id.safeParse(header);
  if (!key.success) throw new HttpError(400, 'invalid_header', `Idempotency-Key: ${key.error.issues.map((i) => i.message).join('; ')}`);
  if (body.turn_id !== undefined && body.turn_id !== key.data)
    throw new HttpError(400, 'invalid_body', 'turn_id and the Idempotency-Key header differ: send one of them, or the same value in both');
  return { ...body, turn_id: key.data };
}

const readJson = (c: Context) => readJsonBody(c, { optional: false, expected: 'a JSON object' });

/** The body read by its schema, or 400 `invalid_body` naming each field that is wrong. */
function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message));
  throw new HttpError(400, 'invalid_body', `invalid body: ${issues.join('; ')}`);
}
