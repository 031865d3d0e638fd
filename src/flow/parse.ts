import { findNodeAtLocation, parseTree, printParseErrorCode, visit, type Node, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import { checkFlow, flowErrors, type FlowIssue } from './check.js';
import { FlowDocumentError, toPointer, type FlowDocumentProblem } from './errors.js';
import { GateConfigSchema, checkGateConfig, gateConfigToFlow, isGateConfig } from './gate-config.js';
import { ChecklistSchema, checkChecklist, checklistToFlow, draftIrToFlow, isChecklist, isDraftIr } from './convert.js';
import { flowIssueWording } from './issue-wording.js';
import { salvageGateConfig } from './gate-config-salvage.js';
import { salvageFlow } from './salvage.js';
import { FlowDocumentSchema, type FlowDocument } from './schema.js';

/** Schema problems say which field and what to write there (issue-wording.ts). */
const WORDING = { error: flowIssueWording };

/** The largest document we read; flows are hand-written and small. */
export const MAX_FLOW_TEXT_BYTES = 1_000_000;

/**
 * Parses and checks a flow document or a gate config (recognized by its
 * `gate_order`) from JSON text. Problems carry the JSON Pointer and the line and
 * column in `text`; any problem throws a {@link FlowDocumentError}.
 */
export function parseFlowText(text: string, source = 'flow'): FlowDocument {
  const { value, locate } = readJson(text, source);
  return parseFlowValue(value, source, locate);
}

/**
 * Everything `gateflow validate` reports: the errors that refuse the
 * document and the warnings that do not (dead ends, loops that may run with
 * no question, subgraphs never called), each with its place in the text.
 */
export function lintFlowText(text: string, source = 'flow'): { flow: FlowDocument | null; problems: FlowDocumentProblem[] } {
  const refused = (error: unknown) => {
    if (error instanceof FlowDocumentError) return { flow: null, problems: error.problems };
    throw error;
  };
  let json: ReturnType<typeof readJson>;
  try {
    json = readJson(text, source);
  } catch (error) {
    return refused(error);
  }
  const { value, locate } = json;
  const isWarning = (i: FlowIssue) => i.severity === 'warning';

  // A gate config with shape errors: those, then what its checks find in the rest (the refused pieces left out), so that one run shows all.
  if (isGateConfig(value)) {
    const parsed = GateConfigSchema.safeParse(value, WORDING);
    if (!parsed.success) {
      const salvaged = salvageGateConfig(value, parsed.error.issues);
      const rest = salvaged ? checkGateConfig(salvaged.config).flatMap((i) => salvaged.restore(i) ?? []) : [];
      return { flow: null, problems: [...zodIssues(parsed.error), ...rest].map((i) => problemOf(i, locate)) };
    }
  }
  // A converted document (gate config, checklist, draft IR) has no text of its own to point into.
  if (isGateConfig(value) || isChecklist(value) || isDraftIr(value)) {
    try {
      const flow = parseFlowValue(value, source, locate);
      return { flow, problems: checkFlow(flow).filter(isWarning).map((i) => problemOf(i, () => ({}))) };
    } catch (error) {
      return refused(error);
    }
  }
  // A flow document is checked once: its errors (which refuse it) first, then its warnings.
  const parsed = FlowDocumentSchema.safeParse(value, WORDING);
  if (!parsed.success) {
    // Shape errors first; then what the checker finds in the rest (the refused pieces left out), so that one run shows all.
    const salvaged = salvageFlow(value, parsed.error.issues);
    const rest = salvaged ? checkFlow(salvaged.doc).flatMap((i) => salvaged.restore(i) ?? []) : [];
    return { flow: null, problems: [...zodIssues(parsed.error), ...flowErrors(rest), ...rest.filter(isWarning)].map((i) => problemOf(i, locate)) };
  }
  const issues = checkFlow(parsed.data);
  const errors = flowErrors(issues);
  return {
    flow: errors.length > 0 ? null : parsed.data,
    problems: [...errors, ...issues.filter(isWarning)].map((i) => problemOf(i, locate)),
  };
}

function problemOf(issue: FlowIssue, locate: (path: (string | number)[]) => { line?: number; column?: number }): FlowDocumentProblem {
  return {
    pointer: toPointer(issue.path),
    ...locate(issue.path),
    message: issue.message,
    ...(issue.severity !== undefined && { severity: issue.severity }),
    ...(issue.node !== undefined && { node: issue.node }),
    ...(issue.guard !== undefined && { guard: issue.guard }),
  };
}

/** JSON text to a value, refusing syntax errors and duplicate keys with their line and column. */
function readJson(text: string, source: string): { value: unknown; locate: (path: (string | number)[]) => { line?: number; column?: number } } {
  if (text.length > MAX_FLOW_TEXT_BYTES)
    throw new FlowDocumentError(source, [{ pointer: '', message: `document is larger than ${MAX_FLOW_TEXT_BYTES} bytes` }]);
  const locate = locator(text);

  const syntax: ParseError[] = [];
  const tree = parseTree(text, syntax, { disallowComments: true, allowTrailingComma: false });
  if (syntax.length > 0 || tree === undefined) {
    const problems = syntax.map((e) => ({
      pointer: '',
      ...locate.offset(e.offset),
      message: `JSON syntax error: ${describeSyntaxError(printParseErrorCode(e.error))}`,
    }));
    throw new FlowDocumentError(source, problems.length > 0 ? problems : [{ pointer: '', message: 'empty document' }]);
  }

  const duplicates = duplicateKeys(text).map(({ path, offset, key }) => ({
    pointer: toPointer(path),
    ...locate.offset(offset),
    message: `duplicate key "${key}" (JSON keeps only the last one)`,
  }));
  if (duplicates.length > 0) throw new FlowDocumentError(source, duplicates);

  return { value: JSON.parse(text) as unknown, locate: (path) => locate.path(tree, path) };
}

/**
 * Parses and checks an already-parsed document (a flow document or a gate
 * config). `locate` may map a path to a line and column for messages.
 */
export function parseFlowValue(
  value: unknown,
  source = 'flow',
  locate: (path: (string | number)[]) => { line?: number; column?: number } = () => ({}),
): FlowDocument {
  const refuse = (issues: FlowIssue[], at = locate): never => {
    throw new FlowDocumentError(source, issues.map((issue) => problemOf(issue, at)));
  };

  // Older formats are upgraded first; their own checks point into what the author wrote.
  if (isChecklist(value)) {
    const parsed = ChecklistSchema.safeParse(value, WORDING);
    if (!parsed.success) return refuse(zodIssues(parsed.error));
    const issues = checkChecklist(parsed.data);
    if (issues.length > 0) return refuse(issues);
    return parseConverted(checklistToFlow(parsed.data), 'converted checklist', source);
  }
  if (isDraftIr(value)) return parseConverted(draftIrToFlow(value as Record<string, unknown>), 'upgraded draft IR', source);

  if (isGateConfig(value)) {
    const parsed = GateConfigSchema.safeParse(value, WORDING);
    if (!parsed.success) return refuse(zodIssues(parsed.error));
    const issues = checkGateConfig(parsed.data);
    if (issues.length > 0) return refuse(issues);
    return parseConverted(gateConfigToFlow(parsed.data), 'converted flow', source);
  }

  const parsed = FlowDocumentSchema.safeParse(value, WORDING);
  if (!parsed.success) return refuse(zodIssues(parsed.error));
  const issues = flowErrors(checkFlow(parsed.data));
  if (issues.length > 0) return refuse(issues);
  return parsed.data;
}

/**
 * Checks a document produced by a converter. Its problems are named by their
 * place in the converted document (the author never wrote it: no line).
 */
function parseConverted(doc: unknown, what: string, source: string): FlowDocument {
  const parsed = FlowDocumentSchema.safeParse(doc, WORDING);
  const issues = parsed.success ? flowErrors(checkFlow(parsed.data)) : zodIssues(parsed.error);
  if (issues.length > 0 || !parsed.success)
    throw new FlowDocumentError(
      source,
      issues.map((i) => ({ pointer: '', message: `${what}: ${toPointer(i.path)}: ${i.message}`, ...(i.node !== undefined && { node: i.node }) })),
    );
  return parsed.data;
}

function zodIssues(error: z.ZodError): FlowIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    message: issue.message,
  }));
}

