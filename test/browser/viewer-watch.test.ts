/**
 * Hot reload seen in the viewer (issue 29 §3): under `gateflow serve --watch
 * --flows DIR`, a flow file changed on disk is drawn again in the open page,
 * at both levels, from the layout the server made of the new version; the old
 * drawing stays on screen until the new one is drawn (no blank frame).
 * Screenshots go to /tmp/shots/viewer-watch-*.png.
 *
 * Skipped without /usr/bin/chromium, unless GATEFLOW_REQUIRE_BROWSER=1.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoBuilt, freshDataDir, pgliteTemplate } from '../helpers/browser-server.js';
import { hasChromium, launchChromium, REQUIRE_BROWSER } from '../helpers/chromium.js';
import { FLOWS_DIR } from '../helpers/http.js';
import { PATIENCE_MS } from '../helpers/patience.js';
import { spawnServe, type ServeProcess } from '../helpers/serve-process.js';

const SHOTS = '/tmp/shots';

describe.skipIf(!(hasChromium || REQUIRE_BROWSER))('the viewer under serve --watch', () => {
  let base: string;
  let flows: string;
  let browser: Browser | undefined;
  let server: ServeProcess | undefined;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ensureDemoBuilt();
    base = mkdtempSync(join(tmpdir(), 'gateflow-viewer-watch-'));
    flows = join(base, 'flows');
    mkdirSync(flows);
    copyFileSync(join(FLOWS_DIR, 'contact-request.json'), join(flows, 'contact-request.json'));
    const dataDir = freshDataDir(await pgliteTemplate(base), base, 'db');
    [browser, server] = await Promise.all([launchChromium(), spawnServe({ env: { GATEFLOW_DB_DIR: dataDir }, args: ['--watch', '--flows', flows, '--agents', 'none', '--no-warm-layouts'] })]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.kill();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  /** The flow file with a question added before the review (`company`), or as it was. */
  const rewrite = (added: boolean) => {
    const doc = JSON.parse(readFileSync(join(FLOWS_DIR, 'contact-request.json'), 'utf8'));
    if (added) {
      doc.nodes.splice(3, 0, { kind: 'question', id: 'company', prompt: 'Which company are you with?', answer: { type: 'string' } });
      doc.edges = doc.edges.map((e: { from: string; to: string }) => (e.from === 'phone' && e.to === 'review' ? { ...e, to: 'company' } : e));
      doc.edges.push({ from: 'company', to: 'review' });
    }
    writeFileSync(join(flows, 'contact-request.json'), JSON.stringify(doc, null, 2));
  };

  /** Whether the server draws the flow with the added question. */
  const servesCompany = async () => {
    const response = await fetch(`${server!.url}/api/drawings/contact-request`, { signal: AbortSignal.timeout(PATIENCE_MS) });
    return JSON.stringify(await response.json()).includes('company');
  };

  it.each(['outline', 'machine'] as const)('draws a changed flow again at the %s level, keeping the old drawing until then', async (level) => {
    rewrite(false);
    await expect.poll(servesCompany, { timeout: PATIENCE_MS }).toBe(false);
    const context = await browser!.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
    try {
      await page.goto(`${server!.url}/viewer?workflow=contact-request&level=${level}`);
      const boxes = page.locator('.gv-canvas svg .gf-node');
      await boxes.first().waitFor({ timeout: PATIENCE_MS });
      expect(await page.locator('.gf-node[data-id*="company"]').count()).toBe(0);
      // Whether the canvas was ever empty from here on (a blank frame while the new drawing is laid out).
      await page.evaluate(() => {
        const state = window as unknown as { gateflowBlank: boolean };
        state.gateflowBlank = false;
        new MutationObserver(() => {
          if (document.querySelectorAll('.gv-canvas svg .gf-node').length === 0) state.gateflowBlank = true;
        }).observe(document.body, { childList: true, subtree: true });
      });

      rewrite(true);
      await expect.poll(() => page.locator('.gf-node[data-id*="company"]').count(), { timeout: PATIENCE_MS }).toBeGreaterThan(0);
      expect(await page.evaluate(() => (window as unknown as { gateflowBlank: boolean }).gateflowBlank)).toBe(false);
      // The new version's layout came from the server too.
      const sources = await page.evaluate(() => performance.getEntriesByType('measure').filter((m) => m.name.startsWith('gateflow:layout')).map((m) => (m as PerformanceMeasure).detail?.source as string));
      expect(sources).toEqual(['server', 'server']);
      await page.screenshot({ path: join(SHOTS, `viewer-watch-${level}.png`) });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  /** The canvas's view (its viewBox, as `data-view`) once the drawing with the added question is on the page. */
  const viewOnceChanged = async (page: Page) => {
    await expect.poll(() => page.locator('.gf-node[data-id*="company"]').count(), { timeout: PATIENCE_MS }).toBeGreaterThan(0);
    return page.locator('.gv-canvas').getAttribute('data-view');
  };

  /** The view a page opened now on the drawing gets: what "fitted" means for this frame. */
  const freshView = async (level: string) => {
    const context = await browser!.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server!.url}/viewer?workflow=contact-request&level=${level}`);
      await page.locator('.gv-canvas svg .gf-node').first().waitFor({ timeout: PATIENCE_MS });
      return await page.locator('.gv-canvas').getAttribute('data-view');
    } finally {
      await context.close();
    }
  };

  // The rule: a view nobody moved follows the drawing (fitted again, as if opened anew); a view the person
  // panned or zoomed stays where they put it.
  it.each(['outline', 'machine'] as const)('at the %s level, a view nobody moved is fitted to the changed drawing', async (level) => {
    rewrite(false);
    await expect.poll(servesCompany, { timeout: PATIENCE_MS }).toBe(false);
    const context = await browser!.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server!.url}/viewer?workflow=contact-request&level=${level}`);
      await page.locator('.gv-canvas svg .gf-node').first().waitFor({ timeout: PATIENCE_MS });
      const before = await page.locator('.gv-canvas').getAttribute('data-view');
      rewrite(true);
      const after = await viewOnceChanged(page);
      expect(after).not.toBe(before);
      expect(after).toBe(await freshView(level));
      await page.screenshot({ path: join(SHOTS, `viewer-watch-refit-${level}.png`) });
    } finally {
      await context.close();
    }
  });

  it('a view the person moved is kept when the drawing changes', async () => {
    rewrite(false);
    await expect.poll(servesCompany, { timeout: PATIENCE_MS }).toBe(false);
    const context = await browser!.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server!.url}/viewer?workflow=contact-request&level=outline`);
      await page.locator('.gv-canvas svg .gf-node').first().waitFor({ timeout: PATIENCE_MS });
      const canvas = page.locator('.gv-canvas');
      const opened = await canvas.getAttribute('data-view');
      await canvas.press('ArrowRight');
      await canvas.press('+');
      const moved = await canvas.getAttribute('data-view');
      expect(moved).not.toBe(opened);
      rewrite(true);
      expect(await viewOnceChanged(page)).toBe(moved);
      // Fit still shows the whole of the new drawing.
      await page.getByRole('button', { name: 'Fit' }).click();
      expect(await canvas.getAttribute('data-view')).not.toBe(moved);
    } finally {
      await context.close();
    }
  });
});

