/**
 * The app of test/fixtures/widget-host built with Vite as a consumer's
 * production build would (production React and the packages' production
 * builds: vitest sets NODE_ENV=test, which would pick xstate's development
 * build), in memory. For the bundle's size test and its by-module bench.
 */
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { build, defaultClientConditions, type Rolldown } from 'vite';

export const WIDGET_HOST = fileURLToPath(new URL('../fixtures/widget-host/', import.meta.url));

export interface WidgetHostBuild {
  chunks: Rolldown.OutputChunk[];
  entry: Rolldown.OutputChunk;
  /** The entry and what it imports statically: what a page loads before the first paint. */
  firstLoad: Rolldown.OutputChunk[];
}

export async function buildWidgetHost(options: { sourcemap?: boolean; alias?: Record<string, string> } = {}): Promise<WidgetHostBuild> {
  const out = await build({
    root: WIDGET_HOST,
    configFile: false,
    logLevel: 'error',
    mode: 'production',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    plugins: [react()],
    resolve: {
      conditions: defaultClientConditions.map((c) => (c === 'development|production' ? 'production' : c)),
      ...(options.alias && { alias: options.alias }),
    },
    build: { write: false, sourcemap: options.sourcemap ?? false },
  });
  const outputs = (Array.isArray(out) ? out : [out]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((o) => o.output.filter((f): f is Rolldown.OutputChunk => f.type === 'chunk'));
  const entry = chunks.find((c) => c.isEntry)!;
  const firstLoad = [entry, ...entry.imports.map((file) => chunks.find((c) => c.fileName === file)!)];
  return { chunks, entry, firstLoad };
}
