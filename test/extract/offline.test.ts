import { describe, expect, it } from 'vitest';
import { extractOffline, type ExtractionQuestion } from '../../src/extract/index.js';

/** Questions as a flow offers them: the current one first, then later ones. */
const insurance: ExtractionQuestion = {
  key: 'insurance',
  prompt: 'Does the patient have a known history of inconsistencies in their insurance coverage?',
  categories: ['Yes', 'No', 'Partial'],
  synonyms: { Yes: ['lapsed', 'gaps in coverage'], No: ['always covered'], Partial: ['one gap'] },
};
const visit: ExtractionQuestion = {
  key: 'visit',
  prompt: 'What kind of visit is this?',
  categories: ['New patient', 'Follow-up', 'Urgent care', 'Telehealth', 'Emergency'],
  synonyms: { 'New patient': ['new', 'first visit'], 'Follow-up': ['followup', 'recheck'], Telehealth: ['video', 'online'] },
};
const contact: ExtractionQuestion = {
  key: 'contact',
  prompt: 'How should we contact the patient about this visit?',
  categories: ['Phone', 'Email', 'Text message', 'Patient portal'],
  synonyms: { Phone: ['call'], 'Patient portal': ['online portal', 'portal'] },
};
const worse: ExtractionQuestion = { key: 'worse', prompt: 'Are the symptoms getting worse?', categories: ['Yes', 'No'] };

const read = (text: string, questions: ExtractionQuestion[]) => {
  const out = extractOffline({ text, key: questions[0]!.key, allowModel: false, questions });
  return { values: Object.fromEntries(Object.entries(out.values).map(([k, v]) => [k, v.value])), failure: out.failure?.message };
};

describe('extractOffline: a message that answers a later question', () => {
  it('does not take a stray "no" for the current question, and gives the later answer', () => {
    expect(read('its a followup, well actually no shes a new patient', [insurance, visit, contact])).toEqual({
      values: { visit: 'New patient' },
      failure: 'offline matcher abstained: no_match',
    });
  });

  it('gives a bare "no" in the same clause as a later answer to that statement', () => {
    expect(read('no she is a new patient', [insurance, visit])).toEqual({
      values: { visit: 'New patient' },
      failure: 'offline matcher abstained: other_question',
    });
    // Alone, it answers the current question.
    expect(read('no she is a new patient', [insurance]).values).toEqual({ insurance: 'No' });
    // In a clause of its own beside a sure answer to a later question, it may be a take-back ("well no, she's
    // a new patient") as well as an answer: the later answer is taken and the current question asked again.
    expect(read('no. she is a new patient', [insurance, visit]).values).toEqual({ visit: 'New patient' });
    // Beside words of a later question that are not sure, it answers the current one.
    expect(read('no, we will phone about it', [insurance, contact]).values).toEqual({ insurance: 'No' });
  });

  it('answers a later question only when sure: its own words, specific, no typo', () => {
    // Words inside a longer phrase of a later question are that question's, and a bare answer typed at
    // another question is no clear assertion about the later one (issue 26): nothing is committed.
    expect(read('online portal', [visit, contact]).values).toEqual({});
    expect(read('the online portal please', [visit, contact]).values).toEqual({ contact: 'Patient portal' });
    expect(read('online', [visit, contact]).values).toEqual({ visit: 'Telehealth' });
    // A later yes/no question is never answered by a built-in "yes".
    expect(read('yes', [visit, worse]).values).toEqual({});
    // A single everyday synonym ("new") is not enough for a question not being asked.
    expect(read('he is new', [insurance, visit]).values).toEqual({});
    // A typo is not sure.
    expect(read('nwe patient', [insurance, visit]).values).toEqual({});
    // Nor an answer that reads two ways.
    expect(read('a new patient, or a recheck', [insurance, visit]).values).toEqual({});
    // Nor a clause that mentions it in saying something else.
    expect(read('she is new here, we have her phone number', [insurance, contact]).values).toEqual({});
    expect(read('by phone please', [insurance, contact]).values).toEqual({ contact: 'Phone' });
    // Nor a word in passing of an answer to the current question.
    expect(read('yes, we will call about the gaps in coverage', [insurance, contact]).values).toEqual({ insurance: 'Yes' });
  });
});
