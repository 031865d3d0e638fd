/**
 * Prints the model-based coverage of every flow in machines/flows, one line
 * per flow, then every state or transition no path took:
 *
 *   npx tsx test/flow/model-based.coverage.ts
 *
 * Exits with 1 when a flow misses anything (see UNREACHABLE in
 * model-based.test.ts for the transitions the compiler makes unreachable).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseFlowText } from '../../src/flow/index.js';
import { generateFlowPaths, replayFlowPaths, type CoverageFigure, type FlowCoverage } from '../../src/testing/model-based.js';

const flowsDir = fileURLToPath(new URL('../../machines/flows/', import.meta.url));
const cell = (f: CoverageFigure) => `${f.covered}/${f.total} (${f.percent}%)`;
const row = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(18) : c.padStart(i < 3 ? 6 : 16))).join('  ');

const rows: FlowCoverage[] = [];
for (const file of readdirSync(flowsDir).filter((f) => f.endsWith('.json')).sort()) {
  const flow = parseFlowText(readFileSync(flowsDir + file, 'utf8'), file);
  rows.push(await replayFlowPaths(flow, generateFlowPaths(flow)));
}

console.log(row(['flow', 'paths', 'steps', 'states', 'transitions']));
for (const c of rows) console.log(row([c.flowId, String(c.paths), String(c.steps), cell(c.states), cell(c.transitions)]));
const missing = rows.flatMap((c) => [...c.states.missing, ...c.transitions.missing].map((m) => `${c.flowId}: not taken: ${m}`));
if (missing.length > 0) console.log(`\n${missing.join('\n')}`);
process.exitCode = missing.length > 0 ? 1 : 0;
