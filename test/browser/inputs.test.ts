/**
 * Input gates in the browser (issue 12): the demo page in Debian's Chromium
 * against the real server (PGlite in a temporary directory). A customer
 * chats the refund-approval flow to the manager's approval by typing; a
 * manager answers from the inbox (`?inbox`) in another browser context, with
 * a mistake first; the customer's page follows without a reload. Also: the
 * customer cancels while waiting (the gates leave the inbox live), "Start
 * over" while waiting withdraws the request, and a broken events stream is
 * caught up with once it reconnects. Screenshots go to
 * test/browser/screenshots/inputs-*.png.
 *
 * Skipped without /usr/bin/chromium, unless GATEFLOW_REQUIRE_BROWSER=1.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createExtractActor } from '../../src/extract/actor.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import type { OpenInput } from '../../src/inputs/gate.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import { DEMO_DIR, ensureDemoBuilt, fetchSession, freshDataDir, pgliteTemplate } from '../helpers/browser-server.js';
import { hasChromium, launchChromium, REQUIRE_BROWSER } from '../helpers/chromium.js';
import { exampleFlows } from '../helpers/http.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const FLOW_ID = 'refund-approval';
const STORAGE_KEY = `gateflow:session:${FLOW_ID}`;
const WAIT = PATIENCE_MS;

const WAITING_LINE = /^Waiting for a manager: Approve the refund\?, Approved amount \(EUR\) · due in (24|23) hours/;
const NEEDS_APPROVAL = /Your refund of 250 EUR for order AB1234 needs a manager's approval/;
const APPROVED = /Good news: a manager approved a refund of 200 EUR for order AB1234/;

/** One person's page, and what went wrong on it. */
interface Opened {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions and console errors. */
  errors: string[];
  /** API requests with their answers' status, as "METHOD /path STATUS". */
  api: string[];
}

const runBrowser = hasChromium || REQUIRE_BROWSER;

