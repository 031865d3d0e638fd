/**
 * Vitest global setup of the suites with servers, processes and pages: the
 * PGlite templates (in this process), the CLI bundle (esbuild's process) and
 * the demo page (Vite's process) made at the same time, so the second core is
 * not idle while the first makes the templates; made once for the projects
 * that share this setup (`rest` and `rest:isolated`).
 */
import type { TestProject } from 'vitest/node';
import { ensureDemoBuilt } from '../helpers/browser-server.js';
import bundleCli from './cli-bundle.js';
import { ensureTemplates } from './pglite-templates.js';

let made: Promise<string> | undefined;

export default async function setup(project: TestProject): Promise<void> {
  made ??= Promise.all([ensureTemplates(), bundleCli(), ensureDemoBuilt()]).then(([templates]) => templates);
  project.provide('pgliteTemplates', await made);
}
