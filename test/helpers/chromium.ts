/**
 * Chromium for the browser suites: Debian's packages (`apt-get install
 * chromium chromium-headless-shell`, as .ci/chromium does) driven by
 * playwright-core. Without either the browser cases are skipped, unless
 * GATEFLOW_REQUIRE_BROWSER=1, when they fail: CI must never skip them
 * silently.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';
import { inject } from 'vitest';
import { PATIENCE_MS } from './patience.js';

/**
 * Debian's headless build of the same Chromium (package
 * `chromium-headless-shell`, the same version as `chromium`): what Playwright
 * itself runs for headless pages. Measured on the widget and typing suites, it
 * costs about a quarter less CPU than the full browser (39-45 against 57
 * CPU-s). The full browser when it is not installed.
 */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';
export const CHROMIUM_PATH = existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : '/usr/bin/chromium';
export const REQUIRE_BROWSER = process.env.GATEFLOW_REQUIRE_BROWSER === '1';

/** True when browser cases should run. */
export const hasChromium = existsSync(CHROMIUM_PATH);

if (REQUIRE_BROWSER && !hasChromium)
  throw new Error(`GATEFLOW_REQUIRE_BROWSER=1 but ${CHROMIUM_PATH} is missing (apt-get install chromium chromium-headless-shell)`);

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

/**
 * GATEFLOW_TEST_OWN_CHROMIUM=1: each suite launches its own browser, as a
 * child of its worker, so that GATEFLOW_TEST_CPU_REPORT counts the browser's
 * CPU in the suite's (the shared one is the run's main process's child).
 */
const OWN_CHROMIUM = process.env.GATEFLOW_TEST_OWN_CHROMIUM === '1';

/**
 * Debian's Chromium; close it with `browser.close()`. Inside a run whose
 * global setup shares one (test/setup/shared-chromium.ts), and with no options
 * of its own, a connection to that one: `close()` then closes this
 * connection's contexts and leaves the browser to the other suites.
 */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const shared = Object.keys(options).length === 0 && !OWN_CHROMIUM ? inject('sharedChromium') : undefined;
  const browser = shared
    ? await chromium.connect(await sharedEndpoint(shared), { timeout: PATIENCE_MS })
    : await chromium.launch({
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

/** The shared browser's WebSocket endpoint (launched by the run's main process on the first request). */
async function sharedEndpoint(offer: string): Promise<string> {
  const response = await fetch(offer, { signal: AbortSignal.timeout(PATIENCE_MS) });
  const text = await response.text();
  if (!response.ok) throw new Error(`the shared Chromium did not start: ${text}`);
  return text;
}
