/**
 * The API reference (issue 28 §3) documents every public entry point: each
 * module of package.json's `exports` is an entry point of typedoc.json, whose
 * check (`npm run docs:check`, run by `npm run build`) fails on any warning.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('typedoc.json', () => {
  it('has an entry point for each module package.json exports, and none else', () => {
    const exportsMap = read('package.json').exports as Record<string, string | { types: string; default: string }>;
    const modules = Object.values(exportsMap)
      .filter((target): target is { types: string; default: string } => typeof target === 'object')
      .map((target) => target.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'))
      .sort();
    expect(modules.length).toBeGreaterThanOrEqual(12);
    expect([...(read('typedoc.json').entryPoints as string[])].sort()).toEqual(modules);
  });

  it('fails the build on a warning (a broken {@link}, a missing entry)', () => {
    const config = read('typedoc.json');
    expect(config.treatWarningsAsErrors).toBe(true);
    expect((config.validation as Record<string, boolean>).invalidLink).toBe(true);
    expect((read('package.json').scripts as Record<string, string>).build).toContain('docs:check');
  });
});