function describeSyntaxError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** Object keys that appear twice in one object: JSON.parse would drop all but the last. */
function duplicateKeys(text: string): { path: (string | number)[]; key: string; offset: number }[] {
  const found: { path: (string | number)[]; key: string; offset: number }[] = [];
  const open: Set<string>[] = [];
  visit(text, {
    onObjectBegin: () => {
      open.push(new Set());
    },
    onObjectEnd: () => {
      open.pop();
    },
    onObjectProperty: (key, offset, _length, _line, _column, pathSupplier) => {
      const keys = open[open.length - 1];
      if (!keys) return;
      if (keys.has(key)) found.push({ path: [...pathSupplier(), key], key, offset });
      keys.add(key);
    },
  });
  return found;
}

/** Maps offsets and paths in `text` to 1-based lines and columns. */
function locator(text: string) {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const offset = (at: number): Pick<FlowDocumentProblem, 'line' | 'column'> => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: at - lineStarts[lo]! + 1 };
  };
  const path = (root: Node, at: (string | number)[]) => {
    // The nearest node that exists: a missing field is reported at its parent.
    for (let depth = at.length; depth >= 0; depth--) {
      const node = findNodeAtLocation(root, at.slice(0, depth));
      if (node) return offset(node.parent?.type === 'property' ? node.parent.offset : node.offset);
    }
    return {};
  };
  return { offset, path };
}
