/**
 * The HTTP API against a careful attacker (issue 9): strings that are not what
 * they seem, tokens, JSON-only POSTs, Host checks against DNS rebinding,
 * security headers, 405 with Allow, bounded sessions and paginated history,
 * readiness. Each test here failed before the hardening it names.
 */
import { request as httpRequest } from 'node:http';
import { sign } from 'hono/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlowRuntime, type FlowRuntimeOptions as RuntimeOptions } from '../../src/flow/runtime.js';
import { createApp, type AppOptions } from '../../src/server/app.js';
import { ServerConfigError } from '../../src/server/auth.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { templateStore } from '../helpers/pglite-template.js';
import type { Store } from '../../src/store/types.js';
import { call, exampleFlows, flakyStore, serveOnLoopback, type ApiResponse, type LoopbackServer } from '../helpers/http.js';

const FLOWS = exampleFlows();
const INTAKE = 'patient-intake';
const SECRET = 'a-test-secret-that-is-32-bytes-or-more';
const now = () => Math.floor(Date.now() / 1000);

function expectError(response: ApiResponse, status: number, code: string, message?: RegExp) {
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  if (message) expect(response.body.error.message).toMatch(message);
}

async function serve(
  options: Partial<Omit<AppOptions, 'runtime'>> & { store?: Store; runtime?: Partial<RuntimeOptions> } = {},
): Promise<LoopbackServer & { store: Store }> {
  const { store: given, runtime: runtimeOptions, ...appOptions } = options;
  const store = given ?? createMemoryStore();
  const runtime = createFlowRuntime({ flows: FLOWS, store, ...runtimeOptions });
  const app = createApp({ ...appOptions, runtime });
  app.get('/', (c) => c.html('<!doctype html><p>the demo page</p>'));
  return { ...(await serveOnLoopback(app)), store };
}

/** A request through node:http, which (unlike fetch) sends any Host and no content-type unless told. */
function raw(url: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('POST routes take JSON only (no "simple" cross-site requests)', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => (server = await serve()));
  afterAll(() => server.close());

  it('a start without Content-Type, or as text/plain or a form, is 415 and creates no session', async () => {
    const created = () => server.store.history('x');
    for (const headers of [{} as Record<string, string>, { 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }, { 'content-type': 'multipart/form-data; boundary=x' }]) {
      const response = await raw(server.url, `/api/flows/${INTAKE}/sessions`, { method: 'POST', headers, body: '{}' });
      expect(response.status).toBe(415);
      expect(JSON.parse(response.body).error.code).toBe('unsupported_media_type');
    }
    expect(await created()).toEqual([]);
  });

  it('a turn as text/plain is 415 and is not applied; application/json with a charset is taken', async () => {
    const { sessionId } = (await call(server.url, `/api/flows/${INTAKE}/sessions`, { json: {} })).body;
    const plain = await call(server.url, `/api/sessions/${sessionId}/turns`, { body: '{"button":"Yes"}', headers: { 'content-type': 'text/plain' } });
    expectError(plain, 415, 'unsupported_media_type', /Content-Type: application\/json/);
    expect(await server.store.history(sessionId)).toHaveLength(1);
    const json = await call(server.url, `/api/sessions/${sessionId}/turns`, {
      body: '{"button":"Yes"}',
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
    });
    expect(json.status).toBe(200);
  });

  it('the start body is checked as strictly as a turn: only empty or {}', async () => {
    for (const body of ['{"flowId":"x"}', '[]', '"hello"', '42', 'null']) {
      const response = await call(server.url, `/api/flows/${INTAKE}/sessions`, { body });
      expectError(response, 400, 'invalid_body', /the start body must be empty or \{\}/);
    }
    expect((await call(server.url, `/api/flows/${INTAKE}/sessions`, { body: '' })).status).toBe(201);
    expect((await call(server.url, `/api/flows/${INTAKE}/sessions`, { body: ' {} ' })).status).toBe(201);
  });
});

