// Serves the built app with gateflow's server (startServer, static pages from
// dist) and loads it in Chromium: the widget asks the first question, takes a
// button, and the host is told each reply once. Argument: playwright-core's path.
import { pathToFileURL } from 'node:url';
import { createExtractActor, flowWorkflow } from 'gateflow';
import { exampleFlowsDir, loadFlowsDir, startServer } from 'gateflow/server';
import { createMemoryStore } from 'gateflow/store';

const { chromium } = await import(pathToFileURL(process.argv[2]).href);
const server = await startServer({
  workflows: loadFlowsDir(exampleFlowsDir()).map((doc) => flowWorkflow(doc)),
  actors: { extract: createExtractActor() },
  store: createMemoryStore(),
  port: 0,
  staticDir: 'dist',
});
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(30_000);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url);
  const assistant = page.locator('.gf-chat .gf-message.gf-assistant:not(.gf-thinking)');
  await assistant.first().waitFor();
  await page.locator('.gf-chat').getByRole('button', { name: 'Yes' }).click();
  await assistant.nth(1).waitFor();
  await page.waitForFunction(() => document.querySelector('.gf-chat')?.getAttribute('data-status') === 'idle');
  const replies = await page.locator('#replies').textContent();
  const react = await page.locator('#react-version').textContent();
  if (replies !== '2') throw new Error(`the host was told ${replies} replies, not 2`);
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  console.log(`chromium: React ${react}: the widget asked, took a button, and told the host each of the 2 replies once`);
} finally {
  await browser.close();
  await server.close();
}
