/**
 * Every category of every example and fixture flow, typed as written (and in lower case), is read as itself at its
 * question, with the flow's other questions offered as they are in a conversation. The least a reader must do
 * (issue 26: coverage of clear answers); a rule that makes another question's words win over a category's own name
 * fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../src/extract/offline.js';
import { elsewhereQuestions, offeredQuestions } from '../../src/flow/extraction.js';
import { flowGraph } from '../../src/flow/graph.js';
import { parseFlowText } from '../../src/flow/parse.js';
import { answerKey, type QuestionNode } from '../../src/flow/schema.js';

const DIRS = ['test/fixtures/flows', 'machines/flows'];
const flows = DIRS.flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => `${dir}/${f}`));
let typedInAll = 0;

describe('a category typed as written is read as itself', () => {
  it.each(flows)('%s', (file) => {
    const flow = parseFlowText(readFileSync(file, 'utf8'), file);
    const graph = flowGraph(flow);
    const unread: string[] = [];
    let typed = 0;
    for (const q of flow.nodes.filter((n): n is QuestionNode => n.kind === 'question' && n.answer.type === 'category')) {
      if (q.answer.type !== 'category') continue;
      const key = answerKey(q);
      for (const category of q.answer.categories)
        for (const text of [category, category.toLowerCase()]) {
          typed++;
          const read = extractOffline({ text, key, allowModel: false, questions: offeredQuestions(graph, q.id), elsewhere: elsewhereQuestions(graph, q.id), today: '2026-11-28' });
          if (read.values[key]?.value !== category) unread.push(`${q.id}: ${JSON.stringify(text)} -> ${JSON.stringify(read.values[key]?.value)}`);
        }
    }
    expect(unread).toEqual([]);
    typedInAll += typed;
  });

  it('over hundreds of categories', () => {
    console.log(`[typed categories] ${typedInAll} readings`);
    expect(typedInAll).toBeGreaterThan(300);
  });
});
