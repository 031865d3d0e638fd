/**
 * The document agent on the demo page (issue 14 §3), in Debian's Chromium
 * against a real `gateflow serve` (PGlite in a temporary directory, no
 * model: the offline reader follows explicit commands). A person chooses the
 * document agent and, beside its chat, sees the project's documents: a
 * document created, added to (rendered anew without a reload), a duplicate
 * name answered with one of its two buttons, a deletion cancelled, dropped
 * by a new request typed while it waits, then confirmed; a change made over
 * `POST /api/agent/act` from elsewhere shows up live (the events stream);
 * and a reload brings back the chat and the documents.
 * Screenshots go to test/browser/screenshots/document-agent-*.png.
 *
 * Skipped without /usr/bin/chromium, unless GATEFLOW_REQUIRE_BROWSER=1.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pgliteTemplate } from '../helpers/browser-server.js';
import { hasChromium, REQUIRE_BROWSER } from '../helpers/chromium.js';
import { useServedBrowser } from '../helpers/served-browser.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const WAIT = PATIENCE_MS;
const GREETING = /^I keep this project's documents/;
const DELETE_BUDGET = 'delete the Budget section from Recipes';
const CONFIRM_BUDGET = "I'll remove the Budget section from the Recipes document. This will delete all budget information. Should I proceed?";

const runBrowser = hasChromium || REQUIRE_BROWSER;

interface ServerDocument {
  id: number;
  name: string;
  content: string;
  version: number;
}

describe.skipIf(!runBrowser)('the document agent on the demo page: the chat beside the documents', () => {
  const served = useServedBrowser({ name: 'document-agent', template: pgliteTemplate, serves: 'document agent: document-agent', screenshots: SCREENSHOTS });

  /** What a person sees of the document agent: its chat, the documents' names, the selected document. */
  function agent(page: Page) {
    const chat = page.getByRole('region', { name: 'Document agent' });
    const documents = page.getByRole('region', { name: 'Documents', exact: true });
    return {
      chat,
      input: chat.getByRole('textbox', { name: 'Your answer' }),
      assistant: chat.locator('.gf-message.gf-assistant:not(.gf-thinking)'),
      /** The buttons of the gate the agent waits on. */
      choices: chat.locator('form.gf-input-form').getByRole('button'),
      documents,
      names: documents.getByRole('listitem').getByRole('button'),
      document: page.getByRole('article'),
    };
  }

  /** What the elements show on screen (without the words only screen readers get), whitespace collapsed. */
  const shownTexts = (locator: Locator) =>
    locator.evaluateAll((elements) => {
      const hidden = Array.from(document.querySelectorAll<HTMLElement>('.gf-visually-hidden'));
      for (const h of hidden) h.style.display = 'none';
      try {
        return elements.map((element) => (element as HTMLElement).innerText.replace(/\s+/g, ' ').trim());
      } finally {
        for (const h of hidden) h.style.display = '';
      }
    });
  const lastSaid = async (page: Page) => (await shownTexts(agent(page).assistant)).at(-1) ?? '';

  /** The documents' names as listed, the selected one marked with a star. */
  const listed = (page: Page) =>
    agent(page).names.evaluateAll((buttons) => buttons.map((b) => `${b.textContent}${b.getAttribute('aria-current') === 'true' ? ' *' : ''}`));

  /** The selected document as rendered: its name, then each block (headings marked with their tag). */
  const rendered = (page: Page) =>
    agent(page).document.evaluate((article) => [
      article.querySelector('h2')?.textContent ?? '',
      ...Array.from(article.querySelectorAll('.da-content > *, .da-document > p.da-muted'), (el) =>
        /^H\d$/.test(el.tagName) ? `${el.tagName.toLowerCase()}: ${el.textContent}` : (el.textContent ?? ''),
      ),
    ]);

  /** The project's documents as the server holds them. */
  async function serverDocuments(): Promise<ServerDocument[]> {
    const { projects } = (await (await fetch(`${served.server.url}/api/projects`)).json()) as { projects: { id: number; name: string }[] };
    const response = await fetch(`${served.server.url}/api/projects/${projects[0]!.id}/documents`);
    return ((await response.json()) as { documents: ServerDocument[] }).documents;
  }

  /** Waits until the chat has settled with the next reply. */
  async function nextReply(page: Page, before: number): Promise<string> {
    const a = agent(page);
    await expect.poll(() => a.assistant.count(), { timeout: WAIT }).toBe(before + 1);
    await page.waitForFunction(() => document.querySelector('.gf-chat')?.getAttribute('data-status') !== 'sending');
    return lastSaid(page);
  }

  /** Types a message and presses Enter; resolves to the reply. */
  async function say(page: Page, text: string): Promise<string> {
    const a = agent(page);
    const before = await a.assistant.count();
    await a.input.click();
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    return nextReply(page, before);
  }

  /** Presses one of the gate's buttons; resolves to the reply. */
  async function press(page: Page, label: string): Promise<string> {
    const a = agent(page);
    const before = await a.assistant.count();
    await a.choices.filter({ hasText: label }).click();
    return nextReply(page, before);
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `document-agent-${name}.png`), fullPage: true });

  it('create, add to, a duplicate name, a deletion cancelled, dropped and confirmed, a change from elsewhere, a reload', async () => {
    const context = await served.browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(WAIT);
    const page = await context.newPage();
    const errors: string[] = [];
    const documentReads: number[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    page.on('response', (r) => {
      if (/^\/api\/projects\/\d+\/documents$/.test(new URL(r.url()).pathname)) documentReads.push(r.status());
    });
    try {
      await page.goto(`${served.server.url}/`);
      const a = agent(page);

      // Choose the document agent: its chat greets, the project (made for this page: the store had none) has no documents yet.
      await page.getByLabel('Flow').selectOption({ label: 'Document agent (1)' });
      await expect.poll(() => lastSaid(page), { timeout: WAIT }).toMatch(GREETING);
      expect(new URL(page.url()).searchParams.get('flow')).toBe('document-agent');
      await a.documents.getByText('No documents yet: ask the agent to create one.').waitFor();
      expect(await shownTexts(a.documents.getByText(/^Project:/))).toEqual(['Project: My Project']);
      const projects = (await (await fetch(`${served.server.url}/api/projects`)).json()) as { projects: { id: number; name: string }[] };
      expect(projects.projects.map((p) => p.name)).toEqual(['My Project']);
      const projectId = projects.projects[0]!.id;
      const storageKey = `gateflow:session:document-agent:${projectId}`;
      const sessionId = await page.evaluate((key) => localStorage.getItem(key), storageKey);
      expect(sessionId).toBeTruthy();
      // Nothing below reloads the page until the reload at the end: this mark would be gone.
      await page.evaluate(() => ((window as unknown as { unreloaded: boolean }).unreloaded = true));
      const notReloaded = () => page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded === true);
      await shot(page, '01-greeting');

      // Create: the seed's reply (4c); Recipes is listed and selected, empty.
      expect(await say(page, 'create a document called Recipes')).toMatch(/^I've created the document 'Recipes' in this project\. Document Content Summary:/);
      await expect.poll(() => listed(page)).toEqual(['Recipes *']);
      expect(await rendered(page)).toEqual(['Recipes', 'This document is empty.']);

      // Add to it, twice: the rendered document follows each reply (a heading, then a paragraph under it), without a reload.
      expect(await say(page, 'add this to Recipes: ## Budget')).toMatch(/^I'll add this to the Recipes document\./);
      await expect.poll(() => rendered(page)).toEqual(['Recipes', 'h3: Budget']);
      await say(page, 'add this to Recipes: Flour 2 EUR');
      await expect.poll(() => rendered(page)).toEqual(['Recipes', 'h3: Budget', 'Flour 2 EUR']);
      expect(await a.document.getByText(/^Version 3/).count()).toBe(1);
      expect(await serverDocuments()).toMatchObject([{ name: 'Recipes', content: '## Budget\n\nFlour 2 EUR\n', version: 3 }]);
      expect(await notReloaded()).toBe(true);
      await shot(page, '02-created-and-edited');

      // A duplicate name (ignoring case): the seed's text (4d) and its two choices as buttons; the text box stays.
      expect(await say(page, 'create a document called recipes')).toMatch(/^A document named 'Recipes' already exists in this project\./);
      expect(await a.choices.allTextContents()).toEqual(["Add this content to 'Recipes'", "Create 'Recipes 2' instead"]);
      expect(await a.input.isVisible()).toBe(true);
      await shot(page, '03-duplicate-name');
      // "Create 'Recipes 2' instead": the document the agent proposed is created and selected.
      expect(await press(page, "Create 'Recipes 2' instead")).toMatch(/^I've created the document 'Recipes 2' in this project\./);
      expect(await a.chat.locator('.gf-message.gf-user').last().innerText()).toContain("Create 'Recipes 2' instead");
      await expect.poll(() => listed(page)).toEqual(['Recipes', 'Recipes 2 *']);
      expect(await a.choices.count()).toBe(0);

      // A deletion asks first (4b): Proceed and Cancel; the document it would change is shown, its section still there.
      expect(await say(page, DELETE_BUDGET)).toBe(CONFIRM_BUDGET);
      expect(await a.choices.allTextContents()).toEqual(['Proceed', 'Cancel']);
      await expect.poll(() => listed(page)).toEqual(['Recipes *', 'Recipes 2']);
      expect(await rendered(page)).toEqual(['Recipes', 'h3: Budget', 'Flour 2 EUR']);
      await shot(page, '04-confirmation');
      // Cancel: nothing changes.
      expect(await press(page, 'Cancel')).toBe("Cancelled: nothing was changed (I'll remove the Budget section from the Recipes document).");
      expect(await a.choices.count()).toBe(0);
      expect(await rendered(page)).toEqual(['Recipes', 'h3: Budget', 'Flour 2 EUR']);
      expect((await serverDocuments()).find((d) => d.name === 'Recipes')).toMatchObject({ version: 3 });
      await shot(page, '05-cancelled');

      // Asked again, and while it waits, a new request typed instead: the pending one is dropped, said first.
      expect(await say(page, DELETE_BUDGET)).toBe(CONFIRM_BUDGET);
      const dropped = await say(page, 'which documents do I have?');
      expect(dropped).toMatch(/^I dropped the request I was waiting on you to confirm \(I'll remove the Budget section from the Recipes document\)\. You have 2 documents/);
      // The note is in italics (the agents' notes are `_…_`).
      expect(await a.assistant.last().locator('em').allInnerTexts()).toEqual([expect.stringMatching(/^I dropped the request/)]);
      expect(dropped).toContain('Recipes, Recipes 2');
      expect(await a.choices.count()).toBe(0);
      expect(await rendered(page)).toEqual(['Recipes', 'h3: Budget', 'Flour 2 EUR']);

      // Asked again, and Proceed: the section goes, in the rendered document too.
      expect(await say(page, DELETE_BUDGET)).toBe(CONFIRM_BUDGET);
      expect(await press(page, 'Proceed')).toMatch(/^I'll remove the Budget section from the Recipes document\. Content Summary: Removed the Budget section from 'Recipes'\./);
      await expect.poll(() => rendered(page)).toEqual(['Recipes', 'This document is empty.']);
      expect((await serverDocuments()).find((d) => d.name === 'Recipes')).toMatchObject({ content: '', version: 4 });
      expect(await notReloaded()).toBe(true);
      await shot(page, '06-proceeded');

      // A change made elsewhere (the seed's API, another chat): the events stream brings it to the page, no reply needed.
      const act = await fetch(`${served.server.url}/api/agent/act`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'add this to Recipes: ## Soup', project_id: projectId }),
      });
      expect(act.status).toBe(200);
      await expect.poll(() => rendered(page)).toEqual(['Recipes', 'h3: Soup']);
      expect(await notReloaded()).toBe(true);

      // Reloaded: the same session, the same conversation, the same documents.
      const shown = await a.chat.locator('.gf-message').allInnerTexts();
      await page.reload();
      await expect.poll(() => a.chat.locator('.gf-message').allInnerTexts()).toEqual(shown);
      expect(await page.evaluate((key) => localStorage.getItem(key), storageKey)).toBe(sessionId);
      await expect.poll(() => listed(page)).toEqual(['Recipes *', 'Recipes 2']);
      await expect.poll(() => rendered(page)).toEqual(['Recipes', 'h3: Soup']);
      await shot(page, '07-after-reload');

      // The documents were read at load and after every reply (and change), and every read answered.
      expect(documentReads.length).toBeGreaterThanOrEqual(12);
      expect(documentReads.every((status) => status === 200)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