describe('Host header (DNS rebinding)', () => {
  it('loopback names on any port pass; another name is 403 host_not_allowed on the API and the page', async () => {
    const server = await serve();
    try {
      for (const host of ['127.0.0.1', 'localhost:3000', 'LOCALHOST', '[::1]:8080']) expect((await raw(server.url, '/api/flows', { headers: { host } })).status).toBe(200);
      for (const host of ['evil.example', 'evil.example:3000', '127.0.0.1.nip.io', 'localhost.evil.example']) {
        for (const path of ['/api/flows', '/']) {
          const response = await raw(server.url, path, { headers: { host } });
          expect(response.status, `${host} ${path}`).toBe(403);
          expect(JSON.parse(response.body).error.code).toBe('host_not_allowed');
        }
      }
      // A Host that is no host name at all is refused by Node before the app sees it.
      expect((await raw(server.url, '/api/flows', { headers: { host: 'a b' } })).status).toBe(400);
    } finally {
      await server.close();
    }
  });

  it('allowedHosts names the hosts of a deployment; "*" allows any', async () => {
    const named = await serve({ allowedHosts: ['gateflow.internal'] });
    const any = await serve({ allowedHosts: '*' });
    try {
      expect((await raw(named.url, '/api/flows', { headers: { host: 'gateflow.internal:443' } })).status).toBe(200);
      expect((await raw(named.url, '/api/flows', { headers: { host: 'localhost' } })).status).toBe(403);
      expect((await raw(any.url, '/api/flows', { headers: { host: 'evil.example' } })).status).toBe(200);
    } finally {
      await named.close();
      await any.close();
    }
  });
});

