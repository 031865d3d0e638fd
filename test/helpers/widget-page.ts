/** What the browser suites read off the chat widget on a page. */
import type { Page } from 'playwright-core';
import { PATIENCE_MS } from './patience.js';

/** Assistant messages shown (not the "Thinking…" placeholder). */
export const assistantCount = (page: Page) => page.locator('.gf-chat .gf-message.gf-assistant:not(.gf-thinking)').count();

/** Waits until the widget is idle or finished with `assistant` assistant messages. */
export async function settled(page: Page, assistant: number, timeout = PATIENCE_MS): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const chat = document.querySelector('.gf-chat');
      const status = chat?.getAttribute('data-status');
      return (status === 'idle' || status === 'finished') && chat!.querySelectorAll('.gf-message.gf-assistant:not(.gf-thinking)').length === n;
    },
    assistant,
    { timeout, polling: 50 },
  );
}
