/**
 * `npm run bench` (second part): the server's memory while ten clients at once
 * read the largest session it allows — the turn cap of free-text turns of the
 * longest text — page by page, and while they read its first page.
 *
 * The session is written straight into a PGlite directory (as many turns as
 * GATEFLOW_MAX_TURNS allows, default 500), then a real `gateflow serve` child
 * process serves it; its RSS is read from /proc/<pid>/status while it answers.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MAX_TURNS_PER_SESSION, MAX_HISTORY_PAGE_SIZE } from '../../src/runtime/runtime.js';
import { MAX_TURN_TEXT_LENGTH } from '../../src/workflow/turn.js';
import { createPgliteStore } from '../../src/store/pglite.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TURNS = Number(process.env.GATEFLOW_MAX_TURNS ?? DEFAULT_MAX_TURNS_PER_SESSION);
const READERS = 10;

/** Resident and peak resident memory of a process, in MB (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function writeLargestSession(dataDir: string): Promise<string> {
  const store = await createPgliteStore({ dataDir });
  try {
    const opening = await import('../../src/flow/runtime.js').then(async ({ createFlowRuntime }) => {
      const flows = [JSON.parse(readFileSync(join(ROOT, 'machines/flows/patient-intake.json'), 'utf8'))];
      return createFlowRuntime({ flows, store }).start('patient-intake');
    });
    const { session } = (await store.load(opening.sessionId))!;
    // Each turn: the longest text allowed, and a reply as large as a real one.
    for (let version = 1; version <= TURNS; version++) {
      const text = `${version} `.padEnd(MAX_TURN_TEXT_LENGTH, 'lorem ipsum dolor sit amet ');
      await store.commitTurn(opening.sessionId, version, {
        snapshot: session.snapshot,
        flowVersion: session.flowVersion,
        turn: { text, turnId: `t${version}` },
        turnId: `t${version}`,
        reply: opening.reply,
      });
    }
    return opening.sessionId;
  } finally {
    await store.close();
  }
}

async function startServer(dataDir: string): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  // One process (node with tsx's loader), so that its pid is the server's.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, GATEFLOW_DB_DIR: dataDir, DATABASE_URL: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`gateflow serve exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function readAllPages(url: string, sessionId: string): Promise<{ pages: number; bytes: number; largestPage: number }> {
  let after = 0;
  let pages = 0;
  let bytes = 0;
  let largestPage = 0;
  for (;;) {
    const response = await fetch(`${url}/api/sessions/${sessionId}?after=${after}&limit=${MAX_HISTORY_PAGE_SIZE}`);
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET page after ${after}: ${response.status} ${text.slice(0, 200)}`);
    pages++;
    bytes += text.length;
    largestPage = Math.max(largestPage, text.length);
    const page = JSON.parse(text) as { nextAfter: number | null };
    if (page.nextAfter === null) return { pages, bytes, largestPage };
    after = page.nextAfter;
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'gateflow-bench-largest-'));
try {
  const t0 = performance.now();
  const sessionId = await writeLargestSession(dataDir);
  console.log(`largest session: ${TURNS} turns of ${MAX_TURN_TEXT_LENGTH} characters written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const server = await startServer(dataDir);
  try {
    // Warm up the routes once, then measure from the settled resident size.
    await readAllPages(server.url, sessionId);
    const idle = memoryOf(server.pid);
    let peak = idle.rss;
    const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(server.pid).rss)), 5);
    const t1 = performance.now();
    const whole = await Promise.all(Array.from({ length: READERS }, () => readAllPages(server.url, sessionId)));
    const firstPages = await Promise.all(
      Array.from({ length: READERS }, () => fetch(`${server.url}/api/sessions/${sessionId}`).then((r) => r.text())),
    );
    clearInterval(sampler);
    const seconds = (performance.now() - t1) / 1000;
    console.table([
      {
        readers: READERS,
        'pages per reader': whole[0]!.pages,
        'whole history (MB)': (whole[0]!.bytes / 1e6).toFixed(2),
        'largest page (KB)': Math.round(whole[0]!.largestPage / 1e3),
        'default page (KB)': Math.round(firstPages[0]!.length / 1e3),
        'RSS idle (MB)': idle.rss.toFixed(0),
        'RSS peak while reading (MB)': peak.toFixed(0),
        'RSS growth (MB)': (peak - idle.rss).toFixed(0),
        'read time (s)': seconds.toFixed(2),
      },
    ]);
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
