import type { Writable } from 'node:stream';
import type { FlowDocument } from '../flow/index.js';
import { evaluateMatcher, parseEvalCases, type EvalFigures, type EvalReport } from '../testing/evaluate-matcher.js';

const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

function line(name: string, f: EvalFigures): string {
  return [
    name.padEnd(30),
    String(f.cases).padStart(5),
    String(f.commits).padStart(7),
    String(f.wrongCommits).padStart(6),
    String(f.abstentions).padStart(9),
    percent(f.wrongCommitRate).padStart(10),
    percent(f.coverage).padStart(9),
  ].join(' ');
}

export function formatEvalReport(report: EvalReport): string {
  const out = [
    `offline matcher on flow "${report.flowId}"`,
    '',
    `${'gate'.padEnd(30)} ${'cases'.padStart(5)} ${'commits'.padStart(7)} ${'wrong'.padStart(6)} ${'abstained'.padStart(9)} ${'wrong rate'.padStart(10)} ${'coverage'.padStart(9)}`,
    ...Object.entries(report.perGate).map(([gate, f]) => line(gate, f)),
    line('overall', report),
    '',
    'wrong rate: wrong commits / commits; coverage: correct answers / cases with a definite expected answer',
    '',
    `failures (${report.failures.length}):`,
    ...report.failures.map(
      (r) => `  ${r.value === 'unknown' ? 'missed' : 'WRONG '} ${r.gate}: ${JSON.stringify(r.text)} → ${r.value}, expected ${JSON.stringify(r.expected)}`,
    ),
  ];
  return out.join('\n');
}

/** `gateflow eval <flow> <cases.jsonl> [--json]`. */
export function runEval(flow: FlowDocument, casesText: string, casesPath: string, json: boolean, output: Writable): number {
  const report = evaluateMatcher(flow, parseEvalCases(casesText, flow, casesPath));
  if (json) {
    const { failures: _failures, ...figures } = report;
    output.write(`${JSON.stringify(figures)}\n`);
  } else output.write(`${formatEvalReport(report)}\n`);
  return 0;
}
