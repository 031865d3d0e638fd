import { defineConfig } from 'vitest/config';
import { PATIENCE_MS } from './test/helpers/patience.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Initialised PGlite templates, made once per run (or reused from node_modules/.cache).
    globalSetup: ['test/setup/pglite-templates.ts'],
    // Timeouts only catch hangs: no load on the machine reaches them (see test/helpers/patience.ts).
    testTimeout: 2 * PATIENCE_MS,
    hookTimeout: 2 * PATIENCE_MS,
    teardownTimeout: PATIENCE_MS,
    expect: { poll: { timeout: PATIENCE_MS, interval: 50 } },
  },
});
