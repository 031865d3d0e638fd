/**
 * A value the person turns down beside the one they give ("35 rather than 25", "make it 35 instead of 25",
 * "35 not 25") is no answer. Found by hand (issue 26): "rather" was read as a correction, so "35 rather than
 * 25" committed 25, the value turned down; "35 not 25" was refused as two numbers. Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { readTypedValue } from '../../src/extract/read-typed.js';

const read = (text: string) => {
  const r = readTypedValue({ type: 'number', min: 15, max: 300, unit: 'EUR' }, text, { prompt: 'What is the most you want to pay per night, in euros?' });
  return r.ok ? r.value : 'refused';
};

describe('a value turned down is no answer', () => {
  it.each([
    ['60 rather than 45', 60],
    ['make it 80 instead of 70', 80],
    ['90 not 120', 90],
    ['sorry, budget is 55 not 50', 55],
    ['70 and not 100', 70],
    ['instead of 40, 65', 65],
  ])('"%s" reads %s', (text, value) => {
    expect(read(text)).toBe(value);
  });

  it('a correction with "or rather" still reads what follows, and a lone turned-down value reads nothing', () => {
    expect(read('50, or rather 60')).toBe(60);
    expect(read('rather than 40')).toBe('refused');
    expect(read('not 40')).toBe('refused');
  });
});
