/**
 * Issue 26, answers to other questions of the same flow: a message that
 * asserts something of another question, and only a built-in yes/no of this
 * one, commits nothing here; a bare word or a polite fragment is no clear
 * answer to a question not being asked; "nobody" answers a question about
 * anyone, not one put to the person; who a clause is about is its head noun.
 * Sentences written for these tests (in no corpus), on questions with no synonyms.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../src/extract/offline.js';
import { matchCategory, type MatchableQuestion } from '../../src/extract/match-category.js';
import type { ExtractionQuestion } from '../../src/extract/types.js';

const parking: ExtractionQuestion = { key: 'parking', prompt: 'Do you need a parking space?', categories: ['Yes', 'No'] };
const heating: ExtractionQuestion = { key: 'heating', prompt: 'Which heating do you prefer?', categories: ['Gas', 'Electric', 'None'] };
const visits: ExtractionQuestion = {
  key: 'visits',
  prompt: 'How often will you visit the allotment?',
  categories: ['Never', 'Weekly', 'Daily'],
};
const tools: ExtractionQuestion = { key: 'tools', prompt: 'Would you like to borrow garden tools from the club?', categories: ['Yes', 'No'] };
const allergy: ExtractionQuestion = { key: 'allergy', prompt: 'Has a nurse told you to avoid bee stings?', categories: ['Yes', 'No'] };
const plot: ExtractionQuestion = { key: 'plot', prompt: 'Which plot size would you like?', categories: ['Small plot', 'Large plot'] };

/** The value committed for `key` when the message is typed at it, `others` being the rest of the flow. */
function commit(text: string, at: ExtractionQuestion, offered: ExtractionQuestion[], elsewhere: ExtractionQuestion[] = []) {
  const out = extractOffline({ text, key: at.key, allowModel: false, questions: [at, ...offered], elsewhere });
  return Object.fromEntries(Object.entries(out.values).map(([k, v]) => [k, v.value]));
}

describe("a bare yes/no beside another question's answer is not about this one", () => {
  it("a message that is another question's category, nothing more, commits nothing", () => {
    // "never" reads as No at a yes/no question, but it is how often one visits, asked elsewhere in the flow.
    expect(commit('never', parking, [], [visits])).toEqual({});
    // "None" is a heating choice, not "nobody needs parking".
    expect(commit('none', parking, [heating])).toEqual({});
    // Without those questions in the flow, the built-in word is read.
    expect(commit('never', parking, [])).toEqual({ parking: 'No' });
  });

  it("a no beside another question's own words commits nothing here", () => {
    expect(commit('no, the electric one is better', parking, [], [heating])).toEqual({});
    expect(commit('nope, the electric one is better', parking, [])).toEqual({ parking: 'No' });
  });

  it("a no beside another question's topic commits nothing here", () => {
    // The nurse is the allergy question's, the tools the tools question's.
    expect(commit('no, the nurse said it is fine', tools, [], [allergy])).toEqual({});
    expect(commit('I do not need any garden tools', allergy, [tools])).toEqual({});
    // The question's own topic is not another's: "a parking space" is this question's.
    expect(commit('no, I do not need a parking space', parking, [tools], [allergy])).toEqual({ parking: 'No' });
  });

  it('a unit of time measures and names no topic: "8 months left" is not about a price per month', () => {
    const lease: ExtractionQuestion = { key: 'lease', prompt: 'Are you still tied to a lease on your current flat?', categories: ['Yes', 'No'] };
    const rent: ExtractionQuestion = { key: 'rent', prompt: 'How much rent can you pay per month?', categories: ['Under 800', '800 or more'] };
    const moveIn: ExtractionQuestion = { key: 'move', prompt: 'How many weeks until you can move in?', categories: ['1 or 2', '3 or more'] };
    expect(commit('yes, another 8 months of it', lease, [], [rent])).toEqual({ lease: 'Yes' });
    expect(commit('yes, 3 weeks left', lease, [moveIn])).toEqual({ lease: 'Yes' });
    // The other question's topic itself still counts: the rent is that question's.
    expect(commit('yes, the rent is a lot', lease, [], [rent])).toEqual({});
  });

  it('pronouns and words of a whole name no topic: "everyone" of "the whole holiday cost for everyone together"', () => {
    const treated: ExtractionQuestion = { key: 'treated', prompt: 'Is anyone on the trip being treated for an illness?', categories: ['Yes', 'No'] };
    const cost: ExtractionQuestion = { key: 'cost', prompt: 'What did the whole holiday cost for everyone together?', categories: ['Under 1000', '1000 or more'] };
    expect(commit("no, everyone's healthy", treated, [], [cost])).toEqual({ treated: 'No' });
    // The other question's own topic still counts.
    expect(commit('no, the holiday cost a lot', treated, [], [cost])).toEqual({});
  });

  it('what a contrast leaves behind does not count', () => {
    expect(commit('my sister borrows tools from the club, but no', parking, [tools])).toEqual({ parking: 'No' });
    expect(commit('no, but my sister borrows tools from the club', parking, [tools])).toEqual({});
  });
});

