/**
 * A person who types (issue 11, section 1): on every example flow in the demo
 * page (Debian's Chromium, the real server on 127.0.0.1), an answer is typed
 * after every reply, with the keyboard only (no click, no focus set by the
 * test: keys go wherever the widget left the focus), and sent with Enter.
 * After each reply the focus must still be in the text box, the person's
 * words must be the message shown and the turn recorded, and no button may
 * have been pressed instead. At each summary a correction is typed first: it
 * must not confirm. Screenshots of each summary and finished state go to
 * test/browser/screenshots/ (not committed).
 *
 * The answers are made from each flow's document: the question the reply
 * asks (named by its state), its answer type and its buttons; a choice is
 * typed as the label of a button that is not the first (so that Enter on the
 * first button, the old focus, would commit something else). Skipped without
 * /usr/bin/chromium, unless GATEFLOW_REQUIRE_BROWSER=1.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { EXAMPLE_ACTORS } from '../../src/cli/example-actors.js';
import { createExtractActor } from '../../src/extract/actor.js';
import { SKIP_VALUE } from '../../src/flow/answer.js';
import type { FlowDocument, FlowNode, QuestionNode } from '../../src/flow/schema.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import type { Reply } from '../../src/flow/reply.js';
import { patternSample } from '../../src/flow/nodes/test-events.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import { DEMO_DIR, ensureDemoBuilt, fetchSession, freshDataDir, pgliteTemplate } from '../helpers/browser-server.js';
import { hasChromium, launchChromium, REQUIRE_BROWSER } from '../helpers/chromium.js';
import { exampleFlows } from '../helpers/http.js';
import { assistantCount, settled } from '../helpers/widget-page.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const WAIT = PATIENCE_MS;
/** Turns one flow may take before the test gives up (a correction at the summary asks some questions again). */
const MAX_TURNS = 40;
const CORRECTION = 'wait, change the date';
const CONFIRMATION = "yes that's correct";

/**
 * Answers chosen where the generic choice would end the flow before its
 * interesting part (led-sales: browsing ends at once, buying goes through the
 * subflows, the price lookup and the summary).
 */
const STEER: Record<string, Record<string, string>> = {
  'led-sales': { intent: 'I want to buy LED lights' },
  // Below the approval threshold: a manager's approval is the input-gates test's (test/browser/inputs.test.ts).
  'refund-approval': { amount: '80 euros' },
};

const runBrowser = hasChromium || REQUIRE_BROWSER;
const flows = exampleFlows();

describe.skipIf(!runBrowser)('typing after every reply, on every example flow, in Chromium', () => {
  let browser: Browser;
  let base: string;
  let server: RunningServer;
  /**
   * One page for every flow, each test loading its flow into it: a browser
   * context (and its renderer) costs about a CPU-second to start, and the
   * flows share nothing in the page (each keeps its session under its own
   * localStorage key, and every test starts its flow's page afresh).
   */
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await ensureDemoBuilt();
    base = mkdtempSync(join(tmpdir(), 'gateflow-typing-'));
    let template: string;
    [browser, template] = await Promise.all([launchChromium(), pgliteTemplate(base)]);
    server = await startServer({
      workflows: flows.map((flow) => flowWorkflow(flow)),
      actors: { extract: createExtractActor(), ...EXAMPLE_ACTORS },
      port: 0,
      dataDir: freshDataDir(template, base, 'typing'),
      staticDir: DEMO_DIR,
    });
    context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
    context.setDefaultTimeout(WAIT);
    await context.route((url) => url.origin !== new URL(server.url).origin, (route) => route.fulfill({ status: 404, body: '' }));
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close();
    await server?.close();
    await browser?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('serves all seven example flows', () => {
    expect(flows.map((f) => f.id)).toEqual(['clinic-callback', 'contact-request', 'event-booking', 'led-sales', 'lighting-consult', 'patient-intake', 'refund-approval']);
  });

  it.each(flows.map((f) => [f.id, f] as const))(
    '%s: typed answers, Enter after each; the focus stays in the text box and only the typed text is recorded', async (flowId, flow) => {
      const origin = server.url;
      const errors: string[] = [];
      const onPageError = (e: Error) => errors.push(`pageerror: ${e.message}`);
      const onConsole = (m: ConsoleMessage) => {
        if (m.type() === 'error') errors.push(`console: ${m.text()}`);
      };
      // This flow's page alone: what another flow's page said is not this test's.
      page.on('pageerror', onPageError);
      page.on('console', onConsole);
      onTestFinished(() => {
        page.off('pageerror', onPageError);
        page.off('console', onConsole);
      });
      await page.goto(`${origin}/?flow=${flowId}`);
      await settled(page, 1);
      const sessionId = await page.evaluate((key) => localStorage.getItem(key), `gateflow:session:${flowId}`);
      expect(sessionId).toBeTruthy();

      const typed: string[] = [];
      let corrected = false;
      let summaries = 0;
      let reply = (await fetchSession(origin, sessionId!)).reply;
      while (!reply.completion.isComplete) {
        expect(typed.length, `${flowId} did not finish in ${MAX_TURNS} typed turns; typed: ${JSON.stringify(typed.slice(-4))}, asked: "${reply.message}"`).toBeLessThan(
          MAX_TURNS,
        );
        // Where the widget left the focus after the reply: the text box.
        expect(await focusedControl(page), `focus after reply ${typed.length} ("${reply.message.slice(0, 60)}")`).toBe('textbox:Your answer');

        // The summary: the reply with the confirm button (a "which answer?" step is not one).
        const atSummary = (reply.buttons ?? []).some((b) => b.value === 'confirm');
        if (atSummary) await page.screenshot({ path: join(SCREENSHOTS, `typing-${flowId}-summary-${++summaries}.png`), fullPage: true });
        const text = atSummary ? (corrected ? CONFIRMATION : CORRECTION) : answerFor(flow, reply);
        const n = await assistantCount(page);
        await page.keyboard.type(text);
        await page.keyboard.press('Enter');
        await settled(page, n + 1);
        typed.push(text);

        // Shown as the person's message, and recorded as that text: no button went instead.
        expect((await page.locator('.gf-chat .gf-message.gf-user p').allInnerTexts()).at(-1)).toBe(text);
        const session = await fetchSession(origin, sessionId!);
        const turn = session.history.at(-1)!.turn;
        expect(turn && 'text' in turn ? turn.text : turn).toBe(text);
        const previous = reply;
        reply = session.reply;
        if (atSummary && !corrected) {
          // A correction is never taken as the confirmation.
          expect(reply.completion.isComplete, `"${CORRECTION}" at the summary finished ${flowId}`).toBe(false);
          expect(reply.completion.reason).not.toBe('handed_off');
          corrected = true;
        }
        // Nothing answered by a button that was never pressed.
        for (const [key, answer] of Object.entries(reply.answers))
          expect(answer.source, `${key} after "${text}" (asked: "${previous.message.slice(0, 60)}")`).not.toBe('button');
      }

      const w = page.locator('.gf-chat');
      await w.getByRole('status').filter({ hasText: /^(Finished|Cancelled|Stopped)/ }).waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, `typing-${flowId}-finished.png`), fullPage: true });
      const session = await fetchSession(origin, sessionId!);
      // Every turn is the text typed, in order: not one button.
      expect(session.history.map((e) => e.turn && ('text' in e.turn ? e.turn.text : `button:${e.turn.button}`))).toEqual([null, ...typed]);
      expect(await page.locator('.gf-chat .gf-message.gf-user p').allInnerTexts()).toEqual(typed);
      if (hasConfirmation(flow)) expect(corrected, `${flowId} never reached its summary`).toBe(true);
      expect(errors).toEqual([]);
    },
  );
});

