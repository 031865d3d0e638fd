/**
 * The studio (issue 29 §1, §2) in Debian's Chromium against a real
 * `gateflow serve` (PGlite): a session found in the session list through a
 * drawing's link and a status filter, stepped back (status, answers and turns
 * as they were then), saved as a test, and forked from that step; the fork
 * then finishes another way. Screenshots go to /tmp/shots/studio-*.png.
 *
 * Skipped without /usr/bin/chromium, unless GATEFLOW_REQUIRE_BROWSER=1.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConversationTestSchema } from '../../src/testing/conversation-format.js';
import { pgliteTemplate } from '../helpers/browser-server.js';
import { hasChromium, REQUIRE_BROWSER } from '../helpers/chromium.js';
import { useServedBrowser } from '../helpers/served-browser.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const SHOTS = '/tmp/shots';
const WAIT = PATIENCE_MS;
const TO_APPROVAL = [{ text: 'CD5678' }, { text: '250' }, { button: 'wrong_item' }, { button: 'confirm' }];

describe.skipIf(!(hasChromium || REQUIRE_BROWSER))('the studio: session list, time travel, fork, save as test', () => {
  const served = useServedBrowser({ name: 'studio', template: pgliteTemplate, serves: 'document agent: document-agent', screenshots: SHOTS });

  const api = <T>(path: string, body?: unknown) => served.api<T>(path, body);

  it('finds a session in the list, steps back, saves it as a test and forks it; the fork finishes differently', async () => {
    const { sessionId } = await api<{ sessionId: string }>('/api/flows/refund-approval/sessions', {});
    for (const turn of TO_APPROVAL) await api(`/api/sessions/${sessionId}/turns`, turn);
    await api('/api/flows/contact-request/sessions', {});

    const context = await served.browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
    try {
      // From the drawing to its sessions; the status filter keeps the waiting one.
      await page.goto(`${served.server.url}/viewer?workflow=refund-approval`);
      await page.getByRole('link', { name: 'its sessions' }).click();
      await page.waitForURL(/sessions&workflowId=refund-approval/, { timeout: WAIT });
      const rows = page.locator('table.gv-sessions tbody tr');
      await expect.poll(() => rows.count(), { timeout: WAIT }).toBe(1);
      await page.getByLabel('Status').selectOption('done');
      await expect.poll(() => page.getByText('No session matches these filters').count(), { timeout: WAIT }).toBe(1);
      expect(page.url()).toContain('status=done');
      await page.getByLabel('Status').selectOption('waiting');
      await expect.poll(() => rows.count(), { timeout: WAIT }).toBe(1);
      await page.screenshot({ path: join(SHOTS, 'studio-list.png') });
      await rows.first().getByRole('link').click();
      await page.waitForURL(new RegExp(`session=${sessionId}`), { timeout: WAIT });

      // Two steps back: the reply to "250", when the reason was asked.
      const at = page.locator('.gv-step-at');
      await expect.poll(() => at.innerText(), { timeout: WAIT }).toBe('Step 5 of 5');
      await page.getByRole('button', { name: 'Step back' }).click();
      await page.getByRole('button', { name: 'Step back' }).click();
      await expect.poll(() => at.innerText()).toBe('Step 3 of 5 (past)');
      expect(await page.locator('.gv-status .gv-state').innerText()).toBe('reason.asking');
      expect(await page.locator('.gv-answers tbody th').allInnerTexts()).toEqual(['order_number', 'amount']);
      expect(await page.locator('.gv-turn').count()).toBe(3);
      expect(await page.locator('.gv-inputs').count()).toBe(0);
      await page.screenshot({ path: join(SHOTS, 'studio-step-3.png') });

      // Save as test: the whole conversation, whatever step is shown.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Save as test' }).click();
      const file = join(SHOTS, 'studio-saved-test.json');
      await (await download).saveAs(file);
      const test = ConversationTestSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
      expect(test.turns.map((t) => t.turn)).toEqual(TO_APPROVAL);
      expect(test.savedFrom?.sessionId).toBe(sessionId);

      // Fork from step 3: a new session at the same place, with the same three steps. Its page gets the
      // drawing only once a reason is typed (as when the layout comes late under load): what is typed stays.
      let releaseDrawing!: () => void;
      const drawingHeld = new Promise<void>((resolve) => (releaseDrawing = resolve));
      await page.route(/\/api\/drawings\/refund-approval(\?|$)/, async (route) => {
        await drawingHeld;
        await route.continue();
      });
      await page.getByRole('button', { name: 'Fork from step 3' }).click();
      await page.waitForURL((url) => url.searchParams.has('session') && url.searchParams.get('session') !== sessionId, { timeout: WAIT });
      const fork = new URL(page.url()).searchParams.get('session')!;
      await expect.poll(() => at.innerText(), { timeout: WAIT }).toBe('Step 3 of 3');

      // Another reason typed in the viewer (Enter sends), its confirmation by the reply's button there, and a manager who declines: it ends otherwise.
      await expect.poll(() => page.locator('.gv-status .gv-state').innerText(), { timeout: WAIT }).toBe('reason.asking');
      const answer = page.getByLabel(/Or type an answer/);
      await expect.poll(() => answer.isEditable(), { timeout: WAIT }).toBe(true);
      await answer.fill('it arrived late');
      expect(await page.getByRole('group', { name: 'Level' }).count()).toBe(0);
      releaseDrawing();
      await expect.poll(() => page.getByRole('group', { name: 'Level' }).count(), { timeout: WAIT }).toBe(1);
      expect(await answer.inputValue()).toBe('it arrived late');
      await page.unroute(/\/api\/drawings\/refund-approval(\?|$)/);
      await answer.press('Enter');
      await expect.poll(() => at.innerText(), { timeout: WAIT }).toBe('Step 4 of 4');
      expect(await page.locator('.gv-status .gv-state').innerText()).toBe('review.reviewing');
      await page.getByRole('group', { name: "The reply's buttons" }).getByRole('button', { name: 'Request the refund' }).click();
      await expect.poll(() => at.innerText(), { timeout: WAIT }).toBe('Step 5 of 5');
      // Waiting for the manager: nothing for the person to answer.
      expect(await page.getByLabel(/Or type an answer/).count()).toBe(0);
      const waiting = await api<{ reply: { inputs: { gateId: string; name: string }[] } }>(`/api/sessions/${fork}`);
      const gate = (name: string) => waiting.reply.inputs.find((g) => g.name === name)!.gateId;
      await api(`/api/inputs/${gate('approved_amount')}`, { value: 0 });
      await api(`/api/inputs/${gate('approved')}`, { value: 'no' });
      await expect.poll(() => at.innerText(), { timeout: WAIT }).toMatch(/^Step \d+ of \d+$/);
      // (A finished session says how it ended: the refund's decision completes it.)
      await expect.poll(() => page.locator('.gv-status [data-status]').innerText(), { timeout: WAIT }).toBe('completed');
      const answers = await page.locator('.gv-answers tbody tr').allInnerTexts();
      expect(answers.join('\n')).toMatch(/reason\s+late/);
      await page.screenshot({ path: join(SHOTS, 'studio-fork-done.png') });
      const original = await api<{ reply: { status: string; answers: Record<string, { value: unknown }> } }>(`/api/sessions/${sessionId}`);
      expect(original.reply.status).toBe('waiting');
      expect(original.reply.answers.reason!.value).toBe('wrong_item');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
