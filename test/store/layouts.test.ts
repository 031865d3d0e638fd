/**
 * Drawings laid out, kept in the store (issue 29 §4: a restarted server serves
 * the viewer's layouts without laying them out again): the same contract on
 * the memory store, PGlite and PostgreSQL. Keyed by drawing, content hash,
 * level and layout code; a body kept as given; bounded by a byte cap and by
 * how many are kept per drawing and in all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/store/memory.js';
import { createPostgresStore } from '../../src/store/postgres.js';
import { LAYOUTS_PER_DRAWING, MAX_LAYOUT_BYTES, MAX_LAYOUTS, type LayoutKey, type Store } from '../../src/store/types.js';
import { templateStore } from '../helpers/pglite-template.js';
import { createTestSchema, hasPostgres, type TestSchema } from '../helpers/postgres.js';

const baseKey = (over: Partial<LayoutKey> = {}): LayoutKey => ({ drawingId: 'contact-request', contentHash: 'h1', level: 'machine', code: 'c1', ...over });

const schemas: TestSchema[] = [];
afterAll(async () => {
  for (const s of schemas) await s.drop();
});

const backends: [string, () => Promise<Store>][] = [
  ['memory', async () => createMemoryStore()],
  ['PGlite', () => templateStore()],
  ...(hasPostgres
    ? ([
        [
          'PostgreSQL',
          async () => {
            const schema = await createTestSchema('gf_layouts');
            schemas.push(schema);
            return createPostgresStore({ connectionString: schema.url });
          },
        ],
      ] as [string, () => Promise<Store>][])
    : []),
];

describe.each(backends)('layouts in the %s store', (_name, open) => {
  // One store for the cases (opening PGlite costs seconds); each case has drawings of its own.
  let store: Store | undefined;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store?.close());
  let cases = 0;
  const withStore = async (fn: (layouts: NonNullable<Store['layouts']>, key: (over?: Partial<LayoutKey>) => LayoutKey) => Promise<void>) => {
    expect(store!.layouts).toBeDefined();
    const n = ++cases;
    await fn(store!.layouts!, (over = {}) => baseKey({ ...over, drawingId: `${over.drawingId ?? 'contact-request'}-${n}` }));
  };

  it('keeps a body under its whole key: another hash, level or code finds nothing; a second put replaces it', () =>
    withStore(async (layouts, key) => {
      expect(await layouts.get(key())).toBeNull();
      expect(await layouts.put(key(), '{"a":1}')).toBe(true);
      expect(await layouts.get(key())).toBe('{"a":1}');
      for (const other of [{ contentHash: 'h2' }, { level: 'outline' }, { code: 'c2' }, { drawingId: 'refund-approval' }]) expect(await layouts.get(key(other))).toBeNull();
      // Kept as given, even text that is not a layout (the reader checks it).
      expect(await layouts.put(key(), 'not json')).toBe(true);
      expect(await layouts.get(key())).toBe('not json');
    }));

  it(`refuses a body over ${MAX_LAYOUT_BYTES} bytes, keeping what was there`, () =>
    withStore(async (layouts, key) => {
      await layouts.put(key(), '{"kept":true}');
      expect(await layouts.put(key(), 'x'.repeat(MAX_LAYOUT_BYTES + 1))).toBe(false);
      expect(await layouts.get(key())).toBe('{"kept":true}');
    }));

  it(`keeps the newest ${LAYOUTS_PER_DRAWING} layouts of a drawing, not those of other drawings`, () =>
    withStore(async (layouts, key) => {
      await layouts.put(key({ drawingId: 'other' }), 'other');
      const versions = Array.from({ length: LAYOUTS_PER_DRAWING + 2 }, (_, i) => key({ contentHash: `v${i}` }));
      for (const k of versions) await layouts.put(k, k.contentHash);
      // Stored again, the oldest counts as new: the two after it go instead.
      await layouts.put(versions[0]!, 'v0 again');
      const kept = await Promise.all(versions.map((k) => layouts.get(k)));
      expect(kept).toEqual(['v0 again', null, null, ...versions.slice(3).map((k) => k.contentHash)]);
      expect(await layouts.get(key({ drawingId: 'other' }))).toBe('other');
    }));
});

describe('layouts in the memory store, in all', () => {
  it(`keeps the newest ${MAX_LAYOUTS} across drawings`, async () => {
    const { layouts } = createMemoryStore();
    for (let i = 0; i <= MAX_LAYOUTS; i++) await layouts!.put(baseKey({ drawingId: `d${i}` }), String(i));
    expect(await layouts!.get(baseKey({ drawingId: 'd0' }))).toBeNull();
    expect(await layouts!.get(baseKey({ drawingId: 'd1' }))).toBe('1');
    expect(await layouts!.get(baseKey({ drawingId: `d${MAX_LAYOUTS}` }))).toBe(String(MAX_LAYOUTS));
  });
});
