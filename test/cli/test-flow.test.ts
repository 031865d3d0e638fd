import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { CoverageReportSchema } from '../../src/testing/coverage-report.js';

const fixtures = new URL('../fixtures/flows/', import.meta.url).pathname;
const GAPS = join(fixtures, 'coverage-gaps.json');
const FULL = join(fixtures, 'coverage-full.json');

/** Runs the CLI in this process; what it wrote on stdout and stderr, and its exit code. */
async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    const code = await main(argv, { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' });
    return { code, stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'gateflow-test-flow-'));

afterEach(() => vi.restoreAllMocks());

describe('gateflow test', () => {
  it('a flow every path covers: exit 0, the figures, nothing listed', async () => {
    const { code, stdout, stderr } = await run('test', FULL);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('flow coverage-full@1.0.0 (Coverage full)');
    expect(lines[1]).toMatch(/^paths [1-9]\d*, steps [1-9]\d*$/);
    expect(lines[2]).toMatch(/^states +(\d+)\/\1 \(100%\)$/);
    expect(lines[3]).toMatch(/^transitions +(\d+)\/\1 \(100%\)$/);
    expect(stdout).not.toContain('not reached');
  });

  it('a flow with gaps: exit 1, and each item not reached with its reason', async () => {
    const { code, stdout } = await run('test', GAPS);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^states +6\/10 \(60%\)$/m);
    expect(stdout).toMatch(/^transitions +8\/16 \(50%\)$/m);
    const listed = stdout.slice(stdout.indexOf('not reached:\n'));
    expect(listed).toContain('\n  state coverage-gaps.organizer: the transitions into it were never taken: coverage-gaps.size always #1\n');
    expect(listed).toContain('\n  state coverage-gaps.organizer.asking: inside coverage-gaps.organizer, which no path reaches\n');
    expect(listed).toContain('\n  transition coverage-gaps.size always #1: its guard [cel: answers.party > 100] was false every time the paths were in coverage-gaps.size\n');
    expect(listed).toContain('\n  transition coverage-gaps.organizer.asking on user.text #1: its source coverage-gaps.organizer.asking is never reached\n');
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('FAIL: not every state and transition was reached');
  });

  it('--min: passes at or above it, fails under it; a bad value is a usage error', async () => {
    expect((await run('test', GAPS, '--min', '50')).code).toBe(0);
    const under = await run('test', GAPS, '--min', '60');
    // States are at 60%, transitions at 50%: both must reach it.
    expect(under.code).toBe(1);
    expect(under.stdout).toContain('FAIL: under --min 60% (states 60%, transitions 50%)');
    for (const bad of ['abc', '101', '-1', '', '50%']) {
      const refused = await run('test', GAPS, `--min=${bad}`);
      expect(refused.code, bad).toBe(2);
      expect(refused.stderr).toBe(`gateflow test: --min must be a percentage from 0 to 100, not "${bad}"\n`);
      expect(refused.stdout).toBe('');
    }
  });

  it('--json: the report as one JSON object, without the paths', async () => {
    const { code, stdout } = await run('test', GAPS, '--json');
    expect(code).toBe(1);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    const json = JSON.parse(stdout) as Record<string, unknown>;
    const report = CoverageReportSchema.parse(json);
    expect(report).toMatchObject({ flowId: 'coverage-gaps', version: 1, states: { covered: 6, total: 10 }, transitions: { covered: 8, total: 16 } });
    expect(report.unreached).toContainEqual({ kind: 'transition', id: 'coverage-gaps.size always #1', reason: 'its guard [cel: answers.party > 100] was false every time the paths were in coverage-gaps.size' });
    expect(json).not.toHaveProperty('generated');
  });

  it('--out writes one readable script per path (and replaces an earlier run\'s scripts)', async () => {
    const dir = join(tempDir(), 'scripts');
    const { code, stdout } = await run('test', GAPS, '--out', dir);
    expect(code).toBe(1);
    const paths = Number(/^paths (\d+),/m.exec(stdout)![1]);
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(paths);
    expect(stdout).toContain(`wrote ${paths} scripts to ${dir}\n`);
    expect(files[0]).toMatch(/^001-[a-z0-9-]+\.txt$/);
    // Every script starts with its heading; one path answers 1 and is booked.
    const scripts = files.map((f) => readFileSync(join(dir, f), 'utf8'));
    scripts.forEach((s, i) => expect(s).toMatch(new RegExp(`^# coverage-gaps@1, path ${i + 1} of ${paths} \\(\\d+ steps?\\), from coverage-gaps\\.party\\.asking\\n> `)));
    const booked = scripts.findIndex((s) => s.split('\n')[1] === '> text "1"  → coverage-gaps.booked');
    expect(booked).toBeGreaterThanOrEqual(0);
    expect(files[booked]).toMatch(/^\d{3}-text-1-booked\.txt$/);
    expect(scripts[booked]).toBe(`# coverage-gaps@1, path ${booked + 1} of ${paths} (1 step), from coverage-gaps.party.asking\n> text "1"  → coverage-gaps.booked\n`);

    // With --json, each path's events and the file it went to.
    writeFileSync(join(dir, '999-stale.txt'), 'an earlier run');
    writeFileSync(join(dir, 'notes.md'), 'mine');
    const json = JSON.parse((await run('test', GAPS, '--out', dir, '--json')).stdout) as { generated: { file: string; events: { type: string }[] }[] };
    expect(json.generated.map((g) => g.file)).toEqual(files);
    expect(json.generated[booked]!.events).toEqual([{ type: 'user.text', text: '1' }]);
    expect(existsSync(join(dir, '999-stale.txt'))).toBe(false);
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('mine');
  });

  it('--out naming a file is refused before anything runs', async () => {
    const file = join(tempDir(), 'taken');
    writeFileSync(file, 'x');
    const { code, stdout, stderr } = await run('test', GAPS, '--out', file);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`gateflow test: --out ${file} is a file, not a directory\n`);
  });

  it('a malformed flow: the errors validate prints, exit 1; a missing one: exit 2', async () => {
    const file = join(tempDir(), 'bad.json');
    writeFileSync(file, JSON.stringify({ id: 'bad', version: 1, start: 'n', nodes: [{ kind: 'question', id: 'n', prompt: 'N?', answer: { type: 'number', maximum: 3 } }], edges: [] }, null, 2));
    const { code, stdout, stderr } = await run('test', file);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(new RegExp(`^${file}: invalid flow document \\(\\d+ problems?\\)\\n`));
    expect(stderr).toContain('unknown field "maximum"');
    const validate = await run('validate', file);
    expect(validate.code).toBe(1);
    for (const line of validate.stdout.split('\n').filter((l) => l.startsWith('error '))) expect(stderr).toContain(line.replace(/^error +/, ''));

    const missing = await run('test', join(tempDir(), 'nowhere.json'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^no such file /);
  });

  it('takes an example flow by name', async () => {
    const { code, stdout } = await run('test', 'contact-request');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^flow contact-request@1 \(Contact request\)\n/);
    expect(stdout).toMatch(/^transitions +(\d+)\/\1 \(100%\)$/m);
  });

  it('--help reads as the other commands do', async () => {
    const { code, stdout } = await run('test', '--help');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: gateflow test <flow> \[--out DIR\] \[--min PERCENT\] \[--json\]\s+\[--conversations DIR\]\n/);
    for (const option of ['--out DIR', '--min PERCENT', '--json', '--conversations DIR', '-h, --help']) expect(stdout).toContain(`  ${option}  `);
    expect((await run('--help')).stdout).toMatch(/^ {2}test <flow> \[--out DIR\] \[--min PERCENT\] \[--json\] \[--conversations DIR\]\n +generate and replay every path/m);
  });
});
