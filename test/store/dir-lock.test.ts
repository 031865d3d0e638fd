/**
 * One process per PGlite directory: the lock file, its stale-lock takeover
 * (dead pid, reused pid, our own pid, garbled file, several processes racing),
 * the stores that take it, and two real `gateflow serve` processes on one
 * directory.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { acquireDirectoryLock, DirectoryLockedError, LOCK_FILE, type DirectoryLock } from '../../src/store/dir-lock.js';
import { createPgliteClient, createPgliteStore } from '../../src/store/pglite.js';
import { templateDataDir } from '../helpers/pglite-template.js';
import { PATIENCE_MS } from '../helpers/patience.js';
import { cliArgs } from '../helpers/cli.js';
import { NO_WARM_LAYOUTS, SERVE_NODE_ARGS } from '../helpers/serve-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LOCKER = join(ROOT, 'test', 'helpers', 'dir-lock-child.ts');
/** A fresh PGlite directory takes several seconds to initialize (more on a busy machine). */
const START_TIMEOUT = PATIENCE_MS;

let base: string;
let count = 0;
const children = new Set<ChildProcessWithoutNullStreams>();
const locks: DirectoryLock[] = [];

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'gateflow-dir-lock-'));
});
afterEach(async () => {
  for (const lock of locks.splice(0)) lock.release();
  await Promise.all([...children].map(kill));
  children.clear();
});
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = join(base, `d${++count}`);
  mkdirSync(dir);
  return dir;
}

function acquire(dir: string): DirectoryLock {
  const lock = acquireDirectoryLock(dir);
  locks.push(lock);
  return lock;
}

const lockFile = (dir: string) => join(dir, LOCK_FILE);
const lockRecord = (dir: string) => JSON.parse(readFileSync(lockFile(dir), 'utf8')) as { pid: number; hostname: string; token: string };

/** Writes a lock file as another process would have. */
function writeLock(dir: string, fields: { pid: number; hostname?: string; procStart?: string | null }): void {
  const record = {
    pid: fields.pid,
    hostname: fields.hostname ?? hostname(),
    command: 'node old-server.js',
    startedAt: '2020-01-01T00:00:00.000Z',
    procStart: fields.procStart ?? null,
    token: 'someone-elses',
  };
  writeFileSync(lockFile(dir), JSON.stringify(record));
}

/** Field 22 of /proc/<pid>/stat: when the process started. */
function procStart(pid: number): string {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ')[19]!;
}

function track(child: ChildProcessWithoutNullStreams): ChildProcessWithoutNullStreams {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function kill(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

/** The pid of a process that has exited (and been reaped). */
async function deadPid(): Promise<number> {
  const child = track(spawn(process.execPath, ['-e', '']));
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

/** A live process that does nothing. */
function idleProcess(): ChildProcessWithoutNullStreams {
  return track(spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']));
}

interface LockerAnswer {
  result: 'won' | 'refused' | 'released' | 'error';
  holderPid?: number;
  message?: string;
}

/** test/helpers/dir-lock-child.ts in a process of its own. */
function startLocker() {
  const child = track(spawn(process.execPath, ['--import', 'tsx', LOCKER], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } }));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const send = async (command: object): Promise<LockerAnswer> => {
    child.stdin.write(`${JSON.stringify(command)}\n`);
    const next = await lines.next();
    if (next.done) throw new Error(`the locker exited:\n${stderr}`);
    return JSON.parse(next.value as string) as LockerAnswer;
  };
  return { pid: child.pid!, send, acquire: (dir: string, at?: number) => send({ op: 'acquire', dir, at }), release: () => send({ op: 'release' }) };
}

function expectLocked(fn: () => unknown): DirectoryLockedError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DirectoryLockedError);
    return error as DirectoryLockedError;
  }
  throw new Error('expected DirectoryLockedError, got no error');
}

