/**
 * Walks the built Storybook in Chromium: every story in index.json renders,
 * its play function passes, and nothing is logged as an error. Each state story
 * shows what tells it apart, and a screenshot of every story is written to
 * test/browser/screenshots/ for a person to look at.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, REQUIRE_BROWSER } from '../helpers/chromium.js';
import { newestMtime } from '../helpers/files.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCREENSHOTS = join(ROOT, 'test', 'browser', 'screenshots');
const STORYBOOK_BIN = join(ROOT, 'node_modules', 'storybook', 'dist', 'bin', 'dispatcher.js');
/** Where the static Storybook is built (set GATEFLOW_STORYBOOK_DIR to use another). */
const STORYBOOK_DIR = process.env.GATEFLOW_STORYBOOK_DIR?.trim() || join(tmpdir(), `gateflow-storybook-${process.getuid?.() ?? 0}`);
const BUILD_TIMEOUT = PATIENCE_MS;
const STORY_TIMEOUT = PATIENCE_MS;

/** The stories of stories/ChatWidget.stories.tsx and stories/InputGates.stories.tsx, by id. */
const STORIES = {
  firstGate: 'chatwidget--first-gate',
  gateWithButtons: 'chatwidget--gate-with-buttons',
  extractionInProgress: 'chatwidget--extraction-in-progress',
  extractionFailed: 'chatwidget--extraction-failed',
  summary: 'chatwidget--summary-awaiting-confirmation',
  stopped: 'chatwidget--stopped-by-limiting-value',
  handedOff: 'chatwidget--handed-off',
  serverError: 'chatwidget--server-error',
  startOverAsks: 'chatwidget--start-over-asks',
  interactive: 'chatwidget--interactive',
  // stories/InputGates.stories.tsx: each checks itself in its play function.
  gatesWaiting: 'inputgates--waiting',
  gatesWaitingBadge: 'inputgates--waiting-badge',
  gatesAnswering: 'inputgates--answering',
  gatesAnsweredEveryType: 'inputgates--answered-every-type',
  gatesAnsweredLive: 'inputgates--answered-live',
  gatesInvalidValue: 'inputgates--invalid-value',
  gatesTimedOut: 'inputgates--timed-out',
  gatesCancelled: 'inputgates--cancelled',
  gatesAnsweringInChat: 'inputgates--answering-in-chat',
  gatesInvalidValueInChat: 'inputgates--invalid-value-in-chat',
  gatesAnsweringInChatBadge: 'inputgates--answering-in-chat-badge',
} as const;

const runBrowser = hasChromium || REQUIRE_BROWSER;

// ---------------------------------------------------------------------------
// Building and serving the static Storybook

/** The newest modification time of what the build reads. */
const newestSource = () => newestMtime(ROOT, ['.storybook', 'stories', 'src', 'machines', 'vite.config.ts', 'package.json', 'package-lock.json']);

