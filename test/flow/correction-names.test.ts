/**
 * Which answer a message at the summary (or at "Which answer do you want to change?") names. Found by hand in the
 * plumber's chat: "when the plumber comes" asked "Who will be at the property to let the plumber in?" again (the
 * word "plumber" is in that answer's label), and "the smell" was not understood. The words of each question name
 * its answer too, less surely than its label: the answer named most surely is asked again, a tie asks which.
 */
import { describe, expect, it } from 'vitest';
import { readCorrection, type CorrectableAnswer } from '../../src/flow/correction.js';

const answer = (key: string, label: string, asked: string, value: string): CorrectableAnswer => ({
  key,
  names: [label, key, key],
  asked,
  value,
  read: () => undefined,
  yesNo: false,
});
const answers = [
  answer('started', 'Problem started:', 'Sorry to hear you have a plumbing problem. When did it start?', 'Earlier today'),
  answer('gas_smell', 'Smell of gas:', 'Can you smell gas anywhere in the property right now?', 'No'),
  answer('let_in', 'Lets the plumber in:', 'Who will be at the property to let the plumber in?', 'Me'),
  answer('callout_time', 'Callout:', 'When should the plumber come?', 'Tomorrow'),
  answer('max_spend', 'Most to spend:', 'What is the most you want to spend on this callout, in euros?', '300'),
];
const read = (text: string) => readCorrection(text, answers, false);

describe('the answer a message names', () => {
  it.each([
    ['when the plumber comes', 'callout_time'],
    ['who lets him in', 'let_in'],
    ['when it started', 'started'],
    ['the smell', 'gas_smell'],
    ['the spend', 'max_spend'],
  ])('"%s" asks %s again', (text, key) => {
    expect(read(text)).toEqual({ kind: 'change', key, text: null });
  });

  it('a tie between answers asks which', () => {
    expect(read('the property')).toEqual({ kind: 'choose' });
  });

  it('a word of no answer is not understood', () => {
    expect(read('the weather is nice')).toEqual({ kind: 'unclear' });
  });
});
