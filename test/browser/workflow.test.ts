/**
 * A hand-written workflow (not a flow document) in the chat widget: the demo
 * page in Debian's Chromium drives `useConversation` over HTTP against the
 * real server on PGlite, exactly as for the flows. Skipped without
 * /usr/bin/chromium, unless GATEFLOW_REQUIRE_BROWSER=1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractActor } from '../../src/extract/actor.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import { greetingWorkflow } from '../fixtures/greeting-workflow.js';
import { DEMO_DIR, ensureDemoBuilt, fetchSession } from '../helpers/browser-server.js';
import { hasChromium, launchChromium, REQUIRE_BROWSER } from '../helpers/chromium.js';
import { patientIntakeFlow } from '../helpers/intake.js';
import { templateDataDir } from '../helpers/pglite-template.js';

describe.skipIf(!(hasChromium || REQUIRE_BROWSER))('a hand-written workflow in the chat widget', () => {
  let browser: Browser;
  let server: RunningServer;
  let dir: string;

  beforeAll(async () => {
    await ensureDemoBuilt();
    dir = mkdtempSync(join(tmpdir(), 'gateflow-browser-workflow-'));
    [browser, server] = await Promise.all([
      launchChromium(),
      startServer({
        workflows: [flowWorkflow(patientIntakeFlow()), greetingWorkflow],
        actors: { extract: createExtractActor() },
        port: 0,
        dataDir: templateDataDir('graph', join(dir, 'db')),
        staticDir: DEMO_DIR,
      }),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is listed, typed to, clicked, reloaded and finished like a flow', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
    const errors: string[] = [];
    try {
      const page = await context.newPage();
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(`${server.url}/?flow=greeting`);
      await expect.poll(() => page.locator('select option').allTextContents()).toContain('Greeting (1)');
      await page.getByText('What is your name?').waitFor();

      const box = page.getByRole('textbox');
      await box.fill('Ada Lovelace');
      await box.press('Enter');
      await page.getByText('Is "Ada Lovelace" right?').waitFor();
      // A reload continues the same session: the transcript comes back from the server.
      await page.reload();
      await page.getByText('Is "Ada Lovelace" right?').waitFor();
      await expect.poll(() => page.getByText('Ada Lovelace', { exact: true }).count()).toBeGreaterThan(0);

      await page.getByRole('button', { name: 'Yes' }).click();
      await page.getByText('Hello, Ada Lovelace!').waitFor();
      const sessionId = await page.evaluate(() => localStorage.getItem('gateflow:session:greeting'));
      expect(sessionId).toBeTruthy();
      const session = await fetchSession(server.url, sessionId!);
      expect(session.history.map((e) => e.reply.state)).toEqual(['askingName', 'confirming', 'greeted']);
      expect(session.reply).toMatchObject({ status: 'done', completion: { isComplete: true } });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
