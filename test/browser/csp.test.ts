/**
 * The served pages keep their Content-Security-Policy without a violation
 * (issue 25): the demo chat, the viewer (a workflow's drawing) and the studio
 * (the session list and a session), each loaded in Debian's Chromium from a
 * server in this process, with a listener for `securitypolicyviolation`
 * events and console CSP reports. The policy is the server's own (no
 * `unsafe-eval`); before the fix, zod's check for `new Function` (its JIT)
 * was reported as `script-src eval` on every page load.
 *
 * Skipped without /usr/bin/chromium, unless GATEFLOW_REQUIRE_BROWSER=1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import type { Store } from '../../src/store/types.js';
import { DEMO_DIR, ensureDemoBuilt } from '../helpers/browser-server.js';
import { hasChromium, launchChromium, REQUIRE_BROWSER } from '../helpers/chromium.js';
import { exampleFlows } from '../helpers/http.js';
import { templateStore } from '../helpers/pglite-template.js';

describe.skipIf(!(hasChromium || REQUIRE_BROWSER))('no CSP violation on any served page', () => {
  let store: Store;
  let server: RunningServer;
  let browser: Browser;
  let sessionId: string;

  beforeAll(async () => {
    await ensureDemoBuilt();
    store = await templateStore();
    [server, browser] = await Promise.all([
      startServer({ workflows: exampleFlows().map((f) => flowWorkflow(f)), store, port: 0, staticDir: DEMO_DIR, documentAgent: {}, onBackgroundError: () => {} }),
      launchChromium(),
    ]);
    const started = await fetch(`${server.url}/api/flows/patient-intake/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    sessionId = ((await started.json()) as { sessionId: string }).sessionId;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await store?.close();
  });

  const pages = () => [
    ['the demo chat', '/', '.gf-widget, [data-testid], textarea, input'],
    ['the viewer', '/viewer?workflow=patient-intake', 'svg'],
    ['the studio: sessions', '/viewer?sessions', 'main'],
    ['the studio: a session', `/viewer?session=${sessionId}`, 'main'],
  ];

  it('each page loads its scripts under the policy and reports no violation', async () => {
    // One tab loads each page in turn (a context costs a renderer's start): every load is a new document, with its own scripts and its own record.
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      // Registered before any script of each page runs: every violation is recorded, caught or not.
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { __csp: string[] }).__csp = seen;
        document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      let reports: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|unsafe-eval/i.test(message.text())) reports.push(message.text());
      });
      for (const [name, path, ready] of pages()) {
        reports = [];
        const response = await page.goto(`${server.url}${path}`);
        expect(response?.headers()['content-security-policy'], name).toMatch(/script-src 'self'(;|$)/);
        // Shown: the page's modules have run (zod builds its schemas, and probed for eval, as they load).
        await page.locator(ready!).first().waitFor();
        const violations = await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
        expect({ page: name, violations, reports }).toEqual({ page: name, violations: [], reports: [] });
      }
    } finally {
      await context.close();
    }
  });
});
