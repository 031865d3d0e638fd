/**
 * The widget's lazy chunks fail to load once (the connection drops, or a
 * deploy replaced the file) and are tried again (src/react/retrying-import.ts),
 * in Debian's Chromium against the real server, the first request for a chunk
 * aborted with `page.route`. The typed reader's, in the demo's inbox: the form
 * works meanwhile (the server's words), then says a refusal in the person's
 * words, without a reload and without an unhandled rejection. The gates'
 * forms', in an app built from test/fixtures/widget-host as a consumer's
 * build splits it: the customer's page still shows what it waits for.
 * Screenshot: test/browser/screenshots/reader-retry.png.
 *
 * Skipped without /usr/bin/chromium, unless GATEFLOW_REQUIRE_BROWSER=1.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractActor } from '../../src/extract/actor.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { DEMO_DIR, ensureDemoBuilt, freshDataDir, pgliteTemplate } from '../helpers/browser-server.js';
import { hasChromium, launchChromium, REQUIRE_BROWSER } from '../helpers/chromium.js';
import { exampleFlows } from '../helpers/http.js';
import { PATIENCE_MS } from '../helpers/patience.js';
import { settled } from '../helpers/widget-page.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/widget-host/', import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
/** The reader's chunk in the demo's build (src/inputs/coerce-value.ts and what it imports). */
const READER_CHUNK = /\/assets\/coerce-value-[\w-]+\.js$/;
const SERVER_WORDS = /^input "approved_amount" \(gate in_\w+\) still waits: "-5" is not accepted/;
const PERSONS_WORDS = '"-5" is not accepted: That is a negative number (-5). The number must be at least 0 EUR. Expected a number of at least 0.';

/** A JSON POST to the server's API, its answer's body. */
async function post(url: string, body: unknown): Promise<{ sessionId: string; status?: string }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(PATIENCE_MS) });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { sessionId: string; status?: string };
}

