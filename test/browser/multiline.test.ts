/**
 * The chat box takes several lines (issue 29 §4): Shift+Enter starts a new
 * line, Enter sends, so Markdown typed in the widget (a heading, a list)
 * reaches the document agent as written. In Debian's Chromium against a real
 * `gateflow serve` (PGlite copied from a template, no model). Screenshots go
 * to test/browser/screenshots/multiline-*.png.
 *
 * Skipped without /usr/bin/chromium, unless GATEFLOW_REQUIRE_BROWSER=1.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pgliteTemplate } from '../helpers/browser-server.js';
import { hasChromium, REQUIRE_BROWSER } from '../helpers/chromium.js';
import { useServedBrowser } from '../helpers/served-browser.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const WAIT = PATIENCE_MS;
const runBrowser = hasChromium || REQUIRE_BROWSER;

describe.skipIf(!runBrowser)('the chat box takes several lines', () => {
  const served = useServedBrowser({ name: 'multiline', template: pgliteTemplate, serves: 'document agent: document-agent', screenshots: SCREENSHOTS });

  const chat = (page: Page) => page.getByRole('region', { name: 'Document agent' });
  const box = (page: Page) => chat(page).getByRole('textbox', { name: 'Your answer' });
  const assistant = (page: Page) => chat(page).locator('.gf-message.gf-assistant:not(.gf-thinking)');
  const userMessages = (page: Page) => chat(page).locator('.gf-message.gf-user');

  async function settledAfter(page: Page, before: number): Promise<void> {
    await expect.poll(() => assistant(page).count(), { timeout: WAIT }).toBe(before + 1);
    await page.waitForFunction(() => document.querySelector('.gf-chat')?.getAttribute('data-status') !== 'sending');
  }

  async function documents(): Promise<{ name: string; content: string }[]> {
    const { projects } = (await (await fetch(`${served.server.url}/api/projects`)).json()) as { projects: { id: number }[] };
    const response = await fetch(`${served.server.url}/api/projects/${projects[0]!.id}/documents`);
    return ((await response.json()) as { documents: { name: string; content: string }[] }).documents;
  }

  it('Shift+Enter starts a new line, Enter sends the lines as written, a reload shows them', async () => {
    const context = await served.browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(WAIT);
    const page = await context.newPage();
    try {
      await page.goto(`${served.server.url}/?flow=document-agent`);
      await expect.poll(() => assistant(page).count(), { timeout: WAIT }).toBe(1);
      const input = box(page);
      expect(await input.evaluate((el) => el.tagName)).toBe('TEXTAREA');

      let before = await assistant(page).count();
      await input.click();
      await page.keyboard.type('create a document called Recipes');
      await page.keyboard.press('Enter');
      await settledAfter(page, before);

      // Three lines: the box grows with them and nothing is sent until Enter.
      before = await assistant(page).count();
      await input.click();
      await page.keyboard.type('add this to Recipes: ## Budget');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('- flour');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('- eggs');
      expect(await input.inputValue()).toBe('add this to Recipes: ## Budget\n- flour\n- eggs');
      expect(await input.getAttribute('rows')).toBe('3');
      expect(await userMessages(page).count()).toBe(1);
      await page.screenshot({ path: join(SCREENSHOTS, 'multiline-01-typed.png'), fullPage: true });
      await page.keyboard.press('Enter');
      await settledAfter(page, before);
      expect(await input.inputValue()).toBe('');
      expect(await input.getAttribute('rows')).toBe('1');

      // The Markdown reached the agent as written: a heading and a list in the document.
      await expect.poll(async () => (await documents()).find((d) => d.name === 'Recipes')?.content).toBe('## Budget\n- flour\n- eggs\n');
      // The transcript shows the message on its lines.
      expect(await userMessages(page).last().locator('p').innerText()).toBe('add this to Recipes: ## Budget\n- flour\n- eggs');
      await page.screenshot({ path: join(SCREENSHOTS, 'multiline-02-sent.png'), fullPage: true });

      // After a reload the transcript keeps the lines.
      await page.reload();
      await expect.poll(() => userMessages(page).count(), { timeout: WAIT }).toBe(2);
      expect(await userMessages(page).last().locator('p').innerText()).toBe('add this to Recipes: ## Budget\n- flour\n- eggs');
      await page.screenshot({ path: join(SCREENSHOTS, 'multiline-03-reloaded.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });
});
