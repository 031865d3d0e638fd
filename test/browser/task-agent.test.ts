/**
 * The task agent on the demo page (issue 13 §4), in Debian's Chromium against
 * a real `gateflow serve` (PGlite with Apache AGE in a temporary directory, no
 * model: the offline reader). A person chooses the task agent, gives the
 * seed's goals one after the other and sees, beside the chat, each step taken
 * (✓ or ✗ and what it did) and the graph's nodes and edges read again after
 * every reply: the three-step goal of use case 1; a contradiction, answered
 * with the escalation's form after a reload; a tool the agent does not have.
 * Screenshots go to test/browser/screenshots/task-agent-*.png.
 *
 * Skipped without /usr/bin/chromium, unless GATEFLOW_REQUIRE_BROWSER=1.
 */
import { graphTemplate } from '../helpers/task-agent.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { GraphSnapshot } from '../../src/graph/model.js';
import { fetchSession } from '../helpers/browser-server.js';
import { hasChromium, REQUIRE_BROWSER } from '../helpers/chromium.js';
import { useServedBrowser } from '../helpers/served-browser.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const STORAGE_KEY = 'gateflow:session:task-agent';
const WAIT = PATIENCE_MS;

/** The seed's use case 1, word for word. */
const GOOD_PROMPT =
  "Create a new 'Ticket' node with the key 'TICKET-123' and the properties 'summary: Fix login button' and 'status: open'. Then, create a new 'User' node with the key 'john.doe' and the property 'name: John Doe'. Finally, create a 'REPORTS' edge from the 'User' node to the 'Ticket' node.";
const CONTRADICTION_PROMPT = "Create a new ticket with the key 'TICKET-456' and the status 'open'. The ticket should be closed.";
const HALLUCINATION_PROMPT = 'Use the `send_email` tool to notify the team about the new ticket.';
const TOOLS = 'add_node, add_edge, update_props, delete_node, delete_edge, query_graph, cypher_query';

const runBrowser = hasChromium || REQUIRE_BROWSER;

