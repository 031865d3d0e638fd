/**
 * Vitest global setup: the PGlite templates every suite copies instead of
 * running initdb (seconds on an idle machine, 15-25 s on a loaded one).
 *
 * Two templates, made once and kept in `node_modules/.cache/gateflow-tests/`
 * under a key of what shapes them (the store's schema changes, the graph's
 * set-up, the PGlite and AGE versions), so a later run, or another checkout
 * sharing node_modules, reuses them:
 * - `plain`: the store's schema applied;
 * - `graph`: the same with Apache AGE enabled (the task agent's graph).
 * Each is kept as a directory (copied for a server or a store on disk) and as a
 * `dumpDataDir` tarball (loaded by a store in memory).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { createPgliteStore } from '../../src/store/pglite.js';
import { ensureGraphSupport } from '../../src/graph/availability.js';
import { graphPgliteOptions } from '../../src/graph/pglite.js';

export const TEMPLATE_KINDS = ['plain', 'graph'] as const;
/** `plain`: the store's schema; `graph`: the same with Apache AGE enabled. */
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

const root = resolve(import.meta.dirname, '../..');

/** Changes whenever a template would come out different. */
function templateKey(): string {
  const hash = createHash('sha256');
  for (const file of ['src/store/sql/schema-changes.ts', 'src/graph/availability.ts', 'test/setup/pglite-templates.ts'])
    hash.update(readFileSync(join(root, file)));
  for (const pkg of ['@electric-sql/pglite', '@electric-sql/pglite-age'])
    hash.update(readFileSync(join(root, 'node_modules', pkg, 'package.json')));
  return hash.digest('hex').slice(0, 16);
}

async function build(kind: TemplateKind, into: string): Promise<void> {
  const dir = join(into, kind);
  const extensions = kind === 'graph' ? graphPgliteOptions().extensions : undefined;
  const store = await createPgliteStore({ dataDir: dir, extensions });
  try {
    if (kind === 'graph') await ensureGraphSupport(store.sql!);
  } finally {
    await store.close();
  }
  rmSync(join(dir, 'gateflow.lock'), { force: true });
  const db = new PGlite(dir, extensions && { extensions });
  try {
    await db.waitReady; // dumpDataDir does not wait for it: called early, it never settles
    const dump = await db.dumpDataDir('none');
    writeFileSync(join(into, `${kind}.tar`), new Uint8Array(await dump.arrayBuffer()));
  } finally {
    await db.close();
  }
}

/** Makes the templates unless a finished set with the same key exists; returns their folder. */
export async function ensureTemplates(): Promise<string> {
  const cache = join(root, 'node_modules', '.cache', 'gateflow-tests');
  const done = join(cache, templateKey());
  if (existsSync(join(done, 'ready'))) return done;
  // Built aside and renamed into place, so a run that dies half-way, or two runs at once, never leave half a template.
  const work = join(cache, `building-${process.pid}-${Date.now()}`);
  mkdirSync(work, { recursive: true });
  try {
    for (const kind of TEMPLATE_KINDS) await build(kind, work);
    writeFileSync(join(work, 'ready'), new Date().toISOString());
    try {
      renameSync(work, done);
    } catch (error) {
      if (!existsSync(join(done, 'ready'))) throw error; // another run finished first: use its set
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return done;
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide('pgliteTemplates', await ensureTemplates());
}
