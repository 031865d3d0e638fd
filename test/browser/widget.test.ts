/**
 * The chat widget end to end (issue 4, section 5): the demo page in Debian's
 * Chromium against the real server on 127.0.0.1 (PGlite in a temporary
 * directory). Intakes by clicks and by typing, a stop on a limiting value, an
 * edit after the summary, a reload mid-intake, the server going away and
 * coming back, StrictMode, the "thinking" indicator with a slow model, the
 * accessibility basics and `?inspect`. Screenshots of the main states go to
 * test/browser/screenshots/ (not committed).
 *
 * Skipped without /usr/bin/chromium, unless GATEFLOW_REQUIRE_BROWSER=1.
 */
import { PGlite } from '@electric-sql/pglite';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, ConsoleMessage, Locator, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createExtractActor } from '../../src/extract/actor.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { modelFromEnv } from '../../src/extract/model-from-env.js';
import { INSPECTOR_CONNECT_TIMEOUT_MS } from '../../src/react/stately-inspector.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import {
  DEMO_DIR,
  buildDevelopmentDemo,
  ensureDemoBuilt,
  fetchSession,
  freshDataDir,
  killChildren,
  pgliteTemplate,
  spawnServe,
  type SessionState,
} from '../helpers/browser-server.js';
import { hasChromium, launchChromium, REQUIRE_BROWSER } from '../helpers/chromium.js';
import { assistantCount, settled } from '../helpers/widget-page.js';
import { exampleFlows } from '../helpers/http.js';
import { personMessage, respond, startOpenAICompatibleServer, type OpenAICompatibleServer, type Responder } from '../helpers/openai-compatible-server.js';
import { withEvidence } from '../helpers/mock-model.js';
import { G1, G2, G3, G4, G5 } from '../helpers/patient-intake.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const FLOW_ID = 'patient-intake';
const STORAGE_KEY = `gateflow:session:${FLOW_ID}`;
/** Playwright's waits stay well inside the test timeout, so a failure says what it waited for. */
const WAIT = PATIENCE_MS;

const QUESTION = {
  [G1]: /Do we have the patient's information available/,
  [G2]: /history of inconsistencies in their insurance coverage/,
  [G3]: /What kind of visit is this\?/,
  [G4]: /adult \(18 or older\) or a minor/,
  [G5]: /How should we contact the patient/,
} as const;
const STOP_G1 = /We need the patient's basic information/;
const STOP_G3 = /This sounds like an emergency/;
const HANDOFF_MESSAGE = /handed off to the care team/;
/** Text the offline matcher abstains on at gate 2, so the model is asked. */
const HARD_TEXT = 'Her coverage story is complicated';

/** What one page load saw: errors, the API requests it made, windows it opened. */
interface Opened {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions and console errors. */
  errors: string[];
  /** API requests, as "METHOD /path". */
  api: string[];
  /** Requests to anywhere but the server under test (answered locally, never sent). */
  offsite: string[];
  popups: Page[];
}

const runBrowser = hasChromium || REQUIRE_BROWSER;

