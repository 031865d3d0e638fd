import { GateflowError } from '../error/gateflow-error.js';

/** Where a problem is in a document and what it is. */
export interface FlowDocumentProblem {
  /** JSON Pointer into the document as written, e.g. `/gates/1_x/limiting_values/0`. */
  pointer: string;
  /** 1-based line and column in the source text, when the text is known. */
  line?: number;
  column?: number;
  message: string;
  /** `warning`s do not refuse a document (see `lintFlowText`); error when absent. */
  severity?: 'error' | 'warning';
  /** The node the problem is about. */
  node?: string;
  /** For a guard: its text and the 0-based character position of the problem in it. */
  guard?: { source: string; position?: number };
}

/** A flow document or gate config that was refused, with every problem found. */
export class FlowDocumentError extends GateflowError {
  override readonly name = 'FlowDocumentError';
  readonly code = 'invalid_flow';
  /** A refused document on a server is its operator's fault, not the caller's. */
  readonly status = 500;

  constructor(
    /** The file name (or another label) of the document. */
    readonly source: string,
    readonly problems: FlowDocumentProblem[],
  ) {
    super(
      `${source}: invalid flow document (${problems.length} problem${problems.length === 1 ? '' : 's'})\n` +
        problems.map((p) => `  ${formatProblem(source, p)}`).join('\n'),
    );
  }
}

export function formatProblem(source: string, problem: FlowDocumentProblem): string {
  const at = problem.line !== undefined ? `${source}:${problem.line}:${problem.column ?? 1}` : source;
  const node = problem.node !== undefined ? ` [node ${problem.node}]` : '';
  const guard = problem.guard ? ` in ${JSON.stringify(problem.guard.source)}` : '';
  return `${at} ${problem.pointer || '/'}${node}: ${problem.message}${guard}`;
}

/** A JSON Pointer (RFC 6901) for a path of keys and indexes. */
export function toPointer(path: readonly PropertyKey[]): string {
  return path.map((part) => '/' + String(part).replaceAll('~', '~0').replaceAll('/', '~1')).join('');
}
