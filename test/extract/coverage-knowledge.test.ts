/**
 * Coverage of clear answers with general knowledge (issue 26, s34cover): each
 * case is a sentence of my own, not a corpus line, read at a question whose
 * categories carry no synonyms. Wrong readings are worse than misses, so every
 * group also holds messages that must stay unread.
 */
import { describe, expect, it } from 'vitest';
import { matchCategory, type MatchableQuestion } from '../../src/extract/index.js';

const value = (text: string, gate: MatchableQuestion) => {
  const r = matchCategory(text, gate);
  return r.status === 'match' ? r.value : 'abstain';
};

const pets: MatchableQuestion = { categories: ['Yes', 'No'], prompt: 'Will any pets live in the flat with you?' };

describe('"we have no ..." is a denial, never a yes', () => {
  it.each([
    ['we have no animals', 'abstain'],
    ['we have got no animals at all', 'abstain'],
    ['i have none', 'No'],
    ['we have no pets', 'No'],
  ])('"%s" at a pets question: %s', (text, expected) => {
    expect(value(text, pets)).toBe(expected);
  });
});

describe('counts a day, where the categories count per day or the question asks how many times a day', () => {
  const visits: MatchableQuestion = {
    categories: ['Once a day', 'Twice a day', 'Three times or more'],
    prompt: 'How many times a day should the nurse call in?',
  };
  it.each([
    ['twice daily please', 'Twice a day'],
    ['3x a day', 'Three times or more'],
    ['one check a day will do', 'Once a day'],
    ['in the morning and in the evening', 'Twice a day'],
    ['breakfast and dinner', 'Twice a day'],
    ['morning, lunchtime and bedtime', 'Three times or more'],
    ['every 12 hours', 'Twice a day'],
    ['tres veces al día', 'Three times or more'],
    ['einmal am Tag', 'Once a day'],
    ['trois fois par jour', 'Three times or more'],
    ['3', 'Three times or more'],
  ])('"%s" is %s', (text, expected) => {
    expect(value(text, visits)).toBe(expected);
  });

  it.each([
    'once or twice',
    'morning or evening',
    'twice a week',
    'my mum comes in three times a day already',
  ])('"%s" is no count a day', (text) => {
    expect(value(text, visits)).toBe('abstain');
  });

  it('a bare count answers only a question that asks how many times a period', () => {
    const often: MatchableQuestion = { categories: ['Once a week or less', '2-3 times a week', '4 or more times a week'], prompt: 'How often do you plan to train?' };
    expect(value('5', often)).toBe('abstain');
    expect(value('twice a week', often)).toBe('2-3 times a week');
  });
});

describe('a short answer naming the part of a category that tells it from the others', () => {
  const account: MatchableQuestion = { categories: ['Current account', 'Savings account', 'Joint account'], prompt: 'Which account would you like to open?' };
  const care: MatchableQuestion = { categories: ['Home visits', 'Overnight stays', 'Dog walking'], prompt: 'What kind of pet care do you need?' };
  const visit: MatchableQuestion = { categories: ['New patient', 'Follow-up', 'Urgent care', 'Telehealth', 'Emergency'], prompt: 'What kind of visit is this?' };
  it.each([
    ['savings please', 'Savings account', account],
    ["I'd like the joint one", 'Joint account', account],
    ['just a current one', 'Current account', account],
    ['walks', 'Dog walking', care],
    ['dog walks please', 'Dog walking', care],
  ] as const)('"%s" is %s', (text, expected, gate) => {
    expect(value(text, gate)).toBe(expected);
  });

  it.each([
    ['account', account],
    ['savings and joint', account],
    ['not savings', account],
    ['I already have a savings account elsewhere, and I want something for bills', account],
    ['dog', care],
    ['home', care],
    ['patient', visit],
    ['care', visit],
  ] as const)('"%s" is not read', (text, gate) => {
    expect(value(text, gate)).toBe('abstain');
  });
});

