import { readdirSync, readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';
import { PATIENCE_MS } from './test/helpers/patience.js';
import LongestFirst from './test/setup/longest-first.js';

/**
 * The unit layer (`npm run test:fast`, the inner loop): flows, readers,
 * machines, paths, inputs, drawings, the testing kit and the React views, with
 * no database server, browser or child process. The model-based and property
 * suites of every example flow are long: they run with the rest.
 */
const FAST = [
  'test/flow/**/*.test.ts',
  'test/extract/**/*.test.ts',
  'test/machines/**/*.test.ts',
  'test/paths/**/*.test.ts',
  'test/inputs/**/*.test.ts',
  'test/error/**/*.test.ts',
  'test/testing/**/*.test.ts',
  'test/react/**/*.test.ts',
  'test/viz/**/*.test.ts',
];
const NOT_FAST = ['test/flow/model-based.test.ts', 'test/flow/properties.test.ts', 'test/extract/openai-server.test.ts', 'test/extract/chaos.test.ts'];
/** Every other folder of test/ (so a new one is never left out of `npm test`), and the long suites above. */
const REST = [
  ...readdirSync('test', { withFileTypes: true })
    .filter((d) => d.isDirectory() && !FAST.includes(`test/${d.name}/**/*.test.ts`))
    .map((d) => `test/${d.name}/**/*.test.ts`),
  ...NOT_FAST,
];

/**
 * Files that replace a module, a global, a spy target or the clock (`vi.mock`,
 * `vi.spyOn`, fake timers, an assigned `process.env`) run each in a fresh
 * module graph. Every other file shares its worker's modules with the files
 * before it: the server's module graph is evaluated, and PGlite's wasm
 * compiled, once per worker rather than once per file (the unit layer went
 * from 95 to 50 CPU-s).
 */
const REPLACES_GLOBALS = /\bvi\.(mock|doMock|spyOn|stubGlobal|stubEnv|useFakeTimers)\b|process\.env\.\w+\s*=[^=]|delete process\.env/;
const ISOLATED = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .map((file) => `test/${file}`)
  .filter((file) => file.endsWith('.test.ts') && REPLACES_GLOBALS.test(readFileSync(file, 'utf8')));
const inFast = (file: string) => FAST.some((glob) => file.startsWith(glob.slice(0, -'**/*.test.ts'.length))) && !NOT_FAST.includes(file);

const REST_SETUP = ['test/setup/rest.ts', 'test/setup/shared-chromium.ts'];

export default defineConfig({
  test: {
    // Initialised PGlite templates, made once per run (or reused from node_modules/.cache).
    globalSetup: ['test/setup/pglite-templates.ts'],
    // GATEFLOW_TEST_CPU_REPORT=<file>: the CPU seconds of each test file (see the file).
    setupFiles: ['test/setup/cpu-report.ts'],
    // Timeouts only catch hangs: no load on the machine reaches them (see test/helpers/patience.ts).
    testTimeout: 2 * PATIENCE_MS,
    hookTimeout: 2 * PATIENCE_MS,
    teardownTimeout: PATIENCE_MS,
    expect: { poll: { timeout: PATIENCE_MS, interval: 50 } },
    // Most suites wait on servers, browsers and child processes rather than compute: more workers than
    // cores. Measured on two cores, quiet, one shared Chromium: 4 workers 241 s, 5 workers 230.5 s.
    maxWorkers: 5,
    // The longest files first, whatever their project: the short ones fill in at the end (see the file).
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'fast', include: FAST, exclude: [...configDefaults.exclude, ...NOT_FAST, ...ISOLATED], isolate: false } },
      // The suites with child processes and pages: the CLI bundled and the demo page built, once, before the workers start.
      { extends: true, test: { name: 'rest', include: REST, exclude: [...configDefaults.exclude, ...ISOLATED], globalSetup: REST_SETUP, isolate: false } },
      // (An empty `include` would mean vitest's default, every file: a project is left out when it has none.)
      ...[
        { name: 'fast:isolated', include: ISOLATED.filter(inFast) },
        { name: 'rest:isolated', include: ISOLATED.filter((file) => !inFast(file)), globalSetup: REST_SETUP },
      ]
        .filter((project) => project.include.length > 0)
        .map((project) => ({ extends: true as const, test: { ...project, isolate: true } })),
    ],
  },
});
