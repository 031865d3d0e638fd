import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { initialTransition, type StateValue } from 'xstate';
import { compileFlow, type FlowDocument } from '../flow/index.js';
import { flowCoverageRun, type CoverageProgress, type CoverageReport } from '../testing/coverage-report.js';
import { describeEvent, MODEL_TODAY, type CoverageFigure, type FlowTestPath } from '../testing/model-based.js';
import { CliError } from './io.js';

/**
 * `gateflow test <flow> [--out DIR] [--min PERCENT] [--json]`: the
 * model-based coverage of any flow (src/testing/coverage-report.ts), what no
 * generated path reaches and why, and the paths written as scripts people
 * can read and replay.
 */

export interface TestFlowOptions {
  json: boolean;
  /** Where to write one script per path. */
  out?: string | undefined;
  /** The least percentage of states and of transitions that passes (all of them when absent). */
  min?: number | undefined;
  /** Where progress goes (a terminal's stderr); nothing is said when absent. */
  progress?: Writable | undefined;
}

/** `--min`: a percentage from 0 to 100; anything else is a usage error. */
export function parseMin(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const min = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(min) || min < 0 || min > 100) throw new CliError(`gateflow test: --min must be a percentage from 0 to 100, not "${text}"`, 2);
  return min;
}

/** Scripts a previous run wrote (`0001-....txt`): replaced by this run's, so the directory holds one run. */
const SCRIPT_FILE = /^\d{3,}-[\w.-]*\.txt$/;

/** Makes `--out DIR` ready before the paths are generated: a file there is refused. */
export function prepareOutDir(dir: string): void {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new CliError(`gateflow test: --out ${dir} is a file, not a directory`, 2);
  try {
    mkdirSync(dir, { recursive: true });
    for (const file of readdirSync(dir)) if (SCRIPT_FILE.test(file)) rmSync(join(dir, file));
  } catch (error) {
    throw new CliError(`gateflow test: cannot write to ${dir}: ${(error as Error).message}`);
  }
}

/** Whether the coverage passes: everything, or at least `min` percent of states and of transitions. */
export function passes(report: Pick<CoverageReport, 'states' | 'transitions'>, min: number | undefined): boolean {
  const ok = (f: CoverageFigure) => (min === undefined ? f.covered === f.total : f.total === 0 || (f.covered / f.total) * 100 >= min);
  return ok(report.states) && ok(report.transitions);
}

const figureText = (f: CoverageFigure) => `${f.covered}/${f.total} (${f.percent}%)`;

/** The report as `gateflow test` prints it. */
export function formatCoverageReport(report: CoverageReport, title?: string): string {
  const lines = [
    `flow ${report.flowId}@${report.version}${title ? ` (${title})` : ''}`,
    `paths ${report.paths}, steps ${report.steps}`,
    `states       ${figureText(report.states)}`,
    `transitions  ${figureText(report.transitions)}`,
  ];
  if (report.unreached.length > 0) lines.push('not reached:', ...report.unreached.map((u) => `  ${u.kind} ${u.id}: ${u.reason}`));
  if (report.warnings.length > 0) lines.push('checker warnings:', ...report.warnings.map((w) => `  ${w}`));
  return lines.join('\n');
}

/** The ids of the innermost states a state value makes active: `flow.node.asking`. */
export function leafIds(machineId: string, value: StateValue): string[] {
  if (typeof value === 'string') return [`${machineId}.${value}`];
  return Object.entries(value).flatMap(([key, child]) => (child === undefined || (typeof child === 'object' && Object.keys(child).length === 0) ? [`${machineId}.${key}`] : leafIds(`${machineId}.${key}`, child as StateValue)));
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '') || 'path';

/** The file name of path `index` (from 0) of `total`: its number, then its last step and where it ends. */
export function scriptName(path: FlowTestPath, index: number, total: number): string {
  const last = path.events.length - 1;
  const end = path.expected[last];
  const where = end === undefined ? '' : leafIds('', end).map((id) => id.slice(1)).join(' ');
  const number = String(index + 1).padStart(Math.max(3, String(total).length), '0');
  return `${number}-${slug(`${last >= 0 ? describeEvent(path.events[last]!) : ''} ${where}`)}.txt`;
}

/**
 * One path as a script: a heading (the flow, which path, where it starts),
 * then one line per step, the event as a person reads it and the state it
 * leads to: `> text "yes"  → led-sales.led.venue.asking`.
 */
export function pathScript(report: Pick<CoverageReport, 'flowId' | 'version'>, path: FlowTestPath, index: number, total: number, start: StateValue): string {
  const steps = path.events.length;
  return [
    `# ${report.flowId}@${report.version}, path ${index + 1} of ${total} (${steps} step${steps === 1 ? '' : 's'}), from ${leafIds(report.flowId, start).join(', ')}`,
    ...path.events.map((event, i) => `> ${describeEvent(event)}  → ${leafIds(report.flowId, path.expected[i]!).join(', ')}`),
    '',
  ].join('\n');
}

/** Progress on one line of a terminal, rewritten in place; cleared at the end. */
function progressLine(out: Writable): { report: (p: CoverageProgress) => void; clear: () => void } {
  let shown = false;
  return {
    report: (p) => {
      shown = true;
      out.write(`\r\x1b[Kgateflow test: ${p.phase === 'generating' ? 'generating paths...' : `replaying paths ${p.done}/${p.total}`}`);
    },
    clear: () => {
      if (shown) out.write('\r\x1b[K');
    },
  };
}

/** Runs the command; returns the exit code (0: passes, 1: under 100% or under `--min`). */
export async function runTestFlow(flow: FlowDocument, options: TestFlowOptions, out: Writable): Promise<number> {
  if (options.out !== undefined) prepareOutDir(options.out);
  const progress = options.progress && progressLine(options.progress);
  let run: Awaited<ReturnType<typeof flowCoverageRun>>;
  try {
    run = await flowCoverageRun(flow, progress ? { onProgress: progress.report } : {});
  } finally {
    progress?.clear();
  }
  const { report, paths } = run;

  let scripts: { file: string; path: FlowTestPath }[] = [];
  if (options.out !== undefined) {
    const [initial] = initialTransition(compileFlow(flow, { today: () => MODEL_TODAY }));
    const start = (initial as { value: StateValue }).value;
    scripts = paths.map((path, i) => ({ file: scriptName(path, i, paths.length), path }));
    for (const [i, { file, path }] of scripts.entries()) writeFileSync(join(options.out, file), pathScript(report, path, i, paths.length, start));
  }

  const ok = passes(report, options.min);
  if (options.json) {
    const generated = scripts.map(({ file, path }) => ({ file, description: path.description, events: path.events, expected: path.expected }));
    out.write(`${JSON.stringify(options.out !== undefined ? { ...report, out: options.out, generated } : report)}\n`);
    return ok ? 0 : 1;
  }
  const lines = [formatCoverageReport(report, flow.title)];
  if (options.out !== undefined) lines.push(`wrote ${scripts.length} script${scripts.length === 1 ? '' : 's'} to ${options.out}`);
  if (!ok)
    lines.push(
      options.min === undefined
        ? 'FAIL: not every state and transition was reached'
        : `FAIL: under --min ${options.min}% (states ${report.states.percent}%, transitions ${report.transitions.percent}%)`,
    );
  out.write(`${lines.join('\n')}\n`);
  return ok ? 0 : 1;
}
