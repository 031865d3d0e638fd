import { describe, expect, it } from 'vitest';
import { lintFlowText } from '../../src/flow/index.js';

const text = (doc: unknown) => JSON.stringify(doc, null, 2);
const flow = (edges: unknown[]) => ({
  id: 'lint',
  version: 1,
  nodes: [
    { kind: 'question', id: 'a', prompt: 'A?', answer: { type: 'string' } },
    { kind: 'decision', id: 'd' },
    { kind: 'terminal', id: 't', outcome: 'completed' },
  ],
  edges,
});

describe('lintFlowText: what gateflow validate reports', () => {
  it('an accepted document with warnings: the flow, and each warning located', () => {
    const { flow: parsed, problems } = lintFlowText(text(flow([{ from: 'a', to: 'd' }, { from: 'd', to: 't', guard: 'answers.zz == 1' }, { from: 'd', to: 't' }])), 'x.json');
    expect(parsed?.id).toBe('lint');
    expect(problems).toEqual([
      {
        pointer: '/edges/1/guard',
        line: 31,
        column: 7,
        message: 'guard at character 0: no question or action gives "answers.zz"',
        severity: 'warning',
        node: 'd',
        guard: { source: 'answers.zz == 1', position: 0 },
      },
    ]);
  });

  it('a refused document: its errors, and the warnings of what fits the schema', () => {
    const { flow: parsed, problems } = lintFlowText(text(flow([{ from: 'a', to: 'd' }, { from: 'd', to: 't', guard: 'answers.zz == 1' }, { from: 'd', to: 'nowhere' }])), 'x.json');
    expect(parsed).toBeNull();
    expect(problems.map((p) => [p.severity ?? 'error', p.pointer, p.message])).toEqual([
      ['error', '/edges/2/to', 'no node has the id "nowhere"'],
      ['warning', '/edges/1/guard', 'guard at character 0: no question or action gives "answers.zz"'],
    ]);
  });

  it('text that is not JSON: the syntax errors alone', () => {
    const { flow: parsed, problems } = lintFlowText('{"id": ', 'x.json');
    expect(parsed).toBeNull();
    expect(problems.map((p) => p.message)).toEqual(['JSON syntax error: value expected', 'JSON syntax error: close brace expected']);
    expect(problems.every((p) => p.line === 1 && p.column === 8)).toBe(true);
  });

  it('a converted gate config: its warnings name no line of a document the author never wrote', () => {
    const config = { id: 'g', version: 1, gate_order: ['q'], gates: { q: { question: 'Q?', expected_categories: ['Yes', 'No'] } } };
    expect(lintFlowText(text(config), 'g.json')).toMatchObject({ flow: { id: 'g' }, problems: [] });
  });
});
