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
  /** 1-based line of the first line of `text` holding `needle`. */
  const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
  const unused = { unused: { entry: 'x', nodes: [{ kind: 'question', id: 'x', prompt: 'X?', answer: { type: 'string' } }], edges: [{ from: 'x', to: '__exit__' }] } };

  it('an accepted document with warnings: the flow, and each warning located', () => {
    const source = text({ ...flow([{ from: 'a', to: 'd' }, { from: 'd', to: 't', guard: "answers.a == 'x'" }, { from: 'd', to: 't' }]), subgraphs: unused });
    const { flow: parsed, problems } = lintFlowText(source, 'x.json');
    expect(parsed?.id).toBe('lint');
    expect(problems).toEqual([
      { pointer: '/subgraphs/unused', line: lineOf(source, '"unused"'), column: 5, message: 'subgraph "unused" is never called', severity: 'warning' },
    ]);
  });

  it('a refused document: its errors (a guard reading an answer nothing gives is one), then the warnings', () => {
    const source = text({ ...flow([{ from: 'a', to: 'd' }, { from: 'd', to: 't', guard: 'answers.zz == 1' }, { from: 'd', to: 'nowhere' }]), subgraphs: unused });
    const { flow: parsed, problems } = lintFlowText(source, 'x.json');
    expect(parsed).toBeNull();
    expect(problems.map((p) => [p.severity ?? 'error', p.pointer, p.message])).toEqual([
      ['error', '/edges/1/guard', 'guard at character 0: no question or action gives "answers.zz" (an answer the host gives at start is declared in "inputs")'],
      ['error', '/edges/2/to', 'no node has the id "nowhere"'],
      ['warning', '/subgraphs/unused', 'subgraph "unused" is never called'],
    ]);
    expect(problems[0]).toMatchObject({ line: lineOf(source, '"guard": "answers.zz == 1"'), column: 7, node: 'd', guard: { source: 'answers.zz == 1', position: 0 } });
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
