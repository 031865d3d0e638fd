import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFlowText } from '../../src/flow/index.js';
import { EvalCaseError, evaluateMatcher, parseEvalCases } from '../../src/testing/index.js';
import { runCli } from '../helpers/cli.js';

const root = new URL('../../', import.meta.url).pathname;
const flow = parseFlowText(readFileSync(`${root}machines/flows/patient-intake.json`, 'utf8'));
const casesPath = 'test/fixtures/patient-intake.utterances.jsonl';
/** `gateflow <args>` in this process (run from the repository, as the case file's path is relative to it). */
const cli = (args: string[]) => runCli(args);

describe('the offline matcher on the labeled set', () => {
  const cases = parseEvalCases(readFileSync(root + casesPath, 'utf8'), flow, casesPath);
  const report = evaluateMatcher(flow, cases);

  it('has at least 150 varied cases over every gate', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    expect(Object.keys(report.perGate).sort()).toEqual(flow.nodes.filter((n) => n.kind === 'question').map((n) => n.id).sort());
  });

  it('never commits a wrong value and covers at least 85% of definite cases', () => {
    expect(report.failures.filter((f) => f.value !== 'unknown')).toEqual([]);
    expect(report.wrongCommits).toBe(0);
    expect(report.coverage).toBeGreaterThanOrEqual(0.85);
  });
});

describe('gateflow eval', () => {
  it('--json prints the figures and the results in input order', async () => {
    const result = await cli(['eval', 'patient-intake', casesPath, '--json']);
    expect(result.status).toBe(0);
    const out = JSON.parse(result.stdout) as { cases: number; results: { text: string; ok: boolean }[]; perGate: object };
    const lines = readFileSync(root + casesPath, 'utf8').trim().split('\n');
    expect(out.cases).toBe(lines.length);
    expect(out.results.map((r) => r.text)).toEqual(lines.map((l) => (JSON.parse(l) as { text: string }).text));
    expect(Object.keys(out)).toEqual(expect.arrayContaining(['commits', 'wrongCommits', 'abstentions', 'wrongCommitRate', 'coverage', 'perGate']));
  });

  it('prints a table with overall and per-gate rows and the failures', async () => {
    const result = await cli(['eval', 'patient-intake', casesPath]);
    expect(result.stdout).toMatch(/^overall\s+\d+\s+\d+\s+0\s+\d+\s+0\.0%/m);
    expect(result.stdout).toMatch(/^3_visit_type\s+\d+/m);
    expect(result.stdout).toMatch(/failures \(\d+\):/);
  });

  it('scores wrong commits, abstentions and coverage as defined', () => {
    const report = evaluateMatcher(flow, [
      { gate: '1_patient_info_availability', text: 'yes', expected: 'No' }, // wrong commit
      { gate: '1_patient_info_availability', text: 'yes', expected: 'Yes' }, // right
      { gate: '3_visit_type', text: 'maybe a follow up', expected: 'Follow-up' }, // abstains: missed
      { gate: '3_visit_type', text: 'what do you mean?', expected: 'unknown' }, // abstains: right
      { gate: '3_visit_type', text: 'follow up', expected: ['Follow-up', 'unknown'] }, // right, not definite
    ]);
    expect(report).toMatchObject({ cases: 5, commits: 3, wrongCommits: 1, abstentions: 2, definite: 3 });
    expect(report.wrongCommitRate).toBeCloseTo(1 / 3, 3);
    expect(report.coverage).toBeCloseTo(1 / 3, 3);
  });

  it('scores other questions too: a value committed to a question the case does not list is a wrong commit', () => {
    // "2" typed at the insurance question fell in the age group's range and was committed as Minor.
    const report = evaluateMatcher(flow, [
      { gate: '2_insurance_history', text: '2', expected: 'unknown', class: 'other-question' },
      { gate: '2_insurance_history', text: "no gaps, and she's a new patient", expected: 'No', class: 'extra-words', others: { '3_visit_type': 'New patient' } },
      { gate: '2_insurance_history', text: "she's a new patient", expected: 'unknown', class: 'other-question' },
    ]);
    expect(report.results.map((r) => [r.value, r.others, r.wrongOthers])).toEqual([
      ['unknown', {}, []],
      ['No', {}, []],
      ['unknown', { '3_visit_type': 'New patient' }, ['3_visit_type']],
    ]);
    expect(report.perClass['other-question']).toMatchObject({ cases: 2, wrongCommits: 1 });
    expect(report.perClass['extra-words']).toMatchObject({ cases: 1, wrongCommits: 0, coverage: 1 });
  });

  it('reads typed questions of an authored flow, with numbers as expected values', () => {
    const refund = parseFlowText(readFileSync(`${root}machines/flows/refund-approval.json`, 'utf8'));
    const cases = parseEvalCases(
      [
        '{"flow":"refund-approval","gate":"amount","text":"minus 50","expected":"unknown","class":"numbers"}',
        '{"flow":"refund-approval","gate":"amount","text":"two hundred and fifty","expected":250,"class":"numbers"}',
        '{"flow":"refund-approval","gate":"order_number","text":"my order is XY9876","expected":"XY9876","class":"numbers"}',
      ].join('\n'),
      refund,
    );
    const report = evaluateMatcher(refund, cases);
    expect(report.results.map((r) => r.value)).toEqual(['unknown', 250, 'XY9876']);
    expect(report).toMatchObject({ wrongCommits: 0, coverage: 1 });
    expect(() => parseEvalCases('{"flow":"other","gate":"amount","text":"1","expected":1}', refund, 'c.jsonl')).toThrow(/c\.jsonl:1: the case is for flow "other"/);
  });

  it('--today reads relative dates against the day a corpus was written, and refuses a malformed date', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateflow-eval-today-'));
    try {
      // "tomorrow" at a date question is the day after the corpus' date.
      const cases = join(dir, 'date.jsonl');
      writeFileSync(cases, '{"gate":"event_date","text":"tomorrow","expected":"2026-11-28"}\n');
      const events = 'event-booking';
      const value = async (today: string) => (JSON.parse((await cli(['eval', events, cases, '--json', '--today', today])).stdout) as { results: { value: string }[] }).results[0]!.value;
      expect(await value('2026-11-27')).toBe('2026-11-28');
      expect(await value('2027-02-28')).toBe('2027-03-01');
      const bad = await cli(['eval', events, cases, '--today', '2026-02-30']);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/--today must be a date written YYYY-MM-DD .*"2026-02-30"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad case files with the line and what is wrong', () => {
    const text = '{"gate":"3_visit_type","text":"x","expected":"Surgery"}\n{"gate":"nope","text":"x","expected":"Yes"}\nnot json';
    expect(() => parseEvalCases(text, flow, 'cases.jsonl')).toThrow(EvalCaseError);
    expect(() => parseEvalCases(text, flow, 'cases.jsonl')).toThrow(
      /cases\.jsonl:1: "Surgery" is not a category of 3_visit_type[\s\S]*cases\.jsonl:2: flow "patient-intake" has no question "nope"[\s\S]*cases\.jsonl:3: not JSON/,
    );
  });
});
