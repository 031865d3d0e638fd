/**
 * `npm run test:timings`: writes each test file's time (its tests and hooks,
 * in seconds) to test/setup/timings.json, the order
 * test/setup/longest-first.ts runs the files in. Run it on a quiet machine
 * after adding or much changing a slow file. A run of some files replaces
 * theirs and keeps the others; files that no longer exist are dropped.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { raisedFiles, readTimings } from './longest-first.js';

export default class TimingsReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const timings = readTimings();
    // A suite run at raised sizes (`npm run test:ci`) keeps the time of its sampled size, the one `npm test` runs.
    const raised = new Set(raisedFiles());
    for (const module of modules) {
      if (module.state() !== 'passed' || raised.has(relative(this.root, module.moduleId))) continue;
      // Its imports are left out: they take longer when a run's first files load them, whatever the file.
      timings[relative(this.root, module.moduleId)] = Math.round(module.diagnostic().duration / 100) / 10;
    }
    const kept = Object.entries(timings).filter(([file]) => existsSync(join(this.root, file)));
    const sorted = Object.fromEntries(kept.sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(new URL('./timings.json', import.meta.url), `${JSON.stringify(sorted, null, 2)}\n`);
  }
}