describe('acquireDirectoryLock', () => {
  it('refuses a second lock on a directory this process holds; released, it can be taken again', () => {
    const dir = freshDir();
    const lock = acquire(relative(process.cwd(), dir));
    expect(lockRecord(dir)).toMatchObject({ pid: process.pid, hostname: hostname() });

    const error = expectLocked(() => acquireDirectoryLock(dir));
    expect(error.dir).toBe(dir);
    expect(error.holder.pid).toBe(process.pid);
    expect(error.message).toContain(dir);
    expect(error.message).toContain(`this process (pid ${process.pid})`);
    expect(error.message).not.toContain('\n');

    lock.release();
    expect(existsSync(lockFile(dir))).toBe(false);
    lock.release(); // idempotent
    acquire(dir).release();
  });

  it('takes over the lock of a process that has exited', async () => {
    const dir = freshDir();
    const pid = await deadPid();
    writeLock(dir, { pid });
    acquire(dir);
    expect(lockRecord(dir).pid).toBe(process.pid);
  });

  it('a live pid with another start time is a reused pid: stale; with its own start time: refused', async () => {
    const idle = idleProcess();
    const pid = idle.pid!;
    // Set at fork: the same before and after exec.
    const start = procStart(pid);

    const reused = freshDir();
    writeLock(reused, { pid, procStart: String(Number(start) + 12345) });
    acquire(reused);
    expect(lockRecord(reused).pid).toBe(process.pid);

    const alive = freshDir();
    writeLock(alive, { pid, procStart: start });
    expect(expectLocked(() => acquireDirectoryLock(alive)).holder.pid).toBe(pid);
  });

  it('a lock with our own pid that this process does not hold is stale (left by an earlier process with the same pid)', () => {
    const dir = freshDir();
    writeLock(dir, { pid: process.pid });
    acquire(dir);
    expect(lockRecord(dir).token).not.toBe('someone-elses');
  });

  it('refuses a lock held by another live process, naming its pid and the directory', async () => {
    const dir = freshDir();
    const other = startLocker();
    expect(await other.acquire(dir)).toEqual({ result: 'won' });

    const error = expectLocked(() => acquireDirectoryLock(dir));
    expect(error.holder).toMatchObject({ pid: other.pid, hostname: hostname() });
    expect(error.message).toContain(`PGlite directory ${dir} is in use by process ${other.pid}`);
    expect(error.message).toMatch(/stop it, or use PostgreSQL \(DATABASE_URL\) for several processes$/);
    expect(error.message).not.toContain('\n');

    // The other way round: ours is refused to it.
    expect(await other.release()).toEqual({ result: 'released' });
    acquire(dir);
    expect(await other.acquire(dir)).toMatchObject({ result: 'refused', holderPid: process.pid });
  });

  it('never takes over a lock from another host, and says which', async () => {
    const dir = freshDir();
    writeLock(dir, { pid: await deadPid(), hostname: 'elsewhere.invalid' });
    const error = expectLocked(() => acquireDirectoryLock(dir));
    expect(error.holder.hostname).toBe('elsewhere.invalid');
    expect(error.message).toContain('on host elsewhere.invalid');
    expect(error.message).toContain(`delete ${lockFile(dir)}`);
  });

  it.each([
    ['empty', ''],
    ['cut off', '{"pid":12'],
    ['some other JSON', '{"hello":"world"}'],
  ])('a lock file that is %s (a crash while writing) is stale after a second look', (_, text) => {
    const dir = freshDir();
    writeFileSync(lockFile(dir), text);
    acquire(dir);
    expect(lockRecord(dir).pid).toBe(process.pid);
  });

  it(
    'of several processes racing for one stale lock, exactly one wins and the others name it',
    async () => {
      const racers = Array.from({ length: 4 }, startLocker);
      // Loaded and warm before racing.
      for (const racer of racers) {
        expect(await racer.acquire(freshDir())).toEqual({ result: 'won' });
        await racer.release();
      }
      const rounds = 20;
      for (let round = 0; round < rounds; round++) {
        const dir = freshDir();
        if (round % 2) writeFileSync(lockFile(dir), '');
        else writeLock(dir, { pid: await deadPid() });
        const at = Date.now() + 150;
        const answers = await Promise.all(racers.map((racer) => racer.acquire(dir, at)));
        const winners = racers.filter((_, i) => answers[i]!.result === 'won');
        expect(winners, JSON.stringify(answers)).toHaveLength(1);
        expect(answers.filter((a) => a.result === 'refused').map((a) => a.holderPid), JSON.stringify(answers)).toEqual([winners[0]!.pid, winners[0]!.pid, winners[0]!.pid]);
        expect(lockRecord(dir).pid).toBe(winners[0]!.pid);
        await Promise.all(racers.map((racer) => racer.release()));
        expect(readdirSync(dir)).toEqual([]); // no lock, claim or temporary file left
      }
    },
  );
});

