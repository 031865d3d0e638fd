/**
 * Messages in the terminal (issue 11, section 5): their Markdown is rendered
 * (no raw `##` or `**`), styled with ANSI escapes on a terminal and plain
 * otherwise; what the person typed is never rendered.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown, wantsColor } from '../../src/cli/markdown.js';
import { runCli } from '../helpers/cli.js';

/** `gateflow chat patient-intake` in this process: its stdout is a stream that is no terminal, as a pipe; neither NO_COLOR nor FORCE_COLOR set unless given. */
const chat = (input: string, extraEnv: Record<string, string> = {}) => runCli(['chat', 'patient-intake'], { input, env: { FORCE_COLOR: '', NO_COLOR: '', ...extraEnv } });

const message = [
  '## Summary of Collected Information',
  '',
  '**Problem Statement:** Patient intake: 1_patient_info_availability Yes.',
  '',
  '- first **bold** item',
  '* second item',
  '1. numbered *emphasis*',
  '',
  '---',
  '',
  'Costs 5 * 3 = 15, `a**b` stays, \\*\\*not bold\\*\\*.',
].join('\n');

describe('renderMarkdown', () => {
  it('plain: headings underlined with a rule, emphasis unmarked, bullets, rules, escapes', () => {
    expect(renderMarkdown(message, { ansi: false })).toBe(
      [
        'Summary of Collected Information',
        '────────────────────────────────',
        '',
        'Problem Statement: Patient intake: 1_patient_info_availability Yes.',
        '',
        '• first bold item',
        '• second item',
        '1. numbered emphasis',
        '',
        '─'.repeat(40),
        '',
        'Costs 5 * 3 = 15, a**b stays, **not bold**.',
      ].join('\n'),
    );
  });

  it('on a terminal: headings bold and underlined, bold as ANSI bold, italic as ANSI italic', () => {
    const out = renderMarkdown(message, { ansi: true });
    expect(out.split('\n').slice(0, 8)).toEqual([
      '\x1b[1;4mSummary of Collected Information\x1b[22;24m',
      '',
      '\x1b[1mProblem Statement:\x1b[22m Patient intake: 1_patient_info_availability Yes.',
      '',
      '• first \x1b[1mbold\x1b[22m item',
      '• second item',
      '1. numbered \x1b[3memphasis\x1b[23m',
      '',
    ]);
    // Only the escaped stars are left, as stars.
    expect(out.split('\n').at(-1)).toBe('Costs 5 * 3 = 15, a**b stays, **not bold**.');
  });

  it("shows the person's own words as typed where the message repeats them (the flow escapes them)", () => {
    const summary = '**Visit type**\n→ Urgent care (from: "\\*\\*urgent\\*\\* care")';
    expect(renderMarkdown(summary, { ansi: false })).toBe('Visit type\n→ Urgent care (from: "**urgent** care")');
    // Unescaped, the same text would be read as Markdown.
    expect(renderMarkdown('**Visit type**\n→ Urgent care (from: "**urgent** care")', { ansi: false })).toBe('Visit type\n→ Urgent care (from: "urgent care")');
  });

  it('colours a terminal, not a pipe; NO_COLOR and FORCE_COLOR decide over it', () => {
    expect(wantsColor({ isTTY: true }, {})).toBe(true);
    expect(wantsColor({ isTTY: false }, {})).toBe(false);
    expect(wantsColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(wantsColor({ isTTY: false }, { FORCE_COLOR: '0' })).toBe(false);
  });
});

describe('gateflow chat renders messages for a terminal', () => {
  // Yes, Partial, Follow-up, Adult, then a free-text answer with Markdown in it: the summary follows.
  const toSummary = '1\n3\n2\n1\ntext me **please**\n';

  it('plain when stdout is not a terminal: no raw ## or **, the heading over a rule', async () => {
    const result = await chat(toSummary);
    expect(result.status).toBe(0);
    const summary = result.stdout.slice(result.stdout.indexOf('Summary of Collected Information'));
    expect(summary).toMatch(/^Summary of Collected Information\n─{32}\n\nProblem Statement: Patient intake: /);
    expect(summary).toContain('\nYour Answers:\n');
    expect(summary).toContain('\nWhat kind of visit is this?\n→ Follow-up (from: "Follow-up")\n');
    expect(result.stdout).not.toMatch(/^#+ /m);
    expect(result.stdout.replace('text me **please**', '')).not.toContain('**');
    expect(result.stdout).not.toContain('\x1b[');
    // What the person typed is shown as typed, not as Markdown.
    expect(summary).toContain('→ Text message (from: "text me **please**")');
  });

  it('styled with ANSI escapes on a terminal (FORCE_COLOR stands in for one here)', async () => {
    const result = await chat(toSummary, { FORCE_COLOR: '1' });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('\x1b[1;4mSummary of Collected Information\x1b[22;24m');
    expect(result.stdout).toContain('\x1b[1mYour Answers:\x1b[22m');
    expect(result.stdout).toContain('(from: "text me **please**")');
  });
});
