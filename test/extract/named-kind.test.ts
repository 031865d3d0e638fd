/**
 * A yes to "any pets?" in the pets named (issue 26; found by hand on the rental application: "two cats", "a
 * hamster", "we have a dog" were asked again). Only the yes is read, only from the person's own animal now: a
 * denial, a contrast, a question back, another time, a wish, a joke or someone else's animal reads nothing.
 * Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../src/extract/index.js';

const pets = { key: 'q', prompt: 'Will any pets live in the flat with you?', categories: ['Yes', 'No'] };
const read = (text: string, q = pets) => extractOffline({ text, key: 'q', allowModel: false, questions: [q] }).values['q']?.value ?? 'abstain';

describe('pets named at a question whether there are any', () => {
  it.each(['two cats', 'we have two cats', 'a hamster', 'my cat', 'just the cat', '2 guinea pigs', 'three puppies'])('"%s" is Yes', (text) => {
    expect(read(text)).toBe('Yes');
  });

  it.each([
    'no cats',
    'we had a cat',
    "my neighbour's cat visits",
    'my sister has a dog',
    "a dog but it's my mum's",
    'do fish count?',
    'my kid wants a hamster someday',
    'a cat lol',
    'the dog next door barks all night',
    'a cat sat on our car this morning',
  ])('"%s" reads nothing', (text) => {
    expect(read(text)).toBe('abstain');
  });

  it('only at a question whether there are any pets, not one asking something of them', () => {
    for (const prompt of ['Is your pet vaccinated?', 'Does any of your pets need medication?', 'Do you have any pets that need a special diet?'])
      expect(read('the dog', { ...pets, prompt }), prompt).toBe('abstain');
    expect(read('a dog', { ...pets, prompt: 'Do you have any pets?' })).toBe('Yes');
  });

  it('only at a Yes/No question about pets or animals', () => {
    expect(read('two cats', { ...pets, prompt: 'Does anyone who will live in the flat smoke?' })).toBe('abstain');
    expect(read('two cats', { ...pets, categories: ['Cats', 'Dogs', 'Other'] })).not.toBe('Yes');
  });
});
