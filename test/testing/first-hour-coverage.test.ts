import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFlowValue } from '../../src/flow/parse.js';
import { flowCoverageReport } from '../../src/testing/coverage-report.js';

/**
 * `gateflow test` passes a valid flow: what coverage counts are the
 * transitions an author (or a person in the conversation) can reach, not
 * those the compiler makes that nothing can take.
 */

const fixture = (name: string) => parseFlowValue(JSON.parse(readFileSync(new URL(`../fixtures/flows/${name}`, import.meta.url), 'utf8')));

const withInputs = (inputs: unknown[], guard: string) => {
  const doc = JSON.parse(readFileSync(new URL('../fixtures/flows/appointment-minimal.json', import.meta.url), 'utf8'));
  doc.nodes[4].inputs = inputs;
  doc.edges[5].guard = guard;
  return parseFlowValue(doc);
};

describe('coverage of a minimal appointment flow', () => {
  it('reaches every state and transition of the minimal appointment flow', async () => {
    const report = await flowCoverageReport(fixture('appointment-minimal.json'));
    expect(report.unreached).toEqual([]);
    expect(report.transitions.covered).toBe(report.transitions.total);
    expect(report.states.covered).toBe(report.states.total);
  });

  it('tries every option of an enum input, so a guard on one option and "else" are both reached', async () => {
    const report = await flowCoverageReport(withInputs([{ name: 'answer', type: 'enum', options: ['yes', 'no', 'later'], description: 'Free?' }], "answers.answer == 'yes'"));
    expect(report.unreached).toEqual([]);
  });

  it('still counts the "answered, others still open" step of an input node with two inputs', async () => {
    const report = await flowCoverageReport(
      withInputs(
        [
          { name: 'approved', type: 'boolean' },
          { name: 'room', type: 'string' },
        ],
        'answers.approved',
      ),
    );
    expect(report.unreached).toEqual([]);
    // Two inputs: the first answer stays in `waiting`, a transition of its own that is counted.
    expect(report.transitions.total).toBeGreaterThan((await flowCoverageReport(fixture('appointment-minimal.json'))).transitions.total);
  });
});