/** What a person would type to answer the reply: made from the flow's node it is at. */
function answerFor(flow: FlowDocument, reply: Reply): string {
  const node = nodeAt(flow, reply.state);
  if (node && STEER[flow.id]?.[node.id]) return STEER[flow.id]![node.id]!;
  const buttons = (reply.buttons ?? []).filter((b) => b.value !== SKIP_VALUE);
  if (node?.kind === 'path') {
    const options = flow.paths?.options ?? [];
    const option = options.at(-1);
    if (option) return `lighting for our ${option.keywords?.[0] ?? option.label}`;
  }
  if (node?.kind === 'question') {
    const typedAnswer = typedValue(node);
    if (typedAnswer !== undefined) return typedAnswer;
    return choice(node, buttons) ?? (node.answer.type === 'category' ? node.answer.categories.at(-1)! : 'yes');
  }
  // A reply this test does not know (e.g. "which answer?"): a choice that is not the first if there are any, else a plain yes.
  return (buttons[1] ?? buttons[0])?.label ?? 'yes';
}

/** A valid typed answer for a question that is not a choice; undefined for categories and yes/no. */
function typedValue(node: QuestionNode): string | undefined {
  const answer = node.answer;
  switch (answer.type) {
    case 'string':
      // A pattern (an order number "AB1234") asks for text that matches it.
      return (answer.pattern !== undefined ? patternSample(answer.pattern) : undefined) ?? 'Jane Doe';
    case 'email':
      return 'jane.doe@example.com';
    case 'phone':
      return '+1 415 555 0100';
    case 'number': {
      const min = answer.min ?? 1;
      const max = answer.max ?? min + 100;
      const middle = (min + max) / 2;
      return String(answer.integer ? Math.round(middle) : middle);
    }
    case 'date': {
      const day = new Date(Date.now() + 40 * 86_400_000);
      return day.toISOString().slice(0, 10);
    }
    default:
      return undefined;
  }
}

/** The label of a button that is not the first and does not stop the flow; else the first that does not stop it. */
function choice(node: QuestionNode, buttons: { label: string; value: string }[]): string | undefined {
  const limiting = new Set((node.limitingValues ?? []).map((v) => v.toLowerCase()));
  const open = buttons.filter((b) => !limiting.has(b.value.toLowerCase()));
  return (open.filter((b) => b !== buttons[0]).at(-1) ?? open[0] ?? buttons[0])?.label;
}

/** The node a reply's state is at: the deepest state key that names a node (subflows nest). */
function nodeAt(flow: FlowDocument, state: unknown): FlowNode | undefined {
  const all = [...flow.nodes, ...Object.values(flow.subgraphs ?? {}).flatMap((s) => s.nodes)];
  let found: FlowNode | undefined;
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      found = all.find((n) => n.id === value) ?? found;
      return;
    }
    if (!value || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      found = all.find((n) => n.id === key) ?? found;
      walk(child);
    }
  };
  walk(state);
  return found;
}

const hasConfirmation = (flow: FlowDocument) => flow.nodes.some((n) => n.kind === 'confirmation');


/** The focused control as "role:name": the text box by its label, a button by its text. */
function focusedControl(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (el instanceof HTMLTextAreaElement) return `textbox:${el.labels?.[0]?.textContent?.trim() ?? ''}`;
    if (el instanceof HTMLButtonElement) return `button:${el.textContent?.trim() ?? ''}`;
    return el ? el.tagName.toLowerCase() : 'none';
  });
}
