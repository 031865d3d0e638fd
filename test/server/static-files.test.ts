/**
 * The built web app served beside the API (`startServer({ staticDir })`, the
 * demo page and the viewer): Vite's hashed files under `assets/` are kept by
 * browsers for good, the pages are asked for again each time, a client-side
 * path gets the page, and a missing built file is a 404, never the page in
 * its place (an old page asking for a replaced chunk would otherwise be handed
 * HTML, kept for a year).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/node.js';
import { createMemoryStore } from '../../src/store/memory.js';

describe('the static files of startServer({ staticDir })', () => {
  let dir: string;
  let server: RunningServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gateflow-static-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>chat</title><script type="module" src="/assets/index-3f9a1c.js"></script>');
    writeFileSync(join(dir, 'viewer.html'), '<!doctype html><title>viewer</title>');
    writeFileSync(join(dir, 'assets', 'index-3f9a1c.js'), 'console.log(1);');
    writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    server = await startServer({ workflows: [], store: createMemoryStore(), port: 0, staticDir: dir, onBackgroundError: () => {} });
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    return { status: response.status, cache: response.headers.get('cache-control'), type: response.headers.get('content-type'), text: await response.text() };
  };

  it('keeps a hashed file under assets/ for good', async () => {
    expect(await get('/assets/index-3f9a1c.js')).toMatchObject({ status: 200, cache: 'public, max-age=31536000, immutable', text: 'console.log(1);' });
  });

  it('asks again for the pages and the other files each time', async () => {
    for (const path of ['/', '/index.html', '/viewer', '/favicon.svg', '/a/client/side/path']) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      expect(answer.cache, path).toBe('no-cache');
    }
    expect((await get('/a/client/side/path')).text).toContain('<title>chat</title>');
    expect((await get('/viewer')).text).toContain('<title>viewer</title>');
  });

  it('answers a missing file under assets/ with 404, not the page', async () => {
    const missing = await get('/assets/index-0000aa.js');
    expect(missing.status).toBe(404);
    expect(missing.text).not.toContain('<title>chat</title>');
    expect(missing.cache ?? '').not.toContain('immutable');
  });

  it('leaves the API its own cache rule', async () => {
    expect((await get('/api/health')).cache).toBe('no-store');
  });
});
