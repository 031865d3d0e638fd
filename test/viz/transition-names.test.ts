import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chatSessionMachine } from '../../machines/chat-session.js';
import { documentAgentMachine } from '../../machines/document-agent.js';
import { pathSelectionMachine } from '../../machines/path-selection.js';
import { taskAgentMachine } from '../../machines/task-agent.js';
import { compileFlow, parseFlowText } from '../../src/flow/index.js';
import { machineStateNodes, machineTransitions } from '../../src/testing/machine-paths.js';
import { machineDrawing } from '../../src/viz/index.js';

/**
 * The drawing names states and transitions as coverage reports them, so that
 * the viewer can mark what no generated path took.
 */
const flowsDir = new URL('../../machines/flows/', import.meta.url);
const machines = [
  ...readdirSync(flowsDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => compileFlow(parseFlowText(readFileSync(new URL(f, flowsDir), 'utf8'), f))),
  taskAgentMachine,
  documentAgentMachine,
  pathSelectionMachine,
  chatSessionMachine,
];

describe('drawing ids are the names coverage uses', () => {
  it.each(machines.map((m) => [m.id, m] as const))('%s', (_id, machine) => {
    const drawing = machineDrawing(machine);
    expect(new Set(drawing.transitions.map((t) => t.id))).toEqual(new Set(machineTransitions(machine).values()));
    expect(drawing.states.map((s) => s.id)).toEqual(machineStateNodes(machine).map((n) => n.id));
  });
});
