import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ButtonTurnSchema, parseTurn, plainTurn, TextTurnSchema, type Turn } from '../../src/workflow/turn.js';

/** What the schemas make of an object: the turn (as JSON, so key order counts), or null when they refuse it. */
function bySchemas(input: object): string | null {
  const parsed = ('text' in input ? TextTurnSchema : ButtonTurnSchema).safeParse(input);
  return parsed.success ? JSON.stringify(parsed.data) : null;
}

describe('plainTurn (a turn read without zod)', () => {
  it('reads the usual turns, as the schemas return them', () => {
    const usual: [object, Turn][] = [
      [{ text: 'no, always covered' }, { text: 'no, always covered' }],
      [{ text: '' }, { text: '' }],
      [{ button: 'Yes' }, { button: 'Yes' }],
      [{ button: 'confirm', turnId: 't-1' }, { button: 'confirm', turnId: 't-1' }],
      // The schemas' key order, whatever the caller's.
      [{ turnId: 't-2', text: 'an adult' }, { text: 'an adult', turnId: 't-2' }],
      [{ text: 'x'.repeat(4000) }, { text: 'x'.repeat(4000) }],
      [{ text: 'emoji 🙄 fine' }, { text: 'emoji 🙄 fine' }],
    ];
    for (const [input, turn] of usual) {
      const read = plainTurn(input);
      expect(JSON.stringify(read), JSON.stringify(input)).toBe(JSON.stringify(turn));
      expect(JSON.stringify(read)).toBe(bySchemas(input));
    }
  });

  it('leaves to the schemas whatever they refuse or it is not sure of', () => {
    const left: object[] = [
      {},
      { text: 'a', button: 'b' },
      { text: 'x'.repeat(4001) },
      { text: 'lone \uD800 surrogate' },
      { text: 5 },
      { button: '' },
      { button: 'b'.repeat(201) },
      { text: 'a', turnId: '' },
      { text: 'a', turnId: 'bad\u0007id' },
      { text: 'a', turnId: 't'.repeat(201) },
      { text: 'a', turnId: undefined },
      { text: 'a', other: 1 },
      { other: 1 },
      { text: 'a', turnId: 't', more: 1 },
      Object.create({ text: 'inherited' }) as object,
      new (class Turnish {
        text = 'a class instance';
      })(),
    ];
    for (const input of left) expect(plainTurn(input), JSON.stringify(input)).toBeUndefined();
  });

  it('never takes what the schemas refuse, and gives what they give (random objects)', () => {
    const key = fc.constantFrom('text', 'button', 'turnId', 'other');
    const value = fc.oneof(fc.string({ maxLength: 8 }), fc.string({ minLength: 195, maxLength: 205 }), fc.constant('\uDC00'), fc.constant('a\u001fb'), fc.integer(), fc.constant(undefined));
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 3 }), (input) => {
        const read = plainTurn(input);
        if (read !== undefined) expect(JSON.stringify(read)).toBe(bySchemas(input));
        // parseTurn says the same with or without the fast path.
        const parsed = parseTurn(input);
        expect(parsed.success).toBe(bySchemas(input) !== null && !('text' in input && 'button' in input));
        if (parsed.success) expect(JSON.stringify(parsed.data)).toBe(bySchemas(input));
      }),
      { numRuns: 2000 },
    );
  });
});
