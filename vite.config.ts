import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The demo page served by `npm start` at its root: built into dist/demo.
export default defineConfig({
  root: 'demo',
  base: '/',
  plugins: [react()],
  build: { outDir: '../dist/demo', emptyOutDir: true },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
