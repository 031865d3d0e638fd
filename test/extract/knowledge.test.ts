/**
 * General knowledge beyond a flow author's synonyms (issue 26), kept as data
 * with named sources in src/extract/knowledge/: yes/no (glibc locales),
 * frequency and timing adverbs and job titles (WordNet), read by the offline
 * matcher for questions whose categories carry those names.
 */
import { describe, expect, it } from 'vitest';
import { startConversation } from '../../src/flow/conversation.js';
import type { FlowDocumentInput } from '../../src/flow/schema.js';
import { JOB_TITLES, readYesNo } from '../../src/extract/knowledge/index.js';
import { flow } from '../flow/helpers.js';

describe('yes and no in the major languages (glibc locale data)', () => {
  it.each([
    ['yes', 'yes'], ['sí', 'yes'], ['ja', 'yes'], ['oui', 'yes'], ['sim', 'yes'], ['evet', 'yes'], ['tak', 'yes'], ['はい', 'yes'], ['да', 'yes'],
    ['no', 'no'], ['nein', 'no'], ['non', 'no'], ['não', 'no'], ['hayır', 'no'], ['tidak', 'no'], ['nu', 'no'], ['нет', 'no'], ["No, that's wrong", 'no'],
    ['no no', 'no'], ['yes please', 'yes'], ['not correct', 'no'],
  ] as const)('"%s" is %s', (text, side) => {
    expect(readYesNo(text)).toBe(side);
  });

  it.each(['maybe', 'why?', 'yes but the date is wrong', 'ok', 'yes no', 'I smoke daily'])('"%s" is neither', (text) => {
    expect(readYesNo(text)).toBeUndefined();
  });
});

const question = (categories: string[]): FlowDocumentInput => ({
  id: 'knowledge',
  version: 1,
  nodes: [
    { kind: 'question', id: 'q', prompt: 'Your answer?', answer: { type: 'category', categories } },
    { kind: 'terminal', id: 'done', outcome: 'completed' },
  ],
  edges: [{ from: 'q', to: 'done' }],
});
const read = async (categories: string[], text: string) => {
  const reply = await startConversation(flow(question(categories))).send({ text });
  return reply.answers.q?.value;
};

describe('the matcher reads the knowledge for categories of those names, with no synonyms listed', () => {
  it.each([
    [['Never', 'Sometimes', 'Frequently'], 'now and then', 'Sometimes'],
    [['Never', 'Sometimes', 'Frequently'], 'on a regular basis', 'Frequently'],
    [['Immediately', 'Later'], 'forthwith', 'Immediately'],
    [['Immediately', 'Later'], 'later on', 'Later'],
    [['Employed', 'Self-employed', 'Unemployed'], 'I am a librarian at the city library', 'Employed'],
    [['Employed', 'Self-employed', 'Unemployed'], 'carer for an agency', 'Employed'],
  ])('%j: "%s" is %s', async (categories, text, expected) => {
    expect(await read(categories, text)).toBe(expected);
  });

  it('a job title alone does not say employed (a freelancer has one too)', async () => {
    expect(await read(['Employed', 'Self-employed', 'Unemployed'], 'librarian')).toBeUndefined();
  });

  it('the job titles are the generated WordNet ones with the hand list, without words that read two ways', () => {
    expect(JOB_TITLES).toEqual(expect.arrayContaining(['librarian', 'plumber', 'software engineer', 'carer']));
    expect(JOB_TITLES).not.toContain('veteran');
    expect(JOB_TITLES).not.toContain('guide');
  });
});
