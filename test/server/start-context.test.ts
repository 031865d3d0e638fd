/**
 * `POST /api/flows/{flowId}/sessions` with a start context (issue 14 §3, the
 * demo page's chat): the document agent's chat names its project
 * (`{"context": {"projectId": …}}`), checked by its schema; no other workflow
 * takes a context from a client, since a flow's start context holds the
 * host's facts (its declared inputs). Through `startServer` on loopback,
 * PGlite in a temporary directory, and through the HTTP transport the page
 * uses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentRepository } from '../../src/documents/repository.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { createHttpTransport } from '../../src/react/http-transport.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import { call, exampleFlows } from '../helpers/http.js';
import { templateDataDir } from '../helpers/pglite-template.js';

describe('starting a session with a context', () => {
  let dir: string;
  let server: RunningServer;
  let projectId: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gateflow-start-context-'));
    server = await startServer({ workflows: exampleFlows().map((f) => flowWorkflow(f)), documentAgent: {}, port: 0, dataDir: templateDataDir('graph', join(dir, 'db')) });
    projectId = (await documentRepository(server.store.sql!).createProject(null, { name: 'Kitchen' })).id;
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const sessions = (flowId: string) => `/api/flows/${flowId}/sessions`;

  it("the page's transport starts the document agent on the project it names, and the chat's documents land there", async () => {
    const transport = createHttpTransport({ baseUrl: server.url, startContext: (flowId) => (flowId === 'document-agent' ? { projectId } : undefined) });
    const { sessionId, reply } = await transport.start('document-agent');
    expect(reply.message).toMatch(/^I keep this project's documents/);
    const created = await transport.turn(sessionId, { text: 'create a document called Recipes' });
    expect(created.message).toMatch(/^I've created the document 'Recipes' in this project\./);
    const documents = await call(server.url, `/api/projects/${projectId}/documents`);
    expect(documents.body.documents.map((d: { name: string }) => d.name)).toEqual(['Recipes']);
    // The same transport starts a flow with an empty body, as ever.
    expect((await transport.start('patient-intake')).reply.flowId).toBe('patient-intake');
  });

  it('a context the document agent cannot start from is a 400 naming what is wrong', async () => {
    for (const context of [{ projectId: 'one' }, { projectId: -1 }, {}]) {
      const response = await call(server.url, sessions('document-agent'), { json: { context } });
      expect(response.status, JSON.stringify(context)).toBe(400);
      expect(response.body.error.code).toBe('invalid_body');
      expect(response.body.error.message).toMatch(/^the start body must be empty, \{\} or \{"context": \{\.\.\.\}\}: context\.projectId: /);
    }
    for (const body of [{ context: { projectId }, extra: 1 }, { context: 'p' }, []]) {
      const response = await call(server.url, sessions('document-agent'), { json: body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('invalid_body');
    }
  });

  // A guard: opening the start body to every workflow would let a client set a flow's host facts.
  it("a flow takes no context from a client (the host's facts), even one of its declared inputs", async () => {
    for (const context of [{ projectId }, { plan: 'pro' }]) {
      const response = await call(server.url, sessions('patient-intake'), { json: { context } });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_body', message: expect.stringMatching(/^the start body must be empty or \{\}/) });
    }
  });

  it('the OpenAPI document says which start bodies there are', async () => {
    const doc = (await call(server.url, '/api/openapi.json')).body;
    const op = doc.paths['/api/flows/{flowId}/sessions'].post;
    expect(op.requestBody.required).toBe(false);
    expect(op.requestBody.description).toMatch(/document-agent.*"context": \{"projectId": 1\}/);
    expect(op.requestBody.content['application/json'].schema).toEqual({
      type: 'object',
      properties: { context: { type: 'object', additionalProperties: true } },
      additionalProperties: false,
    });
  });
});