describe('who someone is to the person: family, friends, neighbours, owning or renting', () => {
  const role: MatchableQuestion = { categories: ['Owner', 'Family member', 'Friend or neighbour'], prompt: 'Are you the booking owner, or booking for someone else?' };
  const tenure: MatchableQuestion = { categories: ['Owner', 'Tenant'], prompt: 'Do you own your home or rent it?' };
  it.each([
    ["it's my grandad's parrot", 'Family member', role],
    ['booking on behalf of my aunt', 'Family member', role],
    ["I'm his stepdaughter", 'Family member', role],
    ['para mi hermana', 'Family member', role],
    ["my mate's rabbit", 'Friend or neighbour', role],
    ['the lady next door', 'Friend or neighbour', role],
    ['je suis la voisine', 'Friend or neighbour', role],
    ['we rent', 'Tenant', tenure],
    ["we're renting at the moment", 'Tenant', tenure],
    ['I own it outright', 'Owner', tenure],
    ['my sister rents, I own', 'Owner', tenure],
  ] as const)('"%s" is %s', (text, expected, gate) => {
    expect(value(text, gate)).toBe(expected);
  });

  it.each([
    ['my partner and my brother share the dog', role],
    ["my ex's cat", role],
    ['my mother asked me to book it', role],
    ['my sister rents', tenure],
  ] as const)('"%s" is not read', (text, gate) => {
    expect(value(text, gate)).toBe('abstain');
  });
});

describe('timing in the major languages', () => {
  const start: MatchableQuestion = { categories: ['Immediately', 'Within a month', 'Later'], prompt: 'When should the contract start?' };
  it.each([
    ['lo más pronto posible', 'Immediately'],
    ['des que possible svp', 'Immediately'],
    ['schnellstmöglich', 'Immediately'],
    ['en tres semanas', 'Within a month'],
    ["d'ici un mois", 'Within a month'],
    ['in zwei Wochen', 'Within a month'],
    ['el próximo año', 'Later'],
    ['im Frühjahr', 'Later'],
    ["l'an prochain", 'Later'],
    ['volgend jaar', 'Later'],
  ])('"%s" is %s', (text, expected) => {
    expect(value(text, start)).toBe(expected);
  });

  it.each(['el año pasado', 'letzte Woche', "pas avant l'année prochaine, peut-être"])('"%s" is not read', (text) => {
    expect(value(text, start)).toBe('abstain');
  });
});

describe('categories that count a thing, read from a count of that thing', () => {
  const size: MatchableQuestion = { categories: ['Studio or 1 bedroom', '2-3 bedrooms', '4+ bedrooms'], prompt: 'How big is the home you are moving out of?' };
  const rooms: MatchableQuestion = { categories: ['1 bedroom', '2 bedrooms', '3 or more bedrooms'], prompt: 'How many bedrooms does the flat have?' };
  it.each([
    ['a three-bed terrace', size, '2-3 bedrooms'],
    ['5 beds', size, '4+ bedrooms'],
    ['just a one bedroom flat', size, 'Studio or 1 bedroom'],
    ['it is a 2 bdrm', rooms, '2 bedrooms'],
    ['four big bedrooms', rooms, '3 or more bedrooms'],
    // A number alone at a question of how many bedrooms counts them (counted-bands.test.ts).
    ['3', rooms, '3 or more bedrooms'],
  ] as const)('"%s" is read', (text, gate, expected) => {
    expect(value(text, gate)).toBe(expected);
  });

  it.each([
    ['two doubles and a single', rooms],
    ['2 double bedrooms and a single', rooms],
    ['my parents have 4 bedrooms', rooms],
    // (The question asks how big, not how many: a number alone may be anything.)
    ['3', size],
    ['2 kids and a dog', size],
  ] as const)('"%s" is not read', (text, gate) => {
    expect(value(text, gate)).toBe('abstain');
  });
});

describe("a category's name as people shorten or spell it", () => {
  it.each([
    ['few times a month', { categories: ['Never', 'A few times a month', 'Every week'], prompt: 'How often do you travel?' }, 'A few times a month'],
    ['within 3 days if you can', { categories: ['Within three days', 'Within two weeks', 'Later'], prompt: 'When?' }, 'Within three days'],
    ['two or more please', { categories: ['None', '1', '2 or more'], prompt: 'How many extra keys?' }, '2 or more'],
    ['couple of hours either way is fine', { categories: ['Exact time', 'A couple of hours either way', 'Any time'], prompt: 'How flexible is the time?' }, 'A couple of hours either way'],
  ] as const)('"%s"', (text, gate, expected) => {
    expect(value(text, gate)).toBe(expected);
  });

  it('a hedge outside the name still hedges', () => {
    const gate: MatchableQuestion = { categories: ['Exact time', 'A couple of hours either way', 'Any time'], prompt: 'How flexible is the time?' };
    expect(value('either way, maybe', gate)).toBe('abstain');
    expect(value('a couple of hours either way, I think, not sure', gate)).toBe('abstain');
  });
});

