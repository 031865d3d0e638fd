/**
 * Flow documents and gate configs: bad ones are refused with the file, the
 * JSON Pointer, the line and column, and what is wrong; good gate configs
 * become the general flow document.
 */
import { describe, expect, it } from 'vitest';
import { FlowDocumentError, type FlowDocumentProblem } from '../../src/flow/errors.js';
import { flowDocumentJsonSchema } from '../../src/flow/json-schema.js';
import { parseFlowText } from '../../src/flow/parse.js';
import { GATE_1, GATE_1_QUESTION, GATE_1_STOP, GATE_2, GATE_2_QUESTION, SEED_GATE_CONFIG, seedFlowText } from '../helpers/intake.js';

const SOURCE = 'flows/bad.json';

/** The problems a refused text has; fails the test when the text is accepted. */
function refusal(text: string, source = SOURCE): { error: FlowDocumentError; problems: FlowDocumentProblem[] } {
  try {
    parseFlowText(text, source);
  } catch (error) {
    expect(error).toBeInstanceOf(FlowDocumentError);
    const e = error as FlowDocumentError;
    expect(e.source).toBe(source);
    return { error: e, problems: e.problems };
  }
  throw new Error('the document was accepted');
}

/** 1-based line and column of the `occurrence`-th (1-based) appearance of `needle` in `text`. */
function at(text: string, needle: string, occurrence = 1): { line: number; column: number } {
  let index = -1;
  for (let i = 0; i < occurrence; i++) {
    index = text.indexOf(needle, index + 1);
    if (index < 0) throw new Error(`"${needle}" does not occur ${occurrence} times`);
  }
  const before = text.slice(0, index).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** Checks the one problem of a refusal, and that the error message says file, place, pointer and what. */
function expectOneProblem(
  text: string,
  expected: { pointer: string; line: number; column: number; message: RegExp },
) {
  const { error, problems } = refusal(text);
  expect(problems).toHaveLength(1);
  const [problem] = problems;
  // Besides these, a problem about a node names it (`node`), and one about a guard gives its text.
  expect(problem).toMatchObject({
    pointer: expected.pointer,
    line: expected.line,
    column: expected.column,
    message: expect.stringMatching(expected.message),
  });
  expect(error.message).toContain(SOURCE);
  const node = problem!.node !== undefined ? ` [node ${problem!.node}]` : '';
  expect(error.message).toContain(`${SOURCE}:${expected.line}:${expected.column} ${expected.pointer || '/'}${node}: ${problem!.message}`);
  return problem!;
}

type Config = {
  id?: string;
  version?: number | string;
  gate_order: string[];
  gates: Record<string, Record<string, unknown>>;
};
const config = (): Config => structuredClone(SEED_GATE_CONFIG) as Config;

describe('gate configs that are refused', () => {
  it('a limiting value that is not a category', () => {
    const c = config();
    c.gates[GATE_1]!.limiting_values = ['Maybe'];
    const text = seedFlowText(c);
    expectOneProblem(text, {
      pointer: `/gates/${GATE_1}/limiting_values/0`,
      ...at(text, '"Maybe"'),
      message: /limiting value "Maybe" is not one of the categories \(Yes, No\)/,
    });
  });

  it('gate_order naming a gate that is not defined', () => {
    const c = config();
    c.gate_order.push('3_missing_gate');
    const text = seedFlowText(c);
    expectOneProblem(text, {
      pointer: '/gate_order/2',
      ...at(text, '"3_missing_gate"'),
      message: /"3_missing_gate" is not defined in "gates"/,
    });
  });

  it('a gate that is not in gate_order', () => {
    const c = config();
    c.gate_order = [GATE_1];
    const text = seedFlowText(c);
    expectOneProblem(text, {
      pointer: `/gates/${GATE_2}`,
      ...at(text, `"${GATE_2}"`),
      message: /"2_insurance_history" is not listed in "gate_order"/,
    });
  });

  it('gate_order listing a gate twice', () => {
    const c = config();
    c.gate_order = [GATE_1, GATE_2, GATE_1];
    const text = seedFlowText(c);
    expectOneProblem(text, {
      pointer: '/gate_order/2',
      ...at(text, `"${GATE_1}"`, 2),
      message: /"1_patient_info_availability" is listed twice/,
    });
  });

  it('duplicate JSON keys in the text: the same gate key twice in "gates"', () => {
    const text = [
      '{',
      '  "id": "dup-gates",',
      '  "version": 1,',
      `  "gate_order": ["${GATE_1}"],`,
      '  "gates": {',
      `    "${GATE_1}": { "question": "First?", "expected_categories": ["Yes", "No"] },`,
      `    "${GATE_1}": { "question": "Second?", "expected_categories": ["Yes"] }`,
      '  }',
      '}',
    ].join('\n');
    expectOneProblem(text, {
      pointer: `/gates/${GATE_1}`,
      line: 7,
      column: 5,
      message: /duplicate key "1_patient_info_availability"/,
    });
  });

  it('duplicate JSON keys at the top level', () => {
    const text = seedFlowText().replace('"version": 1,', '"version": 1,\n  "id": "again",');
    expectOneProblem(text, { pointer: '/id', ...at(text, '"id"', 2), message: /duplicate key "id"/ });
  });

  it('empty expected_categories', () => {
    const c = config();
    c.gates[GATE_2]!.expected_categories = [];
    const text = seedFlowText(c);
    expectOneProblem(text, {
      pointer: `/gates/${GATE_2}/expected_categories`,
      ...at(text, '"expected_categories": []'),
      message: /at least one category/,
    });
  });

  it('duplicate categories (ignoring case)', () => {
    const c = config();
    c.gates[GATE_2]!.expected_categories = ['Yes', 'No', 'yes'];
    const text = seedFlowText(c);
    expectOneProblem(text, {
      pointer: `/gates/${GATE_2}/expected_categories/2`,
      ...at(text, '"yes"'),
      message: /duplicate category "yes"/,
    });
  });

  it('missing id', () => {
    const c = config();
    delete c.id;
    const problem = expectOneProblem(seedFlowText(c), { pointer: '/id', line: 1, column: 1, message: /./ });
    // What is wrong: the id is missing.
    expect(problem.message).toMatch(/required|missing|undefined/i);
  });

  it('missing version', () => {
    const c = config();
    delete c.version;
    const problem = expectOneProblem(seedFlowText(c), { pointer: '/version', line: 1, column: 1, message: /./ });
    // What is wrong: the version is missing. (BUG: the message is only "Invalid input".)
    expect(problem.message).toMatch(/required|missing|undefined/i);
  });

  it('an id that is not a valid flow id', () => {
    const c = config();
    c.id = 'Patient Intake';
    const text = seedFlowText(c);
    expectOneProblem(text, { pointer: '/id', ...at(text, '"id"'), message: /lowercase/ });
  });

  it('a gate named like a node the conversion adds', () => {
    const c = config();
    c.gate_order = [GATE_1, 'confirmation'];
    c.gates = { [GATE_1]: c.gates[GATE_1]!, confirmation: c.gates[GATE_2]! };
    const text = seedFlowText(c);
    expectOneProblem(text, {
      pointer: '/gates/confirmation',
      ...at(text, '"confirmation": {'),
      message: /"confirmation" is reserved/,
    });
  });

  it('JSON syntax error', () => {
    const text = '{\n  "id": "x",\n  "version": 1\n  "gate_order": []\n}';
    const { error, problems } = refusal(text);
    expect(problems[0]).toEqual({ pointer: '', line: 4, column: 3, message: expect.stringMatching(/^JSON syntax error: /) });
    expect(problems[0]!.message).toMatch(/comma expected/);
    expect(error.message).toContain(`${SOURCE}:4:3 /: JSON syntax error`);
  });

  it('every problem is reported, not only the first', () => {
    const c = config();
    c.gates[GATE_1]!.limiting_values = ['Never'];
    c.gates[GATE_2]!.expected_categories = ['Yes', 'YES'];
    const { problems, error } = refusal(seedFlowText(c));
    expect(problems.map((p) => p.pointer)).toEqual([
      `/gates/${GATE_1}/limiting_values/0`,
      `/gates/${GATE_2}/expected_categories/1`,
    ]);
    expect(error.message).toMatch(/\(2 problems\)/);
  });
});

describe('general flow documents that are refused', () => {
  const question = (id: string) => ({ kind: 'question', id, prompt: `${id}?`, answer: { type: 'category', categories: ['Yes', 'No'] } });
  const end = { kind: 'terminal', id: 'end', outcome: 'completed' };
  const doc = (nodes: unknown[], edges: unknown[]) => JSON.stringify({ id: 'general', version: '2', nodes, edges }, null, 2);

  it('an edge to a missing node', () => {
    // Misspelt: the node it meant is named, and not reported unreachable as well.
    const text = doc([question('a'), end], [{ from: 'a', to: 'ned', on: 'answered' }]);
    expectOneProblem(text, { pointer: '/edges/0/to', ...at(text, '"to"'), message: /^no node has the id "ned" \(did you mean "end"\?\)$/ });
  });

  it('a duplicate node id', () => {
    const text = doc([question('a'), question('a'), end], [{ from: 'a', to: 'end', on: 'answered' }]);
    expectOneProblem(text, { pointer: '/nodes/1/id', ...at(text, '"id": "a"', 2), message: /duplicate node id "a"/ });
  });

  it('an unreachable node', () => {
    const text = doc([question('a'), question('b'), end], [
      { from: 'a', to: 'end', on: 'answered' },
      { from: 'b', to: 'end', on: 'answered' },
    ]);
    // The node is reported where it starts: the "{" before its "kind".
    const kind = at(text, '"kind": "question"', 2);
    expectOneProblem(text, { pointer: '/nodes/1', line: kind.line - 1, column: 5, message: /^node "b" is unreachable: no edge leads to it from the start "a"$/ });
  });

  it('a loop of answered edges', () => {
    const text = doc([question('a'), question('b')], [
      { from: 'a', to: 'b', on: 'answered' },
      { from: 'b', to: 'a', on: 'answered' },
    ]);
    expectOneProblem(text, { pointer: '/edges', ...at(text, '"edges"'), message: /loop on "answered".*a → b → a/ });
  });

  it('a limiting value that is not a category (general form)', () => {
    const q = { ...question('a'), limitingValues: ['Perhaps'] };
    const text = doc([q, end, { kind: 'terminal', id: 'stop', outcome: 'stopped' }], [
      { from: 'a', to: 'end', on: 'answered' },
      { from: 'a', to: 'stop', on: 'limiting' },
    ]);
    expectOneProblem(text, { pointer: '/nodes/0/limitingValues/0', ...at(text, '"Perhaps"'), message: /not one of the categories/ });
  });

  it('a valid general document is accepted as written', () => {
    const text = doc([question('a'), end], [{ from: 'a', to: 'end' }]);
    const parsed = parseFlowText(text, SOURCE);
    expect(parsed).toMatchObject({ id: 'general', version: '2', nodes: [{ id: 'a' }, { id: 'end' }], edges: [{ from: 'a', to: 'end' }] });
  });
});

describe('the general form', () => {
  it('a valid gate config converts to nodes and edges', () => {
    const flow = parseFlowText(seedFlowText(), 'seed-gates.json');
    expect(flow).toEqual({
      id: 'seed-gates',
      version: 1,
      title: 'Seed intake',
      start: GATE_1,
      // A gate that cannot read its answers (buttons offered alone, then one more failure) ends the intake here.
      fallback: 'unreadable',
      nodes: [
        {
          kind: 'question',
          id: GATE_1,
          prompt: GATE_1_QUESTION,
          answer: { type: 'category', categories: ['Yes', 'No'] },
          limitingValues: ['No'],
          stopMessage: GATE_1_STOP,
        },
        { kind: 'question', id: GATE_2, prompt: GATE_2_QUESTION, answer: { type: 'category', categories: ['Yes', 'No', 'Partial'] } },
        { kind: 'confirmation', id: 'confirmation', confirmLabel: 'Looks Good', editLabel: 'Edit Answers' },
        { kind: 'terminal', id: 'handoff', outcome: 'handoff' },
        { kind: 'terminal', id: 'stopped', outcome: 'stopped' },
        { kind: 'terminal', id: 'unreadable', label: 'Answers unreadable', outcome: 'stopped', message: 'I could not read the answers; a member of staff will follow up.' },
      ],
      edges: [
        { from: GATE_1, to: GATE_2, on: 'answered' },
        { from: GATE_1, to: 'stopped', on: 'limiting' },
        { from: GATE_2, to: 'confirmation', on: 'answered' },
        { from: 'confirmation', to: 'handoff', on: 'confirmed' },
        { from: 'confirmation', to: GATE_1, on: 'edit' },
      ],
    });
  });

  it('a gate config with no limiting values gets no stop terminal', () => {
    const c = config();
    delete c.gates[GATE_1]!.limiting_values;
    delete c.gates[GATE_1]!.stop_message;
    const flow = parseFlowText(seedFlowText(c), 'seed-gates.json');
    expect(flow.nodes.map((n) => n.id)).toEqual([GATE_1, GATE_2, 'confirmation', 'handoff', 'unreadable']);
    expect(flow.edges.some((e) => e.on === 'limiting')).toBe(false);
  });

  it('flowDocumentJsonSchema() is a JSON Schema object requiring id, version, nodes and edges', () => {
    const schema = flowDocumentJsonSchema() as {
      $schema?: string;
      type?: string;
      required?: string[];
      properties?: Record<string, { type?: string }>;
    };
    expect(schema.$schema).toMatch(/json-schema\.org/);
    expect(schema.type).toBe('object');
    expect([...(schema.required ?? [])].sort()).toEqual(['edges', 'id', 'nodes', 'version']);
    expect(schema.properties?.nodes?.type).toBe('array');
    expect(schema.properties?.edges?.type).toBe('array');
    // A JSON value: it survives a round trip.
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });
});

describe('synonym lists', () => {
  it('refuses two lists for one category whose keys differ only in case', () => {
    const config = JSON.parse(seedFlowText()) as { gates: Record<string, { synonyms?: Record<string, string[]> }> };
    config.gates[GATE_2]!.synonyms = { Partial: ['one gap'], partial: ['a gap'] };
    const { problems } = refusal(JSON.stringify(config, null, 2));
    expect(problems.map((p) => [p.pointer, p.message])).toEqual([
      [`/gates/${GATE_2}/synonyms/partial`, 'synonyms for "partial" are given twice (keys differ only in case)'],
    ]);
  });
});
