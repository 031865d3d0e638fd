/**
 * The README's table of node kinds (issue 28 §3) names every kind the flow
 * document's schema has, and in its row every field of that kind (besides
 * `id`, `label` and `ui`, which the text under the table gives to all).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flowDocumentJsonSchema } from '../../src/flow/json-schema.js';

type JsonSchema = { properties?: Record<string, JsonSchema>; const?: unknown; enum?: unknown[]; [key: string]: unknown };

/** Each node kind's object schema in the JSON Schema: kind → its property names. */
function nodeKinds(schema: unknown): Map<string, string[]> {
  const kinds = new Map<string, string[]>();
  const walk = (value: unknown) => {
    if (!value || typeof value !== 'object') return;
    const node = value as JsonSchema;
    const kind = node.properties?.kind?.const ?? node.properties?.kind?.enum?.[0];
    if (typeof kind === 'string' && !kinds.has(kind)) kinds.set(kind, Object.keys(node.properties!));
    for (const child of Object.values(node)) walk(child);
  };
  walk(schema);
  return kinds;
}

describe("the README's node table", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const kinds = nodeKinds(flowDocumentJsonSchema());
  const row = (kind: string) => readme.split('\n').find((line) => line.startsWith(`| \`${kind}\` |`)) ?? '';

  it('has a row for every node kind', () => {
    expect(kinds.size).toBeGreaterThanOrEqual(8);
    expect([...kinds.keys()].filter((kind) => row(kind) === '')).toEqual([]);
  });

  it("names every field of each kind in the kind's row", () => {
    // The words inside the row's code spans (`subgraphs[ref]` names `ref`).
    const named = (kind: string) => new Set([...row(kind).matchAll(/`([^`]+)`/g)].flatMap(([, code]) => code!.match(/\w+/g) ?? []));
    const missing = [...kinds].flatMap(([kind, fields]) => fields.filter((f) => !['id', 'label', 'ui', 'kind'].includes(f) && !named(kind).has(f)).map((f) => `${kind}.${f}`));
    expect(missing).toEqual([]);
  });
});
