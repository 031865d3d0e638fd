/**
 * One vocabulary of the people around a person (knowledge/people.ts) for every reader. Found by hand: "my gf
 * smokes on the balcony sometimes", asked whether anyone who will live in the flat smokes, was asked again while
 * "my girlfriend smokes sometimes" was read: the word was known to one reader's list and not to another's.
 * Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { matchCategory } from '../../src/extract/match-category.js';

const smoking = {
  prompt: 'This is a non-smoking building. Does anyone who will live in the flat smoke, and if so, how often?',
  categories: ['Never', 'Occasionally', 'Daily'],
};
const read = (text: string) => {
  const r = matchCategory(text, smoking);
  return r.status === 'match' ? r.value : 'unread';
};

describe('the people in the home, however they are called', () => {
  it.each([
    ['my gf smokes on the balcony sometimes', 'Occasionally'],
    ['hubby smokes daily', 'Daily'],
    ['my missus has the odd cigarette', 'Occasionally'],
    ['my flatmate smokes occasionally', 'Occasionally'],
    ['my stepson smokes every day', 'Daily'],
  ])('"%s" is %s: they will live there', (text, value) => {
    expect(read(text)).toBe(value);
  });

  it.each(['my brother smokes daily', 'my bestie smokes every day', 'my boss smokes like a chimney'])(
    '"%s" says nothing of the home: asked again',
    (text) => {
      expect(read(text)).toBe('unread');
    },
  );
});
