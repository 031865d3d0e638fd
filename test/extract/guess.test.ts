import { describe, expect, it } from 'vitest';
import { withoutLikelihoodHedges } from '../../src/extract/guess.js';

describe('withoutLikelihoodHedges', () => {
  it.each([
    ['probably like three times a week', 'like three times a week'],
    ["I'd say twice, maybe", 'twice,'],
    ['Peut-être deux fois', 'deux fois'],
    ['most likely next week', 'next week'],
    ['yes I think', 'yes'],
  ])('"%s" -> "%s"', (text, rest) => {
    expect(withoutLikelihoodHedges(text)).toBe(rest);
  });

  it('nothing to guess without a hedge, or with nothing else', () => {
    expect(withoutLikelihoodHedges('three times a week')).toBeUndefined();
    expect(withoutLikelihoodHedges('maybe')).toBeUndefined();
    expect(withoutLikelihoodHedges('maybe?!')).toBeUndefined();
    // Words that only contain one are not one.
    expect(withoutLikelihoodHedges('unlikely')).toBeUndefined();
    expect(withoutLikelihoodHedges('Maybelline')).toBeUndefined();
  });
});
