import { z } from 'zod';
import { ReplySchema } from '../runtime/reply.js';
import { TurnSchema } from '../runtime/turn.js';

const ErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
const FlowListSchema = z.object({
  flows: z.array(z.object({ id: z.string(), version: z.union([z.string(), z.number()]), title: z.string().nullable() })),
});
const SessionSchema = z.object({
  reply: ReplySchema,
  history: z.array(z.object({ turn: TurnSchema.nullable(), reply: ReplySchema })),
});
const StartedSchema = z.object({ sessionId: z.string(), reply: ReplySchema });

const schema = (s: z.ZodType) => z.toJSONSchema(s, { io: 'output', unrepresentable: 'any' });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string, description: string) => ({ description, content: { 'application/json': { schema: ref(name) } } });
const error = (description: string) => json('Error', description);

/** The OpenAPI 3.1 document of the HTTP API; component schemas come from the zod schemas. */
export function openApiDocument(options: { auth: boolean }) {
  const security = options.auth ? [{ bearer: [] }] : [];
  const sessionId = { name: 'sessionId', in: 'path', required: true, schema: { type: 'string' } };
  const common = {
    ...(options.auth && { 401: error('Missing or invalid bearer token') }),
    503: error('The session store is unreachable; nothing was written'),
  };
  return {
    openapi: '3.1.0',
    info: { title: 'gateflow', version: '0.1.0', description: 'Gate intake sessions over HTTP.' },
    components: {
      schemas: {
        Reply: schema(ReplySchema),
        Turn: schema(TurnSchema),
        Error: schema(ErrorSchema),
        FlowList: schema(FlowListSchema),
        Session: schema(SessionSchema),
        Started: schema(StartedSchema),
      },
      ...(options.auth && { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } }),
    },
    paths: {
      '/api/health': { get: { summary: 'Liveness', responses: { 200: { description: 'The server is up' } } } },
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
          responses: {
            201: json('Started', 'The new session and its opening reply'),
            400: error('Malformed body (the body is optional)'),
            404: error('Unknown flow'),
            413: error('Body over 16 KB'),
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
            400: error('Malformed body'),
            404: error('Unknown session'),
            409: error('The session is finished, or its snapshot is incompatible with the registered flow'),
            413: error('Body over 16 KB'),
            ...common,
          },
        },
      },
      '/api/sessions/{sessionId}': {
        get: {
          summary: 'Read a session',
          security,
          parameters: [sessionId],
          responses: { 200: json('Session', 'The current reply and every turn with its reply'), 404: error('Unknown session'), ...common },
        },
      },
      '/api/openapi.json': { get: { summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1' } } } },
    },
  };
}
