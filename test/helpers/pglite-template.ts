/**
 * Stores and data directories copied from the PGlite templates that the
 * global setup (test/setup/pglite-templates.ts) makes once per run, so no
 * suite waits for initdb. Use these instead of a bare `createPgliteStore()`
 * unless the test is about opening a new directory.
 */
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createPgliteStore } from '../../src/store/pglite.js';
import { graphPgliteOptions } from '../../src/graph/pglite.js';
import type { Store } from '../../src/store/types.js';

import { ensureTemplates, type TemplateKind } from '../setup/pglite-templates.js';

export type { TemplateKind };

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplates: string;
  }
}

/** The templates' folder, from the global setup (inside vitest only). */
function folder(): string {
  const provided = inject('pgliteTemplates');
  if (!provided) throw new Error('no PGlite templates: test/setup/pglite-templates.ts is not the global setup of this run');
  return provided;
}

const tarballs = new Map<TemplateKind, Blob>();
/** The template as a `dumpDataDir` tarball, for PGlite's `loadDataDir`. */
export function templateTarball(kind: TemplateKind, from: string = folder()): Blob {
  let blob = tarballs.get(kind);
  if (!blob) tarballs.set(kind, (blob = new Blob([readFileSync(join(from, `${kind}.tar`))])));
  return blob;
}

/** Inside vitest the global setup's folder; in a script (the benchmarks) the same templates, made or found on first use. */
async function anyFolder(): Promise<string> {
  return process.env.VITEST ? folder() : ensureTemplates();
}

/** The extensions a template of this kind must be opened with. */
export const templateExtensions = (kind: TemplateKind) => (kind === 'graph' ? graphPgliteOptions().extensions : undefined);

/** A PGlite store in memory, started from the template (migrated; with AGE for `graph`). */
export async function templateStore(kind: TemplateKind = 'plain'): Promise<Store> {
  return createPgliteStore({ loadDataDir: templateTarball(kind, await anyFolder()), extensions: templateExtensions(kind) });
}

/**
 * A copy of the template's directory, at `dir` when given (it must not exist
 * yet), else in a new temporary folder: a PGlite data directory of its own.
 */
export function templateDataDir(kind: TemplateKind = 'plain', dir?: string): string {
  const target = dir ?? join(mkdtempSync(join(tmpdir(), `gf-${kind}-`)), 'db');
  cpSync(join(folder(), kind), target, { recursive: true });
  return target;
}
