/**
 * Servers for the browser suites: the demo page built with Vite, the real
 * HTTP server in this process (startServer, PGlite in a directory of its own)
 * or as a child process (`gateflow serve`) where a test has to kill it with
 * SIGKILL and start it again on the same directory and port.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PATIENCE_MS } from './patience.js';
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reply } from '../../src/flow/reply.js';
import type { Turn } from '../../src/workflow/turn.js';
import { templateDataDir } from './pglite-template.js';
import { newestMtime } from './files.js';
import { killServers, spawnServe as spawnServeProcess, type ServeProcess } from './serve-process.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where `npm run build:demo` puts the demo page, and what `gateflow serve` serves. */
export const DEMO_DIR = join(ROOT, 'dist', 'demo');
const VITE = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');

/** The newest modification time of what the build reads. */
const newestSource = () => newestMtime(ROOT, ['demo', 'src', 'machines/chat-session.ts', 'vite.config.ts', 'package-lock.json']);

const viteBuildArgs = (extraArgs: string[] = []) => [VITE, 'build', '--logLevel', 'error', ...extraArgs];

/** Vite in a process of its own, not blocking this one (the tests go on meanwhile). */
async function viteBuild(env: NodeJS.ProcessEnv, extraArgs: string[] = []): Promise<void> {
  await promisify(execFile)(process.execPath, viteBuildArgs(extraArgs), { cwd: ROOT, env });
}

/** Builds the demo page into dist/demo when it is missing or older than its sources (what `npm start` serves). */
export async function ensureDemoBuilt(): Promise<void> {
  const index = join(DEMO_DIR, 'index.html');
  if (existsSync(index) && statSync(index).mtimeMs >= newestSource()) return;
  // The global setup makes the PGlite templates meanwhile.
  await viteBuild({ ...process.env, NODE_ENV: 'production' });
}

/**
 * Builds the demo page with React's development build into `outDir`: only
 * there does StrictMode run effects (and state initializers) twice. Checks
 * that the bundle really is a development one.
 */
export async function buildDevelopmentDemo(outDir: string): Promise<void> {
  await viteBuild({ ...process.env, NODE_ENV: 'development' }, ['--mode', 'development', '--outDir', outDir, '--emptyOutDir']);
  const assets = join(outDir, 'assets');
  const bundle = readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(assets, f), 'utf8'))
    .join('\n');
  // A warning only React's development build has.
  if (!bundle.includes('Each child in a list should have a unique')) throw new Error('the development demo bundle has no development React');
}

/** A migrated PGlite directory under `base` (a copy of the run's template), to copy for each server so none waits for initdb. */
export async function pgliteTemplate(base: string): Promise<string> {
  // With AGE enabled, as a server on PGlite leaves a directory: no server start pays for CREATE EXTENSION.
  return templateDataDir('graph', join(base, 'template'));
}

/** A copy of the template: a PGlite directory of its own. */
export function freshDataDir(template: string, base: string, name: string): string {
  const dir = join(base, name);
  cpSync(template, dir, { recursive: true });
  return dir;
}

export type ChildServer = ServeProcess;

/** `gateflow serve` (the CLI, through tsx) on PGlite in `dataDir` with the demo page, resolved once it listens. */
export async function spawnServe(dataDir: string, port = 0, env: Record<string, string> = {}): Promise<ChildServer> {
  const server = await spawnServeProcess({ env: { GATEFLOW_DB_DIR: dataDir, ...env }, port });
  if (!server.output().includes('demo page at')) {
    await server.kill();
    throw new Error(`the server serves no demo page:\n${server.output()}`);
  }
  return server;
}

/** Kills every child server still running. */
export const killChildren = killServers;

export interface SessionState {
  reply: Reply;
  history: { turn: Turn | null; reply: Reply }[];
}

/** GET /api/sessions/{id}: the current reply and the whole history. */
export async function fetchSession(baseUrl: string, sessionId: string): Promise<SessionState> {
  const response = await fetch(`${baseUrl}/api/sessions/${encodeURIComponent(sessionId)}?limit=200`, { signal: AbortSignal.timeout(PATIENCE_MS) });
  if (response.status !== 200) throw new Error(`GET /api/sessions/${sessionId}: ${response.status} ${await response.text()}`);
  return (await response.json()) as SessionState;
}