describe.skipIf(!runBrowser)('the chat widget in Chromium against the real server', () => {
  let browser: Browser;
  let base: string;
  let template: string;
  /** The server most tests share (each test has its own browser context and session). */
  let shared: RunningServer;
  const servers = new Set<RunningServer>();
  const contexts = new Set<BrowserContext>();

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await ensureDemoBuilt();
    base = mkdtempSync(join(tmpdir(), 'gateflow-browser-'));
    [browser, template] = await Promise.all([launchChromium(), pgliteTemplate(base)]);
    shared = await serveInProcess('shared');
    void developmentDemo();
  });

  afterEach(async () => {
    await Promise.all([...contexts].map((c) => c.close().catch(() => {})));
    contexts.clear();
    await killChildren();
  });

  afterAll(async () => {
    await tab?.context.close().catch(() => {});
    await Promise.all([...servers].map((s) => s.close().catch(() => {})));
    await browser?.close();
    await killChildren();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  let developmentBuild: Promise<string> | undefined;
  /**
   * The demo page with React's development build (StrictMode runs effects
   * twice), built once: started with the file, in Vite's own process, so the
   * tests before the first that needs it run meanwhile.
   */
  function developmentDemo(): Promise<string> {
    if (!developmentBuild) {
      const dir = join(base, 'demo-development');
      developmentBuild = buildDevelopmentDemo(dir).then(() => dir);
      // Awaited by the tests that need it (a failure is theirs); no unhandled rejection before then.
      developmentBuild.catch(() => {});
    }
    return developmentBuild;
  }

  /** startServer in this process, on a PGlite directory of its own, serving the built demo. */
  async function serveInProcess(name: string, options: { extract?: ReturnType<typeof createExtractActor>; staticDir?: string } = {}) {
    const server = await startServer({
      workflows: exampleFlows().map((flow) => flowWorkflow(flow)),
      actors: { extract: options.extract ?? createExtractActor() },
      port: 0,
      dataDir: freshDataDir(template, base, name),
      staticDir: options.staticDir ?? DEMO_DIR,
    });
    servers.add(server);
    return server;
  }

  async function closeServer(server: RunningServer) {
    servers.delete(server);
    await server.close();
  }

  /** Routes what a context asks of anywhere but `origin` (nothing leaves the machine), recording it in `record().offsite`. */
  async function keepOffline(context: BrowserContext, origin: string, record: () => Opened, options: { statelyReachable?: boolean }) {
    // The Stately inspector gets a stand-in page that says it is connected
    // and keeps what it receives, anything else a 404.
    await context.route(
      (url) => url.origin !== origin,
      (route) => {
        const url = route.request().url();
        record().offsite.push(url);
        // No internet, as far as stately.ai goes: the request fails as it does offline.
        if (/stately\.ai/.test(url) && options.statelyReachable === false) return route.abort('internetdisconnected');
        if (/stately\.ai/.test(url)) return route.fulfill({ status: 200, contentType: 'text/html', body: FAKE_INSPECTOR });
        return route.fulfill({ status: 404, body: '' });
      },
    );
  }

  /**
   * The tab the tests on the shared server with nothing added to the page
   * load the demo into, one after the other: a browser context (and its
   * renderer) costs about a CPU-second to start. Each test's page starts with
   * the origin's storage emptied, so no test sees another's session.
   */
  let tab: { context: BrowserContext; page: Page; current: Opened } | undefined;

  async function sharedTab(): Promise<{ context: BrowserContext; page: Page; current: Opened }> {
    if (!tab) {
      const context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
      context.setDefaultTimeout(WAIT);
      const page = await context.newPage();
      const made: { context: BrowserContext; page: Page; current: Opened } = {
        context,
        page,
        current: { context, page, errors: [], api: [], offsite: [], popups: [] },
      };
      await keepOffline(context, new URL(shared.url).origin, () => made.current, {});
      tab = made;
    } else {
      // Away from the demo (a JSON answer: no script of the page runs on), then the origin's storage emptied.
      await tab.page.goto(`${shared.url}/api/flows`);
      await tab.page.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
    }
    return tab;
  }

  /**
   * The demo page in a browser context of its own, or (on the shared server,
   * with no script or option added) in the shared tab with its storage
   * emptied: either way no localStorage from other tests.
   */
  async function openDemo(
    baseUrl: string,
    query = `?flow=${FLOW_ID}`,
    initScript?: string,
    options: { statelyReachable?: boolean; fakeClock?: boolean } = {},
  ): Promise<Opened> {
    const origin = new URL(baseUrl).origin;
    let opened: Opened;
    if (baseUrl === shared.url && !initScript && Object.keys(options).length === 0) {
      const reused = await sharedTab();
      opened = reused.current = { context: reused.context, page: reused.page, errors: [], api: [], offsite: [], popups: [] };
    } else {
      const context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
      contexts.add(context);
      context.setDefaultTimeout(WAIT);
      opened = { context, page: undefined as unknown as Page, errors: [], api: [], offsite: [], popups: [] };
      const own = opened;
      await keepOffline(context, origin, () => own, options);
      if (initScript) await context.addInitScript(initScript);
      // Time flows as usual, and the test may jump it forward (a deadline in the page reached at once, not waited for).
      if (options.fakeClock) await context.clock.install();
      opened.page = await context.newPage();
    }
    const { page } = opened;
    const onPopup = (p: Page) => opened.popups.push(p);
    const onPageError = (e: Error) => opened.errors.push(`pageerror: ${e.message}`);
    const onConsole = (m: ConsoleMessage) => {
      if (m.type() === 'error') opened.errors.push(`console: ${m.text()}`);
    };
    const onRequest = (r: Request) => {
      const url = new URL(r.url());
      if (url.origin === origin && url.pathname.startsWith('/api/')) opened.api.push(`${r.method()} ${url.pathname}`);
    };
    page.on('popup', onPopup);
    page.on('pageerror', onPageError);
    page.on('console', onConsole);
    page.on('request', onRequest);
    // What the page does after this test is not this test's (the shared tab goes on to the next).
    onTestFinished(() => {
      page.off('popup', onPopup);
      page.off('pageerror', onPageError);
      page.off('console', onConsole);
      page.off('request', onRequest);
    });
    await page.goto(`${baseUrl}/${query}`);
    await settled(page, 1);
    return opened;
  }

  it('completes an intake by clicks only: the summary card, the handoff, one history entry per click', async () => {
    const { page, errors, api } = await openDemo(shared.url);
    const w = widget(page);
    await expect.poll(() => lastAssistant(page)).toMatch(QUESTION[G1]);
    expect(await buttonNames(w.choices)).toEqual(['Yes', 'No']);
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-01-first-gate.png'), fullPage: true });

    await press(page, 'Yes');
    expect(await lastAssistant(page)).toMatch(QUESTION[G2]);
    await press(page, 'No');
    expect(await lastAssistant(page)).toMatch(QUESTION[G3]);
    await press(page, 'Follow-up');
    expect(await lastAssistant(page)).toMatch(QUESTION[G4]);
    await press(page, 'Adult');
    expect(await lastAssistant(page)).toMatch(QUESTION[G5]);
    await press(page, 'Email');

    // The summary card with every answer, and the confirm/edit buttons.
    const summary = w.root.locator('.gf-summary');
    await summary.waitFor();
    const card = await summary.innerText();
    expect(card).toMatch(/Summary of Collected Information/);
    for (const answer of ['Patient information available: Yes', 'Insurance coverage inconsistencies: No', 'Visit type: Follow-up', 'Age group: Adult', 'Preferred contact: Email'])
      expect(card).toContain(answer);
    expect(await buttonNames(w.confirm)).toEqual(['Looks Good', 'Edit Answers']);
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-02-summary.png'), fullPage: true });

    await press(page, 'Looks Good');
    await w.finished.waitFor();
    expect(await w.finished.innerText()).toBe('Finished: handed off.');
    expect(await lastAssistant(page)).toMatch(HANDOFF_MESSAGE);
    expect(await w.root.getByRole('group').count()).toBe(0);
    expect(await w.input.count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-04-handed-off.png'), fullPage: true });

    const session = await fetchSession(shared.url, await sessionIdOf(page));
    expect(session.history).toHaveLength(7);
    expect(session.history.map((e) => e.turn && ('button' in e.turn ? e.turn.button : e.turn.text))).toEqual([
      null,
      'Yes',
      'No',
      'Follow-up',
      'Adult',
      'Email',
      'confirm',
    ]);
    expectDistinctTurnIds(session);
    expect(session.reply.completion).toEqual({ isComplete: true, reason: 'handed_off', readyForHandoff: true });
    expect(api.filter((r) => r === `POST /api/flows/${FLOW_ID}/sessions`)).toHaveLength(1);
    expect(api.filter((r) => r.endsWith('/turns'))).toHaveLength(6);
    expect(errors).toEqual([]);
  });

  it('completes an intake by typing only (Enter sends)', async () => {
    const { page, errors } = await openDemo(shared.url);
    const w = widget(page);
    const answers = ['yes we have it', 'no, always covered', 'a follow up', 'an adult', 'text me'];
    for (const text of answers) await type(page, text);
    await w.root.locator('.gf-summary').waitFor();
    expect(await w.root.locator('.gf-summary').innerText()).toContain('Preferred contact: Text message');
    // The person's own words are in the transcript.
    expect(await userMessages(page)).toEqual(answers);

    await type(page, "yes that's correct");
    await w.finished.waitFor();
    expect(await w.finished.innerText()).toBe('Finished: handed off.');

    const session = await fetchSession(shared.url, await sessionIdOf(page));
    expect(session.history.map((e) => e.turn && ('text' in e.turn ? e.turn.text : `button:${e.turn.button}`))).toEqual([
      null,
      ...answers,
      "yes that's correct",
    ]);
    expect(session.reply.answers).toMatchObject({
      [G1]: { value: 'Yes', source: 'match' },
      [G2]: { value: 'No', source: 'match' },
      [G3]: { value: 'Follow-up', source: 'match' },
      [G4]: { value: 'Adult', source: 'match' },
      [G5]: { value: 'Text message', source: 'match' },
    });
    expect(session.reply.completion.reason).toBe('handed_off');
    expect(errors).toEqual([]);
  });

  it('stops on a limiting value: "No" at gate 1 by click, "it\'s an emergency" typed at gate 3 and confirmed', async () => {
    // By a click at gate 1.
    {
      const { page, errors } = await openDemo(shared.url);
      const w = widget(page);
      await press(page, 'No');
      expect(await lastAssistant(page)).toMatch(STOP_G1);
      await expectStopped(w);
      await page.screenshot({ path: join(SCREENSHOTS, 'widget-03-stopped.png'), fullPage: true });
      const session = await fetchSession(shared.url, await sessionIdOf(page));
      expect(session.reply.completion).toEqual({ isComplete: true, reason: 'stopped_limiting_value', readyForHandoff: false });
      expect(session.history).toHaveLength(2);

      // "Start over" begins a new session at the first gate (and the page keeps its id).
      await w.root.getByRole('button', { name: 'Start over' }).click();
      await settled(page, 1);
      expect(await lastAssistant(page)).toMatch(QUESTION[G1]);
      expect(await buttonNames(w.choices)).toEqual(['Yes', 'No']);
      const again = await sessionIdOf(page);
      expect(again).not.toBe(session.reply.sessionId);
      expect((await fetchSession(shared.url, again)).history).toHaveLength(1);
      expect(errors).toEqual([]);
    }
    // By text at gate 3.
    {
      const { page, errors } = await openDemo(shared.url);
      const w = widget(page);
      await press(page, 'Yes');
      await press(page, 'Partial');
      await type(page, "it's an emergency");
      // Read out of free text, the limiting value is checked once before the intake stops (issue 26 §2).
      expect(await lastAssistant(page)).toMatch(/Just to check: .*Emergency.*Then we cannot continue/s);
      expect(await buttonNames(w.confirm)).toEqual(['Yes', "No, that's wrong"]);
      await press(page, 'Yes');
      expect(await lastAssistant(page)).toMatch(STOP_G3);
      await expectStopped(w);
      const session = await fetchSession(shared.url, await sessionIdOf(page));
      expect(session.reply.completion.reason).toBe('stopped_limiting_value');
      expect(session.reply.answers[G3]).toMatchObject({ value: 'Emergency', raw: "it's an emergency" });
      expect(session.reply.artifacts).toEqual([]);
      expect(errors).toEqual([]);
    }
  });

  it('edits after the summary: picks the answer to change, changes it, confirms, and the handoff carries the change', async () => {
    const { page, errors } = await openDemo(shared.url);
    const w = widget(page);
    for (const label of ['Yes', 'No', 'Follow-up', 'Adult', 'Email']) await press(page, label);
    await w.root.locator('.gf-summary').waitFor();

    // "Edit" asks which answer, one button per answer: a choice like any other, not a second summary.
    await press(page, 'Edit Answers');
    expect(await lastAssistant(page)).toMatch(/Which answer do you want to change\?/);
    expect(await w.root.locator('.gf-summary').count()).toBe(0);
    expect(await w.choices.count()).toBe(1);
    expect(await w.send.count()).toBe(1);
    await pressMatching(page, /^Visit type:/);
    expect(await lastAssistant(page)).toMatch(QUESTION[G3]);
    expect(await lastAssistant(page)).toContain('(Your previous answer: Follow-up)');
    // The question's own buttons: the previous answer is one of them, so no "Keep" beside it.
    expect(await buttonNames(w.choices)).toEqual(['New patient', 'Follow-up', 'Urgent care', 'Telehealth', 'Emergency']);
    await press(page, 'Telehealth');
    const card = await w.root.locator('.gf-summary').innerText();
    expect(card).toContain('Visit type: Telehealth');
    // The old answer is gone from the answers; the reply says what changed.
    expect(card).not.toMatch(/Visit type: Follow-up(?! →)/);
    expect(card).toContain('Changed: Visit type: Follow-up → Telehealth.');

    await press(page, 'Looks Good');
    await w.finished.waitFor();
    const session = await fetchSession(shared.url, await sessionIdOf(page));
    const handoffs = session.history.flatMap((e) => e.reply.artifacts).filter((a) => a.type === 'HANDOFF');
    expect(handoffs).toHaveLength(1);
    expect(handoffs[0]).toMatchObject({
      type: 'HANDOFF',
      flowId: FLOW_ID,
      answers: {
        [G1]: { value: 'Yes' },
        [G2]: { value: 'No' },
        [G3]: { value: 'Telehealth', source: 'button' },
        [G4]: { value: 'Adult' },
        [G5]: { value: 'Email' },
      },
    });
    expect(session.history).toHaveLength(1 + 5 + 1 + 1 + 1 + 1);
    expectDistinctTurnIds(session);
    expect(errors).toEqual([]);
  });

  it('continues the same session after a reload mid-intake', async () => {
    const { page, errors, api } = await openDemo(shared.url);
    const w = widget(page);
    await press(page, 'Yes');
    await type(page, 'there was one gap');
    expect(await lastAssistant(page)).toMatch(QUESTION[G3]);
    const sessionId = await sessionIdOf(page);
    const before = await transcriptTexts(page);
    expect(before).toHaveLength(5);

    await page.reload();
    await settled(page, 3);
    expect(await sessionIdOf(page)).toBe(sessionId);
    expect(await transcriptTexts(page)).toEqual(before);
    expect(await lastAssistant(page)).toMatch(QUESTION[G3]);
    expect(await buttonNames(w.choices)).toEqual(['New patient', 'Follow-up', 'Urgent care', 'Telehealth', 'Emergency']);
    expect(await focused(page)).toEqual({ label: 'Your answer' });
    // Resumed with GET, not started again.
    expect(api.filter((r) => r.startsWith('POST /api/flows/'))).toHaveLength(1);
    expect(api).toContain(`GET /api/sessions/${sessionId}`);

    for (const label of ['Follow-up', 'Adult', 'Phone', 'Looks Good']) await press(page, label);
    await w.finished.waitFor();
    const session = await fetchSession(shared.url, sessionId);
    expect(session.history).toHaveLength(7);
    expect(session.reply.answers).toMatchObject({ [G2]: { value: 'Partial' }, [G5]: { value: 'Phone' } });
    expectDistinctTurnIds(session);
    expect(errors).toEqual([]);
  });

  it('shows the error with Retry while the server is gone; Retry sends the turn exactly once when it is back', async () => {
    const dataDir = freshDataDir(template, base, 'server-away');
    let server = await spawnServe(dataDir);
    const { page, errors } = await openDemo(server.url);
    const w = widget(page);
    await press(page, 'Yes');
    await press(page, 'No');
    const sessionId = await sessionIdOf(page);

    await server.kill();
    expect(server.child.signalCode).toBe('SIGKILL');
    await w.choices.getByRole('button', { name: 'Follow-up', exact: true }).click();
    await w.alert.waitFor();
    expect(await w.alert.innerText()).toMatch(/Something went wrong: cannot reach the server/);
    expect(await buttonNames(w.alert)).toEqual(['Retry']);
    // The person's answer stays in the transcript; nothing else can be sent meanwhile (what is typed is kept).
    expect((await userMessages(page)).at(-1)).toBe('Follow-up');
    expect(await w.root.getByRole('group').count()).toBe(0);
    expect(await w.send.isDisabled()).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-05-error-retry.png'), fullPage: true });

    server = await spawnServe(dataDir, server.port);
    expect(server.url).toBe(new URL(page.url()).origin);
    await w.alert.getByRole('button', { name: 'Retry' }).click();
    await settled(page, 4);
    expect(await w.alert.count()).toBe(0);
    expect(await lastAssistant(page)).toMatch(QUESTION[G4]);
    expect(await userMessages(page)).toEqual(['Yes', 'No', 'Follow-up']);

    const session = await fetchSession(server.url, sessionId);
    expect(session.history).toHaveLength(4);
    expect(session.history.filter((e) => e.turn && 'button' in e.turn && e.turn.button === 'Follow-up')).toHaveLength(1);
    expectDistinctTurnIds(session);

    for (const label of ['Adult', 'Phone', 'Looks Good']) await press(page, label);
    await w.finished.waitFor();
    const done = await fetchSession(server.url, sessionId);
    expect(done.history).toHaveLength(7);
    expect(done.reply.answers[G3]).toMatchObject({ value: 'Follow-up' });
    // The only errors are the browser's own lines about the refused connection.
    expect(errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource|Failed to fetch/.test(e))).toEqual([]);
  });

  it.each(['development', 'production'] as const)(
    'StrictMode (%s build): one session per page load and no duplicated turn', async (mode) => {
      const staticDir = mode === 'development' ? await developmentDemo() : DEMO_DIR;
      const server = await serveInProcess(`strict-${mode}`, { staticDir });
      const dataDir = join(base, `strict-${mode}`);
      const { page, errors, api } = await openDemo(server.url);
      const w = widget(page);
      // A double click sends one turn.
      await w.choices.getByRole('button', { name: 'Yes', exact: true }).dblclick();
      await settled(page, 2);
      for (const label of ['Partial', 'New patient', 'Minor', 'Patient portal', 'Looks Good']) await press(page, label);
      await w.finished.waitFor();
      const sessionId = await sessionIdOf(page);
      expect(await userMessages(page)).toEqual(['Yes', 'Partial', 'New patient', 'Minor', 'Patient portal', 'Looks Good']);

      expect(api.filter((r) => r.startsWith('POST /api/flows/'))).toHaveLength(1);
      expect(api.filter((r) => r.endsWith('/turns'))).toHaveLength(6);
      const session = await fetchSession(server.url, sessionId);
      expect(session.history).toHaveLength(7);
      expectDistinctTurnIds(session);
      expect(errors).toEqual([]);

      // What the store holds, read from the PGlite directory once the server has let go of it.
      await page.context().close();
      await closeServer(server);
      const db = new PGlite(dataDir);
      try {
        const sessions = await db.query<{ id: string }>('SELECT id FROM gateflow_sessions');
        expect(sessions.rows.map((r) => r.id)).toEqual([sessionId]);
        const journal = await db.query<{ n: number; turns: number }>(
          'SELECT count(*)::int AS n, count(DISTINCT turn_id)::int AS turns FROM gateflow_journal WHERE session_id = $1',
          [sessionId],
        );
        expect(journal.rows[0]).toEqual({ n: 7, turns: 6 });
      } finally {
        await db.close();
      }
    },
  );

  describe('with a slow model', () => {
    let model: OpenAICompatibleServer;
    afterAll(async () => {
      await model?.close();
    });

    it('shows "Thinking…" while the model extracts', async () => {
      model = await startOpenAICompatibleServer();
      const config = await modelFromEnv({ OPENAI_BASE_URL: model.baseURL, GATEFLOW_MODEL: 'test-model' });
      const server = await serveInProcess('slow-model', {
        extract: createExtractActor({ model: config!.model, maxRetries: 0, timeoutMs: PATIENCE_MS }),
      });
      // The model answers when the test says so: the indicator must last as long as the model does, however slow the page.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const answer = answering({ [G2]: { value: 'Partial', confidence: 0.9 } });
      model.enqueue(async (request, res) => {
        await released;
        await answer(request, res);
      });

      const { page, errors } = await openDemo(server.url);
      const w = widget(page);
      await press(page, 'Yes');
      expect(model.requests).toHaveLength(0);

      await w.input.fill(HARD_TEXT);
      await w.input.press('Enter');
      await w.thinking.waitFor({ timeout: WAIT });
      expect(await w.thinking.innerText()).toContain('Thinking…');
      expect(await w.send.isDisabled()).toBe(true);
      expect(await w.root.getByRole('group').count()).toBe(0);
      // The person types on while the reply is pending: the text box keeps the focus and the text, Enter sends nothing yet.
      expect(await focused(page)).toEqual({ label: 'Your answer' });
      await page.keyboard.type('a follow up');
      await page.keyboard.press('Enter');
      await page.screenshot({ path: join(SCREENSHOTS, 'widget-06-thinking.png'), fullPage: true });
      // Still thinking while the model has not answered: the indicator lasts as long as the model does.
      await page.waitForTimeout(500);
      expect(await w.thinking.isVisible()).toBe(true);

      release();
      await settled(page, 3);
      expect(await w.thinking.count()).toBe(0);
      expect(await lastAssistant(page)).toMatch(QUESTION[G3]);
      expect(model.requests).toHaveLength(1);
      const sessionId = await sessionIdOf(page);
      const session = await fetchSession(server.url, sessionId);
      expect(session.reply.answers[G2]).toEqual({ value: 'Partial', confidence: 0.9, source: 'llm', raw: HARD_TEXT });
      expect(session.history).toHaveLength(3);
      // What was typed meanwhile is still there, with the focus; Enter now sends it.
      expect(await w.input.inputValue()).toBe('a follow up');
      expect(await focused(page)).toEqual({ label: 'Your answer' });
      await page.keyboard.press('Enter');
      await settled(page, 4);
      expect(await lastAssistant(page)).toMatch(QUESTION[G4]);
      expect((await fetchSession(server.url, sessionId)).reply.answers[G3]).toMatchObject({ value: 'Follow-up', source: 'match', raw: 'a follow up' });
      expect(errors).toEqual([]);
    });
  });

  it('accessibility: named controls, keyboard only, the focus stays in the text box after every reply', async () => {
    const { page, errors, api } = await openDemo(shared.url);
    const w = widget(page);
    expect(await w.transcript.getAttribute('aria-live')).toBe('polite');

    const named = await accessibleControls(page);
    expect(named.filter((c) => c.name === '')).toEqual([]);
    expect(named).toEqual(
      expect.arrayContaining([
        { role: 'button', name: 'Start over' },
        { role: 'button', name: 'Yes' },
        { role: 'button', name: 'No' },
        { role: 'textbox', name: 'Your answer' },
        { role: 'button', name: 'Send' },
      ]),
    );

    // The opening reply left the focus in the text box, not on a choice.
    expect(await focused(page)).toEqual({ label: 'Your answer' });
    // The choices are in the tab order: Shift+Tab from the text box reaches the last one, then the first.
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toEqual({ text: 'No', group: 'Choices', first: false });
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toEqual({ text: 'Yes', group: 'Choices', first: true });
    // Gate 1 by keyboard: Enter on "Yes".
    await page.keyboard.press('Enter');
    await settled(page, 2);
    expect(await lastAssistant(page)).toMatch(QUESTION[G2]);
    // The pressed choice is gone: the focus is back in the text box, not on the next question's first choice.
    expect(await focused(page)).toEqual({ label: 'Your answer' });

    // Gate 2: Shift+Tab twice to "No", Space.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect((await focused(page)).text).toBe('No');
    await page.keyboard.press('Space');
    await settled(page, 3);
    expect(await focused(page)).toEqual({ label: 'Your answer' });

    // Gates 3 and 4 typed without touching the focus. "minor" + Enter must answer Minor, never
    // press the first choice (Adult): the case seen with the old focus on the first button.
    await page.keyboard.type('a follow up');
    await page.keyboard.press('Enter');
    await settled(page, 4);
    expect(await focused(page)).toEqual({ label: 'Your answer' });
    await page.keyboard.type('minor');
    await page.keyboard.press('Enter');
    await settled(page, 5);
    expect(await lastAssistant(page)).toMatch(QUESTION[G5]);
    expect(await focused(page)).toEqual({ label: 'Your answer' });
    // Gate 5: Shift+Tab past "Patient portal", "Text message" and "Email" to "Phone", Enter.
    for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+Tab');
    expect((await focused(page)).text).toBe('Phone');
    await page.keyboard.press('Enter');
    await settled(page, 6);

    // The summary: the focus in the text box, which has no Send button of its own; Enter on an empty box sends nothing.
    await w.root.locator('.gf-summary').waitFor();
    expect(await focused(page)).toEqual({ label: 'Your answer' });
    expect(await w.send.count()).toBe(0);
    const turns = api.filter((r) => r.endsWith('/turns')).length;
    await page.keyboard.press('Enter');
    await page.waitForTimeout(200);
    expect(api.filter((r) => r.endsWith('/turns'))).toHaveLength(turns);
    expect(await w.root.locator('.gf-summary').count()).toBe(1);
    const atSummary = await accessibleControls(page);
    expect(atSummary.filter((c) => c.name === '')).toEqual([]);
    expect(atSummary).toEqual(expect.arrayContaining([{ role: 'button', name: 'Looks Good' }, { role: 'button', name: 'Edit Answers' }]));
    // Shift+Tab to "Edit Answers", again to "Looks Good", Enter.
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toEqual({ text: 'Edit Answers', group: 'Confirm or edit', first: false });
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toEqual({ text: 'Looks Good', group: 'Confirm or edit', first: true });
    await page.keyboard.press('Enter');
    await w.finished.waitFor();
    const session = await fetchSession(shared.url, await sessionIdOf(page));
    expect(session.reply.answers).toMatchObject({
      [G1]: { value: 'Yes', source: 'button' },
      [G2]: { value: 'No', source: 'button' },
      [G3]: { value: 'Follow-up', source: 'match' },
      [G4]: { value: 'Minor', source: 'match', raw: 'minor' },
      [G5]: { value: 'Phone', source: 'button' },
    });
    expect(errors).toEqual([]);
  });

  it('hover colours: every enabled button keeps its text at a contrast ratio of at least 4.5:1 when hovered', async () => {
    const { page, errors } = await openDemo(shared.url);
    const w = widget(page);
    const checked: string[] = [];
    const low: string[] = [];
    /** Hovers every enabled button of the widget and measures its text against what is behind it. */
    const measureAll = async (where: string) => {
      for (const button of await w.root.getByRole('button').all()) {
        if (await button.isDisabled()) continue;
        await button.hover();
        const { name, ratio } = await hoveredContrast(button);
        checked.push(`${where}: ${name}`);
        if (ratio < 4.5) low.push(`${where}: "${name}" ${ratio.toFixed(2)}:1`);
        await page.mouse.move(0, 0);
      }
    };
    await w.input.fill('something');
    await measureAll('first question');
    await w.input.fill('');
    for (const label of ['Yes', 'No', 'Follow-up', 'Adult', 'Email']) await press(page, label);
    await w.root.locator('.gf-summary').waitFor();
    const summaryButton = w.confirm.getByRole('button', { name: 'Looks Good' });
    await summaryButton.hover();
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-08-summary-hover.png'), fullPage: true });
    await measureAll('summary');
    await w.root.getByRole('button', { name: 'Start over' }).click();
    await measureAll('start over?');
    expect(checked).toEqual(
      expect.arrayContaining(['first question: Send', 'first question: Yes', 'summary: Looks Good', 'summary: Edit Answers', 'start over?: Keep going']),
    );
    expect(low).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('no growing blank scroll area: the page ends with the widget and the conversation with its last message', async () => {
    const { page, errors } = await openDemo(shared.url);
    const w = widget(page);
    const measured: { doc: number; pageEnd: number; blank: number }[] = [];
    // At every gate twice something it cannot read, then the answer: enough turns for the transcript to scroll.
    for (const label of ['Yes', 'No', 'Follow-up', 'Adult', 'Email']) {
      for (const text of ['what do you mean?', 'hmm, not sure']) {
        await type(page, text);
        measured.push(await blankSpace(page));
      }
      await press(page, label);
      measured.push(await blankSpace(page));
    }
    await w.root.locator('.gf-summary').waitFor();
    expect(await w.transcript.evaluate((t) => t.scrollHeight > t.clientHeight)).toBe(true);
    for (const [i, m] of measured.entries()) {
      // The document is no taller than its content (the widget and the page's margin), or the window.
      expect(m.doc, `after turn ${i + 1}: ${JSON.stringify(m)}`).toBeLessThanOrEqual(m.pageEnd + 1);
      // Inside the transcript: no more below the last message than the list's gap.
      expect(m.blank, `after turn ${i + 1}: ${JSON.stringify(m)}`).toBeLessThanOrEqual(16);
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-09-long-conversation.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it('one Send button on the summary: the confirm button (contact-request names it "Send"), none beside the text box', async () => {
    const { page, errors } = await openDemo(shared.url, '?flow=contact-request');
    const chat = page.locator('.gf-chat');
    for (const text of ['Jane Doe', 'jane.doe@example.com']) {
      const n = await assistantCount(page);
      await chat.getByRole('textbox', { name: 'Your answer' }).fill(text);
      await chat.getByRole('textbox', { name: 'Your answer' }).press('Enter');
      await settled(page, n + 1);
    }
    await chat.locator('.gf-summary').waitFor();
    const sends = chat.getByRole('button', { name: /send/i });
    expect(await sends.allInnerTexts()).toEqual(['Send']);
    expect(await sends.first().evaluate((b) => b.closest('[role="group"]')?.getAttribute('aria-label'))).toBe('Confirm or edit');
    expect(await chat.locator('form button').count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-10-summary-one-send.png'), fullPage: true });
    await sends.first().click();
    await chat.getByRole('status').filter({ hasText: /^Finished/ }).waitFor();
    expect(errors).toEqual([]);
  });

  it('keeps the selected flow in the URL: set when none is given, changed with the flow, kept by a reload', async () => {
    const { page, errors } = await openDemo(shared.url, '');
    const select = page.locator('main select');
    const first = await select.inputValue();
    expect(first).not.toBe('');
    expect(new URL(page.url()).searchParams.get('flow')).toBe(first);

    await select.selectOption('led-sales');
    await page.getByRole('region', { name: 'LED lighting sales' }).waitFor();
    await settled(page, 1);
    expect(new URL(page.url()).searchParams.get('flow')).toBe('led-sales');
    await page.reload();
    await settled(page, 1);
    expect(await select.inputValue()).toBe('led-sales');
    expect(await page.getByRole('region', { name: 'LED lighting sales' }).count()).toBe(1);

    // Another choice, with other parameters in the address: they are kept.
    await page.goto(`${shared.url}/?flow=event-booking&x=1`);
    await settled(page, 1);
    await select.selectOption('clinic-callback');
    await page.getByRole('region', { name: 'Clinic callback request' }).waitFor();
    const url = new URL(page.url());
    expect([url.searchParams.get('flow'), url.searchParams.get('x')]).toEqual(['clinic-callback', '1']);

    // A flow that does not exist: said, and the first flow shown (and put in the address).
    await page.goto(`${shared.url}/?flow=no-such-flow`);
    await settled(page, 1);
    expect(await page.getByRole('status').filter({ hasText: 'There is no flow named “no-such-flow”' }).count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('flow')).toBe(first);
    expect(errors).toEqual([]);
  });

  it('"Start over" asks before discarding: Keep going (or Escape) keeps the conversation, Discard begins a new one', async () => {
    const { page, errors, api } = await openDemo(shared.url);
    const w = widget(page);
    await press(page, 'Yes');
    await press(page, 'No');
    const sessionId = await sessionIdOf(page);
    const before = await transcriptTexts(page);
    const startOver = w.root.getByRole('button', { name: 'Start over' });

    await startOver.click();
    const ask = w.root.getByRole('alertdialog');
    expect(await ask.innerText()).toContain('Start over? The answers given in this conversation will be discarded.');
    expect(await focused(page)).toMatchObject({ text: 'Keep going' });
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-07-start-over.png'), fullPage: true });
    await ask.getByRole('button', { name: 'Keep going' }).click();
    expect(await ask.count()).toBe(0);
    expect(await transcriptTexts(page)).toEqual(before);
    expect(await sessionIdOf(page)).toBe(sessionId);

    // Escape is Keep going too.
    await startOver.click();
    await page.keyboard.press('Escape');
    expect(await ask.count()).toBe(0);
    expect(await focused(page)).toMatchObject({ text: 'Start over' });
    expect(await transcriptTexts(page)).toEqual(before);
    expect(api.filter((r) => r.startsWith('POST /api/flows/'))).toHaveLength(1);
    // The conversation goes on where it was.
    await press(page, 'Follow-up');
    expect(await lastAssistant(page)).toMatch(QUESTION[G4]);

    await startOver.click();
    await ask.getByRole('button', { name: 'Discard and start over' }).click();
    await settled(page, 1);
    expect(await lastAssistant(page)).toMatch(QUESTION[G1]);
    expect(await userMessages(page)).toEqual([]);
    expect(await sessionIdOf(page)).not.toBe(sessionId);
    expect(api.filter((r) => r.startsWith('POST /api/flows/'))).toHaveLength(2);
    expect(errors).toEqual([]);
  });

  it('shows what the person typed as plain text, never as Markdown, also where a reply repeats it', async () => {
    const { page, errors } = await openDemo(shared.url);
    const w = widget(page);
    await press(page, 'Yes');
    await type(page, '# x');
    await press(page, 'No');
    await type(page, '**follow up**');
    expect(await lastAssistant(page)).toMatch(QUESTION[G4]);
    for (const label of ['Adult', 'Email']) await press(page, label);
    await w.root.locator('.gf-summary').waitFor();

    expect(await userMessages(page)).toEqual(['Yes', '# x', 'No', '**follow up**', 'Adult', 'Email']);
    expect(await w.root.locator('.gf-user :is(strong, h3, hr)').count()).toBe(0);
    // The summary quotes the answer as typed; the reply's own Markdown is still rendered.
    const summary = w.root.locator('.gf-summary');
    expect(await summary.innerText()).toContain('(from: "**follow up**")');
    expect(await summary.locator('strong').allInnerTexts()).not.toContain('follow up');
    expect(await summary.getByRole('heading', { name: 'Summary of Collected Information' }).count()).toBe(1);
    expect(await summary.locator('strong').allInnerTexts()).toEqual(expect.arrayContaining(['Your Answers:']));
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-11-plain-user-text.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it('?inspect offline (navigator.onLine false): says the inspector needs stately.ai, opens no window, and the widget works', async () => {
    const offline = `Object.defineProperty(Navigator.prototype, 'onLine', { get: () => false });\n${COUNT_WINDOW_OPEN}`;
    const { page, errors, popups, offsite } = await openDemo(shared.url, `?flow=${FLOW_ID}&inspect`, offline);
    const w = widget(page);
    const note = w.root.getByRole('status').filter({ hasText: 'stately.ai' });
    await note.waitFor();
    expect(await note.innerText()).toMatch(/Inspection is off: the Stately inspector runs on stately\.ai, which cannot be reached/);
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-12-inspect-offline.png'), fullPage: true });
    for (const label of ['Yes', 'No', 'Follow-up', 'Adult', 'Email', 'Looks Good']) await press(page, label);
    await w.finished.waitFor();
    expect(popups).toHaveLength(0);
    expect(offsite).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { opened: string[] }).opened)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('?inspect when stately.ai does not answer: the window is closed again and the widget says why', async () => {
    const { page, errors, popups } = await openDemo(shared.url, `?flow=${FLOW_ID}&inspect`, undefined, { statelyReachable: false, fakeClock: true });
    const w = widget(page);
    await expect.poll(() => popups.length).toBe(1);
    await page.bringToFront();
    await press(page, 'Yes');
    // The inspector window never says it is connected: its deadline passes (jumped to, not waited for).
    expect(await w.root.getByRole('status').filter({ hasText: 'stately.ai' }).count()).toBe(0);
    await page.clock.fastForward(INSPECTOR_CONNECT_TIMEOUT_MS);
    const note = w.root.getByRole('status').filter({ hasText: 'stately.ai' });
    await note.waitFor({ timeout: WAIT });
    expect(await note.innerText()).toMatch(/Inspection is off: the Stately inspector runs on stately\.ai, which did not answer/);
    await expect.poll(() => popups[0]!.isClosed()).toBe(true);
    for (const label of ['No', 'Follow-up', 'Adult', 'Email', 'Looks Good']) await press(page, label);
    await w.finished.waitFor();
    expect(errors).toEqual([]);
  });

  it.each(['production', 'development'] as const)(
    '?inspect (%s build): connects the Stately inspector (kept offline) and the widget still works', async (mode) => {
      const server = mode === 'production' ? shared : await serveInProcess('inspect-development', { staticDir: await developmentDemo() });
      const { page, errors, popups, offsite } = await openDemo(server.url, `?flow=${FLOW_ID}&inspect`, COUNT_WINDOW_OPEN);
      const w = widget(page);
      // The inspector client opened its window (answered by the stand-in page, never the internet).
      await expect.poll(() => popups.length).toBeGreaterThanOrEqual(1);
      const inspector = popups[0]!;
      expect(inspector.url()).toMatch(/^https:\/\/stately\.ai\/inspect/);
      expect(offsite.length).toBeGreaterThanOrEqual(1);
      expect(offsite.filter((u) => !/^https:\/\/stately\.ai\//.test(u))).toEqual([]);
      // Headless Chromium throttles a page whose popup is in front: bring the widget back.
      await page.bringToFront();

      for (const label of ['Yes', 'No', 'Follow-up', 'Adult', 'Email', 'Looks Good']) await press(page, label);
      await w.finished.waitFor();
      const sessionId = await sessionIdOf(page);
      const session = await fetchSession(server.url, sessionId);
      expect(session.history).toHaveLength(7);
      expectDistinctTurnIds(session);

      // Inspection events of the widget's actors reached the inspector window.
      await expect
        .poll(() => inspector.evaluate(() => JSON.stringify((window as unknown as { received: unknown[] }).received)))
        .toContain('handed_off');
      const received = await inspector.evaluate(() => (window as unknown as { received: { type?: string }[] }).received);
      expect(received.some((e) => e.type === '@xstate.actor')).toBe(true);
      expect(received.some((e) => e.type === '@xstate.event')).toBe(true);
      expect(popups).toHaveLength(1);
      expect(errors).toEqual([]);
      // One inspector client per page load: window.open called once. Fails in the development
      // build: ChatWidget's useInspector creates the client inside a useState initializer, which
      // StrictMode calls twice, so a second, unused client opens the inspector window again.
      expect(await page.evaluate(() => (window as unknown as { opened: string[] }).opened), 'window.open calls').toEqual([
        'https://stately.ai/inspect',
      ]);
    },
  );
});

/** The Stately inspector's stand-in: tells the opener it is connected and keeps every message. */
const FAKE_INSPECTOR = `<!doctype html><title>inspector</title><script>
window.received = [];
addEventListener('message', (e) => window.received.push(e.data));
if (window.opener) window.opener.postMessage({ type: '@statelyai.connected' }, '*');
</script>`;

/** Records the URL of every window.open call in `window.opened` (the inspector client opens its window so). */
const COUNT_WINDOW_OPEN = `(() => {
  const open = window.open;
  window.opened = [];
  window.open = function (url, ...rest) {
    window.opened.push(String(url));
    return open.call(this, url, ...rest);
  };
})();`;

function widget(page: Page) {
  const root = page.getByRole('region', { name: 'Patient intake' });
  return {
    root,
    transcript: root.getByRole('list', { name: 'Conversation' }),
    choices: root.getByRole('group', { name: 'Choices' }),
    confirm: root.getByRole('group', { name: 'Confirm or edit' }),
    input: root.getByRole('textbox', { name: 'Your answer' }),
    send: root.getByRole('button', { name: 'Send', exact: true }),
    thinking: root.getByRole('status').filter({ hasText: 'Thinking…' }),
    alert: root.getByRole('alert'),
    finished: root.getByRole('status').filter({ hasText: /^(Finished|Cancelled|Stopped)/ }),
  };
}
type Widget = ReturnType<typeof widget>;


/** Clicks a choice (or confirm/edit) button and waits for the reply. */
async function press(page: Page, label: string): Promise<void> {
  const n = await assistantCount(page);
  await widget(page).root.getByRole('group').getByRole('button', { name: label, exact: true }).click();
  await settled(page, n + 1);
}

/** Clicks the choice whose name matches, and waits for the reply. */
async function pressMatching(page: Page, name: RegExp): Promise<void> {
  const n = await assistantCount(page);
  await widget(page).root.getByRole('group').getByRole('button', { name }).click();
  await settled(page, n + 1);
}

/** Types into the answer box, sends with Enter, and waits for the reply. */
async function type(page: Page, text: string): Promise<void> {
  const n = await assistantCount(page);
  const { input } = widget(page);
  await input.fill(text);
  await input.press('Enter');
  await settled(page, n + 1);
}

const lastAssistant = (page: Page) => page.locator('.gf-chat .gf-message.gf-assistant:not(.gf-thinking)').last().innerText();
const userMessages = (page: Page) => page.locator('.gf-chat .gf-message.gf-user p').allInnerTexts();
const transcriptTexts = (page: Page) => page.locator('.gf-chat .gf-message:not(.gf-thinking)').allInnerTexts();
const buttonNames = (scope: Locator) => scope.getByRole('button').allInnerTexts();

async function sessionIdOf(page: Page): Promise<string> {
  const id = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY);
  if (!id) throw new Error('the demo page stored no session id');
  return id;
}

async function expectStopped(w: Widget): Promise<void> {
  await w.finished.waitFor();
  expect(await w.finished.innerText()).toBe('Finished.');
  expect(await w.root.getByRole('group').count()).toBe(0);
  expect(await w.root.getByRole('button').allInnerTexts()).toEqual(['Start over']);
  expect(await w.input.count()).toBe(0);
}

function expectDistinctTurnIds(session: SessionState): void {
  const ids = session.history.flatMap((e) => (e.turn ? [e.turn.turnId] : []));
  expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
}

/** Every button and text box in the accessibility tree, with its computed accessible name. */
async function accessibleControls(page: Page): Promise<{ role: string; name: string }[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { ignored: boolean; role?: { value: string }; name?: { value: string } }[];
    };
    return nodes
      .filter((n) => !n.ignored && (n.role?.value === 'button' || n.role?.value === 'textbox'))
      .map((n) => ({ role: n.role!.value, name: (n.name?.value ?? '').trim() }));
  } finally {
    await cdp.detach();
  }
}

/** The focused element: its text (or label, for the text box), its group, whether it is the group's first button. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const group = el?.closest('[role="group"]');
    if (el instanceof HTMLTextAreaElement) return { label: el.labels?.[0]?.textContent?.trim() } as { text?: string; label?: string; group?: string; first?: boolean };
    return {
      text: el?.textContent?.trim(),
      group: group?.getAttribute('aria-label') ?? undefined,
      first: group ? group.querySelector('button') === el : undefined,
    } as { text?: string; label?: string; group?: string; first?: boolean };
  });
}

/** A model answer for every gate the request asks about: `given` where set, `unknown` elsewhere. */
function answering(given: Record<string, { value: string; confidence: number }>): Responder {
  return (request, res) => {
    const body = request.body as { response_format?: { json_schema?: { schema?: { properties?: { answers?: { properties?: object } } } } } };
    const keys = Object.keys(body.response_format?.json_schema?.schema?.properties?.answers?.properties ?? {});
    const answers: Record<string, { value: string; confidence: number }> = {};
    for (const key of keys) answers[key] = given[key] ?? { value: 'unknown', confidence: 0.9 };
    return respond.json({ answers: withEvidence(answers, personMessage(request)) })(request, res);
  };
}

/** WCAG's relative luminance of an sRGB colour. */
function luminance([r, g, b]: number[]): number {
  const [R, G, B] = [r!, g!, b!].map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
}

/** A hovered button's name, and the contrast of its computed text colour with the colour behind it (its own background over its ancestors'). */
async function hoveredContrast(button: Locator): Promise<{ name: string; ratio: number }> {
  const { name, fg, bg } = await button.evaluate((el) => {
    const parse = (c: string) => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) throw new Error(`unexpected colour ${c}`);
      const [r, g, b, a = 1] = m[1]!.split(/[ ,/]+/).filter(Boolean).map(Number);
      return [r!, g!, b!, a] as [number, number, number, number];
    };
    // The backgrounds from the button up to the root, composited top-down onto white.
    const layers: [number, number, number, number][] = [];
    for (let node: Element | null = el; node; node = node.parentElement) layers.push(parse(getComputedStyle(node).backgroundColor));
    let bg: number[] = [255, 255, 255];
    for (const [r, g, b, a] of layers.reverse()) bg = [r * a + bg[0]! * (1 - a), g * a + bg[1]! * (1 - a), b * a + bg[2]! * (1 - a)];
    const [r, g, b, a] = parse(getComputedStyle(el).color);
    const fg = [r * a + bg[0]! * (1 - a), g * a + bg[1]! * (1 - a), b * a + bg[2]! * (1 - a)];
    return { name: el.textContent?.trim() ?? '', fg, bg };
  });
  const [hi, lo] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
  return { name, ratio: (hi! + 0.05) / (lo! + 0.05) };
}

/** How far the document and the transcript reach below their content. */
function blankSpace(page: Page): Promise<{ doc: number; pageEnd: number; blank: number }> {
  return page.evaluate(() => {
    const main = document.querySelector('main')!;
    const pageEnd = Math.max(innerHeight, Math.ceil(main.getBoundingClientRect().bottom + scrollY + parseFloat(getComputedStyle(main).marginBottom)));
    const list = document.querySelector('.gf-transcript')!;
    const messages = list.querySelectorAll('.gf-message');
    const last = messages[messages.length - 1]!;
    const contentEnd = last.getBoundingClientRect().bottom - list.getBoundingClientRect().top + list.scrollTop;
    return { doc: document.documentElement.scrollHeight, pageEnd, blank: Math.round(list.scrollHeight - contentEnd) };
  });
}
