/**
 * A yes/no question answered by saying it back (restated.ts; issue 26, coverage of clear answers; found by hand:
 * "she's allergic to nuts" at the school trip's allergy question, "I can smell gas" at the plumber's gas question,
 * "we own it" at "Do you own the property?" were all asked again). And what must stay unread: another person,
 * another time, another thing, a hedge, a condition. Sentences written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { byRestatement, byYesMeans, byYesMeansDenied } from '../../src/extract/restated.js';

const yesNo = ['Yes', 'No'];
const allergies = { prompt: 'Does your child have any allergies (food, medicine, insect stings, anything else)?', categories: yesNo };
const gas = { prompt: 'Can you smell gas anywhere in the property right now?', categories: yesNo };
const owner = { prompt: 'Do you own the property?', categories: yesNo };
const shaded = { prompt: 'Is the roof NOT in direct sun for most of the day?', categories: yesNo };

describe('a yes/no question said back', () => {
  it.each([
    [allergies, 'allergic to nuts', 'Yes'],
    [allergies, "she's allergic to penicillin", 'Yes'],
    [allergies, 'my daughter is allergic to nuts', 'Yes'],
    [allergies, "she isn't allergic to anything", 'No'],
    [gas, 'I can smell gas', 'Yes'],
    [gas, "there's a smell of gas", 'Yes'],
    [owner, 'we own it', 'Yes'],
    [owner, 'i own it outright', 'Yes'],
    [owner, "I don't own it", 'No'],
  ])('%#: "%s" is %s', (question, text, value) => {
    expect(byRestatement(text, question)).toBe(value);
  });

  it.each([
    [allergies, 'my husband is allergic to cats'],
    [allergies, 'she was allergic as a baby'],
    [allergies, 'he used to be allergic'],
    [allergies, 'she might be allergic'],
    [allergies, 'allergic to nuts apparently'],
    [allergies, 'allergic to nuts? no idea'],
    [gas, 'my wife can smell gas'],
    [gas, 'could smell gas yesterday'],
    [gas, 'I smell burning'],
    [gas, 'I smell gas sometimes when the heating comes on'],
    [owner, 'we own a dog'],
    [owner, 'we own the flat above'],
    [owner, "I'd own it if I could"],
    [owner, "we'll own it next year"],
    [owner, 'we own it, but the bank has a mortgage on it'],
    [shaded, "it's not in direct sun"],
    [{ prompt: 'Would you like sessions with a personal trainer?', categories: yesNo }, "I wouldn't say no to a few sessions"],
    [{ prompt: 'Has a doctor advised you against physical exercise at the moment?', categories: yesNo }, 'my doctor advised me to exercise more'],
  ])('%#: "%s" is no plain answer', (question, text) => {
    expect(byRestatement(text, question)).toBeUndefined();
  });
});

describe('what a question says its Yes means', () => {
  const manual = { prompt: 'Would the learner rather NOT learn in a manual car? (Yes means lessons in an automatic only)', categories: yesNo };
  const reach = {
    prompt: 'Is the boiler NOT easy to get to? (Yes means it is in a loft, behind fitted units or in a cupboard that must be emptied first)',
    categories: yesNo,
  };
  const shade = { prompt: 'Is the roof NOT in direct sun for most of the day? (Yes means trees, buildings or a hill shade it for much of the day)', categories: yesNo };
  it.each([
    [manual, 'automatic please'],
    [manual, 'an automatic'],
    [reach, "it's in the loft"],
    [reach, 'in a cupboard'],
    [shade, "it's shaded by trees"],
  ])('%#: "%s" is Yes', (question, text) => {
    expect(byYesMeans(text, question)).toBe('Yes');
  });
  it.each([
    [manual, 'my dad has an automatic'],
    [manual, 'manual is fine'],
    [reach, "it isn't in the loft"],
    [reach, 'it was in the loft before the move'],
    [shade, "there's a hill behind us"],
    [shade, 'the trees were cut down'],
    [shade, 'trees? not really'],
  ])('%#: "%s" is not read', (question, text) => {
    expect(byYesMeans(text, question)).toBeUndefined();
  });
});

describe('what every alternative of a "Yes means" shares, plainly denied, is No', () => {
  const covered = { prompt: 'Is the patio NOT sheltered from the rain? (Yes means no roof, awning or pergola covers it)', categories: yesNo };
  const pitch = { prompt: 'Is the pitch NOT level? (Yes means a slope, ridge or hollow tilts it noticeably)', categories: yesNo };
  const hidden = { prompt: 'Is the meter NOT easy to reach? (Yes means it is in a cellar, behind panels or in a locked box)', categories: yesNo };
  it('"it is not tilted", with a bare no before it or none', () => {
    expect(byYesMeansDenied("it isn't tilted", pitch)).toBe('No');
    expect(byYesMeansDenied('no, the pitch is not tilted at all', pitch)).toBe('No');
  });
  it('not one alternative, nor a denial beside something else, nor a "Yes means" that denies', () => {
    expect(byYesMeansDenied('not in a cellar', hidden)).toBeUndefined();
    expect(byYesMeansDenied('not tilted by a slope', pitch)).toBeUndefined();
    expect(byYesMeansDenied('yes, not tilted', pitch)).toBeUndefined();
    expect(byYesMeansDenied("it's not tilted in winter", pitch)).toBeUndefined();
    expect(byYesMeansDenied('not covered', covered)).toBeUndefined();
  });
});
