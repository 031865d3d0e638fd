/**
 * Issue 26, the principle in general rules: a value is committed only when
 * the words that assert it are in this message, about this question, said
 * by the person, of now. Each rule is checked with sentences of its own
 * (written for these tests, in no corpus), on questions with no synonyms.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../src/extract/offline.js';
import { matchCategory, type MatchableQuestion } from '../../src/extract/match-category.js';
import { readTypedValue } from '../../src/extract/read-typed.js';
import type { ExtractionQuestion } from '../../src/extract/types.js';

const read = (text: string, gate: MatchableQuestion) => {
  const r = matchCategory(text, gate);
  return r.status === 'match' ? r.value : 'abstain';
};

const tobacco: ExtractionQuestion = {
  key: 'tobacco',
  prompt: 'Does anyone in your home use tobacco, and how often?',
  categories: ['Never', 'Occasionally', 'Daily'],
};
const garden: ExtractionQuestion = { key: 'garden', prompt: 'Do you need a garden?', categories: ['Yes', 'No'] };
const permit: MatchableQuestion = { prompt: 'Do you hold a valid work permit?', categories: ['Yes', 'No'] };
const work: MatchableQuestion = {
  prompt: 'What do you do for a living at the moment?',
  categories: ['Employed', 'Self-employed', 'Student', 'Retired', 'Unemployed'],
};
const boat: MatchableQuestion = { prompt: 'Which boat would you like to hire?', categories: ['Canoe', 'Rowboat', 'Sailboat'] };

describe('laughter, wishes and attempts assert nothing', () => {
  it.each([
    ['nope, I sail without one haha', permit],
    ['no 😂 obviously I just wing it', permit],
    ['retired, I wish', work],
    ['trying to go freelance', work],
    ['a sailboat hahaha', boat],
  ] as const)('"%s" abstains', (text, gate) => {
    expect(read(text, gate)).toBe('abstain');
  });

  it('a plain answer beside them is still read', () => {
    expect(read('no, I never applied for one', permit)).toBe('No');
    expect(read('a rowboat, thanks', boat)).toBe('Rowboat');
  });
});

describe('a clause set in the past or in a dated future is not an answer about now', () => {
  it.each([
    ['I smoked daily for ten years', tobacco],
    ['I was self-employed', work],
    ['I will be a student from next september', work],
  ] as const)('"%s" abstains', (text, gate) => {
    expect(read(text, gate)).toBe('abstain');
  });

  it('what the person says of now is read: a change that holds now, or the clause that says "now"', () => {
    expect(read('retired in 2019', work)).toBe('Retired');
    expect(read('I was a student, now unemployed', work)).toBe('Unemployed');
    expect(read('we stopped years ago, so never', tobacco)).toBe('Never');
  });

  it('a question about a history is answered by the past', () => {
    const history: MatchableQuestion = { prompt: 'Have you ever had a claim?', categories: ['Yes', 'No'] };
    expect(read('yes, there was one in 2020', history)).toBe('Yes');
  });
});

describe('a statement about someone or something else', () => {
  it.each([
    ['my uncle always hires the sailboat', boat],
    ['the brochure shows a canoe', boat],
    ['my landlady uses tobacco daily', tobacco],
  ] as const)('"%s" abstains', (text, gate) => {
    expect(read(text, gate)).toBe('abstain');
  });

  it('a household member counts on a question about anyone in the home', () => {
    expect(read('my wife uses it daily', tobacco)).toBe('Daily');
  });
});

describe('a "no" or "never" about another thing', () => {
  it('"no X" names something this question is not about: nothing is committed, here or there', () => {
    const out = extractOffline({ text: 'no garden needed', key: 'tobacco', allowModel: true, questions: [tobacco, garden] });
    expect(out.values).toEqual({});
    expect(read('no kids either', tobacco)).toBe('abstain');
  });

  it('"never" before a verb of something else negates that verb, not the answer', () => {
    expect(read('I never lost it', permit)).toBe('abstain');
    expect(read('never had one', permit)).toBe('No');
    expect(read('no tobacco in our home', tobacco)).toBe('Never');
    expect(read('no, thanks', permit)).toBe('No');
  });
});

describe('typed values: only clauses the person says of themselves, now', () => {
  const age = { type: 'number', integer: true, min: 18, max: 99 } as const;
  const budget = { type: 'number', min: 10, max: 1000, unit: 'EUR' } as const;
  const agePrompt = 'How old are you?';
  const budgetPrompt = 'How much can you spend per night, in euros?';
  const value = (spec: typeof age | typeof budget, text: string, prompt: string) => {
    const r = readTypedValue(spec, text, { prompt });
    return r.ok ? r.value : r.message;
  };

  it('a number of another time is refused, saying why', () => {
    expect(value(age, 'I was 19 when I started', agePrompt)).toMatch(/then|later/);
    expect(value(age, 'I turn 40 in may', agePrompt)).toMatch(/then|later/);
    expect(value(budget, 'we spent 55 last summer', budgetPrompt)).toMatch(/then|later/);
  });

  it("someone else's number is refused; the person's own is read beside it", () => {
    expect(value(budget, 'my cousin pays 80', budgetPrompt)).toMatch(/someone else/);
    expect(value(age, 'my husband is 41 and I am 39', agePrompt)).toBe(39);
  });

  it('a joke is refused; a plan dropped for a plain answer is read', () => {
    expect(value(age, '29 forever lol', agePrompt)).toMatch(/plain answer/);
    expect(value(budget, 'I was going to say 40 but 45 is ok', budgetPrompt)).toBe(45);
  });
});

describe('second round: laughter by clause, changes that hold now, seeming, ages at money questions', () => {
  const age = { type: 'number', integer: true, min: 18, max: 99 } as const;
  const budget = { type: 'number', min: 10, max: 1000, unit: 'EUR' } as const;
  const value = (spec: typeof age | typeof budget, text: string, prompt: string) => {
    const r = readTypedValue(spec, text, { prompt });
    return r.ok ? r.value : r.message;
  };

  it('a laugh in another clause leaves the number said plainly', () => {
    expect(value(age, '61, and proud of it haha', 'How old are you?')).toBe(61);
  });

  it('a change whose result holds now is not the past', () => {
    expect(value(age, 'I turned 33 on monday', 'How old are you?')).toBe(33);
    expect(read('I became a student again this autumn', work)).toBe('Student');
  });

  it('how a number seems or feels is not what it is', () => {
    expect(value(age, "I'm 70 but I feel 45", 'How old are you?')).toBe(70);
  });

  it('"I\'m 30" at a question of money is an age, not an amount', () => {
    expect(value(budget, "I'm 30", 'How much can you spend per night, in euros?')).toMatch(/age/);
  });

  it('"in my heart" is imagined', () => {
    expect(value(age, '21 forever, in my heart', 'How old are you?')).toMatch(/plain answer/);
  });

  it('a time said relative to the answer word is not that time', () => {
    const when: MatchableQuestion = { prompt: 'When shall we call?', categories: ['Today', 'Tomorrow', 'Later'] };
    expect(read('any time after today', when)).toBe('abstain');
    expect(read('today please', when)).toBe('Today');
  });

  it('"no restrictions" is a plain no; "no" before another thing is not', () => {
    const advice: MatchableQuestion = { prompt: 'Has a doctor told you to avoid sport right now?', categories: ['Yes', 'No'] };
    expect(read('no restrictions whatsoever', advice)).toBe('No');
    expect(read('no allergies', advice)).toBe('abstain');
  });

  it('a subject named with a place or a part is still the subject of its verb', () => {
    expect(read('the poster in your window shows a rowboat', boat)).toBe('abstain');
    expect(read('the canoe with the red stripe', boat)).toBe('Canoe');
  });
});

describe('general knowledge: timing, sizes, cover, work, limits at a question asking for the most', () => {
  const when: MatchableQuestion = { prompt: 'When do you want the bike?', categories: ['Today', 'Tomorrow', 'Later'] };
  const weeks: MatchableQuestion = { prompt: 'When should the course start?', categories: ['This week', 'Next week', 'Later'] };
  const size: MatchableQuestion = { prompt: 'Which room size?', categories: ['Small', 'Medium', 'Large'] };
  const vehicle: MatchableQuestion = { prompt: 'Which vehicle?', categories: ['Small', 'SUV', 'Van'] };
  const cover: MatchableQuestion = { prompt: 'Which protection plan?', categories: ['Basic', 'Full', 'None'] };
  const job: MatchableQuestion = { prompt: 'What is your situation?', categories: ['Employed', 'Retired', 'Not working'] };

  it.each([
    ['tmrw after lunch', when, 'Tomorrow'],
    ['demain', when, 'Tomorrow'],
    ['later this evening', when, 'Today'],
    ['sometime next week', when, 'Later'],
    ['this saturday', weeks, 'This week'],
    ['la semaine prochaine', weeks, 'Next week'],
    ['a compact one', size, 'Small'],
    ['midsize', size, 'Medium'],
    ['a minibus', vehicle, 'Van'],
    ['4x4 please', vehicle, 'SUV'],
    ['fully comprehensive', cover, 'Full'],
    ['no cover please', cover, 'None'],
    ['stay at home mom', job, 'Not working'],
    ['aposentado', job, 'Retired'],
  ] as const)('"%s" is read', (text, gate, expected) => {
    expect(read(text, gate)).toBe(expected);
  });

  it('an upper limit answers a question that asks for the most; a lower one does not', () => {
    const most = { type: 'number', min: 10, max: 500, unit: 'EUR' } as const;
    const prompt = 'What is the most you would spend per month?';
    const value = (text: string) => {
      const r = readTypedValue(most, text, { prompt });
      return r.ok ? r.value : 'refused';
    };
    expect(value('no more than 80')).toBe(80);
    expect(value('65 is my max')).toBe(65);
    expect(value('at least 40')).toBe('refused');
  });

  it('a typed correction by "oops" or "make it" keeps the last number', () => {
    const people = { type: 'number', integer: true, min: 1, max: 20 } as const;
    const value = (text: string) => {
      const r = readTypedValue(people, text, { prompt: 'How many guests?' });
      return r.ok ? r.value : 'refused';
    };
    expect(value('6 oops 7')).toBe(7);
    expect(value('8, no make it 9')).toBe(9);
  });
});

describe('times a week, where the categories count per week', () => {
  const visits: MatchableQuestion = {
    prompt: 'How often will you swim?',
    categories: ['Once a week or less', '2-3 times a week', '4 or more times a week'],
  };
  it.each([
    ['two times weekly', '2-3 times a week'],
    ['tue and thu', '2-3 times a week'],
    ['every day', '4 or more times a week'],
    ['dreimal pro Woche', '2-3 times a week'],
    ['now and then', 'Once a week or less'],
  ])('"%s" is %s', (text, expected) => {
    expect(read(text, visits)).toBe(expected);
  });
  it('a negated or second-hand count is not read', () => {
    expect(read('not daily', visits)).toBe('abstain');
    expect(read('my coach swims every day', visits)).toBe('abstain');
  });
});

describe('self-correction', () => {
  it('"I mean" corrects the answer (it is not "what do you mean"); "hmm no" and "make that" too', () => {
    expect(read('a canoe, sorry I mean a rowboat', boat)).toBe('Rowboat');
    expect(read('canoe, hmm no, sailboat', boat)).toBe('Sailboat');
    expect(read('rowboat... make that a canoe', boat)).toBe('Canoe');
    expect(read('what do you mean by rowboat?', boat)).toBe('abstain');
  });
});

describe('a contrast about someone else', () => {
  it('"..., but my son doesn\'t" is not the person\'s answer', () => {
    expect(read("I do, but my son doesn't", permit)).not.toBe('No');
    expect(read('yes, but my sister does not', permit)).not.toBe('No');
  });
});

describe('no in the future tense, and no job', () => {
  it('"won\'t" and "nobody else" say no to a question put in the future', () => {
    const share: MatchableQuestion = { prompt: 'Will anyone else ride the tandem?', categories: ['Yes', 'No'] };
    expect(read("I won't be sharing it", share)).toBe('No');
    expect(read('nobody else', share)).toBe('No');
  });
  it('"I don\'t have a job" is not working', () => {
    const job: MatchableQuestion = { prompt: 'What is your situation?', categories: ['Employed', 'Retired', 'Not working'] };
    expect(read("I don't have a job right now", job)).toBe('Not working');
  });
});

describe('a number denied beside a number stated', () => {
  it('"not 30 yet, 29" is 29', () => {
    const r = readTypedValue({ type: 'number', integer: true, min: 18, max: 99 }, 'not 30 yet, 29', { prompt: 'How old are you?' });
    expect(r.ok && r.value).toBe(29);
  });
});

describe('a question about "the patient" names no one: a family member and the person both speaking leaves it unclear', () => {
  const coverage: MatchableQuestion = {
    prompt: 'Has the patient ever been without dental cover?',
    categories: ['Yes', 'No', 'Partial'],
    synonyms: { Yes: ['uninsured for years'], Partial: ['a gap', 'one gap'] },
  };

  it('reads a family member named alone as the one asked about', () => {
    expect(read('my daughter had a gap when she changed jobs', coverage)).toBe('Partial');
  });

  it('abstains when the person also says something of themselves', () => {
    expect(read('my daughter had a gap when she changed jobs, I was always covered', coverage)).toBe('abstain');
  });
});

describe('round 32: more corrections, "we have" another thing, kinds of home, nearer than a month', () => {
  const sauna: MatchableQuestion = { prompt: 'Is there a sauna in the building?', categories: ['Yes', 'No'] };
  const dwelling: MatchableQuestion = { prompt: 'Where do you live?', categories: ['House', 'Flat', 'Mobile home'] };
  const begin: MatchableQuestion = { prompt: 'When should the lessons begin?', categories: ['Today', 'Within a month', 'Later'] };
  const beginNow: MatchableQuestion = { prompt: 'When should the lessons begin?', categories: ['Immediately', 'Within a month', 'Later'] };

  it('a correction marker ("hang on", "never mind", "strike that") keeps only what follows it', () => {
    expect(read('no, hang on, I think they built one last spring', sauna)).toBe('abstain');
    expect(read('yes. strike that, no', sauna)).toBe('No');
    expect(read('no, never mind, yes there is', sauna)).toBe('Yes');
  });

  it('"we have X" where X is another thing says nothing of this question', () => {
    expect(read('we have a pool', sauna)).toBe('abstain');
    expect(read('we have one in the basement', sauna)).toBe('Yes');
    expect(read('we have a sauna', sauna)).toBe('Yes');
  });

  it('kinds of home are read as the category they always are', () => {
    expect(read('a terraced house', dwelling)).toBe('House');
    expect(read('bungalow', dwelling)).toBe('House');
    expect(read('a studio apartment', dwelling)).toBe('Flat');
    expect(read('eine Wohnung', dwelling)).toBe('Flat');
    expect(read('a static caravan by the lake', dwelling)).toBe('Mobile home');
  });

  it('tomorrow and in a few days are within a month where no category says now, and Immediately keeps them where one does', () => {
    expect(read('tomorrow', begin)).toBe('Within a month');
    expect(read('in a few days', begin)).toBe('Within a month');
    expect(read('tomorrow', beginNow)).toBe('Immediately');
  });
});

describe('round 32: what holds now, denied words of the question, weekly and monthly, whose family', () => {
  const heater: MatchableQuestion = { prompt: 'Is a water heater installed in the flat?', categories: ['Yes', 'No'] };
  const helpers: MatchableQuestion = { prompt: 'Will anyone besides you be installing it?', categories: ['Yes', 'No'] };
  const lodging: MatchableQuestion = { prompt: 'Where do you stay?', categories: ['Hotel', 'Hostel', 'Camping'] };
  const cleaning: MatchableQuestion = { prompt: 'How often is the office cleaned?', categories: ['Rarely', 'Monthly', 'Weekly'] };
  const learner: MatchableQuestion = { prompt: 'Is the learner a beginner?', categories: ['Yes', 'No'] };

  it('a later clause opening with "now" or "this time" that answers is what holds now', () => {
    expect(read('we always took a hotel, now camping', lodging)).toBe('Camping');
    expect(read('used to be a hostel, this time a hotel', lodging)).toBe('Hotel');
    // Without an answer after it, the past is all there is.
    expect(read('we used to go camping, now we are older', lodging)).toBe('abstain');
  });

  it("a denied word of the question's wording is its No", () => {
    expect(read('not installed', heater)).toBe('No');
    expect(read("it's not installed yet", heater)).toBe('No');
    // Not on a question about anyone else, where who is denied is not clear.
    expect(read('not installing', helpers)).toBe('abstain');
    // Not when said of someone else.
    expect(read('my landlord has not installed one', heater)).toBe('abstain');
  });

  it('weekly and monthly have their everyday words, in the major languages', () => {
    expect(read('every weekend', cleaning)).toBe('Weekly');
    expect(read('once a month', cleaning)).toBe('Monthly');
    expect(read('una vez al mes', cleaning)).toBe('Monthly');
    expect(read('jede Woche', cleaning)).toBe('Weekly');
  });

  it('"my husband ..." answers a question about a person other than "you", not one about a thing', () => {
    const tidying: MatchableQuestion = { prompt: 'How often is the office tidied?', categories: ['Rarely', 'Weekly', 'Daily'] };
    expect(read('my husband tidies it daily', tidying)).toBe('abstain');
    expect(read('my son is, yes', learner)).toBe('Yes');
  });
});

describe('round 32: common intake answers, never with its verb, "not anymore" about now', () => {
  const problem: MatchableQuestion = { prompt: 'What is wrong with the parcel?', categories: ['damaged', 'late', 'wrong_item', 'other'] };
  const why: MatchableQuestion = { prompt: 'Why are you calling?', categories: ['Billing', 'Test results', 'Prescription refill'] };
  const who: MatchableQuestion = { prompt: 'Is the visitor an adult or a minor?', categories: ['Adult', 'Minor'] };
  const dizzy: MatchableQuestion = { prompt: 'Do you feel dizzy right now?', categories: ['Yes', 'No'] };
  const gaps: MatchableQuestion = { prompt: 'Any history of missed payments?', categories: ['Yes', 'No'] };

  it('order problems, reasons to call and age groups have their everyday words', () => {
    expect(read('it is smashed', problem)).toBe('damaged');
    expect(read('two weeks overdue', problem)).toBe('late');
    expect(read('you sent the wrong size', problem)).toBe('wrong_item');
    expect(read('question about my copay', why)).toBe('Billing');
    expect(read('my ultrasound', why)).toBe('Test results');
    expect(read('a teenager', who)).toBe('Minor');
    expect(read('she is a pensioner', who)).toBe('Adult');
  });

  it('a thing said of someone else is theirs, even when the answer opens with the verb', () => {
    expect(read("my neighbour's parcel arrived broken", problem)).toBe('abstain');
  });

  it('"never have", "nobody does" are No', () => {
    expect(read('never have', dizzy)).toBe('No');
  });

  it('"not anymore" is No on a question about now, and nothing on one about a history', () => {
    expect(read('not anymore', dizzy)).toBe('No');
    expect(read('no longer, thankfully', dizzy)).toBe('No');
    expect(read('not anymore', gaps)).toBe('abstain');
  });
});

describe('round 32: a plan is the answer to a question about a plan', () => {
  const lessons: MatchableQuestion = { prompt: 'When would you like the lessons to begin?', categories: ['This week', 'Next week', 'Later'] };
  const status: MatchableQuestion = { prompt: 'What is your current status?', categories: ['Student', 'Employed'] };
  it('"next summer", "planning to ..." answer a question about when one would like something', () => {
    expect(read('next summer', lessons)).toBe('Later');
    expect(read("I'm planning to begin next week", lessons)).toBe('Next week');
  });
  it('but not a question about now', () => {
    expect(read("I'm planning to study next year", status)).toBe('abstain');
    expect(read('thinking of becoming a student', status)).toBe('abstain');
  });
});

describe('round 32: ironic idioms assert nothing', () => {
  const kayak: MatchableQuestion = { prompt: 'Have you paddled a kayak before?', categories: ['Yes', 'No'] };
  it.each(['yes, and I am the pope', 'yes, living the dream', 'no, what could possibly go wrong', 'yes because I clearly know what I am doing'])('"%s" abstains', (text) => {
    expect(read(text, kayak)).toBe('abstain');
  });
  it('a plain answer is read', () => {
    expect(read('yes, I paddled one last summer', kayak)).toBe('Yes');
  });
});
