/**
 * The chat box never cuts what a person types or pastes: a message longer
 * than a turn may carry (MAX_TURN_TEXT_LENGTH) is kept whole, counted near the
 * box and said to be too long, and not sent until it is shortened. In
 * Debian's Chromium against a real `gateflow serve`. Screenshots go to
 * test/browser/screenshots/long-text-*.png.
 *
 * Skipped without /usr/bin/chromium, unless GATEFLOW_REQUIRE_BROWSER=1.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_TURN_TEXT_LENGTH } from '../../src/workflow/turn.js';
import { pgliteTemplate } from '../helpers/browser-server.js';
import { hasChromium, REQUIRE_BROWSER } from '../helpers/chromium.js';
import { useServedBrowser } from '../helpers/served-browser.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const WAIT = PATIENCE_MS;

describe.skipIf(!(hasChromium || REQUIRE_BROWSER))('a message longer than a turn may carry', () => {
  const served = useServedBrowser({ name: 'long-text', template: pgliteTemplate, serves: 'document agent: document-agent', screenshots: SCREENSHOTS });

  it('is kept whole, counted and said to be too long beside the box, and not sent until shortened', async () => {
    const context = await served.browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(WAIT);
    const page = await context.newPage();
    try {
      await page.goto(`${served.server.url}/?flow=document-agent`);
      const chat = page.getByRole('region', { name: 'Document agent' });
      const box = chat.getByRole('textbox', { name: 'Your answer' });
      const count = chat.locator('.gf-count');
      const sent = chat.locator('.gf-message.gf-user');
      await expect.poll(() => chat.locator('.gf-message.gf-assistant:not(.gf-thinking)').count(), { timeout: WAIT }).toBe(1);

      // Short: no count.
      await box.click();
      await page.keyboard.insertText('hello');
      expect(await count.count()).toBe(0);

      // Pasted past the limit: every character kept, and the person told.
      const long = `${'word '.repeat(MAX_TURN_TEXT_LENGTH / 5)}and 100 more ${'x'.repeat(87)}`;
      await box.fill('');
      await page.keyboard.insertText(long);
      expect((await box.inputValue()).length).toBe(long.length);
      const over = long.length - MAX_TURN_TEXT_LENGTH;
      await expect.poll(() => count.textContent()).toBe(`${long.length} characters: a message can have at most ${MAX_TURN_TEXT_LENGTH}. Shorten it by ${over} to send it.`);
      expect(await count.isVisible()).toBe(true);
      expect(await count.getAttribute('role')).toBe('status');
      expect(await box.getAttribute('aria-invalid')).toBe('true');
      expect(await box.getAttribute('aria-describedby')).toBe(await count.getAttribute('id'));
      expect(await chat.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
      await page.screenshot({ path: join(SCREENSHOTS, 'long-text-01-over.png') });
      // Enter does not send it (nor drop it).
      await page.keyboard.press('Enter');
      expect(await sent.count()).toBe(0);
      expect((await box.inputValue()).length).toBe(long.length);

      // Shortened to the limit: counted, and it may be sent.
      await box.fill(long.slice(0, MAX_TURN_TEXT_LENGTH));
      await expect.poll(() => count.textContent()).toBe(`${MAX_TURN_TEXT_LENGTH} of ${MAX_TURN_TEXT_LENGTH} characters`);
      expect(await box.getAttribute('aria-invalid')).toBeNull();
      expect(await chat.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
      await page.screenshot({ path: join(SCREENSHOTS, 'long-text-02-at-limit.png') });
    } finally {
      await context.close();
    }
  });
});