describe.skipIf(!runBrowser)('the task agent on the demo page: steps and graph beside the chat', () => {
  const served = useServedBrowser({ name: 'task-agent', template: graphTemplate, serves: 'task agent: task-agent', screenshots: SCREENSHOTS });

  /** What a person sees of the task agent: its chat, the steps, the graph. */
  function agent(page: Page) {
    const chat = page.getByRole('region', { name: 'Task agent (property graph)' });
    const steps = page.getByRole('region', { name: 'Steps', exact: true });
    const graph = page.getByRole('region', { name: 'Graph', exact: true });
    return {
      chat,
      input: chat.getByRole('textbox', { name: 'Your answer' }),
      assistant: chat.locator('.gf-message.gf-assistant:not(.gf-thinking)'),
      finished: chat.locator('.gf-finished'),
      forms: chat.locator('form.gf-input-form'),
      steps,
      stepItems: steps.getByRole('listitem'),
      graph,
      newGoal: page.getByRole('button', { name: 'New goal' }),
    };
  }

  /** What the elements show on screen (without the words only screen readers get), whitespace collapsed. */
  const shownTexts = (locator: Locator) =>
    locator.evaluateAll((elements) => {
      // Hidden for the moment of reading (no frame is drawn in between), so innerText keeps the line breaks.
      const hidden = Array.from(document.querySelectorAll<HTMLElement>('.gf-visually-hidden, .ta-visually-hidden'));
      for (const h of hidden) h.style.display = 'none';
      try {
        return elements.map((element) => (element as HTMLElement).innerText.replace(/\s+/g, ' ').trim());
      } finally {
        for (const h of hidden) h.style.display = '';
      }
    });
  const shownText = async (locator: Locator) => (await shownTexts(locator)).join('\n');
  const lastSaid = async (page: Page) => (await shownTexts(agent(page).assistant)).at(-1) ?? '';

  /** The graph as the page lists it: one row of cell texts per node, one line per edge. */
  async function shownGraph(page: Page): Promise<{ nodes: string[][]; edges: string[] }> {
    const { graph } = agent(page);
    const rows = (name: RegExp) =>
      graph
        .getByRole('table', { name })
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => Array.from((tr as HTMLTableRowElement).cells, (td) => td.innerText.trim())));
    const edgeTables = await graph.getByRole('table', { name: /^Edges/ }).count();
    return { nodes: await rows(/^Nodes/), edges: edgeTables === 0 ? [] : (await rows(/^Edges/)).map((cells) => cells.join(' | ')) };
  }

  /** The graph as the server holds it. */
  async function serverGraph(): Promise<GraphSnapshot> {
    const response = await fetch(`${served.server.url}/api/graph`);
    return (await response.json()) as GraphSnapshot;
  }

  /** Types a goal into the chat and presses Enter; resolves once the chat has settled with the next reply. */
  async function giveGoal(page: Page, goal: string): Promise<void> {
    const a = agent(page);
    const before = await a.assistant.count();
    await a.input.click();
    await page.keyboard.type(goal);
    await page.keyboard.press('Enter');
    await expect.poll(() => a.assistant.count(), { timeout: WAIT }).toBe(before + 1);
    await page.waitForFunction(() => document.querySelector('.gf-chat')?.getAttribute('data-status') !== 'sending');
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `task-agent-${name}.png`), fullPage: true });

  it('use case 1, a contradiction answered after a reload, and a tool it does not have: the steps and the graph after each goal', async () => {
    const context = await served.browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(WAIT);
    const page = await context.newPage();
    const errors: string[] = [];
    const graphReads: number[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === '/api/graph') graphReads.push(r.status());
    });
    try {
      await page.goto(`${served.server.url}/`);
      const a = agent(page);

      // Choose the task agent from the flows: its chat, with the steps and the (empty) graph beside it.
      await page.getByLabel('Flow').selectOption({ label: 'Task agent (property graph) (1)' });
      await expect.poll(() => lastSaid(page), { timeout: WAIT }).toMatch(/^I work on a property graph/);
      expect(new URL(page.url()).searchParams.get('flow')).toBe('task-agent');
      expect(await shownText(a.steps)).toBe('Steps No goal yet: type one in the chat.');
      await expect.poll(() => shownText(a.graph)).toBe('Graph The graph is empty.');
      const firstSession = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY);
      expect(firstSession).toBeTruthy();

      // Use case 1: three steps, each ✓ with what it did; the graph lists both nodes and the edge.
      await giveGoal(page, GOOD_PROMPT);
      await a.finished.waitFor();
      expect(await lastSaid(page)).toMatch(/^Done\b/);
      // A goal done is not a flow's handoff.
      expect(await a.finished.innerText()).toBe('Finished.');
      expect(await shownTexts(a.stepItems)).toEqual([
        "✓ create node Ticket 'TICKET-123': done add_node",
        "✓ create node User 'john.doe': done add_node",
        "✓ create edge REPORTS from User 'john.doe' to Ticket 'TICKET-123': done add_edge",
      ]);
      await expect.poll(() => shownGraph(page)).toEqual({
        nodes: [
          ['Ticket', 'TICKET-123', 'status: open\nsummary: Fix login button'],
          ['User', 'john.doe', 'name: John Doe'],
        ],
        edges: ['User john.doe -REPORTS-> Ticket TICKET-123 | none'],
      });
      // What the page lists is what the server holds.
      expect(await serverGraph()).toEqual({
        nodes: [
          { label: 'Ticket', key: 'TICKET-123', properties: { status: 'open', summary: 'Fix login button' } },
          { label: 'User', key: 'john.doe', properties: { name: 'John Doe' } },
        ],
        edges: [{ type: 'REPORTS', from: { label: 'User', key: 'john.doe' }, to: { label: 'Ticket', key: 'TICKET-123' }, properties: {} }],
      });
      // The goal is over: no text box, the way to the next goal instead.
      expect(await a.input.count()).toBe(0);
      expect(await a.newGoal.isVisible()).toBe(true);
      await shot(page, '01-use-case-1-done');

      // The next goal: a new session, its greeting, no steps yet; the graph stays.
      await a.newGoal.click();
      await expect.poll(() => shownTexts(a.assistant)).toEqual([expect.stringMatching(/^I work on a property graph/)]);
      const secondSession = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY);
      expect(secondSession).toBeTruthy();
      expect(secondSession).not.toBe(firstSession);
      expect(await a.newGoal.count()).toBe(0);
      expect(await shownText(a.steps)).toBe('Steps No goal yet: type one in the chat.');
      expect((await shownGraph(page)).nodes.map((row) => row.slice(0, 2))).toEqual([
        ['Ticket', 'TICKET-123'],
        ['User', 'john.doe'],
      ]);
      // The text box has the focus: the person types the next goal at once.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('placeholder'))).toBe('Type your answer…');

      // A contradiction: the agent asks which value, with the escalation's form (a few choices: buttons), and nothing is written.
      await giveGoal(page, CONTRADICTION_PROMPT);
      const question = /^I see a contradiction in your request: you asked for the status of Ticket TICKET-456 to be both 'open' and 'closed'\. Which should it be\?/;
      expect(await lastSaid(page)).toMatch(question);
      const choice = a.forms.getByRole('group');
      await choice.waitFor();
      expect(await a.forms.count()).toBe(1);
      // The form is labelled with the question, which is in view once (the message above it), not twice.
      expect(await a.forms.getByRole('group', { name: question }).count()).toBe(1);
      expect((await shownText(a.chat)).split('I see a contradiction').length - 1).toBe(1);
      expect(await choice.getByRole('button').allInnerTexts()).toEqual(['open', 'closed', 'Do nothing']);
      expect(await shownText(a.steps)).toBe('Steps No tool called yet.');
      expect((await shownGraph(page)).nodes.map((row) => row[1])).toEqual(['TICKET-123', 'john.doe']);
      await shot(page, '02-contradiction-asks');

      // Reloaded while it waits: the same session, the question and its form are still there.
      const shown = await a.chat.locator('.gf-message').allInnerTexts();
      await page.reload();
      await choice.waitFor();
      expect(await a.chat.locator('.gf-message').allInnerTexts()).toEqual(shown);
      expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY)).toBe(secondSession);
      expect(await shownText(a.steps)).toBe('Steps No tool called yet.');
      await shot(page, '03-contradiction-after-reload');

      // "closed": the ticket is created closed, and the graph shows it.
      await choice.getByRole('button', { name: 'closed', exact: true }).click();
      await a.finished.waitFor();
      expect(await shownTexts(a.stepItems)).toEqual(["✓ create node Ticket 'TICKET-456': done add_node"]);
      await expect.poll(async () => (await shownGraph(page)).nodes).toEqual([
        ['Ticket', 'TICKET-123', 'status: open\nsummary: Fix login button'],
        ['Ticket', 'TICKET-456', 'status: closed'],
        ['User', 'john.doe', 'name: John Doe'],
      ]);
      expect((await fetchSession(served.server.url, secondSession!)).reply.status).toBe('done');
      expect(await a.chat.locator('.gf-message.gf-user').allInnerTexts()).toEqual([expect.stringContaining(CONTRADICTION_PROMPT), expect.stringMatching(/closed/)]);
      await shot(page, '04-contradiction-closed');

      // A tool it does not have: it says so and what it can do; the step is ✗; it asks what to do instead.
      await a.newGoal.click();
      await expect.poll(() => a.assistant.count()).toBe(1);
      await giveGoal(page, HALLUCINATION_PROMPT);
      const notATool = await lastSaid(page);
      expect(notATool).toContain("I'm sorry, I don't have a `send_email` tool.");
      expect(notATool).toContain(`What I can do: ${TOOLS}.`);
      const steps = await shownTexts(a.stepItems);
      expect(steps).toHaveLength(1);
      expect(steps[0]).toMatch(/^✗ call send_email: not done \(.+\) send_email$/);
      const clarification = a.forms.getByRole('textbox');
      await clarification.waitFor();
      // Nothing was written.
      expect((await shownGraph(page)).nodes).toHaveLength(3);
      await shot(page, '05-unknown-tool');

      // "stop" in its form ends the goal, and the next one is offered.
      await clarification.fill('stop');
      await clarification.press('Enter');
      await a.finished.waitFor();
      expect(await a.newGoal.isVisible()).toBe(true);
      expect((await serverGraph()).nodes).toHaveLength(3);

      // The graph was read at load and after every reply, and every read answered.
      expect(graphReads.length).toBeGreaterThanOrEqual(9);
      expect(graphReads.every((status) => status === 200)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
