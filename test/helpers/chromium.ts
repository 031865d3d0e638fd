/**
 * Chromium for the browser suites: Debian's package (`apt-get install chromium`)
 * driven by playwright-core. Without /usr/bin/chromium the browser cases are
 * skipped, unless GATEFLOW_REQUIRE_BROWSER=1, when they fail: CI must never
 * skip them silently.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

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
export function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    ...options,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
}
