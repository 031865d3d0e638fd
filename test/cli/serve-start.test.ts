/**
 * `gateflow serve` refusing to start (issue 9): an unreachable database, a
 * short JWT secret or a bad setting end with one line on stderr and a non-zero
 * exit, never a stack trace, and never the database password. One refusal is
 * seen as the shell sees it (a process, its exit status and stderr); the others
 * run the CLI's `main` in this process, whose returned status is the process's
 * exit status and whose stderr is the process's (test/helpers/cli.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../helpers/patience.js';
import { cliArgs, runCli, type CliRun } from '../helpers/cli.js';

const root = new URL('../../', import.meta.url).pathname;
const cli = cliArgs();

/** `gateflow serve --port 0` as a process. */
function serveProcess(env: Record<string, string>): CliRun {
  const result = spawnSync(process.execPath, [...cli, 'serve', '--port', '0'], {
    cwd: root,
    env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', DATABASE_URL: '', GATEFLOW_JWT_SECRET: '', ...env },
    encoding: 'utf8',
    timeout: PATIENCE_MS,
  });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** `gateflow serve --port 0` in this process (the developer's settings left out, as for the process). */
const serve = (env: Record<string, string>): Promise<CliRun> => runCli(['serve', '--port', '0'], { env });

/** A loopback port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const problemLines = (stderr: string) => stderr.split('\n').filter((l) => l.trim() !== '' && !/no model configured/.test(l));

describe('gateflow serve refuses to start with one line', () => {
  it('when the database is unreachable, naming it without its password', async () => {
    const port = await closedPort();
    for (const [i, url] of [
      `postgres://gateflow:s3cret-pw@127.0.0.1:${port}/gateflow`,
      `postgres://gateflow:pa@ss:w0rd@127.0.0.1:${port}/gateflow`,
      `postgres://gateflow@127.0.0.1:${port}/gateflow?password=qu3ry-secret&sslmode=disable`,
    ].entries()) {
      const env = { DATABASE_URL: url, GATEFLOW_PG_CONNECT_TIMEOUT_MS: '2000' };
      // The first as a process: the exit status and stderr as the shell sees them.
      const result = i === 0 ? serveProcess(env) : await serve(env);
      expect(result.status, result.stderr).toBe(1);
      const lines = problemLines(result.stderr);
      expect(lines, result.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^gateflow: /);
      expect(lines[0]).toContain(`127.0.0.1:${port}`);
      for (const secret of ['s3cret-pw', 'pa@ss', 'w0rd', 'qu3ry-secret']) expect(result.stderr).not.toContain(secret);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('when the JWT secret is shorter than 32 bytes', async () => {
    const dir = join(tmpdir(), `gateflow-serve-start-${process.pid}`);
    const result = await serve({ GATEFLOW_JWT_SECRET: 'short-secret', GATEFLOW_DB_DIR: dir });
    expect(result.status).toBe(1);
    // Refused before the store was opened: no database directory was made.
    expect(existsSync(dir)).toBe(false);
    expect(problemLines(result.stderr)).toEqual(['gateflow: the JWT secret is 12 bytes; it must be at least 32 (e.g. openssl rand -base64 48)']);
  });

  it.each([
    ['GATEFLOW_MAX_TURNS', 'lots'],
    ['GATEFLOW_MAX_TURNS', '0'],
    ['GATEFLOW_JWT_CLOCK_SKEW', '-5'],
    ['GATEFLOW_PG_QUERY_TIMEOUT_MS', 'soon'],
  ])('when %s is %s', async (name, value) => {
    const result = await serve({ [name]: value });
    expect(result.status).toBe(2);
    const lines = problemLines(result.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^gateflow: .*${name}`));
  });
});
