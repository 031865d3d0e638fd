/**
 * The terminal node kind (src/flow/nodes/terminal.ts): a final state whose output says how the flow ended; nothing leaves it, and a subgraph cannot hold one.
 * The check moved here from check.test.ts (name unchanged); the output and reply tests are new.
 */
import { describe, expect, it } from 'vitest';
import { startConversation } from '../../../src/flow/conversation.js';
import type { FlowDocumentInput } from '../../../src/flow/schema.js';
import { drive, error, flow, issues, sub, withSubgraph } from '../helpers.js';

// ---------------------------------------------------------------- checks (from check.test.ts)

describe('subgraphs', () => {
  it('a terminal inside a subgraph', () => {
    const s = sub();
    s.nodes.push({ kind: 'terminal', id: 'bail', outcome: 'stopped' });
    s.edges[0]!.to = 'bail';
    expect(issues(withSubgraph(s))).toEqual([
      error(
        ['subgraphs', 'sub', 'nodes', 1],
        'a subgraph cannot end the flow: leave it through "__exit__" and put terminal "bail" in the main flow',
        { node: 'bail' },
      ),
    ]);
  });
});

describe('terminal nodes', () => {
  const ENDS: FlowDocumentInput = {
    id: 'ends',
    version: 1,
    nodes: [
      { kind: 'question', id: 'way', prompt: 'Which way?', answer: { type: 'category', categories: ['Hand', 'Stop', 'Done'] } },
      { kind: 'decision', id: 'pick' },
      { kind: 'terminal', id: 'handed', outcome: 'handoff', message: 'Over to a person.' },
      { kind: 'terminal', id: 'stopped', outcome: 'stopped' },
      { kind: 'terminal', id: 'done', outcome: 'completed' },
    ],
    edges: [
      { from: 'way', to: 'pick' },
      { from: 'pick', to: 'handed', guard: "answers.way == 'Hand'" },
      { from: 'pick', to: 'stopped', guard: "answers.way == 'Stop'" },
      { from: 'pick', to: 'done' },
    ],
  };

  it('end the machine with their outcome as its output', async () => {
    const f = await drive(ENDS);
    await f.button('Stop');
    expect(f.status).toBe('done');
    expect(f.output).toEqual({ outcome: 'stopped', terminal: 'stopped', stoppedBy: null });
  });

  it('a handoff replies with its message and the HANDOFF artifact; a stop not caused by a limiting value says so', async () => {
    const handed = await startConversation(flow(ENDS)).send({ button: 'Hand' });
    expect(handed).toMatchObject({ message: 'Over to a person.', completion: { isComplete: true, reason: 'handed_off', readyForHandoff: true } });
    expect(handed.artifacts).toMatchObject([{ type: 'HANDOFF', flowId: 'ends', answers: { way: { value: 'Hand' } } }]);
    const stopped = await startConversation(flow(ENDS)).send({ button: 'Stop' });
    expect(stopped.completion).toEqual({ isComplete: true, reason: 'stopped', readyForHandoff: false });
  });
});
