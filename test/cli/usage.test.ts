/**
 * Mistakes on the command line (issue 11, section 5): an unknown flow lists
 * the available ones, an unknown option or command names the one probably
 * meant, every command has its own --help, usage errors exit 2 and failures
 * at run time exit 1.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../helpers/patience.js';
import { cliArgs, runCli } from '../helpers/cli.js';
import { synopsis } from '../../src/cli/args.js';
import { COMMANDS } from '../../src/cli/commands.js';

const root = new URL('../../', import.meta.url).pathname;
/** The command line in this process (what it prints and returns); the process itself is checked once, at the end. */
const run = (...args: string[]) => runCli(args);

const examples = readdirSync(join(root, 'machines/flows'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .sort();

describe('an unknown flow', () => {
  it('lists the available ones, exit 2', async () => {
    expect(examples).toContain('clinic-callback');
    const result = await run('chat', 'nope');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`unknown flow "nope"; available: ${examples.join(', ')}\n`);
  });

  it('names the one probably meant, for every command that takes a flow', async () => {
    for (const command of ['chat', 'validate', 'viz']) {
      const result = await run(command, 'patient-intak');
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(`unknown flow "patient-intak"; did you mean patient-intake? available: ${examples.join(', ')}\n`);
    }
  });

  it('a path that is not a file says so', async () => {
    const result = await run('validate', './no/such.json');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^no such file "\.\/no\/such\.json"; .*available: clinic-callback/);
  });
});

describe('an unknown option', () => {
  it('suggests the right one and does not start the command', async () => {
    const chat = await run('chat', 'patient-intake', '--jsn');
    expect(chat.status).toBe(2);
    expect(chat.stdout).toBe('');
    expect(chat.stderr).toContain('gateflow chat: unknown option --jsn; did you mean --json?');
    expect(chat.stderr).toContain('gateflow chat --help');
    const serve = await run('serve', '--prot', '0');
    expect(serve.status).toBe(2);
    expect(serve.stderr).toContain('unknown option --prot; did you mean --port?');
    expect((await run('viz', 'led-sales', '--fromat', 'dot')).stderr).toContain('unknown option --fromat; did you mean --format?');
    expect((await run('schema', '--gate-confg')).stderr).toContain('unknown option --gate-confg; did you mean --gate-config?');
  });

  it('without a close match, or of another command, is refused without a guess', async () => {
    const far = await run('viz', 'led-sales', '--colour');
    expect(far.status).toBe(2);
    expect(far.stderr).toMatch(/^gateflow viz: unknown option --colour\n/);
    // --port is serve's, not chat's.
    const other = await run('chat', 'patient-intake', '--port', '3000');
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/^gateflow chat: unknown option --port\n/);
    expect((await run('chat', 'patient-intake', '-x')).stderr).toMatch(/^gateflow chat: unknown option -x\n/);
  });
});

describe('help', () => {
  const commands = { chat: ['--json', '--trace'], eval: ['--json'], serve: ['--port N', '--flows DIR'], validate: ['--json'], viz: ['--format mermaid|dot|json|svg', '--level outline|machine'], schema: ['--gate-config'] };

  it('gateflow <command> --help prints that command\'s help, exit 0, for every command', async () => {
    const helps: string[] = [];
    for (const [command, options] of Object.entries(commands)) {
      const help = await run(command, '--help');
      expect(help.status, command).toBe(0);
      expect(help.stderr).toBe('');
      expect(help.stdout, command).toMatch(new RegExp(`^usage: gateflow ${command}[ \\n]`));
      for (const option of [...options, '-h, --help']) expect(help.stdout, command).toContain(`  ${option}  `);
      helps.push(help.stdout);
    }
    // The commands differ: each help is its own.
    expect(new Set(helps).size).toBe(6);
    // The same help from -h and from `gateflow help <command>`, and with the command's arguments.
    expect((await run('viz', '-h')).stdout).toBe(helps[4]);
    expect((await run('help', 'eval')).stdout).toBe(helps[1]);
    expect((await run('chat', 'patient-intake', '--json', '--help')).stdout).toBe(helps[0]);
  });

  it('every help fits in 80 columns, and says all it said on one line', async () => {
    const help = await run('--help');
    const over = (text: string) => text.split('\n').filter((line) => line.length > 80);
    expect(over(help.stdout)).toEqual([]);
    // Wrapped, not cut: each command's synopsis and summary are all there, once the lines are joined.
    const joined = help.stdout.replace(/\n {4,}/g, ' ');
    for (const [name, spec] of Object.entries(COMMANDS)) {
      expect(joined).toContain(`  ${synopsis(name, spec).replace(/^gateflow /, '')} ${spec.summary}`);
      expect(over((await run(name, '--help')).stdout), name).toEqual([]);
    }
  });

  it('gateflow --help lists every command; gateflow alone is a usage error', async () => {
    const help = await run('--help');
    expect(help.status).toBe(0);
    for (const command of Object.keys(commands)) expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    const bare = await run();
    expect(bare.status).toBe(2);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toContain('usage: gateflow <command>');
  });
});

describe('exit codes', () => {
  it('2 for usage errors', async () => {
    const unknown = await run('caht', 'patient-intake');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^unknown command "caht"; did you mean chat\?\n/);
    const missing = await run('chat');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^gateflow chat: expected 1 argument \(<flow>\), got none\n/);
    expect((await run('validate', 'patient-intake', 'led-sales')).status).toBe(2);
    expect((await run('schema', 'extra')).status).toBe(2);
    expect((await run('viz', 'led-sales', '--format')).status).toBe(2);
    expect((await run('viz', 'led-sales', '--format', 'png')).status).toBe(2);
    expect((await run('serve', '--port', 'abc')).status).toBe(2);
    expect((await run('help', 'frobnicate')).status).toBe(2);
  });

  it('1 for failures at run time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateflow-cli-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"id": "bad", "version": 1, "nodes": []');
    expect((await run('chat', bad)).status).toBe(1);
    expect((await run('validate', bad)).status).toBe(1);
    expect((await run('eval', 'patient-intake', join(dir, 'missing.jsonl'))).status).toBe(1);
  });
});

describe('the process', () => {
  // A timeout: a mistake that was not caught must not leave a server or a chat running.
  const spawnCli = (...args: string[]) => spawnSync(process.execPath, cliArgs(...args), { cwd: root, input: '', encoding: 'utf8', timeout: PATIENCE_MS });

  it('exits with the code main returns: 0 for help, 2 for a usage error, 1 for a failure at run time', () => {
    const help = spawnCli('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: gateflow <command>/);
    const usage = spawnCli('chat', 'nope');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^unknown flow "nope"; available: /);
    const bad = join(mkdtempSync(join(tmpdir(), 'gateflow-cli-')), 'bad.json');
    writeFileSync(bad, '{"id": "bad", "version": 1, "nodes": []');
    const failure = spawnCli('validate', bad);
    expect(failure.status).toBe(1);
    expect(failure.stdout).toContain('JSON syntax error');
  });
});

describe('a file that cannot be read', () => {
  // Found by s39hands: a missing eval file and a directory given to validate printed Node's ENOENT and EISDIR.
  it('a missing file is named plainly (a failure at run time, exit 1)', async () => {
    const result = await run('eval', join(root, 'test/fixtures/flows/plumber-callout.json'), '/no/such/cases.jsonl');
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('no such file "/no/such/cases.jsonl"\n');
  });
  it('a directory where a file is wanted says so, exit 1', async () => {
    const dir = join(root, 'test/fixtures');
    const result = await run('validate', dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`"${dir}" is a directory; give a file\n`);
  });
});
