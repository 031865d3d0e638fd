/**
 * The widget in an app of its own (issue 28 §2): a page on one origin, built
 * with Vite from test/fixtures/widget-host, talking to gateflow's server on
 * another origin. With that origin in `corsOrigins` the conversation works;
 * without, the browser blocks it and the widget says it cannot reach the
 * server. The host's inline `onReply` sets its state on every reply, and is
 * told each reply once (it used to be called on every render of the host: a
 * loop). Chromium from Debian, the server on loopback with a memory store.
 *
 * Skipped without /usr/bin/chromium, unless GATEFLOW_REQUIRE_BROWSER=1.
 */
import react from '@vitejs/plugin-react';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractActor } from '../../src/extract/actor.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { hasChromium, launchChromium, REQUIRE_BROWSER } from '../helpers/chromium.js';
import { exampleFlows } from '../helpers/http.js';
import { settled } from '../helpers/widget-page.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/widget-host/', import.meta.url));
const WAIT = PATIENCE_MS;

describe.skipIf(!hasChromium && !REQUIRE_BROWSER)('the widget hosted by another app, on another origin', () => {
  let base: string;
  let browser: Browser;
  let page: Server;
  let pageOrigin: string;
  const servers: RunningServer[] = [];

  /** The API on its own origin, with a memory store; `corsOrigins` as given. */
  async function api(corsOrigins?: readonly string[]) {
    const server = await startServer({
      workflows: exampleFlows().map((flow) => flowWorkflow(flow)),
      actors: { extract: createExtractActor() },
      store: createMemoryStore(),
      port: 0,
      ...(corsOrigins && { corsOrigins }),
    });
    servers.push(server);
    return server;
  }

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'gateflow-widget-host-'));
    const outDir = join(base, 'app');
    await build({ root: FIXTURE, configFile: false, logLevel: 'error', plugins: [react()], build: { outDir, emptyOutDir: true } });
    // The host app's own server: static files only, nothing of gateflow's.
    page = createServer((req, res) => {
      const path = normalize(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '');
      try {
        const body = readFileSync(join(outDir, path === '' ? 'index.html' : path));
        res.writeHead(200, { 'Content-Type': extname(path) === '.js' ? 'text/javascript' : 'text/html' }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((s) => s.close()));
    await new Promise((resolve) => page?.close(resolve));
    if (base) rmSync(base, { recursive: true, force: true });
  });

  /** The host page on its own origin, talking to `apiUrl`; `beforeLoad` runs on the page before it loads (to listen from the start). */
  async function open(apiUrl: string, beforeLoad?: (p: Page) => void): Promise<Page> {
    const context = await browser.newContext();
    context.setDefaultTimeout(WAIT);
    const p = await context.newPage();
    beforeLoad?.(p);
    await p.goto(`${pageOrigin}/?api=${encodeURIComponent(apiUrl)}`);
    return p;
  }

  it('talks to an API that lists its origin, and tells the host each reply once', async () => {
    const server = await api([pageOrigin]);
    const p = await open(server.url);
    await settled(p, 1, WAIT);
    // Rendering the host again (its state changed) does not tell it the same reply again.
    await p.waitForTimeout(300);
    expect(await p.locator('#replies').textContent()).toBe('1');
    await p.locator('.gf-chat').getByRole('button', { name: 'Yes' }).click();
    await settled(p, 2, WAIT);
    await p.waitForTimeout(300);
    expect(await p.locator('#replies').textContent()).toBe('2');
    await p.context().close();
  });

  it('is blocked by the browser when the API does not list its origin: no reply reaches the host', async () => {
    const server = await api();
    // Listened for before the page loads: the blocked request can be made before goto returns.
    let blocked!: Promise<unknown>;
    const p = await open(server.url, (page) => (blocked = page.waitForEvent('console', (m) => /CORS policy/.test(m.text()))));
    await blocked;
    expect(await p.locator('#replies').textContent()).toBe('0');
    await p.context().close();
  });

  it('answers a preflight only for a listed origin', async () => {
    const server = await api([pageOrigin]);
    const preflight = (origin: string) =>
      fetch(`${server.url}/api/flows/patient-intake/sessions`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
      });
    const listed = await preflight(pageOrigin);
    expect(listed.status).toBe(204);
    expect(listed.headers.get('access-control-allow-origin')).toBe(pageOrigin);
    expect(listed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    const other = await preflight('http://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
