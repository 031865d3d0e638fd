/**
 * A model's evidence is checked as the offline reader checks its own readings (issue 26 §3: "by the person,
 * now"): found by hand with a scripted model (docs/transcripts/model-evidence-gaps.md), where "my brother is a
 * student" committed employment Student and "we used to have a cat" pets Yes. Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { checkEvidence } from '../../src/extract/evidence.js';
import { matchCategory } from '../../src/extract/match-category.js';

const work = { key: 'work', prompt: 'What do you do for a living?', categories: ['Employed', 'Self-employed', 'Student', 'Retired'] };
const pets = { key: 'pets', prompt: 'Do you keep any animals at home?', categories: ['Yes', 'No'] };
const smoke = { key: 'smoke', prompt: 'How often do you smoke?', categories: ['Never', 'Sometimes', 'Daily'] };
const gaps = { key: 'gaps', prompt: 'Has the patient had any gaps in cover?', categories: ['Yes', 'No'] };
const driver = { key: 'driver', prompt: 'Who was driving?', categories: ['Me', 'Someone else'] };

describe("a model's evidence", () => {
  it.each([
    ['my cousin is retired, I am not', 'retired', 'Retired', work, 'someone_else'],
    ['my neighbour keeps a parrot', 'keeps a parrot', 'Yes', pets, 'someone_else'],
    ['her brother had gaps', 'gaps', 'Yes', gaps, 'someone_else'],
    ['we used to keep rabbits', 'rabbits', 'Yes', pets, 'another_time'],
    ['daily (not)', 'daily', 'Daily', smoke, 'negated'],
  ] as const)('"%s" quoting "%s" is refused: %s', (text, evidence, value, gate, problem) => {
    expect(checkEvidence(text, evidence, value, gate, true)).toBe(problem);
  });

  it("the person's own, of now, and the person asked who is, are accepted", () => {
    expect(checkEvidence("I'm a student at the college", 'a student', 'Student', work, true)).toBeUndefined();
    expect(checkEvidence('yes, a rabbit named Bob', 'a rabbit', 'Yes', pets, true)).toBeUndefined();
    expect(checkEvidence('her insurer has been patchy over the years', 'patchy', 'Yes', gaps, true)).toBeUndefined();
    expect(checkEvidence('my uncle was driving', 'my uncle', 'Someone else', driver, true)).toBeUndefined();
  });
});

describe('a category typed with a laugh or an eye-roll', () => {
  it('is not read as the category alone', () => {
    expect(matchCategory('Daily 😂', smoke).status).toBe('abstain');
    expect(matchCategory('Yes 🙄', pets).status).toBe('abstain');
    expect(matchCategory('Daily', smoke)).toMatchObject({ status: 'match', value: 'Daily' });
  });
});
