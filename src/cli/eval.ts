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

const header = (first: string) =>
  `${first.padEnd(30)} ${'cases'.padStart(5)} ${'commits'.padStart(7)} ${'wrong'.padStart(6)} ${'abstained'.padStart(9)} ${'wrong rate'.padStart(10)} ${'coverage'.padStart(9)}`;

export function formatEvalReport(report: EvalReport): string {
  const classes = Object.keys(report.perClass);
  const out = [
    `offline readers on flow "${report.flowId}"`,
    '',
    header('gate'),
    ...Object.entries(report.perGate).map(([gate, f]) => line(gate, f)),
    line('overall', report),
    // Cases with no class are all one class: the table would repeat the overall row.
    ...(classes.length > 1 || (classes.length === 1 && classes[0] !== 'unclassed')
      ? ['', header('class'), ...Object.entries(report.perClass).sort(([a], [b]) => a.localeCompare(b)).map(([name, f]) => line(name, f))]
      : []),
    '',
    'wrong: messages that committed a value not accepted, here or at another question; coverage: correct answers / cases with a definite expected answer',
    '',
    `failures (${report.failures.length}):`,
    ...report.failures.map((r) => {
      const wrongHere = r.value !== 'unknown' && ![r.expected].flat().some((e) => e === r.value);
      const elsewhere = r.wrongOthers.map((k) => `${k} = ${JSON.stringify(r.others[k])}`).join(', ');
      const kind = wrongHere || elsewhere ? 'WRONG ' : 'missed';
      return `  ${kind} [${r.class}] ${r.gate}: ${JSON.stringify(r.text)} → ${JSON.stringify(r.value)}, expected ${JSON.stringify(r.expected)}${elsewhere ? `; also committed ${elsewhere}` : ''}`;
    }),
  ];
  return out.join('\n');
}

/** `gateflow eval <flow> <cases.jsonl> [--json] [--today YYYY-MM-DD]`. */
export function runEval(flow: FlowDocument, casesText: string, casesPath: string, json: boolean, output: Writable, today: Date = new Date()): number {
  const report = evaluateMatcher(flow, parseEvalCases(casesText, flow, casesPath), today);
  if (json) {
    const { failures: _failures, ...figures } = report;
    output.write(`${JSON.stringify(figures)}\n`);
  } else output.write(`${formatEvalReport(report)}\n`);
  return 0;
}
