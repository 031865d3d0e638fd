/**
 * One Chromium for the whole run, launched on first use. Each browser suite
 * used to launch (and close) a Chromium of its own: about 0.6 CPU-s each,
 * for a dozen files. Here the run's main process offers, on loopback, an
 * address that launches Playwright's browser server once and answers its
 * WebSocket endpoint; `launchChromium()` (test/helpers/chromium.ts) connects
 * to it, and `browser.close()` there only disconnects, closing that
 * connection's contexts. Every test still gets its own contexts: nothing of
 * one suite's pages, storage or cache is seen by another.
 *
 * A run with no browser suite never launches it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/chromium.js';
import { PATIENCE_MS } from '../helpers/patience.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `GET` it for the shared Chromium's WebSocket endpoint (see test/setup/shared-chromium.ts). */
    sharedChromium: string;
  }
}

let offered: Promise<{ url: string; close: () => Promise<void> }> | undefined;

/** The loopback address that launches the shared browser on its first request. */
function offer(): Promise<{ url: string; close: () => Promise<void> }> {
  let launched: Promise<BrowserServer> | undefined;
  const launch = () =>
    (launched ??= chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true, timeout: PATIENCE_MS }));
  const server: Server = createServer((_request, response) => {
    launch().then(
      (browser) => response.end(browser.wsEndpoint()),
      (error: unknown) => {
        launched = undefined; // the next suite tries again, and fails with its own error
        response.writeHead(500).end(String(error));
      },
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        close: async () => {
          server.close();
          await (await launched?.catch(() => undefined))?.close();
        },
      }),
    ),
  );
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  offered ??= offer();
  const { url, close } = await offered;
  project.provide('sharedChromium', url);
  // Vitest calls the teardown once per project that lists this setup: the first closes, the others find nothing left.
  return async () => {
    if (!offered) return;
    offered = undefined;
    await close();
  };
}
