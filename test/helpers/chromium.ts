/**
 * Chromium for the browser suites: Debian's package (`apt-get install chromium`)
 * driven by playwright-core. Without /usr/bin/chromium the browser cases are
 * skipped, unless GATEFLOW_REQUIRE_BROWSER=1, when they fail: CI must never
 * skip them silently.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';
import { PATIENCE_MS } from './patience.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const REQUIRE_BROWSER = process.env.GATEFLOW_REQUIRE_BROWSER === '1';

/** True when browser cases should run. */
export const hasChromium = existsSync(CHROMIUM_PATH);

if (REQUIRE_BROWSER && !hasChromium)
  throw new Error(`GATEFLOW_REQUIRE_BROWSER=1 but ${CHROMIUM_PATH} is missing (apt-get install chromium)`);

/** Headless, sandbox off (containers), and nothing that reaches the network on its own. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Launches Debian's Chromium; close it with `browser.close()`. */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    timeout: PATIENCE_MS,
    ...options,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
  // Every context waits with the suites' patience (Playwright's own default is 30 s, which a loaded machine can reach).
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    context.setDefaultTimeout(PATIENCE_MS);
    context.setDefaultNavigationTimeout(PATIENCE_MS);
    return context;
  };
  return browser;
}
