import { z } from 'zod';
import { extractOffline } from '../extract/offline.js';
import { flowGraph } from '../flow/graph.js';
import type { FlowDocument } from '../flow/schema.js';

/** "unknown" as an expected answer: the matcher must abstain. */
export const ABSTAIN = 'unknown';

/** One labeled utterance: `expected` is a category, "unknown", or a list of acceptable answers. */
export const EvalCaseSchema = z.strictObject({
  gate: z.string().min(1),
  text: z.string(),
  expected: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
});
export type EvalCase = z.infer<typeof EvalCaseSchema>;

export interface EvalResult {
  gate: string;
  text: string;
  expected: string | string[];
  /** The committed category, or "unknown" when the matcher abstained. */
  value: string;
  ok: boolean;
}

export interface EvalFigures {
  cases: number;
  commits: number;
  /** Committed values that are not acceptable. */
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
  failures: EvalResult[];
  results: EvalResult[];
}

export class EvalCaseError extends Error {
  override readonly name = 'EvalCaseError';
}

/** Parses a JSONL file of labeled cases; every problem names its line. */
export function parseEvalCases(text: string, flow: FlowDocument, source = 'cases'): EvalCase[] {
  const graph = flowGraph(flow);
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
      problems.push(`${at}: ${parsed.error.issues.map((x) => `${x.path.join('.') || 'line'}: ${x.message}`).join('; ')}`);
      return;
    }
    const question = graph.question(parsed.data.gate);
    if (!question || question.answer.type !== 'category') {
      problems.push(`${at}: flow "${flow.id}" has no category question "${parsed.data.gate}"`);
      return;
    }
    for (const answer of [parsed.data.expected].flat())
      if (answer !== ABSTAIN && !question.answer.categories.includes(answer))
        problems.push(`${at}: "${answer}" is not a category of ${question.id} (${question.answer.categories.join(', ')}) nor "${ABSTAIN}"`);
    cases.push(parsed.data);
  });
  if (problems.length > 0) throw new EvalCaseError(problems.join('\n'));
  return cases;
}

/** Scores the offline matcher, as the machine runs it, on labeled cases. */
export function evaluateMatcher(flow: FlowDocument, cases: EvalCase[]): EvalReport {
  const graph = flowGraph(flow);
  const results = cases.map((c): EvalResult => {
    const question = graph.question(c.gate);
    if (!question || question.answer.type !== 'category') throw new EvalCaseError(`flow "${flow.id}" has no category question "${c.gate}"`);
    const output = extractOffline({
      text: c.text,
      key: c.gate,
      allowModel: false,
      questions: [{ key: question.id, prompt: question.prompt, categories: question.answer.categories, ...(question.answer.synonyms && { synonyms: question.answer.synonyms }) }],
    });
    const value = output.values[c.gate]?.value ?? ABSTAIN;
    return { gate: c.gate, text: c.text, expected: c.expected, value, ok: [c.expected].flat().includes(value) };
  });
  const perGate: Record<string, EvalFigures> = {};
  for (const gate of new Set(results.map((r) => r.gate))) perGate[gate] = figures(results.filter((r) => r.gate === gate));
  return {
    flowId: flow.id,
    ...figures(results),
    perGate,
    failures: results.filter((r) => !r.ok),
    results,
  };
}

function figures(results: EvalResult[]): EvalFigures {
  const commits = results.filter((r) => r.value !== ABSTAIN);
  const wrongCommits = commits.filter((r) => !r.ok).length;
  const definite = results.filter((r) => ![r.expected].flat().includes(ABSTAIN));
  const ratio = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 10000) / 10000);
  return {
    cases: results.length,
    commits: commits.length,
    wrongCommits,
    abstentions: results.length - commits.length,
    wrongCommitRate: ratio(wrongCommits, commits.length),
    definite: definite.length,
    coverage: ratio(definite.filter((r) => r.ok).length, definite.length),
  };
}
