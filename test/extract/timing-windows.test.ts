/**
 * Timing categories are windows of time (issue 26): a date the person names is read into the category whose
 * window holds it, derived from the categories' names relative to today. Today here is Friday 2026-11-27, the
 * date the corpora assume. Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../src/extract/index.js';
import { categoryWindows } from '../../src/extract/timing-windows.js';

const today = new Date('2026-11-27T00:00:00Z');
const ask = (text: string, prompt: string, categories: string[]) =>
  extractOffline({ text, key: 'q', allowModel: false, today: '2026-11-27', questions: [{ key: 'q', prompt, categories }] }).values['q']?.value ?? 'abstain';
const cover = ['Today', 'Within a month', 'Later'];
const week = ['This week', 'Next week', 'Later'];
const move = ['Within two weeks', 'Within two months', 'Later'];

describe('the windows a timing question\'s categories give', () => {
  it('as tiers: each after the one before, "Later" after all', () => {
    expect(categoryWindows(cover, today)).toEqual(
      new Map([
        ['Today', { from: 0, to: 0 }],
        ['Within a month', { from: 1, to: 30 }],
        ['Later', { from: 31, to: Infinity }],
      ]),
    );
    // Friday: this week ends on Sunday (2 days on), next week is Monday 3 to Sunday 9.
    expect(categoryWindows(week, today)?.get('Next week')).toEqual({ from: 3, to: 9 });
  });

  it('none when a category gives no window and is not one that never does', () => {
    expect(categoryWindows(['Soon', 'Later'], today)).toBeUndefined();
    expect(categoryWindows(['Yes', 'No'], today)).toBeUndefined();
    expect(categoryWindows(['This week', 'Next week', 'No rush'], today)).toBeDefined();
  });
});

describe('a date the person names', () => {
  it.each([
    ['from the 4th of december', 'When should the cover start?', cover, 'Within a month'],
    ['the 22nd', 'When should the cover start?', cover, 'Within a month'],
    ['late january', 'When should the cover start?', cover, 'Later'],
    ['not until march', 'When should the cover start?', cover, 'Later'],
    ['wednesday', 'When would you like to start?', week, 'Next week'],
    // (On a Friday the coming Tuesday is in the next week: "next tuesday" is that one.)
    ['next tuesday', 'When would you like to start?', week, 'Next week'],
    ['sunday works', 'When would you like to start?', week, 'This week'],
    ['in about five weeks', 'When are you planning to move?', move, 'Within two months'],
    ['early january', 'When are you planning to move?', move, 'Within two months'],
    ['en enero', 'When should the cover start?', cover, 'Later'],
    // The person's own take-back: what follows it is the answer (conclusion.ts).
    ['the 10th, no wait, the 30th', 'When should the cover start?', cover, 'Within a month'],
    ['early december - scratch that, we pushed it to february', 'When should the cover start?', cover, 'Later'],
  ] as const)('"%s" reads %s', (text, prompt, categories, expected) => {
    expect(ask(text, prompt, [...categories])).toBe(expected);
  });

  it.each([
    ['the renewal letter came on the 4th of december', 'When should the cover start?', cover],
    ['my brother starts on wednesday', 'When would you like to start?', week],
    ['not on the 22nd', 'When should the cover start?', cover],
    ['the 2nd or the 20th', 'When should the cover start?', cover],
    ['we moved in back in march', 'When are you planning to move?', move],
    ['the 10th, or was it the 30th', 'When should the cover start?', cover],
    // Friday, today: this one or the next?
    ['friday', 'When would you like to start?', week],
  ] as const)('"%s" commits nothing', (text, prompt, categories) => {
    expect(ask(text, prompt, [...categories])).toBe('abstain');
  });

  it('without today, no date is read', () => {
    const out = extractOffline({ text: 'the 22nd', key: 'q', allowModel: false, questions: [{ key: 'q', prompt: 'When should the cover start?', categories: cover }] });
    expect(out.values['q']).toBeUndefined();
  });
});

/**
 * Timing categories of the past ("Today / In the last 7 days / More than a week ago"), for a question about when
 * something happened (issue 26, from misses on the motor-claim dev split: "on tuesday", "a fortnight ago" and
 * "il y a trois semaines" were asked again). The same windows, counted back from today (Friday 2026-11-27); a date
 * looks back. Sentences written for these tests.
 */
