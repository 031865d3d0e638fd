// Hands-on (not committed): npx tsx hands-lead.mts PORT FLOW "msg" "msg" ... ; "@reload" reloads; "@shot" screenshots
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/helpers/chromium.js';
const launchChromium = () => chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const [port, flow, ...steps] = process.argv.slice(2);
const origin = `http://127.0.0.1:${port}`;
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 900, height: 1200 } });
page.on('console', (m) => { if (m.type() === 'error') console.log('[console error]', m.text()); });
await page.goto(`${origin}/?flow=${flow}`);
await page.locator('.gf-chat .gf-message.gf-assistant').first().waitFor();
const assistant = () => page.locator('.gf-chat .gf-message.gf-assistant');
let shot = 0;
for (const step of steps) {
  if (step === '@reload') { await page.reload(); await assistant().first().waitFor(); console.log('--- reloaded'); continue; }
  if (step === '@shot') { await page.screenshot({ path: `/tmp/s37/hands-${flow}-${++shot}.png`, fullPage: true }); continue; }
  const n = await assistant().count();
  if (step.startsWith('#')) { await page.locator('.gf-chat').getByRole('button', { name: step.slice(1), exact: true }).first().click(); }
  else { await page.getByRole('textbox', { name: 'Your answer' }).fill(step); await page.keyboard.press('Enter'); }
  await page.waitForFunction((k) => document.querySelectorAll('.gf-chat .gf-message.gf-assistant').length > k, n, { timeout: 15000 }).catch(() => console.log('(no new reply)'));
  await page.waitForTimeout(150);
  const last = (await assistant().allInnerTexts()).at(-1)?.replace(/\s+/g, ' ');
  const buttons = (await page.locator('.gf-chat button').allInnerTexts()).filter((b) => b.trim()).slice(0, 8).join(' | ');
  console.log(`> ${step}\n  ${last}\n  [${buttons}]`);
}
await page.screenshot({ path: `/tmp/s37/hands-${flow}-final.png`, fullPage: true });
await browser.close();
