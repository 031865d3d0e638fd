import { describe, expect, it } from 'vitest';
import { FlowDocumentError, compileFlow, type FlowDocumentInput } from '../../src/flow/index.js';

const doc: FlowDocumentInput = {
  id: 'tiny',
  version: '1',
  nodes: [
    { kind: 'question', id: 'q', prompt: 'Ready?', answer: { type: 'category', categories: ['Yes', 'No'] } },
    { kind: 'terminal', id: 'done', outcome: 'completed' },
  ],
  edges: [{ from: 'q', to: 'done' }],
};

describe('compileFlow', () => {
  it('compiles a document built in code', () => {
    const machine = compileFlow(doc);
    expect(machine.id).toBe('tiny');
    // The question gives up after its failed answers with no invalid edge and no fallback: the implicit stop terminal.
    expect(Object.keys(machine.root.states)).toEqual(['q', 'done', '__unreadable__']);
    expect(machine.root.states.done!.type).toBe('final');
  });

  it('refuses a document built in code as clearly as a file', () => {
    const broken: FlowDocumentInput = { ...doc, edges: [{ from: 'q', to: 'nowhere' }] };
    expect(() => compileFlow(broken)).toThrow(FlowDocumentError);
    expect(() => compileFlow(broken)).toThrow('tiny /edges/0/to: no node has the id "nowhere"');
  });
});