describe('a bare word or a polite fragment is no answer to a question not being asked', () => {
  it('"daily please" typed at the parking question commits nothing anywhere', () => {
    expect(commit('daily please', parking, [visits])).toEqual({});
    expect(commit('no, small plot is fine', parking, [plot])).toEqual({});
  });

  it('a fragment that names its subject or its thing is an assertion', () => {
    expect(commit('it is the small plot', parking, [plot])).toEqual({ plot: 'Small plot' });
  });
});

describe('"nobody" answers a question about anyone, not one put to the person', () => {
  const licence: MatchableQuestion = { prompt: 'Do you hold a boating licence?', categories: ['Yes', 'No'] };
  const crew: MatchableQuestion = { prompt: 'Will anyone besides you steer the boat?', categories: ['Yes', 'No'] };
  const pets: MatchableQuestion = { prompt: 'Will any pets come on board?', categories: ['Yes', 'No'] };
  it('abstains on a question put to "you"', () => {
    expect(matchCategory('nobody else will steer', licence).status).toBe('abstain');
    expect(matchCategory('no one', licence).status).toBe('abstain');
  });
  it('reads it on a question about anyone', () => {
    expect(matchCategory('nobody else will steer', crew)).toMatchObject({ value: 'No' });
  });
  it('abstains when what nobody does is another thing', () => {
    expect(matchCategory('nobody snores', pets).status).toBe('abstain');
    expect(matchCategory('nobody, no pets at all', pets)).toMatchObject({ value: 'No' });
  });
});

describe('who a clause is about is the head of its subject', () => {
  const debt: MatchableQuestion = { prompt: 'Do you have any debt on your loan?', categories: ['Yes', 'No'] };
  it('"my loan officer says no" is said by the officer, not the person', () => {
    expect(matchCategory('my loan officer says no', debt).status).toBe('abstain');
    // The question's own thing as the subject is still the person's answer.
    expect(matchCategory('my loan is fully paid, no', debt)).toMatchObject({ value: 'No' });
  });
});

describe('round 32: third persons, the person alone, counts per week, a plain no in other languages', () => {
  const boating: MatchableQuestion = { prompt: 'Do you hold a boating licence?', categories: ['Yes', 'No'] };
  const steer: MatchableQuestion = { prompt: 'Will anyone besides you steer the boat?', categories: ['Yes', 'No'] };
  const snacks: MatchableQuestion = { prompt: 'How often do you eat snacks?', categories: ['Never', 'Sometimes', 'Daily'] };
  const classes: ExtractionQuestion = { key: 'classes', prompt: 'How often will you come to class?', categories: ['Once a week', '2-3 times a week'] };
  const injury: ExtractionQuestion = { key: 'injury', prompt: 'Are you recovering from an injury?', categories: ['Yes', 'No'] };

  it('"he has one" on a question put to "you" alone is said of someone else; on one about anyone it is read', () => {
    expect(matchCategory('he does', boating).status).toBe('abstain');
    expect(matchCategory('she has', boating).status).toBe('abstain');
    expect(matchCategory('she will, yes', steer)).toMatchObject({ value: 'Yes' });
  });

  it('"just me" answers No to a question about anyone besides the person', () => {
    expect(matchCategory('only me', steer)).toMatchObject({ value: 'No' });
    expect(matchCategory('just me and my brother', steer).status).toBe('abstain');
    expect(matchCategory('only me', boating).status).toBe('abstain');
  });

  it('a plain no in the major languages is Never on a how-often question', () => {
    expect(matchCategory('nein', snacks)).toMatchObject({ value: 'Never' });
    expect(matchCategory('non', snacks)).toMatchObject({ value: 'Never' });
  });

  it('a yes beside a count per week answers the question that counts them, not this one', () => {
    expect(commit('yes, three times a week', injury, [], [classes])).toEqual({});
    expect(commit('yes, three times a week', injury, [])).toEqual({ injury: 'Yes' });
  });
});

