/**
 * Vitest global setup: the CLI as one JavaScript file, built once per run.
 *
 * The suites that run `gateflow` as a process (serve, inputs, chat, graph, the
 * crash tests) start it dozens of times. Through `node --import tsx` every
 * start resolves and transforms some three hundred modules in tsx's loader
 * thread (about a second of CPU); the bundle starts in under half of that. It
 * is the same source, bundled by esbuild with every package left external, so
 * `node_modules` resolves as it does for the installed bin. It lives in the
 * checkout (`.gateflow/`, ignored by git), not in a shared cache, because the
 * CLI finds its example flows from its own location.
 */
import { mkdirSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { CLI_BUNDLE } from '../helpers/cli.js';

const root = resolve(import.meta.dirname, '../..');

export default async function setup(): Promise<void> {
  const aside = `${CLI_BUNDLE}.${process.pid}.tmp`;
  mkdirSync(join(CLI_BUNDLE, '..'), { recursive: true });
  await build({
    entryPoints: [join(root, 'src', 'cli', 'main.ts')],
    outfile: aside,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  // Renamed into place: a run that starts meanwhile never sees half a file.
  renameSync(aside, CLI_BUNDLE);
}
