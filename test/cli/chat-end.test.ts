/**
 * `gateflow chat` as a person or a program uses it (issue 11, section 5): it
 * ends when the conversation is finished, even with its input still open (a
 * terminal); in --json a refused line is one error line and the chat goes on;
 * a message it could not read is shown whole, with the buttons again.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/cli/markdown.js';
import { NOT_UNDERSTOOD_MESSAGE, ReplySchema } from '../../src/index.js';
import { cliArgs, runCli } from '../helpers/cli.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const root = new URL('../../', import.meta.url).pathname;
const env = { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', FORCE_COLOR: '', NO_COLOR: '' };
const cli = cliArgs();

const start = (args: string[]) => spawn(process.execPath, [...cli, ...args], { cwd: root, env });

/**
 * The exit code, or "still running" when the process has not ended within `ms`
 * (it is then killed). A chat that exits does so at once; `ms` is PATIENCE_MS,
 * which only a hang reaches, never a loaded machine.
 */
function exitWithin(child: ChildProcessWithoutNullStreams, ms: number): Promise<number | 'still running'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill();
      resolve('still running');
    }, ms);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code ?? -1);
    });
  });
}

function collect(child: ChildProcessWithoutNullStreams) {
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  return () => stdout;
}

describe('gateflow chat ends with the conversation', () => {
  it('--json: exits 0 after the reply that finishes it, with its input still open; later lines are not read', async () => {
    const child = start(['chat', 'patient-intake', '--json']);
    const stdout = collect(child);
    // "No" is the first question's limiting value: the intake stops there. The second line is never a turn.
    child.stdin.write('{"button":"No"}\n{"button":"Yes"}\n');
    expect(await exitWithin(child, PATIENCE_MS)).toBe(0);
    const replies = stdout().trim().split('\n').map((l) => ReplySchema.parse(JSON.parse(l)));
    expect(replies.map((r) => [r.status, r.completion.reason])).toEqual([
      ['active', 'awaiting_answer'],
      ['done', 'stopped_limiting_value'],
    ]);
  });

  it('--json: exits after the handoff of a whole intake', async () => {
    const child = start(['chat', 'patient-intake', '--json']);
    const stdout = collect(child);
    child.stdin.write(['{"button":"Yes"}', '{"text":"no, always covered"}', '{"text":"follow up"}', '{"button":"Adult"}', '{"text":"text me"}', '{"button":"confirm"}', ''].join('\n'));
    expect(await exitWithin(child, PATIENCE_MS)).toBe(0);
    const last = ReplySchema.parse(JSON.parse(stdout().trim().split('\n').at(-1)!));
    expect(last.completion).toEqual({ isComplete: true, reason: 'handed_off', readyForHandoff: true });
  });

  it('in the terminal: exits 0 once the finished line is shown, with its input still open', async () => {
    const child = start(['chat', 'patient-intake']);
    const stdout = collect(child);
    child.stdin.write('2\n');
    expect(await exitWithin(child, PATIENCE_MS)).toBe(0);
    expect(stdout()).toMatch(/── finished: stopped limiting value ──\n$/);
  });
});

describe('gateflow chat --json turns', () => {
  it('a button that is not offered gets one error line, and the chat goes on', async () => {
    const child = start(['chat', 'patient-intake', '--json']);
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async () => JSON.parse((await lines.next()).value as string) as Record<string, unknown>;
    expect((await next()).state).toEqual({ '1_patient_info_availability': 'asking' });
    child.stdin.write('{"button":"Maybe"}\n');
    const refused = await next();
    expect(refused).toEqual({ error: { code: 'invalid_button', message: expect.stringContaining('"Maybe"') } });
    // Nothing changed: the same question takes a button it offers, then text.
    child.stdin.write('{"button":"Yes"}\n');
    expect((await next()).state).toEqual({ '2_insurance_history': 'asking' });
    child.stdin.write('{"button":"yes please"}\n');
    expect(await next()).toMatchObject({ error: { code: 'invalid_button' } });
    child.stdin.write('{"text":"partial coverage"}\n');
    expect((await next()).state).toEqual({ '3_visit_type': 'asking' });
    // Any refused turn is an error line, not the end of the chat.
    child.stdin.write('{"button":3}\n{"txt":"x"}\n');
    expect(await next()).toMatchObject({ error: { code: 'invalid_turn' } });
    expect(await next()).toMatchObject({ error: { code: 'invalid_turn' } });
    child.stdin.write('{"button":"Emergency"}\n');
    expect(await next()).toMatchObject({ state: 'stopped', status: 'done' });
    expect(await exitWithin(child, PATIENCE_MS)).toBe(0);
  });
});

describe('gateflow chat shows a message it could not read whole', () => {
  // What the chat prints is checked, not the process: both run in this process.
  it('the not-understood message as the reply gives it, the question again, and the numbered buttons', async () => {
    const plain = { FORCE_COLOR: '', NO_COLOR: '' };
    const json = await runCli(['chat', 'patient-intake', '--json'], { input: '{"text":"banana"}\n', env: plain });
    const [opening, notUnderstood] = json.stdout.trim().split('\n').map((l) => ReplySchema.parse(JSON.parse(l)));
    expect(notUnderstood!.message).toContain(NOT_UNDERSTOOD_MESSAGE);
    const terminal = await runCli(['chat', 'patient-intake'], { input: 'banana\n', env: plain });
    expect(terminal.status).toBe(0);
    const shown = terminal.stdout.slice(terminal.stdout.indexOf(NOT_UNDERSTOOD_MESSAGE));
    expect(shown).toBe(`${renderMarkdown(notUnderstood!.message, { ansi: false })}\n\n  1) Yes\n  2) No\n`);
    // It restates the question (built by the flow; the CLI shows it as given).
    expect(shown).toContain(opening!.message);
  });
});