describe('security headers, cache and methods', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => (server = await serve()));
  afterAll(() => server.close());

  it('API answers are nosniff, never framed and never cached', async () => {
    const { sessionId } = (await call(server.url, `/api/flows/${INTAKE}/sessions`, { json: {} })).body;
    for (const response of [
      await call(server.url, `/api/sessions/${sessionId}`),
      await call(server.url, `/api/sessions/${sessionId}/turns`, { json: { button: 'Yes' } }),
      await call(server.url, '/api/sessions/AAAAAAAAAAAAAAAAAAAAAAAA'),
    ]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it('the page gets a Content-Security-Policy with frame-ancestors and its own scripts only', async () => {
    const response = await raw(server.url, '/');
    expect(response.status).toBe(200);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('a wrong method on a route is 405 with Allow', async () => {
    const response = await raw(server.url, '/api/sessions/AAAAAAAAAAAAAAAAAAAAAAAA', { method: 'PATCH' });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(JSON.parse(response.body).error.code).toBe('method_not_allowed');
  });
});

describe('readiness', () => {
  it('/api/ready touches the store: 503 store_unavailable when it cannot, while /api/health stays 200', async () => {
    const flaky = flakyStore(createMemoryStore());
    const server = await serve({ store: flaky.store });
    try {
      expect((await call(server.url, '/api/ready')).body).toEqual({ status: 'ready' });
      flaky.down.add('load');
      expectError(await call(server.url, '/api/ready'), 503, 'store_unavailable');
      expect((await call(server.url, '/api/health')).status).toBe(200);
      flaky.heal();
      expect((await call(server.url, '/api/ready')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('bounded sessions over HTTP', () => {
  it('the turn after the cap is 409 turn_limit_reached and changes nothing', async () => {
    const errors: unknown[] = [];
    const server = await serve({ runtime: { maxTurnsPerSession: 3 }, onError: (e) => errors.push(e) });
    try {
      const { sessionId } = (await call(server.url, `/api/flows/${INTAKE}/sessions`, { json: {} })).body;
      for (const button of ['Yes', 'No', 'New patient']) expect((await call(server.url, `/api/sessions/${sessionId}/turns`, { json: { button } })).status).toBe(200);
      const refused = await call(server.url, `/api/sessions/${sessionId}/turns`, { json: { button: 'Adult' } });
      expectError(refused, 409, 'turn_limit_reached', /has taken 3 turns/);
      expect(errors).toEqual([]);
      expect(await server.store.history(sessionId)).toHaveLength(4);
    } finally {
      await server.close();
    }
  });

  it('GET /api/sessions/{id} pages its history with after and limit; bad values are 400 invalid_page', async () => {
    const server = await serve();
    try {
      const { sessionId } = (await call(server.url, `/api/flows/${INTAKE}/sessions`, { json: {} })).body;
      for (const button of ['Yes', 'No', 'New patient', 'Adult']) await call(server.url, `/api/sessions/${sessionId}/turns`, { json: { button } });
      const first = (await call(server.url, `/api/sessions/${sessionId}?limit=2`)).body;
      expect(first.history.map((e: { seq: number }) => e.seq)).toEqual([1, 2]);
      expect(first.nextAfter).toBe(2);
      const last = (await call(server.url, `/api/sessions/${sessionId}?after=4&limit=2`)).body;
      expect(last.history.map((e: { seq: number }) => e.seq)).toEqual([5]);
      expect(last.nextAfter).toBeNull();
      expect(last.reply).toEqual(first.reply);
      for (const query of ['limit=0', 'limit=201', 'limit=abc', 'after=-1', 'after=1e3', 'limit=']) {
        expectError(await call(server.url, `/api/sessions/${sessionId}?${query}`), 400, 'invalid_page');
      }
    } finally {
      await server.close();
    }
  });

  it('OpenAPI documents after and limit with their default and maximum', async () => {
    const server = await serve();
    try {
      const doc = (await call(server.url, '/api/openapi.json')).body;
      const params = doc.paths['/api/sessions/{sessionId}'].get.parameters;
      expect(params).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'after', in: 'query', schema: expect.objectContaining({ minimum: 0, default: 0 }) }),
          expect.objectContaining({ name: 'limit', in: 'query', schema: expect.objectContaining({ minimum: 1, maximum: 200, default: 50 }) }),
        ]),
      );
      expect(Object.keys(doc.paths['/api/sessions/{sessionId}/turns'].post.responses)).toEqual(expect.arrayContaining(['409', '415']));
      expect(doc.paths['/api/ready'].get.responses).toHaveProperty('503');
    } finally {
      await server.close();
    }
  });
});

describe('strings that are not what they seem', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => (server = await serve({ store: await templateStore(), jwtSecret: SECRET })));
  afterAll(() => server.close());
  const token = (sub: unknown) => sign({ sub } as Record<string, unknown>, SECRET);

  it('a subject holding NUL is 401, not a 500 from the database', async () => {
    const response = await call(server.url, `/api/flows/${INTAKE}/sessions`, { json: {}, token: await token('eve\u0000') });
    expectError(response, 401, 'unauthorized', /subject \(sub\)/);
  });

  it('a subject with a lone surrogate is 401: "eve\\ud800" cannot become "eve\\ufffd" and read its sessions', async () => {
    expectError(await call(server.url, '/api/flows', { token: await token('eve\ud800') }), 401, 'unauthorized');
    expectError(await call(server.url, '/api/flows', { token: await token('eve\udfff') }), 401, 'unauthorized');
    const { sessionId } = (await call(server.url, `/api/flows/${INTAKE}/sessions`, { json: {}, token: await token('eve\ufffd') })).body;
    expect((await call(server.url, `/api/sessions/${sessionId}`, { token: await token('eve\ufffd') })).status).toBe(200);
  });

  it('turnIds with lone surrogates are 400: "t\\ud800" and "t\\udbff" are not silently one turn', async () => {
    const alice = await token('alice');
    const { sessionId } = (await call(server.url, `/api/flows/${INTAKE}/sessions`, { json: {}, token: alice })).body;
    for (const turnId of ['t\ud800', 't\udbff']) {
      const response = await call(server.url, `/api/sessions/${sessionId}/turns`, { json: { button: 'Yes', turnId }, token: alice });
      expectError(response, 400, 'invalid_turn', /well-formed Unicode/);
    }
    expect(((await call(server.url, `/api/sessions/${sessionId}`, { token: alice })).body.history as unknown[]).length).toBe(1);
  });

  it('errors repeat at most a short prefix of an id', async () => {
    const alice = await token('alice');
    const long = 'B'.repeat(128);
    const response = await call(server.url, `/api/sessions/${long}`, { token: alice });
    expectError(response, 404, 'session_not_found');
    expect(response.text).not.toContain('B'.repeat(25));
    const flow = await call(server.url, `/api/flows/${'f'.repeat(300)}/sessions`, { json: {}, token: alice });
    expectError(flow, 404, 'flow_not_found');
    expect(flow.text).not.toContain('f'.repeat(25));
  });
});

describe('tokens', () => {
  it('a 401 never repeats the token, whatever is wrong with it', async () => {
    const server = await serve({ jwtSecret: SECRET });
    try {
      const valid = await sign({ sub: 'alice' }, SECRET);
      const [h, p, s] = valid.split('.');
      const bad = [
        await sign({ sub: 'alice' }, 'another-secret-that-is-long-enough-000'),
        await sign({ sub: 'alice', exp: now() - 3600 }, SECRET),
        await sign({ sub: 'alice', nbf: now() + 3600 }, SECRET),
        await sign({ sub: 'alice' }, SECRET, 'HS512'),
        `${h}.${p}.${s!.slice(0, -2)}xx`,
        `${h}.${p}`,
        'garbage-token-value-0123456789',
        `${h}.${btoa('{"sub":').replaceAll('=', '')}.${s}`,
      ];
      for (const t of bad) {
        const response = await call(server.url, '/api/flows', { token: t });
        expectError(response, 401, 'unauthorized', /^invalid or missing token: /);
        expect(response.headers.get('www-authenticate')).toBe('Bearer');
        for (const part of t.split('.').filter((x) => x.length > 8)) expect(response.text).not.toContain(part);
      }
    } finally {
      await server.close();
    }
  });

  it('allows a small clock skew (30 s by default, configurable)', async () => {
    const lenient = await serve({ jwtSecret: SECRET });
    const strict = await serve({ jwtSecret: SECRET, jwt: { clockSkewSeconds: 0 } });
    try {
      const justExpired = await sign({ sub: 'alice', exp: now() - 10 }, SECRET);
      const almostValid = await sign({ sub: 'alice', nbf: now() + 10, iat: now() + 10 }, SECRET);
      const longExpired = await sign({ sub: 'alice', exp: now() - 60 }, SECRET);
      expect((await call(lenient.url, '/api/flows', { token: justExpired })).status).toBe(200);
      expect((await call(lenient.url, '/api/flows', { token: almostValid })).status).toBe(200);
      expectError(await call(lenient.url, '/api/flows', { token: longExpired }), 401, 'unauthorized', /expired/);
      expectError(await call(strict.url, '/api/flows', { token: justExpired }), 401, 'unauthorized', /expired/);
      expectError(await call(strict.url, '/api/flows', { token: almostValid }), 401, 'unauthorized', /not valid yet/);
    } finally {
      await lenient.close();
      await strict.close();
    }
  });

  it('checks the issuer and audience when configured', async () => {
    const server = await serve({ jwtSecret: SECRET, jwt: { issuer: 'https://id.example', audience: 'gateflow' } });
    try {
      const ok = await sign({ sub: 'alice', iss: 'https://id.example', aud: ['other', 'gateflow'] }, SECRET);
      expect((await call(server.url, '/api/flows', { token: ok })).status).toBe(200);
      for (const claims of [{}, { iss: 'https://evil.example', aud: 'gateflow' }, { iss: 'https://id.example' }, { iss: 'https://id.example', aud: 'other' }]) {
        const t = await sign({ sub: 'alice', ...claims }, SECRET);
        expectError(await call(server.url, '/api/flows', { token: t }), 401, 'unauthorized', /issuer|audience/);
      }
    } finally {
      await server.close();
    }
  });

  it('refuses to start with a secret shorter than 32 bytes', () => {
    const runtime = createFlowRuntime({ flows: FLOWS, store: createMemoryStore() });
    expect(() => createApp({ runtime, jwtSecret: 'x'.repeat(31) })).toThrow(ServerConfigError);
    expect(() => createApp({ runtime, jwtSecret: 'x'.repeat(31) })).toThrow(/31 bytes; it must be at least 32/);
    expect(() => createApp({ runtime, jwtSecret: 'x'.repeat(32) })).not.toThrow();
  });
});

describe('a refused turn repeats no long input', () => {
  it('an unknown key of 10,000 characters is named by a short prefix only', async () => {
    const server = await serve();
    try {
      const { sessionId } = (await call(server.url, `/api/flows/${INTAKE}/sessions`, { json: {} })).body;
      const key = 'k'.repeat(10_000);
      for (const body of [{ [key]: 1 }, { text: 'x', [key]: 1 }]) {
        const response = await call(server.url, `/api/sessions/${sessionId}/turns`, { json: body });
        expectError(response, 400, 'invalid_turn');
        expect(response.text.length).toBeLessThan(400);
      }
    } finally {
      await server.close();
    }
  });
});

describe('the OpenAPI document describes every field', () => {
  it('of the reply envelope, the turn, and a flow reply when the server says it serves flows', async () => {
    const { ReplySchema } = await import('../../src/flow/reply.js');
    const { openApiDocument } = await import('../../src/server/openapi.js');
    const undescribed = (schema: { properties?: Record<string, { description?: string }>; anyOf?: unknown[] }, at: string): string[] => [
      ...Object.entries(schema.properties ?? {}).filter(([, p]) => !p.description).map(([k]) => `${at}.${k}`),
      ...((schema.anyOf ?? []) as (typeof schema)[]).flatMap((s, i) => undescribed(s, `${at}[${i}]`)),
    ];
    for (const doc of [openApiDocument({ auth: false }), openApiDocument({ auth: false, replySchema: ReplySchema })]) {
      expect(undescribed(doc.components.schemas.Reply as never, 'Reply')).toEqual([]);
      expect(undescribed(doc.components.schemas.Turn as never, 'Turn')).toEqual([]);
      expect(Object.keys((doc.components.schemas.Reply as { properties: object }).properties)).toContain('status');
    }
    expect(Object.keys((openApiDocument({ auth: false, replySchema: ReplySchema }).components.schemas.Reply as { properties: object }).properties)).toEqual(
      expect.arrayContaining(['answers', 'buttonContext']),
    );
  });
});
