import { describe, expect, it } from 'vitest';
import { lintFlowText } from '../../src/flow/parse.js';

/**
 * `gateflow validate` reports every problem at once: the shape errors, and
 * what the checker finds in the rest of the document (types of guards that
 * read input answers included), each with where it is.
 */

const flow = (patch: { nodes?: unknown[]; edges?: unknown[] } = {}) =>
  JSON.stringify(
    {
      id: 'appointment',
      version: 1,
      start: 'name',
      nodes: patch.nodes ?? [
        { kind: 'question', id: 'name', prompt: 'Who is it for?', answer: { type: 'string' } },
        { kind: 'question', id: 'slot', prompt: 'Morning or afternoon?', answer: { type: 'category', categories: ['Morning', 'Afternoon'] } },
        { kind: 'input', id: 'staff_check', to: 'staff', inputs: [{ name: 'approved', type: 'boolean' }, { name: 'room', type: 'enum', options: ['A', { label: 'Room B', value: 'B' }] }] },
        { kind: 'terminal', id: 'booked', outcome: 'completed' },
        { kind: 'terminal', id: 'full', outcome: 'completed' },
      ],
      edges: patch.edges ?? [
        { from: 'name', to: 'slot' },
        { from: 'slot', to: 'staff_check' },
        { from: 'staff_check', to: 'booked', on: 'done', guard: 'answers.approved' },
        { from: 'staff_check', to: 'full', on: 'done', guard: 'else' },
      ],
    },
    null,
    2,
  );

const messages = (text: string) => lintFlowText(text, 'appointment.json').problems.map((p) => `${p.pointer}: ${p.message}`);

describe('guards that read the answers of an input node', () => {
  it('accepts a yes/no input read as true or false', () => {
    expect(lintFlowText(flow(), 'appointment.json').problems).toEqual([]);
  });

  it("refuses a yes/no input compared with 'yes', saying the values it has", () => {
    const edges = JSON.parse(flow()).edges;
    edges[2].guard = "answers.approved == 'yes'";
    expect(messages(flow({ edges }))).toEqual([
      "/edges/2/guard: guard at character 20: answers.approved is a yes/no: compare it with true or false, not the text 'yes' (e.g. answers.approved == true)",
    ]);
  });

  it('refuses an enum input compared with a value that is not one of its options, naming the options', () => {
    const edges = JSON.parse(flow()).edges;
    edges[2].guard = "answers.room == 'C'";
    const [problem, ...rest] = lintFlowText(flow({ edges }), 'appointment.json').problems;
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ pointer: '/edges/2/guard', node: 'staff_check', message: "guard at character 16: 'C' is not one of the options of answers.room (A, B)" });
  });

  it('refuses an enum input used as true or false', () => {
    const edges = JSON.parse(flow()).edges;
    edges[2].guard = 'answers.room';
    expect(messages(flow({ edges }))).toEqual(["/edges/2/guard: guard at character 0: answers.room is one of its options, not true or false: compare it, e.g. answers.room == 'A'"]);
  });
});

describe('every problem in one run', () => {
  it('reports shape errors and the errors of the rest of the document together, each where it is', () => {
    const nodes = JSON.parse(flow()).nodes;
    nodes[0] = { kind: 'question', id: 'name', promt: 'Who?', answer: { type: 'string' } }; // shape: a misspelt field
    nodes[4] = { kind: 'terminal', id: 'full', outcome: 'finished' }; // shape: an outcome that does not exist
    const edges = JSON.parse(flow()).edges;
    edges[2].guard = "answers.approved == 'yes'"; // types
    edges.push({ from: 'booked', to: 'nowhere' }); // references
    const { flow: parsed, problems } = lintFlowText(flow({ nodes, edges }), 'appointment.json');
    expect(parsed).toBeNull();
    expect(problems.map((p) => p.pointer)).toEqual(['/nodes/0/prompt', '/nodes/0', '/nodes/4/outcome', '/edges/2/guard', '/edges/4/to', '/edges/4/from']);
    // Each with its line: the problems point into the text as written.
    expect(problems.every((p) => typeof p.line === 'number')).toBe(true);
    // What follows from a refused node (edges from "name", to "full") is not reported again.
    expect(problems.some((p) => p.message.includes('"name"') || p.message.includes('"full"'))).toBe(false);
  });

  it('keeps the indexes as written when a refused edge comes before a wrong one', () => {
    const edges = JSON.parse(flow()).edges;
    edges.unshift({ from: 'name', to: 'slot', on: 'sometimes' });
    edges[3].guard = "answers.approved == 'no'";
    expect(lintFlowText(flow({ edges }), 'appointment.json').problems.map((p) => p.pointer)).toEqual(['/edges/0/on', '/edges/3/guard']);
  });

  it('reports only the shape errors when the document has no nodes to check', () => {
    const problems = lintFlowText(JSON.stringify({ id: 'x', version: 1, nodes: 'none', edges: [] }), 'x.json').problems;
    expect(problems.map((p) => p.pointer)).toEqual(['/nodes']);
  });
});
