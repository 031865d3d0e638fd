/**
 * How the tests start `gateflow` as a process: `node <CLI_BUNDLE> ...`, the
 * CLI bundled once per run by test/setup/cli-bundle.ts (same source, started
 * in half the CPU of `node --import tsx src/cli/main.ts`).
 */
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI_BUNDLE = fileURLToPath(new URL('../../.gateflow/test-cli/main.js', import.meta.url));

/** The arguments after `node` that run `gateflow <args>`. */
export function cliArgs(...args: string[]): string[] {
  return [CLI_BUNDLE, ...args];
}

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** What of the developer's environment would change what the CLI reads, serves or calls. */
export const DEVELOPER_ENV = ['DATABASE_URL', 'GATEFLOW_DB_DIR', 'GATEFLOW_SERVER', 'GATEFLOW_TOKEN', 'GATEFLOW_JWT_SECRET', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'GATEFLOW_MODEL', 'GATEFLOW_MODEL_TIMEOUT_MS', 'PORT'];

/**
 * `gateflow <args>` in this process: the CLI's `main` with `env` (this
 * environment without the developer's settings, plus `env`) and in-memory
 * streams; stdin holds `input`, then ends. For what a command prints and
 * returns; a test of the process itself (signals, exit codes as the shell sees
 * them, a held directory) spawns the bundle with `cliArgs`.
 */
export async function runCli(args: string[], options: { env?: Record<string, string>; input?: string } = {}): Promise<CliRun> {
  const { main } = await import('../../src/cli/main.js');
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  for (const key of DEVELOPER_ENV) delete env[key];
  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        append(String(chunk));
        done();
      },
    });
  const stdin = new PassThrough();
  stdin.end(options.input ?? '');
  const status = await main(args, { ...env, ...options.env }, { stdin, stdout: sink((t) => (stdout += t)), stderr: sink((t) => (stderr += t)) });
  return { status, stdout, stderr };
}
