/**
 * The document agent's act API retried by a client that lost the answer
 * (issue 27 §4): the same `turn_id`, or an `Idempotency-Key` header, with no
 * `chat_id`, returns the stored answer and applies nothing again, also after
 * the server was killed with SIGKILL and started again on the same data.
 * `gateflow serve` runs as a process on a copy of a migrated PGlite template;
 * the messages are explicit commands (no model).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDataDir, pgliteTemplate } from '../helpers/browser-server.js';
import { call } from '../helpers/http.js';
import { killServers, spawnServe } from '../helpers/serve-process.js';

const TIMEOUT = 180_000;
let base: string;
let template: string;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'gateflow-act-retry-'));
  template = await pgliteTemplate(base);
}, TIMEOUT);
afterAll(async () => {
  await killServers();
  rmSync(base, { recursive: true, force: true });
});

const act = (url: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => call(url, '/api/agent/act', { json: body, headers });

describe('act retried by its key alone', () => {
  it(
    'the same turn_id or Idempotency-Key without a chat_id applies once, before and after a kill -9',
    async () => {
      const dir = freshDataDir(template, base, 'db');
      let server = await spawnServe({ env: { GATEFLOW_DB_DIR: dir } });
      const project = await call(server.url, '/api/projects', { json: { name: 'Retries' } });
      expect(project.status, project.text).toBe(201);
      const projectId = project.body.id as number;
      const made = await act(server.url, { message: 'Create a document called Log', project_id: projectId });
      expect(made.status, made.text).toBe(200);
      const docId = made.body.document.id as number;
      const content = async (url: string) => (await call(url, `/api/documents/${docId}`)).body as { content: string; version: number };

      const first = await act(server.url, { message: 'Add this to Log: first line', project_id: projectId, turn_id: 'append-1' });
      expect(first.status, first.text).toBe(200);
      expect((await content(server.url)).content).toContain('first line');
      // The client lost the answer and sends it again, with no chat id.
      const again = await act(server.url, { message: 'Add this to Log: first line', project_id: projectId, turn_id: 'append-1' });
      expect(again.status, again.text).toBe(200);
      expect(again.body.chat_id).toBe(first.body.chat_id);
      expect(again.body.chat_message).toEqual(first.body.chat_message);
      // By header.
      const byHeader = await act(server.url, { message: 'Add this to Log: second line', project_id: projectId }, { 'Idempotency-Key': 'append-2' });
      expect(byHeader.status, byHeader.text).toBe(200);
      expect((await act(server.url, { message: 'Add this to Log: second line', project_id: projectId }, { 'Idempotency-Key': 'append-2' })).body.chat_message).toEqual(
        byHeader.body.chat_message,
      );
      const before = await content(server.url);
      expect(before.content.match(/first line/g)).toHaveLength(1);
      expect(before.content.match(/second line/g)).toHaveLength(1);

      // Killed and started again on the same data: the key still finds what was applied.
      await server.kill();
      server = await spawnServe({ env: { GATEFLOW_DB_DIR: dir } });
      const afterCrash = await act(server.url, { message: 'Add this to Log: first line', project_id: projectId, turn_id: 'append-1' });
      expect(afterCrash.status, afterCrash.text).toBe(200);
      expect(afterCrash.body.chat_message).toEqual(first.body.chat_message);
      expect(await content(server.url)).toEqual(before);

      // The body's turn_id and the header must agree.
      const differ = await act(server.url, { message: 'hi', project_id: projectId, turn_id: 'a' }, { 'Idempotency-Key': 'b' });
      expect(differ.status).toBe(400);
      expect(differ.body.error.message).toMatch(/turn_id and the Idempotency-Key header differ/);
      await server.kill();
    },
    TIMEOUT,
  );
});
