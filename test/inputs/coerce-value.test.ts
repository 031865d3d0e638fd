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

// Found by hand (session 37): a manager typing "yeah right" at "Approve the refund?" approved it.
// A question refused it ("That does not sound like a plain answer"); a gate now reads text as a question does.
describe('a gate refuses a sarcastic answer, as a question does', () => {
  const approve: InputSpec = { name: 'approved', type: 'boolean', description: 'Approve the refund?', trueLabel: 'Approve', falseLabel: 'Decline' };
  it.each(['yeah right', 'yes 🙄', 'sure, as if'])('"%s" is not an approval', (said) => {
    for (const coerce of [coerceInputValue, coerceInput]) expect(coerce(approve, said, TODAY)).toMatchObject({ ok: false, message: expect.stringContaining('plain answer') });
  });
  it.each([
    ['yes', true],
    ['Approve', true],
    ['no way', false],
    ['nope, decline', false],
  ] as const)('"%s" still reads', (said, value) => {
    expect(coerceInput(approve, said, TODAY)).toEqual({ ok: true, value });
  });
  it('an amount still reads, and a negative one is still refused', () => {
    const amount: InputSpec = { name: 'approved_amount', type: 'number', min: 0, unit: 'EUR', description: 'Approved amount (EUR)' };
    expect(coerceInput(amount, '120', TODAY)).toEqual({ ok: true, value: 120 });
    expect(coerceInput(amount, '120 EUR', TODAY)).toEqual({ ok: true, value: 120 });
    expect(coerceInput(amount, 'minus 50', TODAY)).toMatchObject({ ok: false, message: expect.stringContaining('negative') });
  });
});
