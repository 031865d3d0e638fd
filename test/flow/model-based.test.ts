import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseFlowText } from '../../src/flow/index.js';
import { generateFlowPaths, replayFlowPaths, type FlowCoverage } from '../../src/testing/index.js';

const flowsDir = fileURLToPath(new URL('../../machines/flows/', import.meta.url));
const flowFiles = readdirSync(flowsDir).filter((f) => f.endsWith('.json')).sort();
const load = (file: string) => parseFlowText(readFileSync(flowsDir + file, 'utf8'), file);

function report(coverage: FlowCoverage): string {
  const { states, transitions } = coverage;
  return (
    `${coverage.flowId}: states ${states.covered}/${states.total} (${states.percent}%), ` +
    `transitions ${transitions.covered}/${transitions.total} (${transitions.percent}%), ` +
    `${coverage.paths} paths, ${coverage.steps} steps`
  );
}

describe('model-based paths (xstate/graph) over every flow in machines/flows', () => {
  it('finds the example flows', () => {
    expect(flowFiles).toContain('patient-intake.json');
  });

  it.each(flowFiles)('%s: paths reach every state and every transition', async (file) => {
    const flow = load(file);
    const paths = generateFlowPaths(flow);
    const coverage = await replayFlowPaths(flow, paths);
    console.log(report(coverage));
    expect(coverage.states.missing).toEqual([]);
    expect(coverage.transitions.missing).toEqual([]);
    expect(coverage.states.percent).toBe(100);
    expect(coverage.transitions.percent).toBe(100);
  });
});

describe('the coverage measure can fail', () => {
  const flow = load('patient-intake.json');
  const paths = generateFlowPaths(flow);

  it('reports what paths without any limiting value miss', async () => {
    const calm = paths.filter(
      (p) =>
        !p.events.some(
          (e) =>
            (e.type === 'user.button' && (e.value === 'No' || e.value === 'Emergency')) ||
            (e.type === 'user.text' && (e.text === 'No' || e.text === 'Emergency')) ||
            (e.type === 'xstate.done.actor.extract' && Object.values(e.output.values).some((v) => v.value === 'Emergency' || v.value === 'No')),
        ),
    );
    const coverage = await replayFlowPaths(flow, calm);
    expect(coverage.states.missing).toContain('patient-intake.stopped');
    expect(coverage.transitions.percent).toBeLessThan(100);
    expect(coverage.transitions.missing).toContain('patient-intake.1_patient_info_availability.asking on user.button #1');
  });

  it('refuses a path whose expected state the live actor does not reach', async () => {
    const [first] = paths;
    const wrong = { ...first!, expected: first!.expected.map(() => 'confirmation') };
    await expect(replayFlowPaths(flow, [wrong])).rejects.toThrow(/the graph said "confirmation"/);
  });
});
