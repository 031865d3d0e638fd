/**
 * The browser's half of reading a gate's value (src/inputs/coerce-value.ts,
 * zod/mini only): every type reads as `coerceInput` reads it, except that a
 * JSON value is only read as JSON (its schema is the server's to check).
 */
import { describe, expect, it } from 'vitest';
import { coerceInput } from '../../src/inputs/coerce.js';
import { coerceInputValue } from '../../src/inputs/coerce-value.js';
import type { InputSpec } from '../../src/inputs/spec.js';

const TODAY = new Date('2026-11-24T12:00:00Z');

describe('coerceInputValue (the browser)', () => {
  it('reads and refuses every non-JSON type as coerceInput does', () => {
    const cases: [InputSpec, unknown][] = [
      [{ name: 'ok', type: 'boolean' }, 'yes'],
      [{ name: 'ok', type: 'boolean' }, 'maybe'],
      [{ name: 'n', type: 'number', min: 0, unit: 'EUR' }, 'minus five'],
      [{ name: 'n', type: 'integer', max: 10 }, '7'],
      [{ name: 'n', type: 'integer', max: 10 }, '7.5'],
      [{ name: 's', type: 'string', pattern: '[A-Z]{3}' }, 'abc'],
      [{ name: 'd', type: 'date', min: 'today' }, '2026-01-01'],
      [{ name: 'd', type: 'date' }, '1 December 2026'],
      [{ name: 'e', type: 'email' }, 'name@example'],
      [{ name: 'c', type: 'enum', options: ['red', { label: 'Dark blue', value: 'blue' }] }, 'dark blue'],
    ];
    for (const [spec, raw] of cases) expect(coerceInputValue(spec, raw, TODAY), `${spec.type} ${String(raw)}`).toEqual(coerceInput(spec, raw, TODAY));
  });

  it('reads JSON as JSON and leaves its schema to the server', () => {
    const spec: InputSpec = { name: 'config', type: 'json', schema: { type: 'object', properties: { replicas: { type: 'integer' } }, required: ['replicas'] } };
    expect(coerceInputValue(spec, '{}', TODAY)).toEqual({ ok: true, value: {} });
    expect(coerceInput(spec, '{}', TODAY)).toMatchObject({ ok: false, message: expect.stringMatching(/replicas/) });
    expect(coerceInputValue(spec, '{replicas: 3}', TODAY)).toMatchObject({ ok: false, message: expect.stringMatching(/not JSON/) });
  });
});
