/**
 * Servers for the browser suites: the demo page built with Vite, the real
 * HTTP server in this process (startServer, PGlite in a directory of its own)
 * or as a child process (`gateflow serve`) where a test has to kill it with
 * SIGKILL and start it again on the same directory and port.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reply } from '../../src/flow/reply.js';
import type { Turn } from '../../src/workflow/turn.js';
import { createPgliteStore } from '../../src/store/pglite.js';
import { newestMtime } from './files.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where `npm run build:demo` puts the demo page, and what `gateflow serve` serves. */
export const DEMO_DIR = join(ROOT, 'dist', 'demo');
const MAIN = join(ROOT, 'src', 'cli', 'main.ts');
const VITE = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
/** A fresh PGlite directory takes several seconds to initialize; a copied one about two. */
const START_TIMEOUT = 40_000;

/** The newest modification time of what the build reads. */
const newestSource = () => newestMtime(ROOT, ['demo', 'src', 'machines/chat-session.ts', 'vite.config.ts', 'package-lock.json']);

function viteBuild(env: NodeJS.ProcessEnv, extraArgs: string[] = []): void {
  execFileSync(process.execPath, [VITE, 'build', '--logLevel', 'error', ...extraArgs], { cwd: ROOT, env, stdio: 'pipe' });
}

/** Builds the demo page into dist/demo when it is missing or older than its sources (what `npm start` serves). */
export function ensureDemoBuilt(): void {
  const index = join(DEMO_DIR, 'index.html');
  if (existsSync(index) && statSync(index).mtimeMs >= newestSource()) return;
  viteBuild({ ...process.env, NODE_ENV: 'production' });
}

/**
 * Builds the demo page with React's development build into `outDir`: only
 * there does StrictMode run effects (and state initializers) twice. Checks
 * that the bundle really is a development one.
 */
export function buildDevelopmentDemo(outDir: string): void {
  viteBuild({ ...process.env, NODE_ENV: 'development' }, ['--mode', 'development', '--outDir', outDir, '--emptyOutDir']);
  const assets = join(outDir, 'assets');
  const bundle = readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(assets, f), 'utf8'))
    .join('\n');
  // A warning only React's development build has.
  if (!bundle.includes('Each child in a list should have a unique')) throw new Error('the development demo bundle has no development React');
}

/** A migrated PGlite directory under `base`, to copy for each server so none waits for initdb. */
export async function pgliteTemplate(base: string): Promise<string> {
  const dir = join(base, 'template');
  const store = await createPgliteStore({ dataDir: dir });
  await store.close();
  return dir;
}

/** A copy of the template: a PGlite directory of its own. */
export function freshDataDir(template: string, base: string, name: string): string {
  const dir = join(base, name);
  cpSync(template, dir, { recursive: true });
  return dir;
}

export interface ChildServer {
  child: ChildProcessWithoutNullStreams;
  url: string;
  port: number;
  output(): string;
  /** SIGKILL: no shutdown handler runs. Resolves once the process is gone. */
  kill(): Promise<void>;
}

const children = new Set<ChildProcessWithoutNullStreams>();
// Whatever happens to the test run, no server is left behind.
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** `gateflow serve` (the CLI, through tsx) on PGlite in `dataDir`, resolved once it listens. */
export async function spawnServe(dataDir: string, port = 0, env: Record<string, string> = {}): Promise<ChildServer> {
  const clean = { ...process.env };
  for (const key of ['DATABASE_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'GATEFLOW_MODEL', 'GATEFLOW_MODEL_TIMEOUT_MS', 'GATEFLOW_JWT_SECRET', 'PORT'])
    delete clean[key];
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--port', String(port)], {
    cwd: ROOT,
    env: { ...clean, NODE_OPTIONS: '', GATEFLOW_DB_DIR: dataDir, ...env },
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (output += chunk));
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  };
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
    if (!output.includes('demo page at')) throw new Error(`the server serves no demo page:\n${output}`);
    return { child, url, port: Number(new URL(url).port), output: () => output, kill };
  } catch (error) {
    await kill();
    throw error;
  }
}

/** Kills every child server still running. */
export async function killChildren(): Promise<void> {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

export interface SessionState {
  reply: Reply;
  history: { turn: Turn | null; reply: Reply }[];
}

/** GET /api/sessions/{id}: the current reply and the whole history. */
export async function fetchSession(baseUrl: string, sessionId: string): Promise<SessionState> {
  const response = await fetch(`${baseUrl}/api/sessions/${encodeURIComponent(sessionId)}?limit=200`, { signal: AbortSignal.timeout(10_000) });
  if (response.status !== 200) throw new Error(`GET /api/sessions/${sessionId}: ${response.status} ${await response.text()}`);
  return (await response.json()) as SessionState;
}
