/**
 * Hot reload (issue 29 §3): a flow file changed under `serve --watch` is read
 * again (watchFlows, on a real directory), registered with the runtime (a
 * new version serves new sessions while sessions started earlier continue on
 * theirs), and drawn again (its revision in GET /api/drawings changes).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { watchFlows } from '../../src/cli/watch-flows.js';
import type { FlowDocument } from '../../src/flow/schema.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { createApp } from '../../src/server/app.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { call, exampleFlows, serveOnLoopback } from '../helpers/http.js';

const contact = exampleFlows().find((f) => f.id === 'contact-request')!;
/** Version 2 asks for the best time to call before the review. */
function withBestTime(doc: FlowDocument, version: number): FlowDocument {
  const next = JSON.parse(JSON.stringify(doc)) as FlowDocument & { nodes: unknown[]; edges: { from: string; to: string; on?: string }[] };
  next.version = version;
  next.nodes.splice(3, 0, { kind: 'question', id: 'best_time', prompt: 'When is the best time to reach you?', label: 'Best time:', required: false, answer: { type: 'string', maxLength: 100 } });
  next.edges = next.edges.map((e) => (e.from === 'phone' && e.to === 'review' ? { from: 'phone', to: 'best_time' } : e));
  next.edges.push({ from: 'best_time', to: 'review' });
  return next;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('runtime.register', () => {
  it('serves a new version to new sessions; a session started before continues on its version; the drawing is read again', async () => {
    const runtime = createRuntime({ workflows: [flowWorkflow(contact)], store: createMemoryStore() });
    const server = await serveOnLoopback(createApp({ runtime }));
    try {
      const before = await runtime.start('contact-request');
      await runtime.turn(before.sessionId, { text: 'Ann Smith' });
      const listed = async () => (await call(server.url, '/api/drawings')).body.drawings.find((d: { id: string }) => d.id === 'contact-request');
      const first = await listed();
      expect((await call(server.url, '/api/drawings/contact-request')).body.outline.nodes.map((n: { id: string }) => n.id)).not.toContain('best_time');

      runtime.register(flowWorkflow(withBestTime(contact, 2)));

      const after = await runtime.start('contact-request');
      expect(after.reply.flowVersion).toBe(2);
      const old = await runtime.turn(before.sessionId, { text: 'ann@example.org' });
      expect(old.flowVersion).toBe(1);
      expect(old.state).toEqual({ review: 'reviewing' });
      const second = await listed();
      expect(second.version).toBe(2);
      expect(second.revision).not.toBe(first.revision);
      expect((await call(server.url, '/api/drawings/contact-request')).body.outline.nodes.map((n: { id: string }) => n.id)).toContain('best_time');

      // The same version changed again is a new revision too.
      runtime.register(flowWorkflow({ ...withBestTime(contact, 2), title: 'Contact request (edited)' }));
      expect((await listed()).revision).not.toBe(second.revision);
      expect((await call(server.url, '/api/drawings/contact-request')).body.title).toBe('Contact request (edited)');
    } finally {
      await server.close();
      runtime.close();
    }
  });
});

describe('watchFlows', () => {
  it('hands over a changed flow file once it parses and differs, and reports one that does not parse', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateflow-watch-'));
    dirs.push(dir);
    const file = join(dir, 'contact-request.json');
    writeFileSync(file, JSON.stringify(contact));
    const served: FlowDocument[] = [contact];
    const changed: FlowDocument[] = [];
    const refused: string[] = [];
    const stop = watchFlows(dir, () => served, (flow) => changed.push(flow), (message) => refused.push(message));
    try {
      writeFileSync(file, '{ "id": "contact-request", ');
      await expect.poll(() => refused.length).toBeGreaterThan(0);
      expect(refused[0]).toContain('contact-request.json');
      expect(changed).toEqual([]);

      writeFileSync(file, JSON.stringify(withBestTime(contact, 2)));
      await expect.poll(() => changed.length).toBe(1);
      expect(changed[0]!.version).toBe(2);
    } finally {
      stop();
    }
  });
});
