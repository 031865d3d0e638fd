/**
 * How the tests start `gateflow` as a process: `node <CLI_BUNDLE> ...`, the
 * CLI bundled once per run by test/setup/cli-bundle.ts (same source, started
 * in half the CPU of `node --import tsx src/cli/main.ts`).
 */
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI_BUNDLE = fileURLToPath(new URL('../../.gateflow/test-cli/main.js', import.meta.url));

/** The arguments after `node` that run `gateflow <args>`. */
export function cliArgs(...args: string[]): string[] {
  return [CLI_BUNDLE, ...args];
}
