/**
 * Asked whether anyone was hurt, is ill or is being treated, a statement that all are well is its No (issue 26,
 * from the travel and motor-claim dev splits: "everyone's fine" and "all healthy" were asked again). Only of
 * everyone, of the person, or of no one named. Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { matchCategory } from '../../src/extract/match-category.js';

const read = (prompt: string, text: string) => {
  const r = matchCategory(text, { prompt, categories: ['Yes', 'No'] });
  return r.status === 'match' ? r.value : 'unread';
};
const hurt = 'Was anybody injured in the fall?';

describe('all are well', () => {
  it.each([
    [hurt, 'everybody is ok'],
    [hurt, "we're both fine, thankfully"],
    [hurt, 'not a scratch'],
    ['Is anyone in the group being treated for an illness?', 'we are all in good health'],
  ])('at "%s", "%s" is No', (prompt, text) => {
    expect(read(prompt, text)).toBe('No');
  });

  it("reads nothing from one other person's wellness, a denied one, a past one, or another question", () => {
    expect(read(hurt, 'my daughter is fine')).toBe('unread');
    expect(read(hurt, "no one's fine, we're all in A&E")).toBe('unread');
    expect(read(hurt, 'we were all fine until the ambulance came')).toBe('unread');
    expect(read('Is the boiler working?', 'all good')).toBe('unread');
  });
});