describe('round 32: someone named by an indefinite word, and reported words, are not the person', () => {
  const job: MatchableQuestion = { prompt: 'What do you do for work?', categories: ['Employed', 'Retired', 'Student'] };
  const vaping: MatchableQuestion = { prompt: 'Does anyone in your home vape, and how often?', categories: ['Never', 'Daily'] };
  const arrival: MatchableQuestion = { prompt: 'When would you like to arrive?', categories: ['Immediately', 'Later'] };
  it('"a friend of mine is ...", "someone ... vapes", "everyone in my team is ..." abstain', () => {
    expect(matchCategory('a cousin of mine is retired', job).status).toBe('abstain');
    expect(matchCategory('someone upstairs vapes daily', vaping).status).toBe('abstain');
    expect(matchCategory('everyone in my class is a student', job).status).toBe('abstain');
    // The person themselves is still read.
    expect(matchCategory('I am retired', job)).toMatchObject({ value: 'Retired' });
  });
  it('what the person read or was told is not what they say', () => {
    expect(matchCategory('I heard from the caretaker it is free immediately', arrival).status).toBe('abstain');
    expect(matchCategory('I was told later works', arrival).status).toBe('abstain');
    expect(matchCategory('immediately, I heard it is free', arrival).status).not.toBe('abstain');
  });
});

describe('round 32: the person alone and typed questions of the flow', () => {
  const permit: ExtractionQuestion = { key: 'permit', prompt: 'Do you hold a fishing permit?', categories: ['Yes', 'No'] };
  const crew: ExtractionQuestion = { key: 'crew', prompt: 'Will anyone besides you fish from the boat?', categories: ['Yes', 'No'] };
  const bait = { key: 'bait', prompt: 'How much do you want to spend on bait, in euros?', categories: [] };
  it('"no, just me" asked about a permit answers the question about anyone else', () => {
    expect(commit('no, just me', permit, [], [crew])).toEqual({});
    expect(commit('no, just me', permit, [])).toEqual({ permit: 'No' });
  });
  it('a bare no beside the wording of a typed question ("no, 30 euros max") answers that one', () => {
    expect(commit('no, 30 euros max', permit, [], [bait])).toEqual({});
  });
});

describe('round 32: in a flow, the typed questions count too (evaluateMatcher, as gateflow eval and the machine read)', () => {
  it('"no, 30 euros max" typed at the trainer question of the gym flow commits nothing', async () => {
    const { readFileSync } = await import('node:fs');
    const { parseFlowText } = await import('../../src/flow/index.js');
    const { evaluateMatcher } = await import('../../src/testing/evaluate-matcher.js');
    const path = new URL('../fixtures/flows/gym-membership.json', import.meta.url);
    const flow = parseFlowText(readFileSync(path, 'utf8'), 'gym-membership.json');
    const report = evaluateMatcher(flow, [
      { gate: 'trainer', text: 'no, 30 euros max', expected: 'unknown' },
      { gate: 'trainer', text: 'no thanks', expected: 'No' },
    ]);
    expect(report.results.map((r) => r.value)).toEqual(['unknown', 'No']);
  });
});

describe("a bare no beside this question's topic and another's", () => {
  const smoke: ExtractionQuestion = { key: 'smoke', prompt: 'Is there smoke coming from the socket?', categories: ['Yes', 'No'] };
  const power: ExtractionQuestion = { key: 'power', prompt: 'Is the power still on in the house?', categories: ['Yes', 'No'] };
  it('answers this question when it names this one\'s topic as well ("no smoke, just no power")', () => {
    expect(commit('no smoke, the power just went', smoke, [power])).toEqual({ smoke: 'No' });
    expect(commit('no, the power just went', smoke, [power])).toEqual({});
  });
});

describe('a word used as a verb names no other question\'s topic', () => {
  // From the blind school-trip-consent dev split: "sign her up" at the consent question was taken for the signed medical form.
  const consent = { key: 'consent', prompt: 'Do you give permission for your child to go on the residential trip?', categories: ['Yes', 'No'] };
  const form = { key: 'form', prompt: 'The signed medical form has to reach the school office before the trip. When will you hand it in?', categories: ['Next week', 'In two weeks'] };
  const read = (text: string) => extractOffline({ text, key: 'consent', allowModel: false, questions: [consent, form] }).values['consent']?.value ?? 'abstain';

  it('"yes please, sign her up" and "absolutely, sign her up!!" are Yes; a yes about the signed form is not', () => {
    expect(read('yes please, sign her up')).toBe('Yes');
    expect(read('absolutely, sign her up!!')).toBe('Yes');
    expect(read('yes, the medical form is signed')).toBe('abstain');
  });
});
