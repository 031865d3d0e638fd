import { z } from 'zod';
import { extractOffline } from '../extract/offline.js';
import { compileValidators, readTypedAnswer } from '../flow/answer.js';
import type { AnswerValue } from '../flow/context.js';
import { elsewhereQuestions, offeredQuestions } from '../flow/extraction.js';
import { flowGraph } from '../flow/graph.js';
import { answerKey, type FlowDocument, type QuestionNode } from '../flow/schema.js';
import { closestName } from '../extract/suggest.js';

/** "unknown" as an expected answer: the reader must abstain. */
export const ABSTAIN = 'unknown';

const Expected = z.union([z.string().min(1), z.number().finite()]);

/**
 * One labeled message, typed at `gate` on a fresh session: `expected` is a
 * category or typed value, "unknown", or a list of acceptable outcomes;
 * `class` groups cases for the report; `others` are answers the message also
 * clearly gives to other questions (any other question given a value is a
 * wrong commit).
 */
export const EvalCaseSchema = z.strictObject({
  /** The flow's id (checked against the flow evaluated, when given). */
  flow: z.string().min(1).optional(),
  gate: z.string().min(1),
  text: z.string(),
  expected: z.union([Expected, z.array(Expected).min(1)]),
  class: z.string().min(1).max(60).optional(),
  others: z.record(z.string(), Expected).optional(),
});
export type EvalCase = z.infer<typeof EvalCaseSchema>;

export interface EvalResult {
  gate: string;
  text: string;
  expected: string | number | (string | number)[];
  class: string;
  /** The committed value, or "unknown" when the reader abstained. */
  value: AnswerValue;
  /** Values committed to other questions by the same message. */
  others: Record<string, AnswerValue>;
  /** Those of them that the case does not list with that value. */
  wrongOthers: string[];
  ok: boolean;
}

export interface EvalFigures {
  cases: number;
  /** Messages that committed a value to the question they were typed at. */
  commits: number;
  /** Commits not acceptable at the question, plus messages that committed a wrong (or unlisted) value to another question. */
  wrongCommits: number;
  abstentions: number;
  /** Wrong commits per commit. */
  wrongCommitRate: number;
  /** Cases whose expected answers do not include "unknown". */
  definite: number;
  /** Of the definite cases, the share answered correctly. */
  coverage: number;
}

export interface EvalReport extends EvalFigures {
  flowId: string;
  perGate: Record<string, EvalFigures>;
  perClass: Record<string, EvalFigures>;
  failures: EvalResult[];
  results: EvalResult[];
}

export class EvalCaseError extends Error {
  override readonly name = 'EvalCaseError';
}

/** Cases without a class are counted under this one. */
const NO_CLASS = 'unclassed';

function questionOf(flow: FlowDocument, gate: string): QuestionNode | undefined {
  const graph = flowGraph(flow);
  return graph.question(gate) ?? graph.questions.find((q) => q.id === gate);
}

/** Whether `value` can be an answer to `q` (a category, or a value of its type). */
function fits(q: QuestionNode, value: string | number): string | undefined {
  const spec = q.answer;
  if (spec.type === 'category')
    return typeof value === 'string' && spec.categories.includes(value) ? undefined : `"${value}" is not a category of ${q.id} (${spec.categories.join(', ')})`;
  if (spec.type === 'number') return typeof value === 'number' ? undefined : `${q.id} takes a number, not ${JSON.stringify(value)}`;
  if (spec.type === 'boolean') return undefined;
  return typeof value === 'string' ? undefined : `${q.id} takes text, not ${JSON.stringify(value)}`;
}

/** What each field of a case holds, for the message when one is missing or wrong. */
const CASE_FIELDS: Record<string, string> = {
  gate: 'the question the message is typed at (its key or id), as text',
  text: 'the message typed, as text',
  expected: 'the answer expected: a category or value, "unknown", or a list of them',
  flow: "the flow's id, as text (optional)",
  class: 'a group for the report, text of 1 to 60 characters (optional)',
  others: 'answers the message also gives to other questions, {"key": value} (optional)',
};
const REQUIRED_FIELDS = ['gate', 'text', 'expected'];

/** Each field of a case the schema refused, named, with what it should hold and what it held. */
function caseProblems(json: unknown, issues: readonly z.core.$ZodIssue[]): string[] {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return [`a case is a JSON object with the fields ${REQUIRED_FIELDS.map((f) => `"${f}"`).join(', ')}, not ${JSON.stringify(json)}`];
  const fields = Object.keys(CASE_FIELDS);
  const problems: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const like = fields.find((f) => f.toLowerCase() === key.toLowerCase()) ?? closestName(key, fields);
        problems.push(`unknown field "${key}"${like ? ` (did you mean "${like}"?)` : ''}: a case has the fields ${fields.map((f) => `"${f}"`).join(', ')}`);
      }
      continue;
    }
    const [field, ...inner] = issue.path.map(String);
    if (field === undefined) {
      problems.push(issue.message);
      continue;
    }
    const value = issue.path.reduce<unknown>((at, part) => (at as Record<PropertyKey, unknown> | undefined)?.[part as PropertyKey], json);
    const name = `"${[field, ...inner].join('.')}"`;
    const what = CASE_FIELDS[field] ?? '';
    if (value === undefined && inner.length === 0) problems.push(`the field ${name} is missing: it is ${what}`);
    else {
      // Inside `expected` (a list) and `others` (a map) every value is a category or value.
      const must = inner.length > 0 ? 'a category or value (text or a number)' : what.replace(/ \(optional\)$/, '');
      const size = issue.code === 'too_small' || issue.code === 'too_big' ? ` (${issue.message})` : '';
      problems.push(`the field ${name} must be ${must}, not ${JSON.stringify(value)}${size}`);
    }
  }
  return [...new Set(problems)];
}