describe.skipIf(!runBrowser)('input gates in Chromium: the customer waits, the manager answers from the inbox', () => {
  let browser: Browser;
  let base: string;
  let template: string;
  const servers = new Set<RunningServer>();
  const contexts = new Set<BrowserContext>();

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await ensureDemoBuilt();
    base = mkdtempSync(join(tmpdir(), 'gateflow-inputs-browser-'));
    [browser, template] = await Promise.all([launchChromium(), pgliteTemplate(base)]);
  });

  afterEach(async () => {
    await Promise.all([...contexts].map((c) => c.close().catch(() => {})));
    contexts.clear();
    await Promise.all([...servers].map((s) => s.close().catch(() => {})));
    servers.clear();
  });

  afterAll(async () => {
    await unlisted?.close();
    await browser?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  /** A server of the test's own (each test sees only its own gates in the inbox), serving the built demo. */
  async function serve(name: string): Promise<RunningServer> {
    const server = await startServer({
      workflows: exampleFlows().map((flow) => flowWorkflow(flow)),
      actors: { extract: createExtractActor() },
      port: 0,
      dataDir: freshDataDir(template, base, name),
      staticDir: DEMO_DIR,
      heartbeatMs: 1000,
    });
    servers.add(server);
    return server;
  }

  /**
   * The server the tests that never look at the inbox share (each reads only
   * its own session and its gates): one server start fewer. Started by the
   * first of them, closed after the file.
   */
  let unlisted: RunningServer | undefined;
  async function serveWithoutInbox(): Promise<RunningServer> {
    if (!unlisted) {
      unlisted = await serve('no-inbox');
      // Not closed after the test, as the servers of their own are.
      servers.delete(unlisted);
    }
    return unlisted;
  }

  /**
   * A page of the demo: in a new browser context (a person of their own, no
   * shared storage), or as another tab of `options.tabOf`'s browser.
   */
  async function open(baseUrl: string, query: string, options: { prepare?: (page: Page) => Promise<void>; tabOf?: Opened } = {}): Promise<Opened> {
    let context = options.tabOf?.context;
    if (!context) {
      context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
      contexts.add(context);
      context.setDefaultTimeout(WAIT);
    }
    const page = await context.newPage();
    const opened: Opened = { context, page, errors: [], api: [] };
    page.on('pageerror', (e) => opened.errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') opened.errors.push(`console: ${m.text()}`);
    });
    page.on('response', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/')) opened.api.push(`${r.request().method()} ${url.pathname} ${r.status()}`);
    });
    await options.prepare?.(page);
    await page.goto(`${baseUrl}/${query}`);
    return opened;
  }

  /** The customer's widget. */
  function chat(page: Page) {
    const root = page.getByRole('region', { name: 'Refund request' });
    return {
      root,
      input: root.getByRole('textbox', { name: 'Your answer' }),
      waiting: root.getByRole('list', { name: 'Waiting for others' }).getByRole('listitem'),
      badge: root.locator('.gf-badge'),
      cancel: root.getByRole('button', { name: 'Cancel request' }),
      finished: root.getByRole('status').filter({ hasText: /^(Finished|Cancelled|Stopped)/ }),
      messages: root.locator('.gf-message:not(.gf-thinking)'),
      assistant: root.locator('.gf-message.gf-assistant:not(.gf-thinking)'),
      user: root.locator('.gf-message.gf-user p'),
    };
  }

  /** The manager's inbox. */
  function inbox(page: Page) {
    const root = page.getByRole('region', { name: 'Inbox' });
    return {
      root,
      form: (gateId: string) => root.locator(`form[data-gate="${gateId}"]`),
      amount: root.getByRole('spinbutton', { name: 'Approved amount (EUR)' }),
      approve: root.getByRole('radio', { name: 'Approve' }),
      forms: root.locator('form.gf-input-form'),
    };
  }

  /** Types into the customer's answer box and presses Enter; waits for the next assistant message. */
  async function say(page: Page, text: string): Promise<void> {
    const c = chat(page);
    const before = await c.assistant.count();
    await c.input.click();
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await expect.poll(() => c.assistant.count(), { timeout: WAIT }).toBe(before + 1);
    await page.waitForFunction(() => document.querySelector('.gf-chat')?.getAttribute('data-status') !== 'sending');
  }

  const lastAssistant = (page: Page) => chat(page).assistant.last().innerText();
  const status = (page: Page) => page.locator('.gf-chat').first().getAttribute('data-status');

  /** The customer chats the flow to the manager's approval, as a person would: typing, one mistake, the confirm button. */
  async function chatToTheWait(page: Page): Promise<string> {
    const c = chat(page);
    await expect.poll(() => lastAssistant(page), { timeout: WAIT }).toMatch(/What is your order number\?/);
    // A mistake: half an order number is asked again, nothing saved.
    await say(page, 'ab12');
    expect(await lastAssistant(page)).toMatch(/two capital letters and four digits/);
    await say(page, 'AB1234');
    expect(await lastAssistant(page)).toMatch(/How much would you like refunded/);
    await say(page, '250');
    expect(await lastAssistant(page)).toMatch(/What went wrong\?/);
    await say(page, 'it arrived broken');
    expect(await c.root.locator('.gf-summary').innerText()).toContain('Amount: 250 EUR');
    await c.root.getByRole('button', { name: 'Request the refund' }).click();
    await c.waiting.first().waitFor();
    const sessionId = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY);
    if (!sessionId) throw new Error('the demo page stored no session id');
    return sessionId;
  }

  /** What the customer is shown while the manager is asked: the wait, its deadline, no text box. */
  async function expectWaiting(page: Page, lines: RegExp[], badge: string): Promise<void> {
    const c = chat(page);
    await expect.poll(() => c.waiting.allInnerTexts(), { timeout: WAIT }).toEqual(lines.map((l) => expect.stringMatching(l)));
    expect(await status(page)).toBe('waiting');
    expect(await lastAssistant(page)).toMatch(NEEDS_APPROVAL);
    // Nothing the customer types can answer the manager's gates: there is no text box.
    expect(await c.input.count()).toBe(0);
    expect(await c.badge.getAttribute('aria-label')).toBe(badge);
    expect(await c.cancel.isVisible()).toBe(true);
  }

  /** The open gates of a session, from the API. */
  async function openGates(baseUrl: string, sessionId: string): Promise<OpenInput[]> {
    const response = await fetch(`${baseUrl}/api/inputs?sessionId=${encodeURIComponent(sessionId)}`);
    return ((await response.json()) as { inputs: OpenInput[] }).inputs;
  }

  /** A mark in the page's window: still there later means the page was not loaded again. */
  const mark = (page: Page) => page.evaluate(() => ((window as unknown as { gfMark: number }).gfMark = 1));
  const marked = (page: Page) => page.evaluate(() => (window as unknown as { gfMark?: number }).gfMark === 1);

  it(
    'the customer waits (also after a reload), the manager answers with a mistake first, the customer page shows the outcome without a reload', async () => {
      const server = await serve('approve');
      const customer = await open(server.url, `?flow=${FLOW_ID}`);
      const page = customer.page;
      const c = chat(page);
      const sessionId = await chatToTheWait(page);
      await expectWaiting(page, [WAITING_LINE], '2 answers pending');
      // The customer's words, as typed: nothing the manager will give.
      expect(await c.user.allInnerTexts()).toEqual(['ab12', 'AB1234', '250', 'it arrived broken', 'Request the refund']);
      // Keys pressed while waiting send nothing (no turn after the confirmation's).
      const turns = customer.api.filter((r) => r.includes('/turns')).length;
      await page.keyboard.type('yes approve it');
      await page.keyboard.press('Enter');
      await page.waitForTimeout(200);
      expect(customer.api.filter((r) => r.includes('/turns'))).toHaveLength(turns);
      await page.screenshot({ path: join(SCREENSHOTS, 'inputs-01-customer-waiting.png'), fullPage: true });

      // Reloaded mid-wait: the same conversation, still waiting.
      const shown = await c.messages.allInnerTexts();
      const replies = await c.assistant.count();
      await page.reload();
      await c.waiting.first().waitFor();
      await expectWaiting(page, [WAITING_LINE], '2 answers pending');
      expect(await c.messages.allInnerTexts()).toEqual(shown);
      await mark(page);

      // The manager's inbox, in a browser context of its own: the session's two gates.
      const manager = await open(server.url, '?inbox');
      const m = inbox(manager.page);
      await m.forms.first().waitFor();
      const gates = await openGates(server.url, sessionId);
      expect(gates.map((g) => [g.name, g.to])).toEqual([
        ['approved', 'manager'],
        ['approved_amount', 'manager'],
      ]);
      const [approvedGate, amountGate] = gates as [OpenInput, OpenInput];
      expect(await m.forms.evaluateAll((forms) => forms.map((f) => f.getAttribute('data-gate')))).toEqual([approvedGate.gateId, amountGate.gateId]);
      expect(await m.root.locator('.gf-badge').getAttribute('aria-label')).toBe('2 waiting for an answer');
      expect(await m.root.getByRole('heading', { level: 3 }).innerText()).toContain(`conversation ${sessionId.slice(0, 8)}`);
      // The control that fits each type: Approve / Decline for the boolean, a number field for the amount.
      expect(await m.form(approvedGate.gateId).getByRole('radio').evaluateAll((r) => r.map((e) => e.parentElement!.textContent))).toEqual(['Approve', 'Decline']);
      expect(await m.amount.getAttribute('type')).toBe('number');
      // What the customer asked for, on request.
      await m.root.getByText('The conversation').click();
      await expect.poll(() => m.root.locator('.gf-inbox-transcript').innerText()).toContain('it arrived broken');
      await manager.page.screenshot({ path: join(SCREENSHOTS, 'inputs-02-inbox.png'), fullPage: true });

      // Mistake 1: "Answer" with nothing typed. Said at once, nothing sent.
      const amountForm = m.form(amountGate.gateId);
      await amountForm.getByRole('button', { name: 'Answer' }).click();
      await expect.poll(() => amountForm.getByRole('alert').innerText()).toBe('Nothing to send yet. Expected a number of at least 0.');
      expect(manager.api.filter((r) => r.startsWith('POST /api/inputs'))).toEqual([]);
      // The field has the focus again, and typing clears the note.
      expect(await manager.page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('number');
      // Mistake 2: a negative amount, sent with Enter. The server refuses it; the form and the typed value stay.
      await manager.page.keyboard.type('-5');
      expect(await amountForm.getByRole('alert').count()).toBe(0);
      await manager.page.keyboard.press('Enter');
      await expect
        .poll(() => amountForm.getByRole('alert').innerText())
        .toBe('"-5" is not accepted: That is a negative number (-5). The number must be at least 0 EUR. Expected a number of at least 0.');
      expect(await m.amount.inputValue()).toBe('-5');
      expect(await m.amount.getAttribute('aria-invalid')).toBe('true');
      expect(manager.api.filter((r) => r.startsWith('POST /api/inputs'))).toEqual([`POST /api/inputs/${amountGate.gateId} 400`]);
      await manager.page.screenshot({ path: join(SCREENSHOTS, 'inputs-03-invalid.png'), fullPage: true });
      // Nothing was saved: both gates still open, the customer still waits for both.
      expect((await openGates(server.url, sessionId)).map((g) => g.gateId)).toEqual([approvedGate.gateId, amountGate.gateId]);
      await expectWaiting(page, [WAITING_LINE], '2 answers pending');

      // Corrected: 200, Enter. The amount's form goes; the focus moves to the next gate's first control.
      await m.amount.fill('200');
      await m.amount.press('Enter');
      await expect.poll(() => m.forms.count()).toBe(1);
      await expect.poll(() => manager.page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('radio');
      // The customer's page follows, without a reload: one gate left, the message not repeated.
      await expectWaiting(page, [/^Waiting for a manager: Approve the refund\? · due in/], '1 answer pending');
      expect(await c.assistant.count()).toBe(replies);

      // Approve, by keyboard: Space on the focused "Approve", Enter.
      await manager.page.keyboard.press('Space');
      expect(await m.approve.isChecked()).toBe(true);
      await manager.page.keyboard.press('Enter');
      await expect.poll(() => m.root.getByText('Nothing is waiting for an answer.').count()).toBe(1);
      expect(await m.root.getByRole('status', { name: 'Answered here' }).innerText()).toMatch(
        /Answered “Approve the refund\?”: Approve\.\s+Answered “Approved amount \(EUR\)”: 200\./,
      );

      // The customer's page: the outcome, no wait, no cancel, and the same page (no reload).
      await expect.poll(() => lastAssistant(page), { timeout: WAIT }).toMatch(APPROVED);
      await c.finished.waitFor();
      expect(await c.finished.innerText()).toBe('Finished.');
      expect(await c.waiting.count()).toBe(0);
      expect(await c.badge.count()).toBe(0);
      expect(await c.cancel.count()).toBe(0);
      expect(await marked(page)).toBe(true);
      // Only the customer's own words are theirs: the manager's answers show as the outcome, not as "You".
      expect(await c.user.allInnerTexts()).toEqual(['ab12', 'AB1234', '250', 'it arrived broken', 'Request the refund']);
      expect((await c.assistant.allInnerTexts()).filter((t) => NEEDS_APPROVAL.test(t))).toHaveLength(1);
      await page.screenshot({ path: join(SCREENSHOTS, 'inputs-04-customer-after.png'), fullPage: true });

      const session = await fetchSession(server.url, sessionId);
      expect(session.reply.status).toBe('done');
      expect(session.reply.state).toBe('approved');
      // The journal's gate answers (fetchSession types turns as a person's; an answer is `{ input, value, by }`).
      const answered = session.history.flatMap(({ turn }) => {
        const t = turn as { input?: string; value?: unknown } | null;
        return t?.input !== undefined ? [[t.input, t.value]] : [];
      });
      expect(answered).toEqual([
        [amountGate.gateId, 200],
        [approvedGate.gateId, true],
      ]);

      expect(customer.errors).toEqual([]);
      // The one refusal: the browser logs a 400 it was told about; nothing else.
      expect(manager.errors).toEqual([expect.stringMatching(/Failed to load resource: the server responded with a status of 400/)]);
    },
  );

  it('two tabs of one browser: the inbox fills live as the customer gets to the wait, and empties live when they cancel (asked first)', async () => {
    const server = await serve('cancel');
    const customer = await open(server.url, `?flow=${FLOW_ID}`);
    const page = customer.page;
    const c = chat(page);
    // The demo's "Inbox" link, opened in a second tab: nothing waits yet.
    const inboxHref = await page.getByRole('navigation', { name: 'Demo pages' }).getByRole('link', { name: 'Inbox' }).getAttribute('href');
    expect(inboxHref).toBe('/?inbox');
    const manager = await open(server.url, inboxHref!.slice(1), { tabOf: customer });
    const m = inbox(manager.page);
    await m.root.getByText('Nothing is waiting for an answer.').waitFor();
    await mark(manager.page);

    // Back to the customer's tab (the one in front, as for a person typing in it; the inbox waits behind it).
    await page.bringToFront();
    const sessionId = await chatToTheWait(page);
    const gateIds = (await openGates(server.url, sessionId)).map((g) => g.gateId);
    expect(gateIds).toHaveLength(2);
    // The inbox tab, never reloaded, now lists the two gates.
    await expect.poll(() => m.forms.evaluateAll((forms) => forms.map((f) => f.getAttribute('data-gate'))), { timeout: WAIT }).toEqual(gateIds);
    expect(await marked(manager.page)).toBe(true);

    // "Cancel request" asks first; Escape keeps waiting, and the focus goes back to the button.
    await c.cancel.click();
    const ask = c.root.getByRole('alertdialog');
    expect(await ask.innerText()).toMatch(/Cancel this request\? A manager will no longer be asked, and this conversation ends\./);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Keep waiting');
    await page.keyboard.press('Escape');
    expect(await ask.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel request');
    expect(customer.api.filter((r) => r.includes('/cancel'))).toEqual([]);
    await expectWaiting(page, [WAITING_LINE], '2 answers pending');

    // Asked again, and cancelled.
    await c.cancel.click();
    await ask.getByRole('button', { name: 'Cancel the request' }).click();
    await c.finished.waitFor();
    expect(await c.finished.innerText()).toMatch(/^Cancelled: this conversation takes no more answers/);
    expect(await lastAssistant(page)).toMatch(/This conversation was cancelled\.$/);
    expect(await c.waiting.count()).toBe(0);
    expect(await c.cancel.count()).toBe(0);
    expect(customer.api.filter((r) => r.includes('/cancel'))).toEqual([`POST /api/sessions/${sessionId}/cancel 200`]);

    // The inbox, live: the session's forms are gone, and the page was not reloaded.
    await expect.poll(() => m.forms.count(), { timeout: WAIT }).toBe(0);
    expect(await m.root.getByText('Nothing is waiting for an answer.').count()).toBe(1);
    expect(await marked(manager.page)).toBe(true);
    await manager.page.screenshot({ path: join(SCREENSHOTS, 'inputs-05-inbox-after-cancel.png'), fullPage: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'inputs-06-customer-cancelled.png'), fullPage: true });

    expect(await openGates(server.url, sessionId)).toEqual([]);
    expect((await fetchSession(server.url, sessionId)).reply.status).toBe('cancelled');
    expect(customer.errors).toEqual([]);
    expect(manager.errors).toEqual([]);
  });

  it('"Start over" while waiting withdraws the request before starting again', async () => {
    const server = await serveWithoutInbox();
    const customer = await open(server.url, `?flow=${FLOW_ID}`);
    const page = customer.page;
    const c = chat(page);
    const sessionId = await chatToTheWait(page);

    await c.root.getByRole('button', { name: 'Start over' }).click();
    const ask = c.root.getByRole('alertdialog');
    expect(await ask.innerText()).toMatch(/discarded, and the request waiting for a manager cancelled\./);
    await ask.getByRole('button', { name: 'Discard and start over' }).click();
    await expect.poll(() => lastAssistant(page)).toMatch(/What is your order number\?/);
    await expect.poll(() => page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY)).not.toBe(sessionId);
    expect(await c.input.isVisible()).toBe(true);
    // The old request asks nobody any more.
    expect(await openGates(server.url, sessionId)).toEqual([]);
    expect((await fetchSession(server.url, sessionId)).reply.status).toBe('cancelled');
    expect(customer.errors).toEqual([]);
  });

  it('a broken events stream: once it connects again the customer page reads the session and shows the outcome', async () => {
    const server = await serveWithoutInbox();
    const customer = await open(server.url, `?flow=${FLOW_ID}`);
    const page = customer.page;
    const c = chat(page);
    const sessionId = await chatToTheWait(page);
    // The stream now fails (as behind a proxy that drops it): every connection is refused.
    await page.route('**/api/events**', (route) => route.abort('connectionreset'));
    await page.reload();
    await expectWaiting(page, [WAITING_LINE], '2 answers pending');
    await mark(page);
    await expect.poll(() => customer.errors.length).toBeGreaterThan(0);

    // Answered meanwhile, through the API: the customer's page cannot hear it.
    const gates = await openGates(server.url, sessionId);
    for (const [name, value] of [
      ['approved_amount', 200],
      ['approved', true],
    ] as const) {
      const gate = gates.find((g) => g.name === name)!;
      const answered = await fetch(`${server.url}/api/inputs/${gate.gateId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ value }),
      });
      expect(answered.status).toBe(200);
    }
    await page.waitForTimeout(500);
    expect(await status(page)).toBe('waiting');

    // The stream comes back: the next connection reads the session again.
    await page.unroute('**/api/events**');
    await expect.poll(() => lastAssistant(page), { timeout: WAIT }).toMatch(APPROVED);
    await c.finished.waitFor();
    expect(await marked(page)).toBe(true);
    // The refused connections only.
    expect(customer.errors.filter((e) => !/Failed to load resource: net::ERR_CONNECTION_RESET/.test(e))).toEqual([]);
  });
});
