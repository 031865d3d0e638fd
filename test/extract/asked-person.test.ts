/**
 * On a question about one person other than the one answering ("Does your child ...?"), "he" and "she" are that
 * person, and "I" is not: before this, "she doesn't have any allergies" was read as someone else's and asked again,
 * while "I don't have any allergies" answered for the child. Sentences written for these tests (issue 26).
 */
import { describe, expect, it } from 'vitest';
import { matchCategory } from '../../src/extract/match-category.js';
import { readTypedValue } from '../../src/extract/read-typed.js';
import { asksOfAnotherPerson } from '../../src/extract/asked-person.js';

const yesNo = (prompt: string, text: string) => {
  const r = matchCategory(text, { prompt, categories: ['Yes', 'No'] });
  return r.status === 'match' ? r.value : 'unread';
};
const asthma = 'Does your son have asthma?';

describe('whom the question asks about', () => {
  it('knows a question about another person from one put to you or about anyone', () => {
    expect(asksOfAnotherPerson('Does your child have any allergies?')).toBe(true);
    expect(asksOfAnotherPerson('How old is the oldest person travelling?')).toBe(true);
    expect(asksOfAnotherPerson('Do you smoke?')).toBe(false);
    expect(asksOfAnotherPerson('Is anyone travelling not a resident?')).toBe(false);
  });

  it('"he" and "she" answer for the person asked about', () => {
    expect(yesNo(asthma, "he doesn't have asthma")).toBe('No');
    expect(yesNo(asthma, 'yes he has asthma')).toBe('Yes');
    expect(yesNo('Has your daughter ever been excluded from a school?', 'she has never been excluded')).toBe('No');
  });

  it('"I" does not answer for a child or a partner', () => {
    expect(yesNo(asthma, "I don't have asthma")).toBe('unread');
    expect(yesNo(asthma, 'I have asthma')).toBe('unread');
  });

  it('"I" may still be the driver or the oldest traveller', () => {
    const r = readTypedValue({ type: 'number', integer: true, min: 17, max: 99, unit: 'years' }, "I'm 61, the others are younger", { prompt: 'How old is the main driver?' });
    expect(r.ok && r.value).toBe(61);
  });

  it('on a question put to you, "he" is still someone else', () => {
    expect(yesNo('Do you hold a full driving licence?', 'he does')).toBe('unread');
  });
});

describe('the person a question asks about is its subject', () => {
  it('not a person it names as its object', () => {
    expect(asksOfAnotherPerson('How many adults, including you, will pick up your son?')).toBe(false);
    expect(asksOfAnotherPerson('Has your son ever been excluded?')).toBe(true);
    const r = readTypedValue({ type: 'number', integer: true, min: 1, max: 6, unit: 'adults' }, "he's 4", { prompt: 'How many adults, including you, will pick up your son?' });
    expect(r.ok).toBe(false);
  });
});

describe("the person asked about, named as the person's own", () => {
  it('"my son" may be the child asked about, "my wife" may not (found by hand in the demo page)', () => {
    const age = (text: string) => {
      const r = matchCategory(text, { prompt: 'How old is the child you would like to enrol?', categories: ['Under 2 years', '2 to 3 years', '4 years or older'] });
      return r.status === 'match' ? r.value : 'unread';
    };
    expect(age('my daughter is three')).toBe('2 to 3 years');
    expect(age('my husband is 40')).toBe('unread');
    expect(yesNo(asthma, 'my son has no asthma')).toBe('No');
  });
});

describe('the one who takes the person along', () => {
  const band = (text: string) => {
    const r = matchCategory(text, { prompt: 'How old is the patient?', categories: ['Under 18', '18 to 59', '60 or older'] });
    return r.status === 'match' ? r.value : 'unread';
  };
  it("is not the one asked about: their age reads nothing; the person's own, or one alone, is read", () => {
    expect(band("my mum's 66, she's bringing me in")).toBe('unread');
    expect(band("I'm 66, my daughter's driving me")).toBe('60 or older');
    expect(band('my mum is 66')).toBe('60 or older');
  });
});
