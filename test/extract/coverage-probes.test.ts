/**
 * My own probe answers (s34cover, issue 26) to the category and yes/no
 * questions of the example flows, written as different people type them and
 * not copied from any corpus file (test/fixtures/probes/*.probe.jsonl): the
 * reader must commit nothing wrong on them, and keep reading most of the clear
 * ones. Scored in-process by the same code as `gateflow eval`.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluateMatcher, parseEvalCases } from '../../src/testing/evaluate-matcher.js';
import { parseFlowText } from '../../src/flow/index.js';

const dir = new URL('../fixtures/probes/', import.meta.url);
const flowPath = (id: string) =>
  [new URL(`../fixtures/flows/${id}.json`, import.meta.url), new URL(`../../machines/flows/${id}.json`, import.meta.url)].find((u) => existsSync(u))!;
const files = readdirSync(dir).filter((f) => f.endsWith('.probe.jsonl'));

describe('probe answers of my own', () => {
  const reports = files.map((file) => {
    const path = flowPath(file.replace('.probe.jsonl', ''));
    const flow = parseFlowText(readFileSync(path, 'utf8'), path.pathname);
    return evaluateMatcher(flow, parseEvalCases(readFileSync(new URL(file, dir), 'utf8'), flow, file), new Date('2026-11-27T12:00:00Z'));
  });

  it.each(files.map((f, i) => [f, i] as const))('%s: no wrong commit', (_file, i) => {
    expect(reports[i]!.failures.filter((r) => r.value !== 'unknown' || r.wrongOthers.length > 0).map((r) => `${r.gate}: ${r.text} -> ${String(r.value)}`)).toEqual([]);
  });

  it('reads at least three quarters of the clear answers', () => {
    const definite = reports.reduce((n, r) => n + r.definite, 0);
    const read = reports.reduce((n, r) => n + Math.round(r.coverage * r.definite), 0);
    expect(definite).toBeGreaterThan(150);
    expect(read / definite).toBeGreaterThanOrEqual(0.75);
  });
});
