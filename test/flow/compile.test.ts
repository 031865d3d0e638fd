import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
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
    // Its one question has buttons and no invalid edge or fallback: it keeps offering them, so no implicit stop terminal.
    expect(Object.keys(machine.root.states)).toEqual(['q', 'done']);
    expect(machine.root.states.done!.type).toBe('final');
  });

  it('refuses a document built in code as clearly as a file', () => {
    const broken: FlowDocumentInput = { ...doc, edges: [{ from: 'q', to: 'nowhere' }] };
    expect(() => compileFlow(broken)).toThrow(FlowDocumentError);
    expect(() => compileFlow(broken)).toThrow('tiny /edges/0/to: no node has the id "nowhere"');
  });

  it("traces a node's entry and exit with a plain emit (two per step: no enqueueActions to set up for them)", () => {
    const machine = compileFlow(doc);
    expect((machine.implementations.actions.traceNode as { type?: string }).type).toBe('xstate.emit');
    const actor = createActor(machine);
    const trace: { type: string }[] = [];
    actor.on('*', (e) => trace.push(e));
    actor.start();
    actor.send({ type: 'user.button', value: 'Yes' });
    expect(trace.filter((e) => e.type.startsWith('node.'))).toEqual([
      { type: 'node.enter', node: 'q', kind: 'question' },
      { type: 'node.exit', node: 'q', kind: 'question' },
      { type: 'node.enter', node: 'done', kind: 'terminal' },
      { type: 'node.exit', node: 'done', kind: 'terminal' },
    ]);
  });
});
