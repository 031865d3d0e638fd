/**
 * The viewer (issue 15 §1, §2, §4) in Debian's Chromium against a real
 * `gateflow serve` (PGlite with Apache AGE in a temporary directory: every
 * example flow, the task agent, the document agent and the hand-written
 * machines): every drawing at both levels without console errors; a box's
 * details; pan and zoom; a session driven over HTTP followed live (the current
 * box, the path taken, the answers, the turns with their trace events, an
 * input gate's form answered from the page); the coverage overlay.
 * Screenshots go to /tmp/shots/viewer-*.png.
 *
 * Skipped without /usr/bin/chromium, unless GATEFLOW_REQUIRE_BROWSER=1.
 */
import { join } from 'node:path';
import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { WorkflowDrawing } from '../../src/viz/drawing.js';
import { activeIds, outlineEdgeTransitions } from '../../src/viz/overlay.js';
import { fetchSession } from '../helpers/browser-server.js';
import { hasChromium, REQUIRE_BROWSER } from '../helpers/chromium.js';
import { useServedBrowser } from '../helpers/served-browser.js';
import { graphTemplate } from '../helpers/task-agent.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const SHOTS = '/tmp/shots';
const WAIT = PATIENCE_MS;

describe.skipIf(!(hasChromium || REQUIRE_BROWSER))('the viewer: drawings, details, live sessions, coverage', () => {
  const served = useServedBrowser({ name: 'viewer', template: graphTemplate, serves: 'task agent: task-agent', screenshots: SHOTS });

  const api = <T>(path: string, body?: unknown) => served.api<T>(path, body);

  /**
   * The tab the tests that route nothing load their pages into, one after
   * the other: a browser context (and its renderer) costs about a CPU-second
   * to start. Each test gets it with the origin's storage emptied.
   */
  let tab: { context: BrowserContext; page: Page } | undefined;
  afterAll(async () => {
    await tab?.context.close().catch(() => {});
  });

  /**
   * A page collecting console errors and uncaught exceptions: of its own when
   * the test routes requests (`own`), else the shared tab (at the size asked
   * for, storage emptied); `close()` ends what is the test's.
   */
  async function open(width = 1400, height = 900, own = false): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
    let page: Page;
    let close: () => Promise<void>;
    if (own) {
      const context = await served.browser.newContext({ viewport: { width, height } });
      page = await context.newPage();
      close = () => context.close();
    } else {
      if (!tab) {
        const context = await served.browser.newContext({ viewport: { width, height } });
        tab = { context, page: await context.newPage() };
      } else {
        // Away from the pages (a JSON answer: no script runs on), then the origin's storage emptied.
        await tab.page.goto(`${served.server.url}/api/drawings`);
        await tab.page.evaluate(() => {
          localStorage.clear();
          sessionStorage.clear();
        });
        await tab.page.setViewportSize({ width, height });
      }
      page = tab.page;
      close = async () => {
        page.off('pageerror', onPageError);
        page.off('console', onConsole);
      };
    }
    const errors: string[] = [];
    const onPageError = (e: Error) => errors.push(`pageerror: ${e.message}`);
    const onConsole = (m: ConsoleMessage) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    };
    page.on('pageerror', onPageError);
    page.on('console', onConsole);
    return { page, errors, close };
  }

  /** The drawing's box ids as the page shows them, once drawn. */
  async function drawnBoxIds(page: Page): Promise<string[]> {
    await page.locator('.gv-canvas svg .gf-node').first().waitFor({ timeout: WAIT });
    return page.locator('.gv-canvas svg .gf-node').evaluateAll((nodes) => nodes.map((n) => (n as SVGGElement).dataset.id ?? ''));
  }

  /** The ids of the boxes carrying a class. */
  const marked = (page: Page, cls: string) =>
    page.locator(`.gv-canvas svg .gf-node.${cls}`).evaluateAll((nodes) => nodes.map((n) => (n as SVGGElement).dataset.id ?? '').sort());

  /** Whether a box lies wholly inside the canvas on screen. */
  const inView = async (page: Page, id: string) => {
    const frame = (await page.locator('.gv-canvas').boundingBox())!;
    const box = (await page.locator(`.gv-canvas .gf-node[data-id="${id}"] > rect.gf-box`).boundingBox())!;
    return box.x >= frame.x && box.y >= frame.y && box.x + box.width <= frame.x + frame.width && box.y + box.height <= frame.y + frame.height;
  };

  /** The canvas's view box (`x y w h`), as the page keeps it. */
  const view = async (page: Page) => (await page.locator('.gv-canvas').getAttribute('data-view'))!.split(' ').map(Number);

  it('lists every workflow and machine and draws each at both levels, box for box, without errors', async () => {
    const { drawings } = await api<{ drawings: { id: string; kind: string }[] }>('/api/drawings');
    const ids = drawings.map((d) => d.id);
    for (const id of ['patient-intake', 'led-sales', 'refund-approval', 'task-agent', 'document-agent', 'pathSelection', 'chatSession']) expect(ids).toContain(id);
    const { page, errors, close } = await open();
    try {
      await page.goto(`${served.server.url}/viewer`);
      const list = page.getByRole('navigation', { name: 'Drawings' });
      await expect.poll(() => list.getByRole('link').count(), { timeout: WAIT }).toBe(drawings.length);

      // Each drawing opened as a link opens it (a deep link to one level), the other level by its button, as a person switches.
      for (const id of ids) {
        const drawing = await api<WorkflowDrawing>(`/api/drawings/${encodeURIComponent(id)}`);
        // A flow opens at its machine, then "As written"; a hand-written machine asked for its outline shows its states.
        const levels = drawing.outline ? (['machine', 'outline'] as const) : (['outline'] as const);
        await page.goto(`${served.server.url}/viewer?workflow=${encodeURIComponent(id)}&level=${levels[0]}`);
        for (const level of levels) {
          if (level !== levels[0]) await page.getByRole('group', { name: 'Level' }).getByRole('button', { name: 'As written' }).click();
          const expected = (level === 'outline' && drawing.outline ? drawing.outline.nodes.map((n) => n.id) : drawing.machine.states.map((s) => s.id)).sort();
          // Drawn, and at this level (after the button, the other level's boxes are there until the new ones are).
          await expect
            .poll(async () => (await drawnBoxIds(page)).sort(), { timeout: WAIT, message: `${id} at ${level} (${page.url()}), page errors: ${JSON.stringify(errors)}` })
            .toEqual(expected);
          // The edges too: one per outline edge, or per machine transition (a transition to several targets is one edge per target).
          const edgeCount = level === 'outline' && drawing.outline ? drawing.outline.edges.length : drawing.machine.transitions.length;
          expect(await page.locator('.gv-canvas svg .gf-edge').count(), `${id} edges at ${level}`).toBe(edgeCount);
          // A machine without an outline offers no "As written" level; a flow shows which level is on.
          expect(await page.getByRole('button', { name: 'As written' }).count()).toBe(drawing.outline ? 1 : 0);
          if (drawing.outline) expect(await page.getByRole('button', { name: level === 'outline' ? 'As written' : 'Machine', exact: true }).getAttribute('aria-pressed')).toBe('true');
          if (id === 'task-agent') {
            await page.screenshot({ path: join(SHOTS, 'viewer-task-agent.png') });
            await page.getByRole('button', { name: 'Fit' }).click();
            await page.screenshot({ path: join(SHOTS, 'viewer-task-agent-fit.png') });
          }
        }
      }
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows a clicked box or edge in the details panel, switches levels, pans and zooms', async () => {
    const { page, errors, close } = await open();
    try {
      await page.goto(`${served.server.url}/viewer?workflow=led-sales`);
      await drawnBoxIds(page);
      const details = page.getByRole('region', { name: 'Details' });
      await page.locator('.gf-node[data-id="led.venue"]').click();
      await expect.poll(() => details.textContent()).toContain('Where will the lights go?');
      expect(await details.textContent()).toContain('category: sports_court, warehouse, parking_lot');
      expect(await page.locator('.gf-node.gf-selected').evaluateAll((n) => n.map((e) => (e as SVGGElement).dataset.id))).toEqual(['led.venue']);
      await page.screenshot({ path: join(SHOTS, 'viewer-led-sales-as-written.png') });

      // An edge from the keyboard: focused, Enter.
      const edge = page.locator('.gf-edge[data-id]').filter({ has: page.locator('text', { hasText: "'support'" }) }).first();
      await edge.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => details.textContent()).toContain("answers.intention == 'support'");
      expect(await details.textContent()).toContain('Outcome');

      // Pan: a drag moves the view and picks nothing; zoom: the buttons and the wheel.
      const before = await view(page);
      const canvas = page.locator('.gv-canvas');
      const box = (await canvas.boundingBox())!;
      await page.mouse.move(box.x + box.width - 40, box.y + box.height - 40);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 240, box.y + box.height - 140, { steps: 8 });
      await page.mouse.up();
      const panned = await view(page);
      expect(panned[0]).toBeGreaterThan(before[0]! + 100);
      expect(panned[1]).toBeGreaterThan(before[1]! + 50);
      expect(panned[2]).toBeCloseTo(before[2]!, 0);
      await page.getByRole('button', { name: 'Zoom in' }).click();
      const zoomed = await view(page);
      expect(zoomed[2]).toBeLessThan(panned[2]! * 0.9);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, 400);
      await expect.poll(async () => (await view(page))[2]).toBeGreaterThan(zoomed[2]! * 1.2);
      await page.getByRole('button', { name: 'Fit' }).click();
      const svgBox = await page.locator('.gv-canvas svg').evaluate((svg) => (svg as SVGSVGElement).viewBox.baseVal.width);
      expect(svgBox).toBeGreaterThan(zoomed[2]!);

      // The machine level: a state's details (its id, type, transitions).
      await page.getByRole('button', { name: 'Machine' }).click();
      await expect.poll(() => page.locator('.gf-node[data-id="led-sales.led.venue.asking"]').count(), { timeout: WAIT }).toBe(1);
      expect(page.url()).toContain('level=machine');
      await page.locator('.gf-node[data-id="led-sales.led.venue.asking"]').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => details.textContent()).toContain('led-sales.led.venue.asking');
      expect(await details.textContent()).toMatch(/Transitions.*on user\.text/);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('follows a session driven over HTTP live: current box, path taken, answers, turns with their trace, an input form', async () => {
    const drawing = await api<WorkflowDrawing>('/api/drawings/refund-approval');
    const root = drawing.machine.states.find((s) => s.parent === null)!.id;
    const { sessionId } = await api<{ sessionId: string }>('/api/flows/refund-approval/sessions', {});
    const { page, errors, close } = await open();
    try {
      await page.goto(`${served.server.url}/viewer?session=${sessionId}`);
      await drawnBoxIds(page);
      await page.getByText('live', { exact: true }).waitFor({ timeout: WAIT });
      // A mark only this page load has: it must survive every turn (the page is updated, not reloaded).
      await page.evaluate(() => ((window as unknown as { loadMark: number }).loadMark = 42));
      const active = () => marked(page, 'gf-active');
      const visited = () => marked(page, 'gf-visited');
      const expectActive = async (node: string) => {
        await expect.poll(active, { timeout: WAIT }).toEqual([node]);
        const { reply } = await fetchSession(served.server.url, sessionId);
        expect(activeIds(drawing, 'outline', reply.state).filter((id) => id !== root)).toEqual([node]);
        // Kept in sight: the view moves to the current box when it leaves it.
        await expect.poll(() => inView(page, node), { timeout: WAIT }).toBe(true);
      };
      await expectActive('order_number');
      expect(await visited()).toEqual(['order_number']);

      const turns = page.getByRole('region', { name: 'Turns' });
      const answers = page.getByRole('region', { name: 'Answers' });
      const turn = (t: unknown) => api(`/api/sessions/${sessionId}/turns`, t);

      await turn({ text: 'hello' });
      await expect.poll(() => turns.textContent(), { timeout: WAIT }).toContain('Typed “hello”');
      expect(await turns.textContent()).toMatch(/validation\.failed\s*refused order_number: An order number is two capital letters/);
      await expectActive('order_number');

      await turn({ text: 'AB1234' });
      await expectActive('amount');
      expect(await visited()).toEqual(['amount', 'order_number']);
      await expect.poll(() => answers.textContent(), { timeout: WAIT }).toContain('AB1234');
      expect(await turns.textContent()).toContain('answer order_number = “AB1234” (match)');

      await turn({ text: '250' });
      await expectActive('reason');
      await turn({ button: 'damaged' });
      await expectActive('review');
      // A button turn is shown as the label the person clicked, not its value.
      await expect.poll(() => turns.textContent(), { timeout: WAIT }).toContain('Pressed “It arrived damaged”');
      await page.screenshot({ path: join(SHOTS, 'viewer-session-midway.png') });
      expect(await visited()).toEqual(['amount', 'order_number', 'reason', 'review']);

      await turn({ button: 'confirm' });
      await expectActive('manager_approval');
      // The decision passed through within the step is on the path (from the trace's node entries).
      expect(await visited()).toEqual(['amount', 'manager_approval', 'order_number', 'reason', 'review', 'size']);
      // The edges taken (from the trace's guard outcomes): the way to the gate, not the other ways out of the decision.
      const edgeId = (source: string, target: string) => drawing.outline!.edges.find((e) => e.source === source && e.target === target)!.id;
      const taken = await page.locator('.gv-canvas .gf-edge.gf-visited').evaluateAll((n) => n.map((e) => (e as SVGGElement).dataset.id));
      expect(taken).toContain(edgeId('review', 'size'));
      expect(taken).toContain(edgeId('size', 'manager_approval'));
      expect(taken).not.toContain(edgeId('size', 'auto_approved'));
      expect(taken).not.toContain(edgeId('review', 'order_number'));
      const text = (await turns.textContent())!;
      expect(text).toContain('Pressed “Request the refund”');
      expect(text).not.toContain('Pressed “confirm”');
      expect(text).toMatch(/guard\.evaluated\s*on next from size: answers\.amount > 100\.0 ✓ → manager_approval/);
      expect(text).toContain('node.enter');
      const status = page.getByRole('region', { name: 'Status' });
      await expect.poll(() => status.textContent()).toContain('waiting');

      // The open gates, with their forms; answered from the page (POST /api/inputs/{gateId}).
      const gates = page.getByRole('region', { name: 'Open input gates' });
      await expect.poll(() => gates.locator('form.gf-input-form').count(), { timeout: WAIT }).toBe(2);
      await page.screenshot({ path: join(SHOTS, 'viewer-session-input.png') });
      await gates.getByRole('radio', { name: 'Approve' }).check();
      await gates.locator('form.gf-input-form').first().getByRole('button', { name: 'Answer' }).click();
      await expect.poll(() => gates.locator('form.gf-input-form').count(), { timeout: WAIT }).toBe(1);
      await gates.getByRole('spinbutton').fill('250');
      await gates.getByRole('button', { name: 'Answer' }).click();
      await expectActive('approved');
      // Finished at a terminal that completes: "completed", not the bare status "done".
      await expect.poll(() => status.locator('.gv-tag').textContent(), { timeout: WAIT }).toBe('completed');
      expect(await turns.textContent()).toContain('Input “approved_amount” answered 250');
      expect(await page.evaluate(() => (window as unknown as { loadMark?: number }).loadMark)).toBe(42);
      await page.screenshot({ path: join(SHOTS, 'viewer-session-done.png') });

      // An unknown session is said so, with the API's message.
      await page.goto(`${served.server.url}/viewer?session=no-such-session`);
      await expect.poll(() => page.getByRole('alert').textContent(), { timeout: WAIT }).toContain('There is no session “no-such-session” that you may see');
      expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('says a stopped session is stopped, not done or completed, in its status and its turns', async () => {
    const { sessionId } = await api<{ sessionId: string }>('/api/flows/clinic-callback/sessions', {});
    await api(`/api/sessions/${sessionId}/turns`, { button: 'Billing' });
    // A limiting value: the flow ends at its stop terminal (status "done", reason "stopped_limiting_value").
    const stopped = await api<{ status: string; completion: { reason: string } }>(`/api/sessions/${sessionId}/turns`, { button: 'Yes' });
    expect([stopped.status, stopped.completion.reason]).toEqual(['done', 'stopped_limiting_value']);
    const { page, errors, close } = await open();
    try {
      await page.goto(`${served.server.url}/viewer?session=${sessionId}`);
      const status = page.getByRole('region', { name: 'Status' });
      await expect.poll(() => status.locator('.gv-tag').textContent(), { timeout: WAIT }).toBe('stopped');
      expect(await status.textContent()).toContain('stopped limiting value');
      const turns = page.getByRole('region', { name: 'Turns' });
      expect(await turns.locator('.gv-turn-reply').first().textContent()).toContain('(stopped, at');
      await page.screenshot({ path: join(SHOTS, 'viewer-session-stopped.png') });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('overlays coverage: nothing marked on a flow at 100%, a missing transition marked, and machines say it is for flows', async () => {
    const { page, errors, close } = await open(1400, 900, true);
    try {
      await page.goto(`${served.server.url}/viewer?workflow=contact-request`);
      await drawnBoxIds(page);
      await page.getByRole('button', { name: 'Coverage' }).click();
      const panel = page.getByRole('region', { name: 'Coverage' });
      await expect.poll(() => panel.textContent(), { timeout: WAIT }).toContain('Every state and transition is reached');
      expect(await panel.textContent()).toMatch(/transitions (\d+)\/\1 \(100%\)/);
      expect(await page.locator('.gf-edge.gf-uncovered').count()).toBe(0);

      // A report that misses one transition (served in place of the real one): its edge is marked, with the reason listed.
      const drawing = await api<WorkflowDrawing>('/api/drawings/contact-request');
      const real = await api<Record<string, unknown>>('/api/drawings/contact-request/coverage');
      const edge = drawing.outline!.edges[0]!;
      const transitions = outlineEdgeTransitions(edge, new Map(drawing.outline!.nodes.map((n) => [n.id, n])), drawing.machine.transitions);
      expect(transitions.length).toBeGreaterThan(0);
      await page.route('**/api/drawings/contact-request/coverage', (route) =>
        route.fulfill({
          json: {
            ...real,
            transitions: { covered: 56 - transitions.length, total: 56, percent: 90, missing: transitions },
            unreached: transitions.map((id) => ({ kind: 'transition', id, reason: 'a test reason' })),
          },
        }),
      );
      await page.goto(`${served.server.url}/viewer?workflow=contact-request&level=machine`);
      await drawnBoxIds(page);
      await page.getByRole('button', { name: 'Coverage' }).click();
      await expect.poll(() => page.locator('.gf-edge.gf-uncovered').evaluateAll((n) => n.map((e) => (e as SVGGElement).dataset.id).sort()), { timeout: WAIT }).toEqual(
        [...transitions].sort(),
      );
      await page.getByRole('button', { name: 'As written' }).click();
      await expect.poll(() => page.locator('.gf-edge.gf-uncovered').evaluateAll((n) => n.map((e) => (e as SVGGElement).dataset.id)), { timeout: WAIT }).toContain(edge.id);
      expect(await panel.textContent()).toContain('a test reason');
      await page.unroute('**/api/drawings/contact-request/coverage');

      await page.goto(`${served.server.url}/viewer?workflow=task-agent`);
      await drawnBoxIds(page);
      await page.getByRole('button', { name: 'Coverage' }).click();
      await expect.poll(() => panel.textContent(), { timeout: WAIT }).toContain('Coverage is available for flows');
      expect(await page.locator('.gf-edge.gf-uncovered').count()).toBe(0);
      expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('is linked from the demo page: the current session in the viewer', async () => {
    const { page, errors, close } = await open(1000, 900);
    try {
      await page.goto(`${served.server.url}/?flow=refund-approval`);
      await page.getByRole('textbox').waitFor({ timeout: WAIT });
      const link = page.getByRole('link', { name: 'See this session in the viewer' });
      await link.waitFor({ timeout: WAIT });
      const sessionId = await page.evaluate(() => localStorage.getItem('gateflow:session:refund-approval'));
      expect(await link.getAttribute('href')).toBe(`/viewer?session=${sessionId}`);
      expect(await page.getByRole('navigation', { name: 'Demo pages' }).getByRole('link', { name: 'Viewer' }).getAttribute('href')).toBe('/viewer');
      await link.click();
      await page.waitForURL(/\/viewer\?session=/);
      await expect.poll(() => marked(page, 'gf-active'), { timeout: WAIT }).toEqual(['order_number']);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it("draws a level from the layout the server made (the page never loads ELK), and lays it out itself when the server has none", async () => {
    const source = (page: Page) =>
      page.evaluate(() => performance.getEntriesByType('measure').filter((m) => m.name === 'gateflow:layout machine').map((m) => (m as PerformanceMeasure).detail?.source as string));
    const drawing = await api<WorkflowDrawing>('/api/drawings/patient-intake');
    const expected = drawing.machine.states.map((s) => s.id).sort();

    const fromServer = await open();
    const elk: string[] = [];
    fromServer.page.on('request', (r) => r.url().includes('elk') && elk.push(r.url()));
    try {
      await fromServer.page.goto(`${served.server.url}/viewer?workflow=patient-intake&level=machine`);
      expect((await drawnBoxIds(fromServer.page)).sort()).toEqual(expected);
      expect(await source(fromServer.page)).toEqual(['server']);
      expect(elk).toEqual([]);
      expect(fromServer.errors).toEqual([]);
    } finally {
      await fromServer.close();
    }

    // A server without the layout route (an older one): the page lays the drawing out with ELK, the same boxes.
    const alone = await open(1400, 900, true);
    try {
      await alone.page.route('**/api/drawings/*/layout?*', (route) => route.fulfill({ status: 404, json: { error: { code: 'not_found', message: 'no route' } } }));
      await alone.page.goto(`${served.server.url}/viewer?workflow=patient-intake&level=machine`);
      expect((await drawnBoxIds(alone.page)).sort()).toEqual(expected);
      expect(await source(alone.page)).toEqual(['browser']);
    } finally {
      await alone.close();
    }
  });
});
