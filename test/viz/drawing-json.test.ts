import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chatSessionMachine } from '../../machines/chat-session.js';
import { pathSelectionMachine } from '../../machines/path-selection.js';
import { documentAgentWorkflow } from '../../src/document-agent/workflow.js';
import { flowWorkflow } from '../../src/flow/workflow.js';
import { createGraphToolRegistry } from '../../src/graph/tools/graph-tools.js';
import { taskAgentWorkflow } from '../../src/task-agent/workflow.js';
import { DRAWING_FORMAT, standaloneMachineDrawing, workflowDrawing, type WorkflowDrawing } from '../../src/viz/drawing.js';
import { example } from '../flow/helpers.js';

/**
 * The drawing JSON that `gateflow viz --format json` prints and the viewer
 * reads, for every example flow and every hand-written machine, kept as
 * snapshots: a change to the outline or the machine drawing shows up here as
 * a diff to review.
 */

const EXAMPLES = readdirSync(fileURLToPath(new URL('../../machines/flows/', import.meta.url)))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .sort();

const json = (d: WorkflowDrawing) => `${JSON.stringify(d, null, 2)}\n`;

/** Plain JSON: nothing a JSON round trip drops or changes (functions, undefined, class instances). */
function expectPlainJson(d: WorkflowDrawing): void {
  expect(JSON.parse(JSON.stringify(d))).toStrictEqual(d);
}

describe('drawing JSON of every example flow', () => {
  it.each(EXAMPLES)('%s', async (name) => {
    const d = workflowDrawing(flowWorkflow(example(name)));
    expect(d).toMatchObject({ format: DRAWING_FORMAT, id: name, kind: 'workflow' });
    expect(d.outline?.nodes.length).toBeGreaterThan(0);
    expectPlainJson(d);
    await expect(json(d)).toMatchFileSnapshot(`./__snapshots__/${name}.drawing.json`);
  });
});

describe('drawing JSON of the hand-written machines', () => {
  const machines: [string, () => WorkflowDrawing][] = [
    ['pathSelection', () => standaloneMachineDrawing(pathSelectionMachine, 'Path selection')],
    ['chatSession', () => standaloneMachineDrawing(chatSessionMachine, 'Chat session')],
    // The registry is read only when a step's writes are saved: drawing needs no database.
    ['task-agent', () => workflowDrawing(taskAgentWorkflow({ registry: createGraphToolRegistry() }))],
    ['document-agent', () => workflowDrawing(documentAgentWorkflow())],
  ];

  it.each(machines)('%s', async (id, draw) => {
    const d = draw();
    expect(d).toMatchObject({ format: DRAWING_FORMAT, id, outline: null });
    expect(d.machine.states.length).toBeGreaterThan(1);
    expectPlainJson(d);
    await expect(json(d)).toMatchFileSnapshot(`./__snapshots__/${id}.drawing.json`);
  });
});