describe('the PGlite store locks its directory', () => {
  it('a second store or client on an open directory is refused; closed, it opens again', async () => {
    const dir = templateDataDir('plain', freshDir());
    const store = await createPgliteStore({ dataDir: dir });
    try {
      await expect(createPgliteStore({ dataDir: dir })).rejects.toBeInstanceOf(DirectoryLockedError);
      expect(() => createPgliteClient({ dataDir: dir })).toThrow(DirectoryLockedError);
      expect(await store.load('nobody')).toBeNull(); // the first one is unharmed
    } finally {
      await store.close();
    }
    expect(existsSync(lockFile(dir))).toBe(false);
    const reopened = await createPgliteStore({ dataDir: dir });
    expect(lockRecord(dir).pid).toBe(process.pid);
    await reopened.close();
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  it('releases the directory when PGlite fails to open it', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'PG_VERSION'), 'not a version\n');
    await expect(createPgliteStore({ dataDir: dir })).rejects.toThrow();
    expect(existsSync(lockFile(dir))).toBe(false);
    acquire(dir);
  });
});

describe('gateflow serve: two processes on one PGlite directory', () => {
  const env = () => {
    const clean: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };
    for (const key of ['DATABASE_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'GATEFLOW_MODEL', 'GATEFLOW_JWT_SECRET', 'PORT']) delete clean[key];
    return clean;
  };

  /**
   * `gateflow serve --port 0`, the bundled CLI run by node itself (not the tsx CLI: that one runs
   * the server in a child process of its own, so its pid would not be the holder's and SIGKILL
   * would not reach the server).
   */
  function serve(dbDir: string) {
    const child = track(spawn(process.execPath, [...SERVE_NODE_ARGS, ...cliArgs('serve', '--port', '0', NO_WARM_LAYOUTS)], { cwd: ROOT, env: { ...env(), GATEFLOW_DB_DIR: dbDir } }));
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal!)));
    const listening = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening" within ${START_TIMEOUT} ms:\n${stdout}${stderr}`)), START_TIMEOUT);
      child.stdout.on('data', () => {
        const match = /listening on (http:\/\/\S+)/.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      void exited.then((how) => {
        clearTimeout(timer);
        reject(new Error(`the server exited (${how}) before listening:\n${stdout}${stderr}`));
      });
    });
    listening.catch(() => undefined); // awaited by the tests that expect it
    return { child, pid: child.pid!, listening, exited, stdout: () => stdout, stderr: () => stderr };
  }

  async function call(url: string, method: string, path: string): Promise<{ status: number; json: { sessionId?: string } & Record<string, unknown> }> {
    const body = method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {};
    const response = await fetch(`${url}${path}`, { method, ...body, signal: AbortSignal.timeout(PATIENCE_MS) });
    return { status: response.status, json: (await response.json()) as { sessionId?: string } & Record<string, unknown> };
  }

  it(
    'the second is refused with one line naming the directory and the first pid; after the first is SIGKILLed, the next takes over with the data intact',
    async () => {
      // A directory that does not exist yet: the first server makes it (initdb, migrations, AGE). Of the tests of
      // `gateflow serve`, this is the one that starts on a new directory; the others copy the migrated template.
      const dir = join(base, 'served');
      const t0 = Date.now();
      const first = serve(dir);
      const url = await first.listening;
      const firstReady = Date.now() - t0;
      const created = await call(url, 'POST', '/api/flows/patient-intake/sessions');
      expect(created.status).toBe(201);
      const sessionId = created.json.sessionId!;
      const before = await call(url, 'GET', `/api/sessions/${sessionId}`);
      expect(before.status).toBe(200);

      const t1 = Date.now();
      const second = serve(dir);
      // Refused: it exits, and does not get as far as listening.
      expect(await Promise.race([second.exited, second.listening.then(() => 'listening')])).toBe(1);
      const secondExit = Date.now() - t1;
      const lines = second.stderr().split('\n').filter(Boolean);
      console.log(`second process stderr (exit 1 after ${secondExit} ms): ${second.stderr().trimEnd()}`);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^gateflow: PGlite directory /);
      expect(lines[0]).toContain(dir);
      expect(lines[0]).toContain(`process ${first.pid} `);
      expect(second.stdout()).not.toContain('listening');
      // The first is still serving.
      expect((await call(url, 'GET', `/api/sessions/${sessionId}`)).status).toBe(200);

      await kill(first.child);
      expect(first.child.signalCode).toBe('SIGKILL');
      expect(lockRecord(dir).pid).toBe(first.pid); // left behind
      const t2 = Date.now();
      const third = serve(dir);
      const url3 = await third.listening;
      console.log(`first listening after ${firstReady} ms (initdb); after SIGKILL, the third took the stale lock over and listened after ${Date.now() - t2} ms`);
      expect(lockRecord(dir).pid).toBe(third.pid);
      const after = await call(url3, 'GET', `/api/sessions/${sessionId}`);
      expect(after.status).toBe(200);
      expect(after.json).toEqual(before.json);
    },
  );
});
