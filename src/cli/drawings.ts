import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chatSessionMachine } from '../../machines/chat-session.js';
import { pathSelectionMachine } from '../../machines/path-selection.js';
import { documentAgentWorkflow } from '../document-agent/workflow.js';
import type { FlowDocument } from '../flow/schema.js';
import { createGraphToolRegistry } from '../graph/tools/graph-tools.js';
import { bundledLayoutLookup, type BundledLayoutLookup } from '../server/bundled-layouts.js';
import type { CoverageProvider } from '../server/drawings.js';
import { taskAgentWorkflow } from '../task-agent/workflow.js';
import { standaloneMachineDrawing, workflowDrawing, type WorkflowDrawing } from '../viz/drawing.js';
import { BUNDLED_LAYOUTS_FILE, readWorkflow } from './io.js';

/** The hand-written machines drawn beside the workflows: they run inside others (a flow's path choice, the widget's chat). */
export const DRAWN_MACHINES = [
  { machine: pathSelectionMachine, title: 'Path selection with hysteresis (inside flows with paths)' },
  { machine: chatSessionMachine, title: "The chat widget's session (React, @xstate/react)" },
];

/** The agents as workflows, for drawing only: no database, no model (drawing runs nothing). */
const drawnAgents = () => [taskAgentWorkflow({ registry: createGraphToolRegistry() }), documentAgentWorkflow()];

/**
 * The drawing `gateflow viz` prints: a flow document (a path or an example's
 * name), a module whose default export is a workflow, an agent
 * (`task-agent`, `document-agent`) or a hand-written machine (`pathSelection`,
 * `chatSession`).
 */
export async function readDrawing(arg: string): Promise<WorkflowDrawing> {
  const agent = drawnAgents().find((w) => w.id === arg);
  if (agent) return workflowDrawing(agent);
  const drawn = DRAWN_MACHINES.find(({ machine }) => machine.id === arg);
  if (drawn) return standaloneMachineDrawing(drawn.machine, drawn.title);
  return workflowDrawing(await readWorkflow(arg));
}


/** How long one coverage run may take before it is stopped. */
const COVERAGE_TIMEOUT_MS = 10 * 60_000;

/**
 * Coverage of the served flows, measured by `gateflow test <flow> --json` in
 * a child process: generating and replaying thousands of paths takes seconds
 * of CPU (led-sales: ~20 s), which would stall every request of the server
 * if it ran on the server's own thread.
 */
export function childProcessCoverage(flows: readonly FlowDocument[]): CoverageProvider {
  return (workflowId) => {
    const doc = flows.find((f) => f.id === workflowId);
    return doc ? coverageInChild(doc) : null;
  };
}

async function coverageInChild(doc: FlowDocument): Promise<object> {
  const dir = await mkdtemp(join(tmpdir(), 'gateflow-coverage-'));
  try {
    const file = join(dir, 'flow.json');
    await writeFile(file, JSON.stringify(doc));
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [...cliEntry(), 'test', file, '--json'], { maxBuffer: 64 * 1024 * 1024, timeout: COVERAGE_TIMEOUT_MS }, (error, out, err) => {
        // Exit 1 is a report under 100%: still a report.
        if (error && error.code !== 1) reject(new Error(`gateflow test ${doc.id} failed: ${err.trim().split('\n').at(-1) ?? error.message}`));
        else resolve(out);
      });
    });
    return JSON.parse(stdout) as object;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** How to run this CLI again: the built `main.js`, or `main.ts` through tsx when running from source. */
function cliEntry(): string[] {
  const self = fileURLToPath(import.meta.url);
  // tsx by its own address: the child may start in any directory.
  return self.endsWith('.ts') ? ['--import', import.meta.resolve('tsx'), join(self, '..', 'main.ts')] : [join(self, '..', 'main.js')];
}

/**
 * The example flows' layouts made at build time, or undefined (with the reason
 * told) when the file is missing or unreadable: the server then lays them out.
 */
export function bundledLayouts(warn: (line: string) => void, file = BUNDLED_LAYOUTS_FILE): BundledLayoutLookup | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return bundledLayoutLookup(JSON.parse(text));
  } catch (error) {
    warn(`gateflow: the bundled layouts in ${file} were not read (${(error as Error).message}); drawings are laid out as asked`);
    return undefined;
  }
}
