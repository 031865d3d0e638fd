import { z } from 'zod';
import { GraphSnapshotSchema } from '../graph/model.js';
import { OpenInputSchema } from '../inputs/gate.js';
import { ReplyEnvelopeSchema } from '../workflow/reply.js';
import { DEFAULT_HISTORY_PAGE_SIZE, DEFAULT_INPUT_PAGE_SIZE, MAX_HISTORY_PAGE_SIZE, MAX_INPUT_PAGE_SIZE } from '../runtime/runtime.js';
import { TurnSchema } from '../workflow/turn.js';
import {
  ActRequestSchema,
  ActResponseSchema,
  DocumentJsonSchema,
  DocumentListSchema,
  MessageJsonSchema,
  MessageListSchema,
  MessageQuerySchema,
  ProjectJsonSchema,
  ProjectListSchema,
  ProjectRequestSchema,
} from './documents.js';
import { DrawingListSchema, LayoutQuerySchema } from './drawings.js';
import { DEFAULT_DOCUMENT_LIMITS, formatBytes, type DocumentLimits } from '../documents/limits.js';
import { RuntimeEventSchema } from './events.js';
import { GraphQueryParamsSchema } from './graph.js';
import { AnswerBodySchema, AnswerReceiptSchema, EventQuerySchema, InputQuerySchema } from './inputs.js';
import { ForkBodySchema, SessionListSchema, SessionQuerySchema } from './sessions.js';

const ErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
const FlowListSchema = z.object({
  flows: z.array(z.object({ id: z.string(), version: z.union([z.string(), z.number()]), title: z.string().nullable() })),
});
const sessionSchema = (reply: z.ZodType) =>
  z.object({
    reply,
    history: z.array(
      z.object({
        seq: z.number().int().min(1),
        turn: TurnSchema.nullable(),
        reply,
        trace: z
          .array(z.looseObject({ type: z.string() }))
          .describe("With `trace=true`: what the machine emitted during the step (a flow's node entries, guards tried, votes, validations); [] when nothing")
          .optional(),
      }),
    ),
    nextAfter: z.number().int().nullable().describe('Pass as `after` to read the next page; null on the last page'),
  });
const startedSchema = (reply: z.ZodType) => z.object({ sessionId: z.string(), reply });
const InputListSchema = z.object({
  inputs: z.array(OpenInputSchema).describe('One page, in the order the gates opened (oldest first)'),
  nextAfter: z.number().int().nullable().describe('Pass as `after` to read the next page; null on the last page'),
});

const schema = (s: z.ZodType) => z.toJSONSchema(s, { io: 'output', unrepresentable: 'any' });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string, description: string) => ({ description, content: { 'application/json': { schema: ref(name) } } });
const error = (description: string) => json('Error', description);
/** Query parameters from a zod object of optional strings (the filters); `integers` are whole numbers with their bounds. */
const queryParameters = (s: z.ZodObject, integers: Record<string, Record<string, number>> = {}) =>
  Object.entries(s.shape).map(([name, field]) => ({
    name,
    in: 'query',
    required: false,
    ...((field as z.ZodType).description && { description: (field as z.ZodType).description }),
    schema: integers[name] ? { type: 'integer', ...integers[name] } : { type: 'string' },
  }));

/**
 * The OpenAPI 3.1 document of the HTTP API; component schemas come from the
 * zod schemas. `replySchema` is the reply of the workflows served: the
 * envelope, with the fields their kinds add (a flow's `answers` and `buttonContext`).
 */
