import { describe, expect, it } from 'vitest';
import { templateDataDir, templateStore } from '../helpers/pglite-template.js';
import { createPgliteStore } from '../../src/store/pglite.js';

describe('PGlite templates', () => {
  it('a store in memory from the plain template is migrated and empty', async () => {
    const store = await templateStore();
    try {
      const { rows } = await store.sql!.query<{ n: number }>('SELECT count(*)::int AS n FROM gateflow_sessions');
      expect(rows[0]!.n).toBe(0);
      const migrations = await store.sql!.query<{ version: number }>('SELECT version FROM gateflow_migrations');
      expect(migrations.rows.length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it('the graph template has Apache AGE', async () => {
    const store = await templateStore('graph');
    try {
      const { rows } = await store.sql!.query<{ extname: string }>("SELECT extname FROM pg_extension WHERE extname = 'age'");
      expect(rows).toEqual([{ extname: 'age' }]);
    } finally {
      await store.close();
    }
  });

  it('each copy of the directory is a database of its own', async () => {
    const [a, b] = [templateDataDir(), templateDataDir()];
    expect(a).not.toBe(b);
    const first = await createPgliteStore({ dataDir: a });
    await first.sql!.query('CREATE TABLE gf_probe (x int)');
    await first.close();
    const second = await createPgliteStore({ dataDir: b });
    try {
      const { rows } = await second.sql!.query("SELECT 1 FROM pg_tables WHERE tablename = 'gf_probe'");
      expect(rows).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