describe('windows of the past', () => {
  const when = ['Today', 'In the last 7 days', 'More than a week ago'];
  const happened = (text: string) => ask(text, 'When did the leak start?', when);

  it('derives the windows back from today, as tiers', () => {
    expect(categoryWindows(when, today)).toEqual(
      new Map([
        ['Today', { from: 0, to: 0 }],
        ['In the last 7 days', { from: -7, to: -1 }],
        ['More than a week ago', { from: -Infinity, to: -8 }],
      ]),
    );
    // Windows on both sides of today are read from no date.
    expect(categoryWindows(['Yesterday', 'Tomorrow'], today)).toBeUndefined();
  });

  it.each([
    ['on wednesday', 'In the last 7 days'],
    ['yesterday evening', 'In the last 7 days'],
    ['about three weeks ago', 'More than a week ago'],
    ['a couple of days ago', 'In the last 7 days'],
    ['back in september', 'More than a week ago'],
    ['this morning', 'Today'],
    ['hace un mes', 'More than a week ago'],
    ['gestern', 'In the last 7 days'],
  ])('"%s" reads %s', (text, expected) => {
    expect(happened(text)).toBe(expected);
  });

  it("reads nothing from a denied date, a time of finding out, or a day that may be last week's", () => {
    expect(happened('not yesterday')).toBe('abstain');
    expect(happened('I only spotted it on wednesday')).toBe('abstain');
    expect(happened('last saturday')).toBe('abstain');
  });
});

/**
 * A date or a rate hedged with a word of likelihood is not said surely: it is offered back ("Did you mean ...?",
 * guess.ts), never committed (found by hand in the demo page: "hmm, in the new year probably" was committed as
 * Within three months). Sentences written for these tests.
 */
describe('a hedged date or rate', () => {
  it('commits nothing', () => {
    expect(ask('probably the 22nd', 'When should the cover start?', cover)).toBe('abstain');
    expect(ask('maybe in three weeks', 'When are you planning to move?', move)).toBe('abstain');
    expect(ask('I think once or twice a year', 'How often is the house empty overnight?', ['Rarely', 'Monthly', 'Weekly'])).toBe('abstain');
    expect(ask('ideally the 22nd', 'When should the cover start?', cover)).toBe('Within a month');
  });
});

describe('parts of today, spans and open ends in the names', () => {
  const visit = ['Straight away', 'This evening', 'Tomorrow', 'Next week or later'];
  const askVisit = (text: string) => ask(text, 'When can the locksmith come?', visit);
  it('"This evening" beside "Straight away" splits today: now and the rest of the day; a bare "today" is either', () => {
    expect(askVisit('as soon as possible please')).toBe('Straight away');
    expect(askVisit('tonight after 7')).toBe('This evening');
    expect(askVisit('ce soir')).toBe('This evening');
    expect(askVisit('could someone come this afternoon')).toBe('This evening');
    expect(askVisit('morgen')).toBe('Tomorrow');
    expect(askVisit('today')).toBe('abstain');
  });
  it('"Next week or later" is next week and every day after it', () => {
    expect(askVisit('the 15th of december')).toBe('Next week or later');
    expect(askVisit('next week')).toBe('Next week or later');
    // (Today is a Friday: in two days is Sunday, of no window; in three, Monday, next week.)
    expect(askVisit('in two days')).toBe('abstain');
    expect(askVisit('in three days')).toBe('Next week or later');
  });

  const leak = ['In the past hour', 'Earlier today', 'In the last 7 days', 'Longer ago'];
  const started = (text: string) => ask(text, 'When did the dripping start?', leak);
  it('looking back, the hour around now, the rest of today, days and more', () => {
    expect(started('20 mins ago')).toBe('In the past hour');
    expect(started('about 5 hours ago')).toBe('Earlier today');
    expect(started('wednesday')).toBe('In the last 7 days');
    expect(started('a month ago')).toBe('Longer ago');
    expect(started('an hour ago')).toBe('abstain');
  });

  const lastTime = ['Within the last month', '1 to 6 months ago', 'Over a year ago', 'Never donated'];
  const donated = (text: string) => ask(text, 'When did you last give blood?', lastTime);
  it('"1 to 6 months ago" is a span counted back; a name of no time ("Never donated") gives no window', () => {
    expect(categoryWindows(lastTime, today)?.get('1 to 6 months ago')).toEqual({ from: -180, to: -31 });
    expect(donated('3 months ago')).toBe('1 to 6 months ago');
    expect(donated('three years ago')).toBe('Over a year ago');
    expect(donated('9 months ago')).toBe('abstain');
  });

  const start = ['This weekend', 'Next week', 'Later in December', 'In the new year'];
  it('"Later in December" is the rest of that month after the windows before it; "In the new year" from January on', () => {
    expect(ask('the 20th of december', 'When could you start?', start)).toBe('Later in December');
    expect(ask('in february', 'When could you start?', start)).toBe('In the new year');
    expect(ask('next weekend', 'When could you start?', start)).toBe('Next week');
  });
});