export function openApiDocument(options: { auth: boolean; replySchema?: z.ZodType; documentLimits?: DocumentLimits }) {
  const ReplySchema = options.replySchema ?? ReplyEnvelopeSchema;
  const security = options.auth ? [{ bearer: [] }] : [];
  const sessionId = { name: 'sessionId', in: 'path', required: true, schema: { type: 'string' } };
  const common = {
    ...(options.auth && { 401: error('Missing or invalid bearer token') }),
    403: error('The Host header is not an allowed host name (host_not_allowed)'),
    503: error('The session store is unreachable; nothing was written'),
  };
  const post = { 405: error('Another method: see Allow'), 413: error('Body over 16 KB'), 415: error('The body is not sent as application/json') };
  return {
    openapi: '3.1.0',
    info: { title: 'gateflow', version: '0.1.0', description: 'Gate intake sessions and their input gates over HTTP.' },
    components: {
      schemas: {
        Reply: schema(ReplySchema),
        Turn: schema(TurnSchema),
        Error: schema(ErrorSchema),
        FlowList: schema(FlowListSchema),
        Session: schema(sessionSchema(ReplySchema)),
        SessionList: schema(SessionListSchema),
        ForkBody: z.toJSONSchema(ForkBodySchema, { io: 'input', unrepresentable: 'any' }),
        Started: schema(startedSchema(ReplySchema)),
        OpenInput: schema(OpenInputSchema),
        InputList: schema(InputListSchema),
        AnswerBody: schema(AnswerBodySchema),
        AnswerReceipt: schema(AnswerReceiptSchema),
        RuntimeEvent: schema(RuntimeEventSchema),
        Graph: schema(GraphSnapshotSchema),
        DrawingList: schema(DrawingListSchema),
        ActRequest: z.toJSONSchema(ActRequestSchema, { io: 'input', unrepresentable: 'any' }),
        ActResponse: schema(ActResponseSchema),
        ProjectRequest: z.toJSONSchema(ProjectRequestSchema, { io: 'input', unrepresentable: 'any' }),
        Project: schema(ProjectJsonSchema),
        ProjectList: schema(ProjectListSchema),
        Document: schema(DocumentJsonSchema),
        DocumentList: schema(DocumentListSchema),
        Message: schema(MessageJsonSchema),
        MessageList: schema(MessageListSchema),
      },
      ...(options.auth && { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } }),
    },
    paths: {
      '/api/health': { get: { summary: 'Liveness: the process answers (the store is not touched)', responses: { 200: { description: 'The server is up' } } } },
      '/api/ready': {
        get: {
          summary: 'Readiness: the store answers',
          responses: { 200: { description: 'The store can serve' }, 503: error('The store cannot be reached (store_unavailable)') },
        },
      },
      '/api/flows': {
        get: {
          summary: 'The registered flows',
          security,
          responses: { 200: json('FlowList', 'id, version and title of each flow'), ...(options.auth && { 401: error('Missing or invalid bearer token') }) },
        },
      },
      '/api/flows/{flowId}/sessions': {
        post: {
          summary: 'Start a session',
          security,
          parameters: [{ name: 'flowId', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: {
            required: false,
            description: 'Empty or {}. The document agent (`document-agent`) also takes the project of its chat: {"context": {"projectId": 1}}; no other workflow takes a context from a client.',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { context: { type: 'object', additionalProperties: true } }, additionalProperties: false },
              },
            },
          },
          responses: {
            201: json('Started', 'The new session and its opening reply'),
            400: error('Malformed body: it is empty or {} (or, for the document agent, {"context": {"projectId": ...}}); or a context the workflow cannot start from'),
            404: error('Unknown flow'),
            ...post,
            ...common,
          },
        },
      },
      '/api/sessions/{sessionId}/turns': {
        post: {
          summary: 'Take a turn',
          security,
          parameters: [sessionId],
          requestBody: { required: true, content: { 'application/json': { schema: ref('Turn') } } },
          responses: {
            200: json('Reply', 'The reply; a replayed turnId returns the stored reply'),
            400: error('Malformed body (invalid_json, invalid_turn)'),
            404: error('Unknown session'),
            409: error(
              'session_finished: the session takes no more turns; turn_limit_reached: it has taken the most turns a session may; ' +
                'turn_id_reused: the turnId was used for a different turn; incompatible_snapshot: its snapshot does not fit the registered flow',
            ),
            ...post,
            ...common,
            503: error('store_unavailable: the store failed during the turn, perhaps at its commit, so it may or may not have been saved: send it again with the same turnId, which returns its reply if it was and applies it at most once'),
          },
        },
      },
      '/api/sessions': {
        get: {
          summary: "The caller's sessions, newest first, a page at a time (with auth: their own and those without owner)",
          security,
          parameters: queryParameters(SessionQuerySchema),
          responses: {
            200: json('SessionList', 'One page of sessions and the cursor of the next'),
            400: error('A filter is malformed, misspelt or given twice, or limit is out of range (invalid_query, invalid_page)'),
            ...common,
          },
        },
      },
      '/api/sessions/{sessionId}/fork': {
        post: {
          summary: "Start a new session from one of a session's steps: its turns up to that step are replayed, then it goes its own way",
          description:
            'The journal keeps each step\'s turn and reply: the fork replays the turns from the start on the workflow version the session started on, and checks each step reaches the state it reached then. ' +
            'Its history holds the replayed steps; the caller owns it. Workflows that keep data of their own (the agents) cannot be forked.',
          security,
          parameters: [sessionId],
          requestBody: { required: true, content: { 'application/json': { schema: ref('ForkBody') } } },
          responses: {
            201: json('Started', 'The new session and its reply at the step forked from'),
            400: error('Malformed body (invalid_json, invalid_body) or seq below 1 (invalid_page)'),
            404: error('Unknown session'),
            409: error('fork_failed: no such step, the version it started on is no longer served, the workflow cannot be replayed, or a step replays differently (a model read it otherwise)'),
            ...post,
            ...common,
          },
        },
      },
      '/api/sessions/{sessionId}': {
        get: {
          summary: 'Read a session',
          security,
          parameters: [
            sessionId,
            { name: 'after', in: 'query', required: false, description: 'Read the entries after this seq', schema: { type: 'integer', minimum: 0, default: 0 } },
            {
              name: 'limit',
              in: 'query',
              required: false,
              description: 'At most this many entries',
              schema: { type: 'integer', minimum: 1, maximum: MAX_HISTORY_PAGE_SIZE, default: DEFAULT_HISTORY_PAGE_SIZE },
            },
            {
              name: 'trace',
              in: 'query',
              required: false,
              description: "true: each entry carries `trace`, what the machine emitted during its step (the viewer's turns)",
              schema: { type: 'boolean', default: false },
            },
          ],
          responses: {
            200: json('Session', 'The current reply and one page of the history: each entry with its seq, turn and reply'),
            400: error('after or limit out of range (invalid_page)'),
            404: error('Unknown session'),
            ...common,
          },
        },
      },
      '/api/sessions/{sessionId}/cancel': {
        post: {
          summary: 'Cancel a session: it ends as cancelled, its input gates close and leave every listing',
          security,
          parameters: [sessionId],
          requestBody: { required: false, content: { 'application/json': { schema: { type: 'object', additionalProperties: false } } } },
          responses: {
            200: json('Reply', "The session's reply, with status cancelled"),
            400: error('Malformed body: it is empty or {} (invalid_json, invalid_body)'),
            404: error('Unknown session'),
            409: error('session_finished: the session is already finished or cancelled'),
            ...post,
            ...common,
          },
        },
      },
      '/api/inputs': {
        get: {
          summary: "The open input gates the caller may answer, across sessions: their own sessions' gates and those addressed to a role they hold",
          security,
          parameters: queryParameters(InputQuerySchema, {
            after: { minimum: 0, default: 0 },
            limit: { minimum: 1, maximum: MAX_INPUT_PAGE_SIZE, default: DEFAULT_INPUT_PAGE_SIZE },
          }),
          responses: {
            200: json('InputList', 'One page of the open gates, oldest first, and the `after` of the next page (nextAfter)'),
            400: error('A filter or page parameter is malformed, out of range, misspelt or given twice (invalid_query)'),
            ...common,
          },
        },
      },
      '/api/inputs/{gateId}': {
        post: {
          summary: 'Answer one input gate: the value is read by its type and checked; the session resumes where it waits',
          security,
          parameters: [{ name: 'gateId', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/json': { schema: ref('AnswerBody') } } },
          responses: {
            200: {
              description:
                "To the session's owner (or on a server without auth): the session's new reply (Reply). " +
                "To a role holder answering another person's session: only the gate's receipt (AnswerReceipt), nothing of the session",
              content: { 'application/json': { schema: { oneOf: [ref('Reply'), ref('AnswerReceipt')] } } },
            },
            400: error('invalid_json, invalid_body: not {"value": ...}; invalid_input_value: the value is not one the gate takes (the message says what it expects; the gate stays open)'),
            404: error('input_not_found: no such gate, or not one the caller may see'),
            409: error('input_closed: the gate was answered, timed out, or closed with its session'),
            ...post,
            ...common,
            403: error('input_forbidden: the gate is addressed to a role the caller does not hold; host_not_allowed: the Host is not allowed'),
          },
        },
      },
      '/api/events': {
        get: {
          summary: 'Server-sent events: gates opened, answered, timed out and closed, sessions finished and cancelled, from now on',
          description:
            'Each event is `id: <id>`, `event: <type>`, `data: <RuntimeEvent as JSON>`; a comment line comes every 15 s while nothing happens. ' +
            "Only events of the caller's sessions and of gates addressed to a role they hold.",
          security,
          parameters: queryParameters(EventQuerySchema),
          responses: {
            200: { description: 'The stream (text/event-stream); each data line is a RuntimeEvent', content: { 'text/event-stream': { schema: ref('RuntimeEvent') } } },
            400: error('The filter is malformed or misspelt (invalid_query)'),
            429: error('too_many_streams: the caller (token subject, or address without auth) has the most streams open at once (`eventStreams.perCaller`, default 20); see Retry-After'),
            ...common,
            503: error('streams_unavailable: the server has the most streams open at once (`eventStreams.total`, default 1000), see Retry-After; store_unavailable: the store is unreachable'),
          },
        },
      },
      '/api/graph': {
        get: {
          summary: "The task agent's graph: nodes { label, key, properties } and edges { type, from, to, properties }",
          description:
            "The caller's own graph (one per token subject); without auth, the one graph every session shares. " +
            'With `label`: the nodes of that label and the edges touching them.',
          security,
          parameters: queryParameters(GraphQueryParamsSchema),
          responses: {
            200: json('Graph', 'The graph, nodes ordered by label and key, edges by type and ends'),
            400: error('The label is malformed, or a parameter misspelt or given twice (invalid_query)'),
            ...common,
            503: error(
              'graph_unavailable: the database has no Apache AGE (the message says why; flows keep working); store_unavailable: the store is unreachable',
            ),
          },
        },
      },
      '/api/drawings': {
        get: {
          summary: 'What the viewer draws: every workflow served, and the hand-written machines that run inside them',
          security,
          responses: { 200: json('DrawingList', 'id, title, version and kind of each drawing'), ...common },
        },
      },
      '/api/drawings/{id}': {
        get: {
          summary: 'One drawing: the flow as written (outline) and the compiled machine in full, exactly as `gateflow viz <id> --format json` prints it',
          security,
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            200: { description: 'The drawing (format gateflow.drawing/1)', content: { 'application/json': { schema: { type: 'object' } } } },
            404: error('No such workflow or machine (drawing_not_found)'),
            ...common,
          },
        },
      },
      '/api/drawings/{id}/layout': {
        get: {
          summary: 'One drawing laid out at a level (ELK, on the server): the boxes and edge polylines the viewer draws, made once per drawing version and kept',
          security,
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, ...queryParameters(LayoutQuerySchema)],
          responses: {
            200: { description: 'The layout: width, height, boxes (x, y, width, height, lines) and edges (points, label box)', content: { 'application/json': { schema: { type: 'object' } } } },
            400: error('The level is neither outline nor machine, or a parameter is misspelt (invalid_query)'),
            404: error('No such workflow or machine (drawing_not_found)'),
            ...common,
          },
        },
      },
      '/api/drawings/{id}/coverage': {
        get: {
          summary: 'The model-based coverage of a flow, as `gateflow test <flow> --json` reports it (computed once per version; may take seconds)',
          security,
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            200: { description: 'States and transitions covered, and what is not reached with the reason', content: { 'application/json': { schema: { type: 'object' } } } },
            404: error('No such drawing (drawing_not_found), or not a flow document (coverage_unavailable)'),
            ...common,
          },
        },
      },
      ...documentAgentPaths(security, common, post, options.documentLimits ?? DEFAULT_DOCUMENT_LIMITS),
      '/api/openapi.json': { get: { summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1' } } } },
    },
  };
}

