import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The model-based suite replays hundreds of paths; give slow machines room.
    testTimeout: 30_000,
  },
});
