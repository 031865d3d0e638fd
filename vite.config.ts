import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const page = (name: string) => fileURLToPath(new URL(`./demo/${name}`, import.meta.url));

// The pages served by `npm start`, built into dist/demo: the demo page at the
// root and the viewer (flows, agents and live sessions drawn) at /viewer.
export default defineConfig({
  root: 'demo',
  base: '/',
  plugins: [react()],
  build: {
    outDir: '../dist/demo',
    emptyOutDir: true,
    // The viewer lays drawings out in the page with ELK (elkjs, about 1.4 MB minified): expected, not a warning.
    chunkSizeWarningLimit: 2000,
    rolldownOptions: { input: { index: page('index.html'), viewer: page('viewer.html') } },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
