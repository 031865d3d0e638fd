/**
 * The order the test files run in: the long ones first, whatever their
 * project, longest first; then the short ones project by project (as vitest
 * orders them), longest first. A file that waits on servers, browsers and
 * processes for a minute then starts while the short ones fill the other
 * workers, not last with the others idle; and the short ones, whose cost is
 * mostly their worker's imports, run where a worker of their project has
 * already made them (a worker serves one project: switching costs a new one).
 *
 * A file's length is its time in test/setup/timings.json (written by
 * `npm run test:timings`), else vitest's own record of its last run, else 0:
 * a new file runs among the short ones until the next measure. A suite whose
 * size the environment raises (`raisedFiles`) has its own time at that size
 * (`raisedKey`); with none measured yet, it runs before all the others.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const TIMINGS = new URL('./timings.json', import.meta.url);
/** Seconds from which a file is long: it runs first, wherever its project is. */
export const LONG_FILE_S = 5;

/**
 * The suites whose size an environment variable raises above `npm test`'s
 * samples (`npm run test:ci`, which .ci/run runs: the chaos suites at 1,000
 * runs, the properties at 1,000 documents and 200 conversations, every
 * model-based path). Raised, they are among the run's longest files (the
 * task agent's chaos suite 50-75 s of CPU), whatever timings.json measured at
 * the sampled sizes: their times there are kept under `raisedKey`.
 */
export function raisedFiles(env: NodeJS.ProcessEnv = process.env): string[] {
  const above = (name: string, sampled: number) => env[name] !== undefined && Number(env[name]) > sampled;
  return [
    ...(above('GATEFLOW_CHAOS_RUNS', 40) ? ['test/extract/chaos.test.ts', 'test/task-agent/chaos.test.ts', 'test/document-agent/chaos.test.ts'] : []),
    ...(above('PROP_DOC_RUNS', 100) || above('PROP_TURN_RUNS', 20) ? ['test/flow/properties.test.ts'] : []),
    ...(env.GATEFLOW_EVERY_PATH === '1' ? ['test/flow/model-based.test.ts'] : []),
  ];
}

/** The key of timings.json that holds a raised suite's time (at `npm run test:ci`'s sizes). */
export const raisedKey = (file: string): string => `${file} at test:ci sizes`;

/** Seconds per test file (relative to the project's root), as last measured. */
export function readTimings(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(TIMINGS, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export default class LongestFirst extends BaseSequencer {
  /** The times the order is made from (test/setup/timings.json). */
  protected timings(): Record<string, number> {
    return readTimings();
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const timings = this.timings();
    const root = this.ctx.config.root;
    const raised = new Set(raisedFiles());
    const seconds = (spec: TestSpecification): number => {
      const file = relative(root, spec.moduleId);
      // A raised suite not measured at its size yet: longer than any file.
      if (raised.has(file)) return timings[raisedKey(file)] ?? Number.MAX_SAFE_INTEGER;
      return timings[file] ?? (this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)?.duration ?? 0) / 1000;
    };
    const known = new Map(files.map((spec) => [spec, seconds(spec)]));
    const long = (spec: TestSpecification) => known.get(spec)! >= LONG_FILE_S;
    return [...files].sort(
      (a, b) =>
        Number(long(b)) - Number(long(a)) ||
        (long(a) ? 0 : a.project.name.localeCompare(b.project.name)) ||
        known.get(b)! - known.get(a)! ||
        a.moduleId.localeCompare(b.moduleId),
    );
  }
}
