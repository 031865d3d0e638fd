/**
 * `npm run test:timings`: writes each test file's time (its tests and hooks,
 * in seconds) to test/setup/timings.json, the order
 * test/setup/longest-first.ts runs the files in. Run it on a quiet machine
 * after adding or much changing a slow file. A run of some files replaces
 * theirs and keeps the others; files that no longer exist are dropped.
 * `npm run test:ci -- --reporter=default --reporter=./test/setup/timings-reporter.ts`
 * measures the suites it raises at CI's sizes, kept apart (`raisedKey`).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { raisedFiles, raisedKey, readTimings } from './longest-first.js';

export default class TimingsReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const timings = readTimings();
    // A suite run at raised sizes (`npm run test:ci --reporter=...`) has its time kept apart from its sampled size's.
    const raised = new Set(raisedFiles());
    for (const module of modules) {
      if (module.state() !== 'passed') continue;
      const file = relative(this.root, module.moduleId);
      // Its imports are left out: they take longer when a run's first files load them, whatever the file.
      timings[raised.has(file) ? raisedKey(file) : file] = Math.round(module.diagnostic().duration / 100) / 10;
    }
    const kept = Object.entries(timings).filter(([key]) => existsSync(join(this.root, key.split(' ')[0]!)));
    const sorted = Object.fromEntries(kept.sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(new URL('./timings.json', import.meta.url), `${JSON.stringify(sorted, null, 2)}\n`);
  }
}
