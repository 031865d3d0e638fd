/**
 * "None", "nothing", "nobody" said alone are a No only to a question whether there is any (found by s39hands, a
 * wrong commit: "none, it's only under the sink", asked "Is the water NOT turned off at the main stopcock? (Yes means
 * the water is still on)", had been No, the opposite of what the person meant). As the subject of a clause
 * ("nothing's coming out now") they deny what it says, and are read as before. Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { matchCategory } from '../../src/extract/match-category.js';

const read = (prompt: string, text: string, categories = ['Yes', 'No']) => {
  const r = matchCategory(text, { prompt, categories });
  return r.status === 'match' ? r.value : 'unread';
};
const water = 'Is the water NOT turned off at the main stopcock? (Yes means the water is still on)';

describe('"none" at a yes/no question', () => {
  it.each(["none, it's only under the sink", 'none', 'nothing'])('"%s" says nothing of whether the water is off', (text) => {
    expect(read(water, text)).toBe('unread');
  });
  it.each([
    ['Does your child have any allergies?', 'none'],
    ['Can you smell gas anywhere in the property right now?', 'nothing'],
    ['Will any pets live in the flat with you?', 'none'],
    ['Will anyone else drive the car?', 'nobody'],
  ])('asked "%s", "%s" is No', (prompt, text) => {
    expect(read(prompt, text)).toBe('No');
  });
  it('as the subject of a clause it denies what the clause says', () => {
    expect(read(water, "nothing's coming out now, I closed the stopcock")).toBe('No');
  });
  it('a category named None is still read', () => {
    expect(read('Which insurance do you want?', 'none', ['None', 'Basic', 'Full'])).toBe('None');
  });
});
