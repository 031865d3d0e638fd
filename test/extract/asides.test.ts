/**
 * After a contrast (issue 26): an aside leaves the answer before it standing ("no alarm, but we have
 * cameras"); a tail that may turn the answer (a negation, a place, another person, the question's own words,
 * a count, what came before named again) leaves it unread, as before; a wish ("I'd love to") is no answer.
 * Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline, type ExtractionQuestion } from '../../src/extract/index.js';

const category = (text: string, q: Omit<ExtractionQuestion, 'key'>) =>
  extractOffline({ text, key: 'q', allowModel: false, questions: [{ key: 'q', ...q }] }).values['q']?.value ?? 'abstain';
const smoke = { prompt: 'Does anyone smoke in the flat?', categories: ['Yes', 'No'] };
const alarm = { prompt: 'Is a burglar alarm fitted at the property?', categories: ['Yes', 'No'] };
const size = { prompt: 'What size of van do you need?', categories: ['Small', 'Medium', 'Large'] };
const licence = { prompt: 'Do you hold a full driving licence?', categories: ['Yes', 'No'] };
const swim = { prompt: 'How often will you swim?', categories: ['Once a week or less', '2-3 times a week', '4 or more times a week'] };

describe('an aside after a contrast', () => {
  it.each([
    ['no, but thanks for checking the rules', smoke, 'No'],
    ['no alarm, though there are cameras by the door', alarm, 'No'],
    ['medium, but a clean one please', size, 'Medium'],
  ] as const)('"%s" reads %s', (text, q, expected) => {
    expect(category(text, q)).toBe(expected);
  });

  it.each([
    ['yes, but only on the balcony', smoke],
    ['no, though my lodger does sometimes', smoke],
    ['yes, but it has been broken for months', alarm],
    ['no, but we could fit one', alarm],
    ['once a week, but in summer maybe daily', swim],
  ] as const)('"%s" commits nothing', (text, q) => {
    expect(category(text, q)).toBe('abstain');
  });

  it('a wish is no answer', () => {
    expect(category("I'd love to come every day but honestly no", swim)).not.toBe('4 or more times a week');
    expect(category('I would love to swim daily', swim)).toBe('abstain');
  });
});

describe('a tail about "it" or "that one" speaks of the answer itself', () => {
  it.each([
    ["yes, but it's an automatic-only one", licence],
    ['medium, but that one has no air con', size],
  ] as const)('"%s" commits nothing', (text, q) => {
    expect(category(text, q)).toBe('abstain');
  });
});

describe('a bare "have" of another thing', () => {
  it('"we do have a parrot" asked about an alarm commits nothing; "we do have one" is Yes', () => {
    expect(category('we do have a parrot', alarm)).toBe('abstain');
    expect(category('no alarm, though we do have a very loud parrot', alarm)).toBe('abstain');
    expect(category('yes we do have one', alarm)).toBe('Yes');
    expect(category("we don't have any alarm", alarm)).toBe('No');
  });
});
