import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A local, scriptable OpenAI-compatible server for tests: POST
 * /v1/chat/completions answers with the next responder in its queue. It
 * listens on 127.0.0.1 only; nothing here reaches the internet.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
}

/** Writes the response to one request. May be async (e.g. to delay). */
export type Responder = (request: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface OpenAICompatibleServer {
  /** e.g. `http://127.0.0.1:43210/v1`, for `OPENAI_BASE_URL`. */
  readonly baseURL: string;
  readonly port: number;
  /** Every request received, in order (including ones no responder was queued for). */
  readonly requests: RecordedRequest[];
  /** Queues responders, used one per request in order. */
  enqueue(...responders: Responder[]): void;
  /** Forgets recorded requests and queued responders. */
  reset(): void;
  /** Responders still queued (a test that expected them to be used can check this). */
  pending(): number;
  /** Closes the server, ending pending responses and open sockets so nothing keeps the process alive. */
  close(): Promise<void>;
}

/** `port`: 0 (the default) for any free port; a fixed one for a server a person points a program at. */
export async function startOpenAICompatibleServer(options: { port?: number } = {}): Promise<OpenAICompatibleServer> {
  const requests: RecordedRequest[] = [];
  let queue: Responder[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the raw text
      }
      const path = (req.url ?? '').split('?')[0] ?? '';
      const recorded: RecordedRequest = { method: req.method ?? '', path, headers: req.headers, body };
      requests.push(recorded);

      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        sendJson(res, 404, errorBody(`no route ${req.method} ${path}`, 'not_found'));
        return;
      }
      const responder = queue.shift();
      if (!responder) {
        sendJson(res, 500, errorBody('test server: no responder queued for this request', 'server_error'));
        return;
      }
      Promise.resolve(responder(recorded, res)).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, errorBody(`test server responder failed: ${String(error)}`, 'server_error'));
        else res.destroy();
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    enqueue: (...responders) => {
      queue.push(...responders);
    },
    reset: () => {
      requests.length = 0;
      queue = [];
    },
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Timers of delayed responders, cleared on close. */
const timers = new Set<NodeJS.Timeout>();

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.writableEnded || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function errorBody(message: string, type: string) {
  return { error: { message, type, param: null, code: null } };
}

/** A standard `chat.completion` object whose assistant message is `content`. */
export function chatCompletion(content: string | null, model = 'test-model') {
  return {
    id: 'chatcmpl-test-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 },
  };
}

/** Ready-made responders. */
export const respond = {
  /** 200 with a chat.completion whose message content is `content`. */
  content:
    (content: string): Responder =>
    (request, res) => {
      const model = isRecord(request.body) && typeof request.body.model === 'string' ? request.body.model : 'test-model';
      sendJson(res, 200, chatCompletion(content, model));
    },
  /** 200 with a chat.completion whose content is `value` as JSON. */
  json: (value: unknown): Responder => respond.content(JSON.stringify(value)),
  /** Any status and body. */
  raw:
    (status: number, body: unknown, headers: Record<string, string> = {}): Responder =>
    (_request, res) =>
      sendJson(res, status, body, headers),
  /** An OpenAI-style error. `retry-after-ms: 0` keeps SDK retries fast. */
  error:
    (status: number, message = 'internal error'): Responder =>
    (_request, res) =>
      sendJson(res, status, errorBody(message, 'server_error'), { 'retry-after-ms': '0' }),
  /** Waits `ms` (or until the client goes away, or the server closes), then answers as `then` does. */
  delayed:
    (ms: number, then: Responder): Responder =>
    (request, res) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          res.off('close', onClose);
          Promise.resolve(then(request, res)).then(resolve, resolve);
        }, ms);
        timer.unref();
        timers.add(timer);
        const onClose = () => {
          clearTimeout(timer);
          timers.delete(timer);
          resolve();
        };
        res.on('close', onClose);
      }),
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The person's message in a chat request (the intake's prompt quotes it between triple quotes), for answers that cite it as evidence. */
export function personMessage(request: RecordedRequest): string {
  const body = request.body as { messages?: { role: string; content: unknown }[] };
  const user = (body.messages ?? [])
    .filter((m) => m.role === 'user')
    .map((m) =>
      typeof m.content === 'string'
        ? m.content
        : Array.isArray(m.content)
          ? m.content.map((p: unknown) => (typeof p === 'object' && p !== null && 'text' in p ? String(p.text) : '')).join('\n')
          : '',
    )
    .join('\n');
  return /"""\n([\s\S]*)\n"""/.exec(user)?.[1] ?? '';
}
