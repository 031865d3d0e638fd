/**
 * `gateflow serve` as a real process (the CLI bundled once per run, see test/helpers/cli.ts), for the tests
 * that kill, restart or talk to it from another process: crash tests, the
 * CLI's input commands, the browser's restart test.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PATIENCE_MS } from './patience.js';
import { DEVELOPER_ENV, cliArgs } from './cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** A fresh PGlite directory takes several seconds to initialize; a used one about two. */
const START_TIMEOUT = PATIENCE_MS;

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  port: number;
  /** What it printed so far, stdout and stderr. */
  output(): string;
  /** SIGKILL: no shutdown handler runs, nothing is flushed or closed. Resolves once the process is gone. */
  kill(): Promise<void>;
}

const children = new Set<ChildProcessWithoutNullStreams>();
// Whatever happens to the test run, no server is left behind.
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** This environment without the developer's settings, plus `env` (NO_COLOR, no NODE_OPTIONS of the test runner). */
export function cleanEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const clean = { ...process.env };
  for (const key of DEVELOPER_ENV) delete clean[key];
  return { ...clean, NODE_OPTIONS: '', NO_COLOR: '1', ...env };
}

/** Sends `signal` and resolves once the process has exited (at once if it already has). */
export async function stopProcess(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  await exited;
}

/**
 * Node's options for a server in a test: WebAssembly compiled by the baseline
 * compiler only. A server here lives seconds, and most of its start is PGlite's
 * WebAssembly: V8's optimizing tier recompiled the hot part of it on every
 * start for runs too short to pay it back (the crash tests, 14 starts, went
 * from 47 to 27 CPU-s; a start on a new directory from 7.5 to 4.8; the
 * browser viewer's and cli graph's longer-lived servers used no more). What
 * runs is the same code; only how V8 compiles it changes.
 */
export const SERVE_NODE_ARGS: readonly string[] = ['--liftoff-only'];

/**
 * `serve` laying out every drawing ahead (a few CPU-seconds of ELK in the
 * background) only where a test opens them: `spawnServe` passes this unless
 * asked to warm.
 */
export const NO_WARM_LAYOUTS = '--no-warm-layouts';

/**
 * `gateflow serve --port <port> <args>` with `env` (GATEFLOW_DB_DIR, ...), resolved once it prints where it listens;
 * `nodeArgs` are node's own options (SERVE_NODE_ARGS unless given: `[]` for V8's defaults); `warmLayouts` keeps serve's default.
 */
export async function spawnServe(
  options: { env?: Record<string, string>; args?: string[]; port?: number; nodeArgs?: readonly string[]; warmLayouts?: boolean } = {},
): Promise<ServeProcess> {
  const args = [...(options.args ?? [])];
  if (!options.warmLayouts && !args.includes(NO_WARM_LAYOUTS)) args.push(NO_WARM_LAYOUTS);
  const child = spawn(process.execPath, [...(options.nodeArgs ?? SERVE_NODE_ARGS), ...cliArgs('serve'), '--port', String(options.port ?? 0), ...args], {
    cwd: ROOT,
    env: cleanEnv(options.env),
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (output += chunk));
  const kill = () => stopProcess(child);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start within ${START_TIMEOUT} ms:\n${output}`)), START_TIMEOUT);
      child.stdout.on('data', (chunk: string) => {
        output += chunk;
        const match = /listening on (http:\/\/[^\s]+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the server exited (${code ?? signal}) before listening:\n${output}`));
      });
    });
    return { child, url, port: Number(new URL(url).port), output: () => output, kill };
  } catch (error) {
    await kill();
    throw error;
  }
}

/** Kills every server still running. */
export async function killServers(): Promise<void> {
  await Promise.all([...children].map((child) => stopProcess(child)));
}