describe.skipIf(!(hasChromium || REQUIRE_BROWSER))("the typed reader's chunk, failed once, in Chromium", () => {
  let browser: Browser;
  let base: string;
  let server: RunningServer;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    base = mkdtempSync(join(tmpdir(), 'gateflow-reader-retry-'));
    const [, launched, template] = await Promise.all([ensureDemoBuilt(), launchChromium(), pgliteTemplate(base)]);
    browser = launched;
    server = await startServer({
      workflows: exampleFlows().map((flow) => flowWorkflow(flow)),
      actors: { extract: createExtractActor() },
      port: 0,
      dataDir: freshDataDir(template, base, 'server'),
      staticDir: DEMO_DIR,
      heartbeatMs: 1000,
    });
  });

  afterAll(async () => {
    await server?.close();
    await browser?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it("is loaded again: the form keeps the server's words meanwhile, then says the refusal in the person's words", async () => {
    // A customer's refund waits for a manager (through the API: the customer's page is not what is tested).
    const { sessionId } = await post(`${server.url}/api/flows/refund-approval/sessions`, {});
    for (const turn of [{ text: 'AB1234' }, { text: '250' }, { text: 'it arrived broken' }, { button: 'confirm' }])
      await post(`${server.url}/api/sessions/${sessionId}/turns`, turn);

    const context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
    try {
      const { page, errors, requests } = await pageFailingOnce(context, READER_CHUNK);
      await page.goto(`${server.url}/?inbox`);
      const inbox = page.getByRole('region', { name: 'Inbox' });
      const amount = inbox.getByRole('spinbutton', { name: 'Approved amount (EUR)' });
      await amount.waitFor();
      // The form asked for the reader as it showed; that request failed.
      await expect.poll(() => requests, { timeout: PATIENCE_MS }).toContain('aborted');

      // A refused value: the form shows a refusal, in the server's words until the reader is there, then the person's.
      const form = inbox.locator('form.gf-input-number');
      await amount.fill('-5');
      await amount.press('Enter');
      const alert = form.getByRole('alert');
      await expect.poll(() => alert.innerText(), { timeout: PATIENCE_MS }).toMatch(new RegExp(`${SERVER_WORDS.source}|^${PERSONS_WORDS.replace(/[().]/g, '\\$&')}$`));
      await expect.poll(() => alert.innerText(), { timeout: PATIENCE_MS }).toBe(PERSONS_WORDS);
      expect(requests).toEqual(['aborted', 'served']);
      // The value stays as typed, and the page was never broken: the only errors are the aborted chunk and the refusal.
      expect(await amount.inputValue()).toBe('-5');
      expect(errors.filter((e) => !/Failed to load resource: (net::ERR_INTERNET_DISCONNECTED|the server responded with a status of 400)/.test(e))).toEqual([]);
      // The gate is still open: nothing was saved.
      const open = (await (await fetch(`${server.url}/api/inputs?sessionId=${sessionId}`)).json()) as { inputs: unknown[] };
      expect(open.inputs).toHaveLength(2);
      await page.screenshot({ path: join(SCREENSHOTS, 'reader-retry.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });
});

describe.skipIf(!(hasChromium || REQUIRE_BROWSER))("the gates' forms' chunk, failed once, in Chromium", () => {
  let browser: Browser;
  let base: string;
  let server: RunningServer;

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'gateflow-forms-retry-'));
    const outDir = join(base, 'app');
    // The host app as a consumer's Vite build makes it: the forms in a chunk of their own (in the demo, the inbox has them up front).
    const [, launched] = await Promise.all([
      build({ root: FIXTURE, configFile: false, logLevel: 'error', plugins: [react()], build: { outDir, emptyOutDir: true } }),
      launchChromium(),
    ]);
    browser = launched;
    server = await startServer({
      workflows: exampleFlows().map((flow) => flowWorkflow(flow)),
      actors: { extract: createExtractActor() },
      store: createMemoryStore(),
      port: 0,
      staticDir: outDir,
    });
  });

  afterAll(async () => {
    await server?.close();
    await browser?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  /** Types a message into the widget and waits for its reply. */
  async function say(page: Page, text: string, replies: number): Promise<void> {
    await page.getByRole('textbox', { name: 'Your answer' }).fill(text);
    await page.keyboard.press('Enter');
    await settled(page, replies);
  }

  it('is loaded again: a customer who gets to a manager\'s approval is shown what the request waits for', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
    try {
      const { page, errors, requests } = await pageFailingOnce(context, /\/assets\/ConversationInputs-[\w-]+\.js$/);
      await page.goto(`${server.url}/?flow=refund-approval`);
      await settled(page, 1);
      // Asked for as the widget showed, and failed.
      await expect.poll(() => requests, { timeout: PATIENCE_MS }).toContain('aborted');
      await say(page, 'AB1234', 2);
      await say(page, '250', 3);
      await say(page, 'it arrived broken', 4);
      await page.getByRole('button', { name: 'Request the refund' }).click();
      const waiting = page.getByRole('list', { name: 'Waiting for others' }).getByRole('listitem');
      await expect.poll(() => waiting.allInnerTexts(), { timeout: PATIENCE_MS }).toEqual([expect.stringMatching(/^Waiting for a manager: Approve the refund\?, Approved amount \(EUR\)/)]);
      expect(requests).toEqual(['aborted', 'served']);
      expect(errors.filter((e) => !/Failed to load resource: net::ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/**
 * A page whose first request for `chunk` fails as offline and whose later ones
 * are served; `requests` says what became of each ("aborted", "served"), and
 * `errors` holds the page's errors.
 */
async function pageFailingOnce(context: BrowserContext, chunk: RegExp): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  const requests: string[] = [];
  await page.route(chunk, async (route) => {
    requests.push(requests.length === 0 ? 'aborted' : 'served');
    await (requests.length === 1 ? route.abort('internetdisconnected') : route.continue());
  });
  return { page, errors, requests };
}
