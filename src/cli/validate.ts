import type { Writable } from 'node:stream';
import { formatProblem, lintFlowText, type FlowDocumentProblem } from '../flow/index.js';

/** What `gateflow validate --json` prints. */
export interface ValidationReport {
  file: string;
  ok: boolean;
  flow: { id: string; version: string | number; nodes: number; questions: number } | null;
  errors: FlowDocumentProblem[];
  warnings: FlowDocumentProblem[];
}

export function validationReport(text: string, file: string): ValidationReport {
  const { flow, problems } = lintFlowText(text, file);
  const errors = problems.filter((p) => (p.severity ?? 'error') === 'error');
  const warnings = problems.filter((p) => p.severity === 'warning');
  const all = flow ? [...flow.nodes, ...Object.values(flow.subgraphs ?? {}).flatMap((s) => s.nodes)] : [];
  return {
    file,
    ok: errors.length === 0,
    flow: flow && { id: flow.id, version: flow.version, nodes: all.length, questions: all.filter((n) => n.kind === 'question').length },
    errors,
    warnings,
  };
}

/**
 * `gateflow validate <flow> [--json]`: every error and warning, with the
 * line, the JSON Pointer, the node and (for a guard) the character position.
 * Exit code 1 when there is an error.
 */
export function runValidate(text: string, file: string, json: boolean, out: Writable): number {
  const report = validationReport(text, file);
  if (json) out.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    for (const p of report.errors) out.write(`error   ${formatProblem(file, p)}\n${pointAt(p)}`);
    for (const p of report.warnings) out.write(`warning ${formatProblem(file, p)}\n${pointAt(p)}`);
    const counts = `${report.errors.length} error${report.errors.length === 1 ? '' : 's'}, ${report.warnings.length} warning${report.warnings.length === 1 ? '' : 's'}`;
    out.write(
      report.flow
        ? `${file}: ok (flow ${report.flow.id}@${report.flow.version}, ${report.flow.nodes} nodes, ${report.flow.questions} questions; ${counts})\n`
        : `${file}: invalid (${counts})\n`,
    );
  }
  return report.ok ? 0 : 1;
}

/** Under a problem in a guard: the guard, and a caret under the character the problem is at. */
function pointAt(problem: FlowDocumentProblem): string {
  const { guard } = problem;
  if (!guard || guard.position === undefined || guard.source.includes('\n')) return '';
  return `        ${guard.source}\n        ${' '.repeat(guard.position)}^\n`;
}
