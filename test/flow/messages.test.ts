/**
 * An answer as a person reads it (messages.formatValue): a number with its unit, in the singular for one (found by
 * hand in the demo page: the summary said "1 adults").
 */
import { describe, expect, it } from 'vitest';
import { formatValue } from '../../src/flow/messages.js';
import type { QuestionNode } from '../../src/flow/index.js';

const counting = (unit: string): QuestionNode =>
  ({ kind: 'question', id: 'q', prompt: 'How many?', answer: { type: 'number', integer: true, min: 0, max: 9, unit } }) as QuestionNode;

describe('a number with its unit', () => {
  it('is singular for one', () => {
    expect(formatValue(counting('adults'), 1)).toBe('1 adult');
    expect(formatValue(counting('people'), 1)).toBe('1 person');
    expect(formatValue(counting('children'), 1)).toBe('1 child');
    expect(formatValue(counting('days'), 1)).toBe('1 day');
  });
  it('keeps a plural for other numbers, and a unit that is no English plural', () => {
    expect(formatValue(counting('adults'), 2)).toBe('2 adults');
    expect(formatValue(counting('adults'), 0)).toBe('0 adults');
    expect(formatValue(counting('EUR'), 1)).toBe('1 EUR');
    expect(formatValue(counting('Mbit/s'), 1)).toBe('1 Mbit/s');
    expect(formatValue(counting('glass'), 1)).toBe('1 glass');
  });
});
