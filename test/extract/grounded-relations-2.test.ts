/**
 * Issue 26, s34 round: rules of message structure found with hand-written probes at the dev flows'
 * questions and with the first sight of two new blind dev sets. Each rule is checked here with sentences
 * written for these tests (in no corpus nor in the probe set), on questions with no synonyms, and with a
 * plain answer beside it that must still be read.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline, type ExtractionQuestion } from '../../src/extract/index.js';
import { readTypedValue } from '../../src/extract/read-typed.js';
import type { TypedSpec } from '../../src/extract/typed-value.js';

type NumberSpec = Extract<TypedSpec, { type: 'number' }>;
const typed = (text: string, prompt: string, spec: Exclude<TypedSpec, { type: 'category' }>) => {
  const r = readTypedValue(spec, text, { prompt });
  return r.ok ? r.value : 'abstain';
};
const category = (text: string, q: Omit<ExtractionQuestion, 'key'>) => {
  const out = extractOffline({ text, key: 'q', allowModel: false, questions: [{ key: 'q', ...q }] });
  return out.values['q']?.value ?? 'abstain';
};

const age = 'How old are you?';
const ageSpec: NumberSpec = { type: 'number', min: 18, max: 99, integer: true, unit: 'years' };
const nightly = 'What is the most you want to pay per night, in euros?';
const nightSpec: NumberSpec = { type: 'number', min: 20, max: 900, unit: 'EUR' };
const worth = 'Roughly how much is the equipment in your studio worth, in euros?';
const worthSpec: NumberSpec = { type: 'number', min: 500, max: 200000, unit: 'EUR' };
const reference = 'What is your booking reference?';
const referenceSpec = { type: 'string', pattern: '[A-Z]{2}[0-9]{4}' } as const;
const bedrooms = 'How many bedrooms does the cottage have?';
const bedroomSpec: NumberSpec = { type: 'number', min: 1, max: 10, integer: true, unit: 'bedrooms' };
const pets = 'How many pets will come with you?';
const petSpec: NumberSpec = { type: 'number', min: 1, max: 5, integer: true, unit: 'pets' };

describe('a value whose clause is about someone or something else (subject.ts)', () => {
  it.each([
    ['older than my climbing partner who is 41', age, ageSpec],
    ['most hostels charge 30 a night', nightly, nightSpec],
    ['the place across the road wants 45 a night', nightly, nightSpec],
    ['the mixing desk alone is worth 9,000', worth, worthSpec],
    // (Asked in the past tense, where a past "was" alone does not set the clause in another time.)
    ['my previous booking was ZK4411', 'Sorry the stay went badly. What was your booking reference?', referenceSpec],
    ['my old number was 202 555 0188', 'What phone number should we call?', { type: 'phone', country: 'US' }],
    ['our last stay cost 60 a night', nightly, nightSpec],
  ] as const)('"%s" commits nothing', (text, prompt, spec) => {
    expect(typed(text, prompt, spec)).toBe('abstain');
  });

  it('the person, the thing asked and its own words still answer', () => {
    expect(typed("I'm 47, my neighbour recommended you", age, ageSpec)).toBe(47);
    expect(typed('my budget is 45 a night', nightly, nightSpec)).toBe(45);
    expect(typed('my booking is ZK4411', reference, referenceSpec)).toBe('ZK4411');
    expect(typed('the cottage has 3 bedrooms', bedrooms, bedroomSpec)).toBe(3);
  });

  const cleaner: Omit<ExtractionQuestion, 'key'> = { prompt: 'How often should the cleaner come?', categories: ['Once a week', 'Twice a week', 'Every day'] };
  const job: Omit<ExtractionQuestion, 'key'> = { prompt: 'What is your employment status?', categories: ['Employed', 'Self-employed', 'Retired', 'Student'] };
  const smoke: Omit<ExtractionQuestion, 'key'> = { prompt: 'How often do you smoke?', categories: ['Never', 'Occasionally', 'Daily'] };
  const empty: Omit<ExtractionQuestion, 'key'> = { prompt: 'How often is the cottage left empty overnight?', categories: ['Rarely', 'Monthly', 'Weekly'] };

  it.each([
    ['my last cleaner started every day', cleaner],
    ['the cleaner next door comes every day', cleaner],
    ["mum's retired, she told me about you", job],
    ["it's my dad that smokes daily", smoke],
    ['the neighbours go away weekly', empty],
  ] as const)('"%s" commits nothing', (text, q) => {
    expect(category(text, q)).toBe('abstain');
  });

  it('the plain answer beside them is read', () => {
    expect(category('the cleaner should come twice a week', cleaner)).toBe('Twice a week');
    expect(category("I'm retired", job)).toBe('Retired');
    expect(category('weekly, we go away every weekend', empty)).toBe('Weekly');
  });
});

describe('time, conditions and questions back around a number (assertion.ts, read-typed.ts)', () => {
  it.each([
    // An irregular past ("broke", "won") sets the clause in the past, as "-ed" does.
    ['I broke my arm at 33', age, ageSpec],
    ['I won my first race at 29', age, ageSpec],
    // A condition the amount depends on.
    ['if breakfast is included, 80', nightly, nightSpec],
    ['unless it is a suite, 70', nightly, nightSpec],
    // A value asked back, then more said.
    ["120? that's way too much", nightly, nightSpec],
  ] as const)('"%s" commits nothing', (text, prompt, spec) => {
    expect(typed(text, prompt, spec)).toBe('abstain');
  });

  it('a plain answer, a polite "if possible" and a lone hedged number are still read', () => {
    expect(typed('I am 33', age, ageSpec)).toBe(33);
    expect(typed('80 if possible', nightly, nightSpec)).toBe(80);
    expect(typed('90, thanks', nightly, nightSpec)).toBe(90);
  });
});

describe('a count of another thing, and a part of the count taken back (number-measure.ts, read-typed.ts)', () => {
  it.each([
    ['we have 3 bathrooms', bedrooms, bedroomSpec],
    ['there are 2 garages', bedrooms, bedroomSpec],
    ['the brochure said 5 bedrooms but one is a cupboard', bedrooms, bedroomSpec],
  ] as const)('"%s" commits nothing', (text, prompt, spec) => {
    expect(typed(text, prompt, spec)).toBe('abstain');
  });

  it('the count asked, and its kinds, are read', () => {
    expect(typed('3 bedrooms', bedrooms, bedroomSpec)).toBe(3);
    expect(typed('2 doubles', bedrooms, bedroomSpec)).toBe(2);
    expect(typed('2 kids and a cat', pets, petSpec)).toBe(1);
    expect(typed('3 cats', pets, petSpec)).toBe(3);
  });
});

describe('the structure of a message around a category answer (structure.ts)', () => {
  const cleaner: Omit<ExtractionQuestion, 'key'> = { prompt: 'How often should the cleaner come?', categories: ['Once a week', 'Twice a week', 'Every day'] };
  const wheelchair: Omit<ExtractionQuestion, 'key'> = { prompt: 'Do you need a wheelchair at the airport?', categories: ['Yes', 'No'] };
  const alarm: Omit<ExtractionQuestion, 'key'> = { prompt: 'Is a burglar alarm fitted at the shop?', categories: ['Yes', 'No'] };
  const shared: Omit<ExtractionQuestion, 'key'> = { prompt: 'Will the locker be used only by you?', categories: ['Yes', 'No'] };

  it.each([
    // A take-back after the answer, with nothing readable after it.
    ['every day. ugh no, my wife says twice is plenty', cleaner],
    // The answer said of someone else.
    ['yes, for my husband, not for me', wheelchair],
    // Another kind of the thing asked.
    ['yes, a fire alarm', alarm],
    ['yes, a smoke alarm in the hall', alarm],
    // A denied "only".
    ["it won't be only me", shared],
  ] as const)('"%s" commits nothing', (text, q) => {
    expect(category(text, q)).toBe('abstain');
  });

  it('what a take-back or a contrast to now says instead is still the answer', () => {
    expect(category('every day, sorry, I mean twice a week', cleaner)).toBe('Twice a week');
    expect(category('it was once a week but now twice a week', cleaner)).toBe('Twice a week');
  });

  it('the plain answers are still read', () => {
    expect(category('yes, a burglar alarm and a fire alarm', alarm)).toBe('Yes');
    expect(category('no, just a fire alarm', alarm)).toBe('No');
    expect(category('no burglar alarm, just a smoke alarm', alarm)).toBe('No');
    expect(category('yes please, I do', wheelchair)).toBe('Yes');
    expect(category('twice a week, no more', cleaner)).toBe('Twice a week');
  });
});

describe('an eager "sure" said to a question of fact (assertion.ts)', () => {
  const garden: Omit<ExtractionQuestion, 'key'> = { prompt: 'Is there a garden at the property?', categories: ['Yes', 'No'] };
  const trainer: Omit<ExtractionQuestion, 'key'> = { prompt: 'Would you like a personal trainer?', categories: ['Yes', 'No'] };
  it('is irony as often as not: nothing is committed', () => {
    expect(category('sure, with a moat and a unicorn', garden)).toBe('abstain');
    expect(typed('sure, 900 a night, money is no object', nightly, nightSpec)).toBe('abstain');
  });
  it('a "sure" that grants a request, and a plain yes, are read', () => {
    expect(category('sure, sounds good', trainer)).toBe('Yes');
    expect(category('yes, a small one', garden)).toBe('Yes');
  });
});

describe('a clause that opens with its verb has the subject of the clause before it (read-typed.ts)', () => {
  it.each([["my dad, who's coming too, is 71"], ['my husband, the driver, is 52']])('"%s" commits nothing asked your age', (text) => {
    expect(typed(text, age, ageSpec)).toBe('abstain');
  });
  it('the person’s own age is read', () => {
    expect(typed('I am 35, thanks', age, ageSpec)).toBe(35);
  });
});

describe('an adverb of degree or of a figurative sense before the question’s own word (structure.ts)', () => {
  const bankrupt: Omit<ExtractionQuestion, 'key'> = { prompt: 'Have you ever been declared bankrupt?', categories: ['Yes', 'No'] };
  it('"practically bankrupt" is not declared bankrupt: nothing is committed', () => {
    expect(category('yes, practically bankrupt after christmas', bankrupt)).toBe('abstain');
    expect(category('morally bankrupt, sure', bankrupt)).toBe('abstain');
  });
  it('the literal answer is read', () => {
    expect(category('yes, I was declared bankrupt in 2012', bankrupt)).toBe('Yes');
  });
});

describe('irony after an interjection, theory against practice, and a later clause said of now', () => {
  const permit: Omit<ExtractionQuestion, 'key'> = { prompt: 'Do you hold a valid fishing permit?', categories: ['Yes', 'No'] };
  const classes: Omit<ExtractionQuestion, 'key'> = { prompt: 'How often will you come to class?', categories: ['Once a week or less', '2-3 times a week', '4 or more times a week'] };
  const work: Omit<ExtractionQuestion, 'key'> = { prompt: 'What is your occupation?', categories: ['Employed', 'Student', 'Retired', 'Not working'] };

  it('"oh totally, <claim>" said to a question of fact commits nothing (assertion.ts)', () => {
    expect(category('oh totally, I got it from a cereal box', permit)).toBe('abstain');
    expect(category('yes, it runs till march', permit)).toBe('Yes');
  });
  it('a value "in theory" or "on paper" commits nothing (assertion.ts)', () => {
    expect(category('5 times a week in theory, twice in reality', classes)).toBe('abstain');
    expect(category('on paper 4 times a week', classes)).toBe('abstain');
  });
  it('a later clause saying what the person does now undoes an answer of another time (structure.ts)', () => {
    expect(category('retired from rugby, teaching at a school now', work)).toBe('abstain');
    // A clause that only describes now, or a time measured with "now", leaves the answer.
    expect(category('retired, with two grandkids to mind now', work)).toBe('Retired');
    expect(category("retired, it's been a few years now", work)).toBe('Retired');
  });
});

describe('a bare yes or no beside an unread clause about the asked thing (structure.ts)', () => {
  const permit: Omit<ExtractionQuestion, 'key'> = { prompt: 'Do you hold a valid fishing permit?', categories: ['Yes', 'No'] };
  it('commits nothing: which of the two answers is a guess', () => {
    expect(category("nope, my permit is fine, it's the boat licence that ran out", permit)).toBe('abstain');
  });
  it('a bare answer, one with its reason read, and one saying where the thing is are read', () => {
    expect(category('no', permit)).toBe('No');
    expect(category('no, my permit expired in may', permit)).toBe('No');
    expect(category('yes, my permit is in the car', permit)).toBe('Yes');
  });
});

describe('more subjects of a number: "a ...", a person’s -s verb, another kind or time of the asked thing, a count in money', () => {
  const household = "What is your household's total net monthly income, in euros?";
  const incomeSpec: NumberSpec = { type: 'number', min: 0, max: 100000, unit: 'EUR' };
  const movers = 'How many rooms are there to move at your current home?';
  const roomSpec: NumberSpec = { type: 'number', min: 1, max: 12, integer: true, unit: 'rooms' };
  const people = 'How many people will live in the house, you included?';
  const peopleSpec: NumberSpec = { type: 'number', min: 1, max: 12, integer: true, unit: 'people' };
  const refund = 'How much would you like refunded, in euros?';
  const refundSpec: NumberSpec = { type: 'number', min: 0.01, max: 10000, unit: 'EUR' };
  const parcel = 'What is your parcel number?';
  const parcelSpec = { type: 'string', pattern: '[A-Z]{2}[0-9]{4}' } as const;

  it.each([
    ['a colleague got one for 30 a night', nightly, nightSpec],
    ['my uncle gives me 300', household, incomeSpec],
    ['the new place has 7 rooms', movers, roomSpec],
    ['the next place has 3 rooms', movers, roomSpec],
    ['2 of my kids, on weekends', people, peopleSpec],
    ['please take back my 4 plates', refund, refundSpec],
    ['the invoice number is QT7781', parcel, parcelSpec],
  ] as const)('"%s" commits nothing', (text, prompt, spec) => {
    expect(typed(text, prompt, spec)).toBe('abstain');
  });

  it('the asked thing, in its own kind and time, and money with its unit, are read', () => {
    expect(typed('my current home has 4 rooms', movers, roomSpec)).toBe(4);
    expect(typed('the parcel number is QT7781', parcel, parcelSpec)).toBe('QT7781');
    expect(typed('45 euros please', refund, refundSpec)).toBe(45);
    expect(typed('about 2400 euros a month', household, incomeSpec)).toBe(2400);
  });
});