/**
 * The document agent's routes (src/server/documents.ts): the seed's
 * `POST /api/agent/act` and the projects, documents and chat messages it works on.
 */
function documentAgentPaths(security: { bearer: never[] }[], common: Record<string, unknown>, post: Record<string, unknown>, limits: DocumentLimits) {
  const caps =
    `This server's caps (\`documentAgent.limits\`): a document's content at most ${formatBytes(limits.maxContentBytes)} (maxContentBytes), ` +
    `a name at most ${limits.maxNameLength} characters (maxNameLength), a description or standing instruction at most ${limits.maxTextLength} (maxTextLength), ` +
    'whoever writes it: a caller, or the agent from its model\'s output (which is then dropped, not stored or echoed). ' +
    `At most ${limits.maxProjectsPerOwner} projects per owner (maxProjectsPerOwner), ${limits.maxDocumentsPerProject} documents per project (maxDocumentsPerProject), ` +
    `${limits.maxChatsPerProject} chats per project (maxChatsPerProject) and ${limits.maxMessagesPerChat} messages per chat (maxMessagesPerChat): past one, 409 \`cap_reached\`, nothing created.`;
  const page = (byDefault: number, max: number, after: string) => [
    { name: 'after', in: 'query', required: false, description: `The \`nextAfter\` of the page before: only the rows after this ${after} (default 0)`, schema: { type: 'integer', minimum: 0, default: 0 } },
    { name: 'limit', in: 'query', required: false, description: `At most this many (1 to ${max}, default ${byDefault})`, schema: { type: 'integer', minimum: 1, maximum: max, default: byDefault } },
  ];
  const badPage = 'invalid_query: after or limit is malformed, out of range or unknown';
  const unavailable = error(
    'document_agent_unavailable: this server does not serve the document agent (it needs a SQL store); store_unavailable: the store is unreachable',
  );
  const id = (what: string) => ({ name: 'id', in: 'path', required: true, description: `The ${what} id (a positive whole number)`, schema: { type: 'integer', minimum: 1 } });
  const badId = (what: string) => error(`invalid_id: the ${what} id is not a positive whole number`);
  return {
    '/api/agent/act': {
      post: {
        summary: 'Send the document agent a message: it creates, edits or explains documents, asks when unsure and confirms before deleting',
        description:
          "The chat: `chat_id` when it is the caller's and in `project_id`; otherwise (absent, unknown, another project's or another owner's) a new chat in the project. " +
          `${caps} ` +
          'Each chat is a session of the `document-agent` workflow and each message a turn of it. When `awaiting` is set, the agent waits: ' +
          'send one of its option values (or labels, e.g. "Proceed", "Cancel") as the next message, or anything else as a new request (the waiting one is dropped). ' +
          'Sent again with the same `turn_id` (or `Idempotency-Key`), with or without the `chat_id` the first answer gave, a message is applied once and answers what the first stored, ' +
          'whichever server of those sharing the database takes it: the key is claimed in the database before any work. A send that finds its key held by one still under way ' +
          "waits for it (at most the act's time limit, `actLimits.maxActMs`), then answers what it applied; if it is still under way then, 409 `turn_in_progress` with Retry-After. " +
          "A claim left by a server that died expires a little after the act's time limit (15 s more; on PGlite, when the server starts again); the message sent again then is applied once.",
        security,
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: 'The message\'s turn id, as `turn_id` (the same rules; both sent must be equal)',
            schema: { type: 'string', minLength: 1, maxLength: 200 },
          },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: ref('ActRequest') } } },
        responses: {
          200: json('ActResponse', "The document created or changed, the agent's reply as stored, its decision, and what it waits for"),
          400: error('invalid_json; invalid_body: a field is missing, of the wrong type or unknown (the message names it)'),
          404: error("project_not_found: not the caller's project; document_not_found: document_id is not a document of that project"),
          409: error(
            'document_version_conflict: the document changed while the agent edited it, nothing was saved; turn_id_reused: the turn_id was used for another message; ' +
              'cap_reached: the project holds as many documents or chats, or the chat as many messages, as this server allows (the message names the cap); nothing was written; ' +
              "turn_in_progress: the message sent with this turn_id (or Idempotency-Key) and no chat_id before, to this server or another, is still under way after this one waited the act's time limit: nothing was done again, send it again after Retry-After seconds (1 to 10) to get its answer",
          ),
          422: error('text_too_long: a name or text the model gave is far over its cap (the message says the length and the cap); nothing was written'),
          502: error("model_error: the language model failed or answered outside the decision's schema; nothing was written (no message, no document)"),
          ...post,
          413: error(`Body over 16 KB (payload_too_large); document_too_large: the document the agent would write (its model's content or rewrite, or the document with this addition) is over ${formatBytes(limits.maxContentBytes)}: the message says the size and the cap; nothing was written`),
          ...common,
          503: error(
            'document_agent_unavailable: this server does not serve the document agent (it needs a SQL store); store_unavailable: the store failed during the message, ' +
              'perhaps at its commit, so it may or may not have been saved: send it again with the same turn_id, which returns its answer if it was and acts at most once',
          ),
        },
      },
    },
    '/api/projects': {
      post: {
        summary: 'Create a project',
        description: `The name at most ${limits.maxNameLength} characters (maxNameLength), the description at most ${limits.maxTextLength} (maxTextLength); at most ${limits.maxProjectsPerOwner} projects per owner (maxProjectsPerOwner).`,
        security,
        requestBody: { required: true, content: { 'application/json': { schema: ref('ProjectRequest') } } },
        responses: {
          201: json('Project', 'The new project'),
          400: error('invalid_json; invalid_body: the name is missing or empty, or a field is unknown'),
          409: error(`cap_reached: the caller has ${limits.maxProjectsPerOwner} projects already (maxProjectsPerOwner); nothing was created`),
          422: error('text_too_long: the name or the description is over its cap; the message says its length and the cap'),
          ...post,
          ...common,
          503: unavailable,
        },
      },
      get: {
        summary: "The caller's projects, one page at a time",
        security,
        parameters: page(limits.defaultProjectPage, limits.maxProjectPage, "project's id"),
        responses: { 200: json('ProjectList', 'One page, oldest first, and the nextAfter of the next'), 400: error(badPage), ...common, 503: unavailable },
      },
    },
    '/api/projects/{id}/documents': {
      get: {
        summary: "A project's documents, with their content, one page at a time",
        description: `A page holds at most \`limit\` documents, and ends early once their contents pass ${formatBytes(limits.maxPageBytes)} (maxPageBytes; one document always fits): follow \`nextAfter\`.`,
        security,
        parameters: [id('project'), ...page(limits.defaultDocumentPage, limits.maxDocumentPage, "document's id")],
        responses: { 200: json('DocumentList', 'One page, oldest first, and the nextAfter of the next'), 400: error(`invalid_id: the project id is not a positive whole number; ${badPage}`), 404: error("project_not_found: no such project, or another owner's"), ...common, 503: unavailable },
      },
    },
    '/api/documents/{id}': {
      get: {
        summary: 'A document',
        security,
        parameters: [id('document')],
        responses: { 200: json('Document', 'The document as saved'), 400: badId('document'), 404: error("document_not_found: no such document, or another owner's"), ...common, 503: unavailable },
      },
    },
    '/api/chats/{id}/messages': {
      get: {
        summary: "A chat's messages (the person's and the agent's), in order",
        security,
        parameters: [
          id('chat'),
          ...Object.entries(MessageQuerySchema.shape).map(([name, field]) => ({
            name,
            in: 'query',
            required: false,
            description: field.description,
            schema: name === 'limit' ? { type: 'integer', minimum: 1, maximum: 1000, default: 100 } : { type: 'integer', minimum: 0, default: 0 },
          })),
        ],
        responses: {
          200: json('MessageList', 'One page of the messages'),
          400: error('invalid_id: the chat id is not a positive whole number; invalid_query: after or limit is malformed, out of range or unknown'),
          404: error("chat_not_found: no such chat, or another owner's"),
          ...common,
          503: unavailable,
        },
      },
    },
  };
}