/** Builds Storybook into STORYBOOK_DIR unless a build newer than its sources is there. Returns the build's seconds, or 0. */
async function ensureStorybook(): Promise<number> {
  const index = join(STORYBOOK_DIR, 'index.json');
  const built = statSync(index, { throwIfNoEntry: false });
  if (built && built.mtimeMs > newestSource()) return 0;
  const started = performance.now();
  // Built beside the target and renamed into place, so a half-written build is never used.
  const out = `${STORYBOOK_DIR}.building-${process.pid}`;
  rmSync(out, { recursive: true, force: true });
  try {
    // `--test`: the build Storybook makes for tests (no docs, no source maps), in about half the time.
    await promisify(execFile)(process.execPath, [STORYBOOK_BIN, 'build', '--test', '-o', out, '--quiet'], {
      cwd: ROOT,
      env: { ...process.env, STORYBOOK_DISABLE_TELEMETRY: '1', CI: '1', NO_COLOR: '1' },
      timeout: BUILD_TIMEOUT,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const e = error as Error & { stdout?: string; stderr?: string };
    rmSync(out, { recursive: true, force: true });
    throw new Error(`storybook build failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
  rmSync(STORYBOOK_DIR, { recursive: true, force: true });
  renameSync(out, STORYBOOK_DIR);
  return (performance.now() - started) / 1000;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** A static file server for `root` on 127.0.0.1, any free port. */
async function serveStatic(root: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    // Chromium asks for /favicon.ico by itself (iframe.html names no icon): not the story's request.
    if (pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    let file = normalize(join(root, pathname));
    if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) {
      res.writeHead(403).end();
      return;
    }
    if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${pathname}`);
      return;
    }
    // Cacheable: each story is a new page, and Chromium then reuses the preview's scripts, compiled, for the next.
    res.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'max-age=600' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

// ---------------------------------------------------------------------------
// Visiting stories

interface IndexEntry {
  type: 'story' | 'docs';
  id: string;
  title: string;
  name: string;
}

/** What the preview's channel told about the story shown last (recorded by INIT_SCRIPT). */
interface StoryEvents {
  finished: { storyId: string; status: 'success' | 'error'; reporters: unknown[] } | null;
  errors: { event: string; detail: unknown }[];
}

/**
 * Runs before the preview's scripts: records the channel events that say a
 * story finished (with its status) or failed, and offers `__gateflowShow(id)`,
 * which empties the record and asks the preview for another story, as
 * Storybook's own UI does when a person picks one (the channel's
 * `setCurrentStory`). The preview assigns `__STORYBOOK_ADDONS_CHANNEL__` when
 * it starts; a setter catches it.
 */
const INIT_SCRIPT = `(() => {
  const events = { finished: null, errors: [] };
  window.__gateflowStory = events;
  let channel;
  window.__gateflowShow = (storyId) => {
    events.finished = null;
    events.errors.length = 0;
    channel.emit('setCurrentStory', { storyId, viewMode: 'story' });
  };
  Object.defineProperty(globalThis, '__STORYBOOK_ADDONS_CHANNEL__', {
    configurable: true,
    get: () => channel,
    set: (next) => {
      channel = next;
      next.on('storyFinished', (e) => { events.finished = { storyId: e.storyId, status: e.status, reporters: e.reporters }; });
      for (const name of ['storyErrored', 'storyThrewException', 'playFunctionThrewException', 'unhandledErrorsWhilePlaying', 'storyMissing'])
        next.on(name, (detail) => events.errors.push({ event: name, detail }));
    },
  });
})();`;

interface Visit {
  page: Page;
  /** console errors, page errors, failed requests and HTTP errors while the story was shown, in order. */
  problems: string[];
  events: StoryEvents;
  ms: number;
}

describe.skipIf(!runBrowser)('Storybook in Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let server: Server;
  let baseUrl: string;
  let stories: IndexEntry[] = [];

  beforeAll(async () => {
    const seconds = await ensureStorybook();
    if (seconds > 0) console.info(`storybook built in ${seconds.toFixed(1)}s into ${STORYBOOK_DIR}`);
    const index = JSON.parse(readFileSync(join(STORYBOOK_DIR, 'index.json'), 'utf8')) as { entries: Record<string, IndexEntry> };
    stories = Object.values(index.entries).filter((e) => e.type === 'story');
    ({ server, url: baseUrl } = await serveStatic(STORYBOOK_DIR));
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 900, height: 800 }, reducedMotion: 'reduce' });
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  let page: Page | undefined;
  /** Where the page's console errors, page errors and failed requests go: the story shown now. */
  let problems: string[] = [];

  /**
   * Shows a story and waits until it finished (rendered, and its play
   * function done). All stories share one page, switched as Storybook's UI
   * switches them: loading the preview (2 MB of scripts) once instead of per
   * story saves about a CPU-second per story. A story that leaks state into
   * the next one is then a bug a person would meet in Storybook too.
   */
  async function show(id: string): Promise<Visit> {
    const started = performance.now();
    problems = [];
    const shown = problems;
    if (!page) {
      page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console.error: ${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.stack ?? error.message}`));
      page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
      page.on('response', (response) => {
        if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
      });
      await page.addInitScript(INIT_SCRIPT);
      await page.goto(`${baseUrl}/iframe.html?id=${encodeURIComponent(id)}&viewMode=story`, { waitUntil: 'load' });
    } else {
      await page.evaluate((storyId) => (window as unknown as { __gateflowShow: (id: string) => void }).__gateflowShow(storyId), id);
    }
    // Rendered, and the play function (if any) done: the preview says this story finished.
    await page.waitForFunction(
      (storyId) => (window as unknown as { __gateflowStory: StoryEvents }).__gateflowStory.finished?.storyId === storyId,
      id,
      { timeout: STORY_TIMEOUT },
    );
    await page.waitForFunction(() => (document.querySelector('#storybook-root')?.childElementCount ?? 0) > 0, null, {
      timeout: STORY_TIMEOUT,
    });
    const events = await page.evaluate(() => structuredClone((window as unknown as { __gateflowStory: StoryEvents }).__gateflowStory));
    return { page, problems: shown, events, ms: performance.now() - started };
  }

  /** Shows a story and takes its screenshot. */
  async function visit(id: string): Promise<Visit> {
    const visited = await show(id);
    await visited.page.screenshot({ path: join(SCREENSHOTS, `storybook-${id}.png`), fullPage: true });
    return visited;
  }

  it('the build lists every story of stories/', () => {
    expect(stories.map((s) => s.id).sort()).toEqual(expect.arrayContaining(Object.values(STORIES).sort()));
  });

  it(
    'every story renders in Chromium and its play function passes, with no console errors or page errors',
    async () => {
      expect(stories.length).toBeGreaterThan(0);
      const failures: Record<string, unknown> = {};
      const timings: string[] = [];
      for (const story of stories) {
        try {
          const { page, problems, events, ms } = await visit(story.id);
          timings.push(`${story.id} ${Math.round(ms)}ms`);
          const errorDisplay = await page.evaluate(() => document.body.classList.contains('sb-show-errordisplay'));
          if (problems.length > 0 || events.errors.length > 0 || events.finished?.status !== 'success' || errorDisplay)
            failures[story.id] = {
              problems,
              channel: events.errors.map(({ event, detail }) => `${event}: ${summarize(detail)}`),
              finished: events.finished?.status ?? null,
              errorDisplay,
            };
        } catch (error) {
          failures[story.id] = String(error);
        }
      }
      console.info(`stories: ${timings.join(', ')}`);
      expect(failures).toEqual({});
    },
  );

  /** Waits for a locator to be visible (fails with the locator in the message). */
  const visible = async (page: Page, selector: ReturnType<Page['getByText']>, what: string) => {
    try {
      await selector.first().waitFor({ state: 'visible', timeout: STORY_TIMEOUT });
    } catch {
      throw new Error(`${what} is not visible in ${page.url()}`);
    }
  };
  const buttonLabels = (page: Page, group: string) =>
    page.getByRole('group', { name: group }).getByRole('button').allTextContents();

  it('FirstGate shows the first question with Yes and No', async () => {
    const { page } = await show(STORIES.firstGate);
    await visible(page, page.getByText("Do we have the patient's information available"), 'the first question');
    expect(await buttonLabels(page, 'Choices')).toEqual(['Yes', 'No']);
    expect(await page.locator('.gf-message').count()).toBe(1);
  });

  it('GateWithButtons shows the visit type question with its five categories', async () => {
    const { page } = await show(STORIES.gateWithButtons);
    await visible(page, page.getByText('What kind of visit is this?'), 'the visit type question');
    expect(await buttonLabels(page, 'Choices')).toEqual(['New patient', 'Follow-up', 'Urgent care', 'Telehealth', 'Emergency']);
  });

  it('ExtractionInProgress shows the thinking indicator, no buttons, Send disabled and the text typed meanwhile kept', async () => {
    const { page } = await show(STORIES.extractionInProgress);
    await visible(page, page.getByRole('status').filter({ hasText: 'Thinking…' }), 'the thinking indicator');
    expect(await page.getByRole('group', { name: 'Choices' }).count()).toBe(0);
    expect(await page.getByLabel('Your answer').isDisabled()).toBe(false);
    expect(await page.getByLabel('Your answer').inputValue()).toBe('an adult');
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
  });

  it('ExtractionFailed shows the "having trouble understanding" reply and the buttons again', async () => {
    const { page } = await show(STORIES.extractionFailed);
    await visible(page, page.getByText("I'm having trouble understanding your response"), 'the not-understood reply');
    expect(await buttonLabels(page, 'Choices')).toHaveLength(5);
  });

  it('SummaryAwaitingConfirmation shows the summary card and the confirm / edit buttons', async () => {
    const { page } = await show(STORIES.summary);
    await visible(page, page.locator('.gf-summary').getByRole('heading', { name: 'Summary of Collected Information' }), 'the summary card');
    expect(await buttonLabels(page, 'Confirm or edit')).toEqual(['Looks Good', 'Edit Answers']);
    expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(0);
  });

  it('StartOverAsks shows the question with Keep going and Discard, the conversation still there', async () => {
    const { page } = await show(STORIES.startOverAsks);
    const ask = page.getByRole('alertdialog');
    await visible(page, ask, 'the start-over question');
    expect(await ask.getByRole('button').allTextContents()).toEqual(['Discard and start over', 'Keep going']);
    expect(await page.locator('.gf-message').count()).toBe(5);
  });

  it('StoppedByLimitingValue shows the stop message and the intake ended', async () => {
    const { page } = await show(STORIES.stopped);
    await visible(page, page.getByText('This sounds like an emergency. Please call 911'), 'the stop message');
    await visible(page, page.getByText('Finished.'), 'the ended state');
    expect(await page.getByLabel('Your answer').count()).toBe(0);
  });

  it('HandedOff shows the handoff message and "Finished: handed off."', async () => {
    const { page } = await show(STORIES.handedOff);
    await visible(page, page.getByText('has been handed off to the care team'), 'the handoff message');
    await visible(page, page.getByText('Finished: handed off.'), 'the finished state');
  });

  it('ServerError shows the error and a Retry button', async () => {
    const { page } = await show(STORIES.serverError);
    await visible(page, page.getByRole('alert').filter({ hasText: 'Something went wrong: cannot reach the server' }), 'the error');
    await visible(page, page.getByRole('button', { name: 'Retry' }), 'the Retry button');
  });

  it('Interactive runs the compiled flow: after its play function the third question is asked, each turn once', async () => {
    const { page } = await show(STORIES.interactive);
    await visible(page, page.getByText('What kind of visit is this?'), 'the third question');
    // StrictMode runs effects twice: still one session, one message per turn.
    expect(await page.locator('.gf-message').allTextContents()).toEqual([
      expect.stringContaining("Do we have the patient's information available"),
      expect.stringContaining('Yes'),
      expect.stringContaining('history of inconsistencies'),
      expect.stringContaining('there was one gap'),
      expect.stringContaining('What kind of visit is this?'),
    ]);
  });
});

/** A channel event's payload, short: an error's message (without the DOM dump testing-library appends). */
function summarize(detail: unknown): string {
  const message = (detail as { message?: unknown } | null)?.message;
  const text = typeof message === 'string' ? message : JSON.stringify(detail);
  return text.split('\n\n')[0]!.slice(0, 500);
}