describe('dates the person does not know', () => {
  it('"who knows", "no idea" beside a date leave it unread; so do two dates, looking back or ahead', () => {
    const leak = ['In the past hour', 'Earlier today', 'In the last 7 days', 'Longer ago'];
    expect(ask('this morning or tomorrow, god knows, the tap broke', 'When did the dripping start?', leak)).toBe('abstain');
    expect(ask('saturday? no idea tbh', 'When did the dripping start?', leak)).toBe('abstain');
    expect(ask('ce soir, dunno', 'When can the locksmith come?', ['Straight away', 'This evening', 'Tomorrow'])).toBe('abstain');
  });
});

describe('a denied date, then the one meant', () => {
  const when = ['Today', 'This week', 'Next week', 'Later'];
  const visit = (text: string) => ask(text, 'When could you come in?', when);
  it('"not today, but tomorrow" is tomorrow; a denial alone, or of both, reads nothing', () => {
    expect(visit("not today, but tomorrow's good")).toBe('This week');
    expect(visit('no, not today - wednesday')).toBe('Next week');
    expect(visit('not today')).toBe('abstain');
    expect(visit('not this week, and not next week either')).toBe('abstain');
  });
});

describe('a thing that started then', () => {
  it('"the leak started like 20 min ago" is its time, whatever the thing is called; someone noticing it is not', () => {
    const leak = ['In the past hour', 'Earlier today', 'In the last 7 days', 'Longer ago'];
    expect(ask('the drip started like 20 min ago', 'When did the problem start?', leak)).toBe('In the past hour');
    expect(ask('the boiler broke down on wednesday', 'When did the problem start?', leak)).toBe('In the last 7 days');
    expect(ask('my husband noticed it on wednesday', 'When did the problem start?', leak)).toBe('abstain');
  });
});

describe('a bound looking back', () => {
  // Found by hand in the solar-survey chat: "before christmas please", typed at "When did you move into this home?",
  // had been "In the last 12 months" (a bound by a day read as from today, as for what is to come).
  const movedIn = ['In the last 12 months', '1 to 5 years ago', 'More than 5 years ago'];
  const prompt = 'When did you move into this home?';
  it.each(['before christmas please', 'before last christmas', 'by last christmas'])('"%s" is any time before it: unread', (text) => {
    expect(ask(text, prompt, movedIn)).toBe('abstain');
  });
  it('the day itself is read', () => {
    expect(ask('last christmas', prompt, movedIn)).toBe('In the last 12 months');
  });
});

describe('a year alone', () => {
  // Found by hand in the solar-survey chat: "2019" at "When did you move into this home?" was asked again.
  const movedIn = ['In the last 12 months', '1 to 5 years ago', 'More than 5 years ago'];
  const prompt = 'When did you move into this home?';
  it.each([
    ['2019', 'More than 5 years ago'],
    ['in 2023', '1 to 5 years ago'],
    ['we moved in 2023', '1 to 5 years ago'],
  ])('"%s" is %s: the whole year is in it', (text, value) => {
    expect(ask(text, prompt, movedIn)).toBe(value);
  });
  it.each(['2021', 'my parents moved in 2010', '2030', '1958'])('"%s" is unread (two windows, someone else, a year to come, beyond what is remembered plainly)', (text) => {
    expect(ask(text, prompt, movedIn)).toBe('abstain');
  });
  it('a year far ahead is a joke, not a date', () => {
    expect(ask('2050', 'When should the cover start?', cover)).toBe('abstain');
    expect(ask('in 2050 at this rate', 'When should the cover start?', cover)).toBe('abstain');
    // Next year is a date: all of it is later than a month from now.
    expect(ask('2027', 'When should the cover start?', cover)).toBe('Later');
  });
});
