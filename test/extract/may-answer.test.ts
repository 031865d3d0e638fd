/**
 * `mayAnswer` finds, with one look-up of a message's words, the questions it
 * may answer: a question left out must read nothing from the message when
 * read in full (the correction at a summary reads only the ones found).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCategory } from '../../src/extract/match-category.js';
import { mayAnswer } from '../../src/extract/offline.js';
import type { ExtractionQuestion } from '../../src/extract/types.js';

const questions: ExtractionQuestion[] = [
  { key: 'info', prompt: "Do we have the patient's information available?", categories: ['Yes', 'No'] },
  {
    key: 'insurance',
    prompt: 'Does the patient have a known history of inconsistencies in their insurance coverage?',
    categories: ['Yes', 'No', 'Partial'],
    synonyms: { Yes: ['lapsed', 'gaps in coverage'], No: ['always covered'], Partial: ['one gap'] },
  },
  {
    key: 'visit',
    prompt: 'What kind of visit is this?',
    categories: ['New patient', 'Follow-up', 'Urgent care', 'Telehealth', 'Emergency'],
    synonyms: { 'New patient': ['new', 'first visit'], 'Follow-up': ['followup', 'recheck'], Telehealth: ['video', 'online'] },
  },
  { key: 'age', prompt: 'Is the patient an adult or a minor?', categories: ['Adult (18 or older)', 'Minor (under 18)'] },
  {
    key: 'contact',
    prompt: 'How should we contact the patient about this visit?',
    categories: ['Phone', 'Email', 'Text message', 'Patient portal'],
    synonyms: { Phone: ['call'], 'Patient portal': ['online portal', 'portal'] },
  },
];

// Words people write at a summary, the questions' words with small typos, numbers and fillers.
const WORDS = [
  'change', 'the', 'preferred', 'contact', 'to', 'should', 'be', 'actually', 'not', 'no', 'yes', 'yeah', 'nope', 'sure', 'correct',
  'phone', 'phnoe', 'emial', 'email', 'text', 'message', 'portal', 'call', 'follow-up', 'folowup', 'followup', 'recheck', 'new',
  'patient', 'urgent', 'emergency', 'emergancy', 'telehealth', 'video', 'online', 'adult', 'adlut', 'minor', 'kid', 'child', 'grown',
  'up', '17', '45', 'twelve', 'years', 'old', 'he', 'is', 'she', "she's", 'gaps', 'in', 'coverage', 'lapsed', 'always', 'covered',
  'one', 'gap', 'partial', 'insurance', 'visit', 'age', 'it', 'was', 'wrong', 'please', 'but', ',', '.', '?', 'maybe', 'i', 'think',
];

describe('mayAnswer', () => {
  it('leaves out only questions that read no value from the message', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 9 }), (words) => {
        const text = words.join(' ').replace(/ ([,.?])/g, '$1');
        const found = mayAnswer(questions, text);
        for (const q of questions) if (!found.has(q)) expect(readCategory(text, q).result.status, `${q.key} in "${text}"`).not.toBe('match');
      }),
      { numRuns: 3000, seed: 25 },
    );
  });

  it('finds the question a correction names, and not the others', () => {
    const found = mayAnswer(questions, 'change the preferred contact to phone');
    expect([...found].map((q) => q.key)).toEqual(['contact']);
  });

  it('finds a question by a small typo, a built-in synonym and a number', () => {
    expect([...mayAnswer(questions, 'emial')].map((q) => q.key)).toEqual(['contact']);
    expect([...mayAnswer([{ key: 'group', prompt: 'Age group?', categories: ['under 18', '18 to 64', '65 and over'] }], 'he is 17')].map((q) => q.key)).toEqual(['group']);
    // "yeah" is no word of the flow's: the full reading knows it as Yes.
    expect([...mayAnswer(questions, 'yeah')].map((q) => q.key)).toEqual(expect.arrayContaining(['info', 'insurance']));
  });
});
