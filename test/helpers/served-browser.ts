/**
 * For one `describe` block of a browser suite: a real `gateflow serve` on a
 * fresh PGlite directory (copied from a template made once) and Chromium,
 * started before its tests (the demo page built first) and stopped after.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { ensureDemoBuilt, freshDataDir, spawnServe, type ChildServer } from './browser-server.js';
import { launchChromium } from './chromium.js';
import { PATIENCE_MS } from './patience.js';

export interface ServedBrowserOptions {
  /** Names the temporary directory (`gateflow-<name>-browser-`). */
  name: string;
  /** Makes the store's template directory in `base` (PGlite alone, or with the graph). */
  template: (base: string) => Promise<string>;
  /** A line the server's start-up output must hold (`task agent: task-agent`): the suite needs what it names. */
  serves: string;
  /** Where the suite writes its screenshots (made before the tests). */
  screenshots: string;
}

export interface ServedBrowser {
  readonly browser: Browser;
  readonly server: ChildServer;
  /** A JSON call to the server's API: GET without a body, POST with one; anything but 2xx throws with the status and body. */
  api<T>(path: string, body?: unknown): Promise<T>;
}

export function useServedBrowser(options: ServedBrowserOptions): ServedBrowser {
  let browser: Browser | undefined;
  let server: ChildServer | undefined;
  let base: string | undefined;

  beforeAll(async () => {
    mkdirSync(options.screenshots, { recursive: true });
    await ensureDemoBuilt();
    base = mkdtempSync(join(tmpdir(), `gateflow-${options.name}-browser-`));
    const template = await options.template(base);
    [browser, server] = await Promise.all([launchChromium(), spawnServe(freshDataDir(template, base, 'db'))]);
    if (!server.output().includes(options.serves)) throw new Error(`the server does not serve "${options.serves}":\n${server.output()}`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.kill();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  return {
    get browser() {
      if (!browser) throw new Error('Chromium is not started: use it inside a test');
      return browser;
    },
    get server() {
      if (!server) throw new Error('the server is not started: use it inside a test');
      return server;
    },
    async api<T>(path: string, body?: unknown): Promise<T> {
      if (!server) throw new Error('the server is not started: use it inside a test');
      const response = await fetch(`${server.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(PATIENCE_MS),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
  };
}
