import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import LongestFirst, { raisedFiles, raisedKey, readTimings } from './longest-first.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPTS = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The run's order of `files` (paths from the root), as vitest asks the sequencer for it; by `timings` when given, else timings.json's. */
async function order(files: string[], timings?: Record<string, number>): Promise<string[]> {
  const ctx = { config: { root: ROOT }, cache: { getFileTestResults: () => undefined } } as unknown as Vitest;
  const specs = files.map((file) => ({ moduleId: `${ROOT}${file}`, project: { name: 'rest' } }) as unknown as TestSpecification);
  const sequencer = timings
    ? new (class extends LongestFirst {
        protected override timings() {
          return timings;
        }
      })(ctx)
    : new LongestFirst(ctx);
  return (await sequencer.sort(specs)).map((spec) => spec.moduleId.slice(ROOT.length));
}

/** `NAME=value` settings at the start of a package.json script. */
const settings = (script: string): Record<string, string> => Object.fromEntries([...script.matchAll(/(?:^|\s)([A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the order of the test files', () => {
  const SAMPLED = ['test/document-agent/chaos.test.ts', 'test/flow/properties.test.ts'];

  it('at npm test sizes, a sampled suite runs after the files measured longer', async () => {
    // npm test's environment (this file also runs in .ci/run's test:ci, which raises them).
    for (const name of Object.keys(settings(SCRIPTS['test:ci']!))) vi.stubEnv(name, undefined);
    const timings = readTimings();
    expect(timings['test/browser/widget.test.ts']).toBeGreaterThan(timings['test/document-agent/chaos.test.ts']!);
    expect(await order([...SAMPLED, 'test/browser/widget.test.ts'])).toEqual(['test/browser/widget.test.ts', ...SAMPLED]);
  });

  it('at the raised sizes of npm run test:ci, a raised suite is ordered by its time at that size', async () => {
    for (const [name, value] of Object.entries(settings(SCRIPTS['test:ci']!))) vi.stubEnv(name, value);
    const files = [...SAMPLED, 'test/browser/widget.test.ts'];
    const timings = { 'test/browser/widget.test.ts': 60, [raisedKey(SAMPLED[0]!)]: 90, [raisedKey(SAMPLED[1]!)]: 30 };
    expect(await order(files, timings)).toEqual([SAMPLED[0], 'test/browser/widget.test.ts', SAMPLED[1]]);
    // Not measured at that size: first, as the longest it may be.
    expect(await order(files, { 'test/browser/widget.test.ts': 60 })).toEqual([...SAMPLED.toSorted(), 'test/browser/widget.test.ts']);
    // timings.json has every raised suite's time at that size.
    for (const file of raisedFiles()) expect(readTimings()[raisedKey(file)], file).toBeGreaterThan(0);
  });

  it('test:ci raises exactly what test:chaos, test:properties and test:paths raise, and every file they run', () => {
    const ci = settings(SCRIPTS['test:ci']!);
    expect(ci).toEqual({ ...settings(SCRIPTS['test:chaos']!), ...settings(SCRIPTS['test:properties']!), ...settings(SCRIPTS['test:paths']!) });
    const files = (script: string) => script.match(/test\/\S+\.test\.ts/g) ?? [];
    expect(new Set(raisedFiles(ci))).toEqual(new Set(['test:chaos', 'test:properties', 'test:paths'].flatMap((name) => files(SCRIPTS[name]!))));
    expect(raisedFiles({})).toEqual([]);
  });
});