/** Parses a JSONL file of labeled cases; every problem names its line. */
export function parseEvalCases(text: string, flow: FlowDocument, source = 'cases'): EvalCase[] {
  const cases: EvalCase[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const at = `${source}:${i + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      problems.push(`${at}: not JSON (${(error as Error).message})`);
      return;
    }
    const parsed = EvalCaseSchema.safeParse(json);
    if (!parsed.success) {
      problems.push(...caseProblems(json, parsed.error.issues).map((problem) => `${at}: ${problem}`));
      return;
    }
    const c = parsed.data;
    if (c.flow !== undefined && c.flow !== flow.id) {
      problems.push(`${at}: the case is for flow "${c.flow}", not "${flow.id}"`);
      return;
    }
    const question = questionOf(flow, c.gate);
    if (!question) {
      problems.push(`${at}: flow "${flow.id}" has no question "${c.gate}"`);
      return;
    }
    for (const answer of [c.expected].flat()) {
      const wrong = answer === ABSTAIN ? undefined : fits(question, answer);
      if (wrong) problems.push(`${at}: ${wrong} nor "${ABSTAIN}"`);
    }
    for (const [key, value] of Object.entries(c.others ?? {})) {
      const other = questionOf(flow, key);
      const wrong = other ? fits(other, value) : `flow "${flow.id}" has no question "${key}"`;
      if (wrong) problems.push(`${at}: others.${key}: ${wrong}`);
    }
    cases.push(c);
  });
  if (problems.length > 0) throw new EvalCaseError(problems.join('\n'));
  return cases;
}

const same = (a: AnswerValue, b: string | number) => (typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) < 1e-9 : a === b);

/**
 * Scores the offline readers, as the machine runs them, on labeled cases: a
 * category question reads the message for itself and the later questions it
 * offers (extractOffline); a typed question reads it with its parser, schema
 * and validators. Everything committed counts, at the question and elsewhere.
 */
export function evaluateMatcher(flow: FlowDocument, cases: EvalCase[], today: Date = new Date()): EvalReport {
  const graph = flowGraph(flow);
  const results = cases.map((c): EvalResult => {
    const question = questionOf(flow, c.gate);
    if (!question) throw new EvalCaseError(`flow "${flow.id}" has no question "${c.gate}"`);
    const key = answerKey(question);
    const committed: Record<string, AnswerValue> = {};
    if (question.answer.type === 'category') {
      const output = extractOffline({
        text: c.text,
        key,
        allowModel: false,
        questions: offeredQuestions(graph, question.id),
        elsewhere: elsewhereQuestions(graph, question.id),
        today: today.toISOString().slice(0, 10),
      });
      for (const [k, v] of Object.entries(output.values)) committed[k] = v.value;
    } else {
      const read = readTypedAnswer(question, { text: c.text }, { answers: {}, context: {} }, compileValidators(question), today);
      if (read.kind === 'valid') committed[key] = read.value;
    }
    const value = committed[key] ?? ABSTAIN;
    const others = Object.fromEntries(Object.entries(committed).filter(([k]) => k !== key));
    const wrongOthers = Object.entries(others)
      .filter(([k, v]) => c.others?.[k] === undefined || !same(v, c.others[k]!))
      .map(([k]) => k);
    const acceptable = [c.expected].flat();
    const ok = acceptable.some((e) => same(value, e)) && wrongOthers.length === 0;
    return { gate: c.gate, text: c.text, expected: c.expected, class: c.class ?? NO_CLASS, value, others, wrongOthers, ok };
  });
  const group = (by: (r: EvalResult) => string) => {
    const out: Record<string, EvalFigures> = {};
    for (const name of new Set(results.map(by))) out[name] = figures(results.filter((r) => by(r) === name));
    return out;
  };
  return {
    flowId: flow.id,
    ...figures(results),
    perGate: group((r) => r.gate),
    perClass: group((r) => r.class),
    failures: results.filter((r) => !r.ok),
    results,
  };
}

function figures(results: EvalResult[]): EvalFigures {
  const commits = results.filter((r) => r.value !== ABSTAIN);
  const wrongHere = (r: EvalResult) => r.value !== ABSTAIN && ![r.expected].flat().some((e) => same(r.value, e));
  const wrongCommits = results.filter((r) => wrongHere(r) || r.wrongOthers.length > 0).length;
  const definite = results.filter((r) => ![r.expected].flat().includes(ABSTAIN));
  const ratio = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 10000) / 10000);
  return {
    cases: results.length,
    commits: commits.length,
    wrongCommits,
    abstentions: results.length - commits.length,
    wrongCommitRate: ratio(wrongCommits, Math.max(commits.length, wrongCommits)),
    definite: definite.length,
    coverage: ratio(definite.filter((r) => r.ok).length, definite.length),
  };
}
