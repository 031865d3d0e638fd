/**
 * No input is a 500 (issue 25, section 1): JSON nested 2,000 levels deep in
 * every body, ids that name Object.prototype's members, and a 1 MB body whose
 * 413 leaves the keep-alive connection working for the next request.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlowRuntime } from '../../src/flow/runtime.js';
import { createApp } from '../../src/server/app.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { call, exampleFlows, serveOnLoopback, type LoopbackServer } from '../helpers/http.js';

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'prototype'];
const nested = (depth: number, leaf = '1') => '['.repeat(depth) + leaf + ']'.repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

let server: LoopbackServer;
let errors: unknown[];
let sessionId: string;
let gateId: string;
beforeAll(async () => {
  errors = [];
  const runtime = createFlowRuntime({ flows: exampleFlows(), store: createMemoryStore() });
  const app = createApp({ runtime, onError: (e) => errors.push(e) });
  const served = await serveOnLoopback(app);
  server = { ...served, close: async () => (await served.close(), runtime.close()) };
  sessionId = (await call(server.url, '/api/flows/patient-intake/sessions', { json: {} })).body.sessionId;
  const refund = (await call(server.url, '/api/flows/refund-approval/sessions', { json: {} })).body.sessionId;
  for (const turn of [{ text: 'CD5678' }, { text: '250' }, { button: 'wrong_item' }, { button: 'confirm' }])
    await call(server.url, `/api/sessions/${refund}/turns`, { json: turn });
  gateId = (await call(server.url, `/api/inputs?sessionId=${refund}`)).body.inputs[0].gateId;
});
afterAll(() => server.close());

const expect4xx = (response: { status: number; body: any; text: string }, what: string) => {
  expect(response.status, `${what}: ${response.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(response.status, `${what}: ${response.text.slice(0, 300)}`).toBeLessThan(500);
  expect(typeof response.body?.error?.code, what).toBe('string');
};

describe('no 500 from any input', () => {
  it('JSON nested 2,000 levels deep in every body is a 4xx (or taken), never a 500', async () => {
    const deep = [nested(2000), nestedObject(2000)];
    const routes: [string, (d: string) => string][] = [
      ['/api/flows/patient-intake/sessions', (d) => d],
      ['/api/flows/patient-intake/sessions', (d) => `{"context":${d}}`],
      ['/api/flows/document-agent/sessions', (d) => `{"context":${d}}`],
      [`/api/sessions/${sessionId}/turns`, (d) => d],
      [`/api/sessions/${sessionId}/turns`, (d) => `{"text":${d}}`],
      [`/api/sessions/${sessionId}/turns`, (d) => `{"button":${d}}`],
      [`/api/sessions/${sessionId}/cancel`, (d) => d],
      [`/api/inputs/${gateId}`, (d) => `{"value":${d}}`],
      [`/api/inputs/${gateId}`, (d) => d],
    ];
    for (const [path, body] of routes)
      for (const d of deep) {
        const response = await call(server.url, path, { body: body(d) });
        expect(response.status, `${path} ${body(d).slice(0, 40)}: ${response.text.slice(0, 300)}`).toBeLessThan(500);
      }
    expect(errors).toEqual([]);
  });

  it('an answer nested 2,000 levels deep is refused as a value the gate does not take, and the gate stays open', async () => {
    const response = await call(server.url, `/api/inputs/${gateId}`, { body: `{"value":${nested(2000)}}` });
    expect4xx(response, 'deep answer');
    expect((await call(server.url, `/api/inputs?sessionId=${(await call(server.url, `/api/inputs`)).body.inputs[0].sessionId}`)).body.inputs.length).toBeGreaterThan(0);
  });

  it.each(PROTOTYPE_NAMES)('the flow id %j is an unknown flow (404), not a 500', async (name) => {
    const started = await call(server.url, `/api/flows/${encodeURIComponent(name)}/sessions`, { json: {} });
    expect({ status: started.status, code: started.body?.error?.code }).toEqual({ status: 404, code: 'flow_not_found' });
    const withContext = await call(server.url, `/api/flows/${encodeURIComponent(name)}/sessions`, { json: { context: { projectId: 1 } } });
    expect4xx(withContext, `${name} with a context`);
    for (const path of [`/api/drawings/${encodeURIComponent(name)}`, `/api/drawings/${encodeURIComponent(name)}/coverage`, `/api/sessions/${encodeURIComponent(name)}`, `/api/inputs?workflowId=${encodeURIComponent(name)}`])
      expect((await call(server.url, path)).status, path).toBeLessThan(500);
    for (const path of [`/api/inputs/${encodeURIComponent(name)}`, `/api/sessions/${encodeURIComponent(name)}/turns`, `/api/sessions/${encodeURIComponent(name)}/cancel`])
      expect4xx(await call(server.url, path, { json: path.endsWith('turns') ? { text: 'hi' } : path.includes('inputs') ? { value: 1 } : {} }), path);
    expect(errors).toEqual([]);
  });

  it('query and body keys named like prototype members are refused by name, not a 500', async () => {
    for (const name of PROTOTYPE_NAMES) {
      expect4xx(await call(server.url, `/api/inputs?${encodeURIComponent(name)}=1`), `query ${name}`);
      expect4xx(await call(server.url, `/api/sessions/${sessionId}/turns`, { body: `{"${name}":"x"}` }), `turn key ${name}`);
      expect4xx(await call(server.url, `/api/inputs/${gateId}`, { body: `{"value":1,"${name}":1}` }), `answer key ${name}`);
    }
    expect(errors).toEqual([]);
  });

  it('a 1 MB body gets its 413, and the same keep-alive connection then serves the next request', async () => {
    const socket = await open(server.url);
    try {
      const big = '{"text":"' + 'a'.repeat(1024 * 1024) + '"}';
      const first = await exchange(socket, `POST /api/sessions/${sessionId}/turns HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(big)}\r\nConnection: keep-alive\r\n\r\n`, big);
      expect(first.status).toBe(413);
      expect(JSON.parse(first.body).error.code).toBe('payload_too_large');
      expect(first.headers.connection ?? 'keep-alive').not.toBe('close');
      const second = await exchange(socket, 'GET /api/flows HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
      expect(second.status).toBe(200);
      expect(JSON.parse(second.body).flows.length).toBeGreaterThan(0);
    } finally {
      socket.destroy();
    }
  });
});

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Writes a request on the socket and reads one whole response (Content-Length or chunked); the socket stays open. */
function exchange(socket: Socket, head: string, body = ''): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const lines = buffer.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(lines[0]!.split(' ')[1]);
      const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const rest = buffer.subarray(end + 4);
      let text: string | null = null;
      if (headers['content-length'] !== undefined) {
        if (rest.length >= Number(headers['content-length'])) text = rest.subarray(0, Number(headers['content-length'])).toString('utf8');
      } else if (headers['transfer-encoding'] === 'chunked') {
        const raw = rest.toString('latin1');
        if (raw.includes('\r\n0\r\n\r\n') || raw.startsWith('0\r\n\r\n')) {
          let out = '';
          let at = 0;
          for (;;) {
            const lineEnd = raw.indexOf('\r\n', at);
            const size = parseInt(raw.slice(at, lineEnd), 16);
            if (size === 0) break;
            out += raw.slice(lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
          }
          text = Buffer.from(out, 'latin1').toString('utf8');
        }
      }
      if (text === null) return;
      socket.off('data', onData);
      socket.off('error', reject);
      socket.off('close', onClose);
      resolve({ status, headers, body: text });
    };
    const onClose = () => reject(new Error(`the connection closed; got ${buffer.toString('latin1').slice(0, 200)}`));
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('close', onClose);
    socket.write(head);
    if (body) socket.write(body);
  });
}