describe('timing windows of two weeks and two months, and today', () => {
  const when: MatchableQuestion = { categories: ['Within two weeks', 'Within two months', 'Later'], prompt: 'When do you need the work done?' };
  const start: MatchableQuestion = { categories: ['Today', 'Within a month', 'Later'], prompt: 'When should it start?' };
  it.each([
    ['this coming tuesday', when, 'Within two weeks'],
    ['in ten days', when, 'Within two weeks'],
    ['dans quinze jours', when, 'Within two weeks'],
    ['in six weeks', when, 'Within two months'],
    ['next month', when, 'Within two months'],
    ['straight away', start, 'Today'],
    ['the same day if you can', start, 'Today'],
    ['before the end of the month', start, 'Within a month'],
  ] as const)('"%s" is %s', (text, gate, expected) => {
    expect(value(text, gate)).toBe(expected);
  });

  it.each([
    ['not next week', when],
    ['my lease ends next month', when],
    ['not now', start],
  ] as const)('"%s" is not read', (text, gate) => {
    expect(value(text, gate)).toBe('abstain');
  });

  it('"now" opening a corrected clause is no answer of its own', () => {
    const pickup: MatchableQuestion = { categories: ['Today', 'Tomorrow', 'Later'], prompt: 'When would you like to pick up the car?' };
    expect(value('was planning on today but now tomorrow suits us', pickup)).toBe('Tomorrow');
  });

});

describe('bank account kinds and work, in the major languages', () => {
  const account: MatchableQuestion = { categories: ['Current account', 'Savings account', 'Student account'], prompt: 'Which account would you like?' };
  const work: MatchableQuestion = { categories: ['Employed', 'Self-employed', 'Student', 'Retired', 'Not working'], prompt: 'What is your work situation?' };
  it.each([
    ['a checking account', account, 'Current account'],
    ['cuenta corriente por favor', account, 'Current account'],
    ['one for putting money aside every month', account, 'Savings account'],
    ['ein Tagesgeldkonto', account, 'Savings account'],
    ['compte étudiant', account, 'Student account'],
    ["I'm a civil servant", work, 'Employed'],
    ['fonctionnaire', work, 'Employed'],
    ["I'm not working at the moment", work, 'Not working'],
    // Working somewhere now, or a job just begun.
    ["I'm working at a garden centre", work, 'Employed'],
    ['just started a new job at the council', work, 'Employed'],
    ["I'm working for myself", work, 'Self-employed'],
  ] as const)('"%s" is %s', (text, gate, expected) => {
    expect(value(text, gate)).toBe(expected);
  });

  it.each([
    ['I have savings with another bank', account],
    ['my daughter has a student account with you', account],
    ['I left uni in the summer', work],
    ['looking for a new job', work],
  ] as const)('"%s" is not read', (text, gate) => {
    expect(value(text, gate)).toBe('abstain');
  });
});

describe('how flexible a date is, and a describing adjective alone', () => {
  const flex: MatchableQuestion = { categories: ['Fixed date', 'A few days either way', 'Very flexible'], prompt: 'How flexible is the delivery date?' };
  const pack: MatchableQuestion = { categories: ['Full packing', 'Fragile items only', 'No packing'], prompt: 'Would you like us to pack for you?' };
  it.each([
    ['whenever suits you really', flex, 'Very flexible'],
    ['cualquier día', flex, 'Very flexible'],
    ['give or take a day or two', flex, 'A few days either way'],
    ['it is set in stone', flex, 'Fixed date'],
    ['fester Termin', flex, 'Fixed date'],
    ['only the fragile things', pack, 'Fragile items only'],
  ] as const)('"%s" is %s', (text, gate, expected) => {
    expect(value(text, gate)).toBe(expected);
  });

  it.each([
    ['not very flexible', flex],
    ['my boss is very flexible', flex],
    ['items', pack],
  ] as const)('"%s" is not read', (text, gate) => {
    expect(value(text, gate)).toBe('abstain');
  });
});
