/**
 * Optional dependencies (issue 28 §1): a part whose package is not installed
 * says which package to install, and how; the versions it names are those
 * package.json declares as optional peers.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MissingDependencyError, OPTIONAL_DEPENDENCIES, importOptional } from '../../src/error/optional-dependency.js';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

describe('optional dependencies', () => {
  it('are the optional peers package.json declares, with the same versions, and not dependencies', () => {
    for (const [name, range] of Object.entries(OPTIONAL_DEPENDENCIES)) {
      expect(manifest.peerDependencies[name], name).toBe(range);
      expect(manifest.peerDependenciesMeta[name]?.optional, name).toBe(true);
      expect(manifest.dependencies[name], name).toBeUndefined();
    }
  });

  it('a missing package is named, with the command that installs it', async () => {
    // A module that is not installed anywhere, as Node reports it.
    const missing = importOptional('@electric-sql/pglite', 'the PGlite store (gateflow/pglite)', () => import(['@electric-sql', 'pglite-not-installed'].join('/')));
    await expect(missing).rejects.toThrow(MissingDependencyError);
    await expect(missing).rejects.toThrow(
      "the PGlite store (gateflow/pglite) needs the package @electric-sql/pglite-not-installed, which is not installed: npm install @electric-sql/pglite-not-installed",
    );
  });

  it("names the package asked for, with its version, when Node's error names none", async () => {
    const error = Object.assign(new Error('module not found'), { code: 'ERR_MODULE_NOT_FOUND' });
    const failed = await importOptional('pg', 'the PostgreSQL store (gateflow/postgres)', () => Promise.reject(error)).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(MissingDependencyError);
    expect((failed as MissingDependencyError).message).toBe(
      "the PostgreSQL store (gateflow/postgres) needs the package pg, which is not installed: npm install 'pg@^8.23.1'",
    );
    expect((failed as MissingDependencyError).code).toBe('missing_dependency');
    expect((failed as MissingDependencyError).cause).toBe(error);
  });

  it("advises the PGlite that pglite-age pins, so that the graph can be added later (a later PGlite makes that install fail with ERESOLVE)", async () => {
    const notFound = () => Promise.reject(Object.assign(new Error('module not found'), { code: 'ERR_MODULE_NOT_FOUND' }));
    const agePeer = (JSON.parse(readFileSync(new URL('../../node_modules/@electric-sql/pglite-age/package.json', import.meta.url), 'utf8')) as { peerDependencies: Record<string, string> })
      .peerDependencies['@electric-sql/pglite'];
    expect(agePeer).toMatch(/^\d+\.\d+\.\d+$/);
    const pglite = await importOptional('@electric-sql/pglite', 'the PGlite store (gateflow/pglite)', notFound).catch((e: unknown) => e);
    expect((pglite as Error).message).toBe(
      `the PGlite store (gateflow/pglite) needs the package @electric-sql/pglite, which is not installed: npm install '@electric-sql/pglite@${agePeer}'`,
    );
    // AGE with its PGlite in one command: where a later PGlite is installed, it is replaced rather than refused.
    const age = await importOptional('@electric-sql/pglite-age', 'Apache AGE in PGlite (gateflow/graph/pglite)', notFound).catch((e: unknown) => e);
    expect((age as Error).message).toBe(
      `Apache AGE in PGlite (gateflow/graph/pglite) needs the package @electric-sql/pglite-age, which is not installed: npm install '@electric-sql/pglite-age@0.0.15' '@electric-sql/pglite@${agePeer}'`,
    );
  });

  it('passes on any other failure as it is', async () => {
    const error = new SyntaxError('broken module');
    await expect(importOptional('elkjs', 'laying out drawings', () => Promise.reject(error))).rejects.toBe(error);
  });

  it('loads an installed package', async () => {
    const { PGlite } = await importOptional('@electric-sql/pglite', 'the PGlite store', () => import('@electric-sql/pglite'));
    expect(typeof PGlite).toBe('function');
  });
});
