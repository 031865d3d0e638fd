// Serves the built app with gateflow's server (startServer, static pages from
// dist) and loads it in Chromium: the widget asks the first question, takes a
// button, and the host is told each reply once. Then the same page from
// another origin (a plain static server, as an app's own site or a Vite dev
// server would be), calling gateflow's API, which allows that origin by CORS.
// Says the first load's gzip size (the entry and the chunks it preloads).
// Argument: playwright-core's path.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createExtractActor, flowWorkflow } from 'gateflow';
import { exampleFlowsDir, loadFlowsDir, startServer } from 'gateflow/server';
import { createMemoryStore } from 'gateflow/store';

const { chromium } = await import(pathToFileURL(process.argv[2]).href);

// What the page loads before its first paint: the scripts and styles index.html names.
const html = readFileSync('dist/index.html', 'utf8');
const firstLoad = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map(([, file]) => file);
const gzip = firstLoad.reduce((sum, file) => sum + gzipSync(readFileSync(join('dist', file))).length, 0);

const serve = (corsOrigins) =>
  startServer({
    workflows: loadFlowsDir(exampleFlowsDir()).map((doc) => flowWorkflow(doc)),
    actors: { extract: createExtractActor() },
    store: createMemoryStore(),
    port: 0,
    ...(corsOrigins ? { corsOrigins } : { staticDir: 'dist' }),
  });

/** dist/ on a loopback port of its own: a page on another origin than the API. */
async function staticSite() {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const site = createServer((req, res) => {
    const path = normalize(new URL(req.url, 'http://x').pathname).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = readFileSync(join('dist', path === '/' ? 'index.html' : path));
      res.writeHead(200, { 'content-type': types[extname(path || '.html')] ?? 'text/html' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => site.listen(0, 'localhost', resolve));
  return { url: `http://localhost:${site.address().port}`, close: () => new Promise((resolve) => site.close(resolve)) };
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});

/** The widget on the page at url: it asks, takes a button, and tells the host each reply once. */
async function converse(url) {
  const page = await browser.newPage();
  try {
    page.setDefaultTimeout(30_000);
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    const assistant = page.locator('.gf-chat .gf-message.gf-assistant:not(.gf-thinking)');
    await assistant.first().waitFor();
    await page.locator('.gf-chat').getByRole('button', { name: 'Yes' }).click();
    await assistant.nth(1).waitFor();
    await page.waitForFunction(() => document.querySelector('.gf-chat')?.getAttribute('data-status') === 'idle');
    const replies = await page.locator('#replies').textContent();
    const react = await page.locator('#react-version').textContent();
    if (replies !== '2') throw new Error(`the host was told ${replies} replies, not 2`);
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    return react;
  } finally {
    await page.close();
  }
}

try {
  const server = await serve();
  try {
    const react = await converse(server.url);
    console.log(`chromium: React ${react}: the widget asked, took a button, and told the host each of the 2 replies once (first load ${(gzip / 1000).toFixed(1)} KB gzip: ${firstLoad.join(', ')})`);
  } finally {
    await server.close();
  }
  const site = await staticSite();
  const api = await serve([site.url]);
  try {
    await converse(`${site.url}/?api=${encodeURIComponent(api.url)}`);
    console.log(`chromium: the page at ${site.url} talked to the API at ${api.url} (corsOrigins: [${site.url}])`);
  } finally {
    await api.close();
    await site.close();
  }
} finally {
  await browser.close();
}
