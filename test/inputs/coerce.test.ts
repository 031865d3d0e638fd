/**
 * Reading a gate's value (the seed's Pitfall 4): text as people type it and
 * JSON values from programs, read by the flow's typed parser and checked by
 * the flow's typed-value schema; refusals say what was expected.
 */
import { describe, expect, it } from 'vitest';
import { coerceInput, expectedValue } from '../../src/inputs/coerce.js';
import { durationMs, InputSpecSchema, type InputSpec } from '../../src/inputs/spec.js';
import { waitsFor } from '../../src/inputs/declared.js';

const TODAY = new Date('2026-11-24T12:00:00Z');
const read = (spec: InputSpec, raw: unknown) => coerceInput(spec, raw, TODAY);

describe('coerceInput', () => {
  it('reads booleans from words and values, with the input\'s own labels', () => {
    const spec: InputSpec = { name: 'ok', type: 'boolean' };
    for (const [raw, value] of [['yes', true], ['Yes', true], ['no', false], [true, true], [false, false], ['nope', false], ['y', true]] as const)
      expect(read(spec, raw), String(raw)).toEqual({ ok: true, value });
    expect(read(spec, 'maybe')).toMatchObject({ ok: false, expected: 'yes or no (true or false)' });
    expect(read(spec, 1)).toMatchObject({ ok: false });
    expect(read({ name: 'ok', type: 'boolean', trueLabel: 'Approve', falseLabel: 'Decline' }, 'approve')).toEqual({ ok: true, value: true });
  });

  it('reads numbers and integers within bounds; approximate text is refused', () => {
    const amount: InputSpec = { name: 'amount', type: 'number', min: 0, max: 500 };
    expect(read(amount, '42')).toEqual({ ok: true, value: 42 });
    expect(read(amount, 42.5)).toEqual({ ok: true, value: 42.5 });
    expect(read(amount, '1,200')).toMatchObject({ ok: false });
    expect(read(amount, 501)).toMatchObject({ ok: false, message: expect.stringMatching(/at most 500/) });
    expect(read(amount, 'about 40')).toMatchObject({ ok: false });
    expect(read(amount, Number.NaN)).toMatchObject({ ok: false });
    const count: InputSpec = { name: 'count', type: 'integer', min: 1 };
    expect(read(count, '3')).toEqual({ ok: true, value: 3 });
    expect(read(count, 2.5)).toMatchObject({ ok: false, message: expect.stringMatching(/whole number/) });
    expect(expectedValue(count)).toBe('a whole number of at least 1');
  });

  it('reads dates in ISO and common forms and checks their bounds', () => {
    const day: InputSpec = { name: 'day', type: 'date', min: 'today' };
    expect(read(day, '2026-12-01')).toEqual({ ok: true, value: '2026-12-01' });
    expect(read(day, '1 December 2026')).toEqual({ ok: true, value: '2026-12-01' });
    expect(read(day, '2026-11-01')).toMatchObject({ ok: false, message: expect.stringMatching(/on or after 2026-11-24/) });
    expect(read(day, 'soon')).toMatchObject({ ok: false, expected: 'a date (YYYY-MM-DD) of at least today' });
  });

  it('reads enums by value or label, emails, and strings within their length', () => {
    const pick: InputSpec = { name: 'pick', type: 'enum', options: ['low', { label: 'Very high', value: 'high' }] };
    expect(read(pick, 'LOW')).toEqual({ ok: true, value: 'low' });
    expect(read(pick, 'very high')).toEqual({ ok: true, value: 'high' });
    expect(read(pick, 'medium')).toMatchObject({ ok: false, expected: 'one of "low", "high"' });
    expect(read({ name: 'e', type: 'email' }, ' ana@example.com ')).toEqual({ ok: true, value: 'ana@example.com' });
    expect(read({ name: 'e', type: 'email' }, 'ana at example')).toMatchObject({ ok: false });
    expect(read({ name: 's', type: 'string', maxLength: 5 }, 'abcdef')).toMatchObject({ ok: false });
    expect(read({ name: 's', type: 'string' }, '  two  words ')).toEqual({ ok: true, value: 'two words' });
    expect(read({ name: 's', type: 'string' }, 'x'.repeat(10_001))).toMatchObject({ ok: false, message: expect.stringMatching(/longer than 10000/) });
  });

  it('reads JSON text or values against the input\'s JSON Schema, naming where a value is wrong', () => {
    const spec: InputSpec = {
      name: 'config',
      type: 'json',
      schema: { type: 'object', properties: { replicas: { type: 'integer', minimum: 1 } }, required: ['replicas'] },
    };
    expect(read(spec, '{"replicas": 3}')).toEqual({ ok: true, value: { replicas: 3 } });
    expect(read(spec, { replicas: 2 })).toEqual({ ok: true, value: { replicas: 2 } });
    expect(read(spec, '{"replicas": 0}')).toMatchObject({ ok: false, message: expect.stringMatching(/replicas/) });
    expect(read(spec, '{replicas: 3}')).toMatchObject({ ok: false, message: expect.stringMatching(/not JSON/) });
    expect(read(spec, '{}')).toMatchObject({ ok: false, message: expect.stringMatching(/replicas/) });
  });
});

describe('input specs', () => {
  it('reads ISO 8601 durations and refuses others', () => {
    expect(durationMs('PT30M')).toBe(1_800_000);
    expect(durationMs('P1DT1H')).toBe(90_000_000);
    expect(durationMs('PT0.5S')).toBe(500);
    for (const bad of ['P', 'PT', '30m', 'PT0S', 'P1W'])
      expect(InputSpecSchema.safeParse({ name: 'x', type: 'boolean', deadline: bad }).success, bad).toBe(false);
  });

  it('waitsFor checks the inputs where the machine is written: bad names, unknown types, duplicates', () => {
    expect(() => waitsFor([{ name: 'has space', type: 'boolean' } as InputSpec])).toThrow(/inputs\.0\.name/);
    expect(() => waitsFor([{ name: 'x', type: 'money' } as unknown as InputSpec])).toThrow(/invalid inputs/);
    expect(() => waitsFor([{ name: 'x', type: 'boolean' }, { name: 'x', type: 'email' }])).toThrow(/two inputs are named "x"/);
    expect(() => waitsFor([{ name: 'x', type: 'enum', options: ['a'], default: 'b' }])).toThrow(/the default of "x" is not allowed: "b" is not accepted: it is not one of the options\. Expected one of "a"/);
    expect(waitsFor([{ name: 'x', type: 'boolean' }], { to: 'manager', deadline: 'PT1H' })).toEqual({
      inputs: [{ name: 'x', type: 'boolean', to: 'manager', deadline: 'PT1H' }],
    });
  });
});
