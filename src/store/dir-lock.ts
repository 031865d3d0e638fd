/**
 * One process per PGlite directory. PGlite has no postmaster to turn a second
 * opener away, so two processes on one directory corrupt each other's data;
 * the store takes this lock before PGlite opens the directory.
 *
 * The lock is the file `<dir>/gateflow.lock` (JSON: pid, hostname, command,
 * start time, a random token). It lives inside the directory: tried with
 * PGlite 0.5, a foreign file in an empty directory does not disturb initdb and
 * one in an initialized directory does not disturb a reopen. Inside, the lock
 * follows the directory (moved, mounted, copied) and needs no write access to
 * the parent.
 *
 * Files are created complete or not at all: written under a temporary name,
 * then hard-linked to their name (link fails if the name exists, like `wx`,
 * but a reader never sees a half-written file). Synchronous on purpose: it
 * runs once at start-up, and `createPgliteClient` is synchronous.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, linkSync, openSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { GateflowError } from '../error/gateflow-error.js';

export const LOCK_FILE = 'gateflow.lock';

/** The process a lock belongs to. */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** Its command line, shortened. */
  command?: string;
  /** When that process started (ISO 8601). */
  startedAt: string;
}

/** The directory is held by another live process (or already open in this one). */
export class DirectoryLockedError extends GateflowError {
  override readonly name = 'DirectoryLockedError';
  readonly code = 'store_locked';
  readonly status = 503;
  /** The absolute directory. */
  readonly dir: string;
  readonly holder: LockHolder;
  constructor(dir: string, holder: LockHolder) {
    const here = holder.hostname === hostname();
    const who =
      here && holder.pid === process.pid
        ? `this process (pid ${holder.pid}): close the other store first`
        : `process ${holder.pid}${holder.command ? ` (${holder.command})` : ''} on host ${holder.hostname}, started ${holder.startedAt}: stop it` +
          // We cannot tell whether a process on another host is alive, so that lock is never taken over.
          (here ? '' : ` (if it is gone, delete ${join(dir, LOCK_FILE)})`);
    // One line, whatever the command line or the path contain.
    super(`PGlite directory ${dir} is in use by ${who}, or use PostgreSQL (DATABASE_URL) for several processes`.replace(/[\r\n]+/g, ' '));
    this.dir = dir;
    this.holder = holder;
  }
}

export interface DirectoryLock {
  /** The absolute directory. */
  readonly dir: string;
  /** Deletes the lock file (if it is still ours). Idempotent. */
  release(): void;
}

/** What the lock file holds: the holder, the /proc start time that tells a reused pid, and a token that tells our file from another. */
interface LockRecord extends LockHolder {
  procStart: string | null;
  token: string;
}

/** A lock file as read: `id` names this very file (inode, mtime, content); `record` is null when it is empty or garbled. */
interface Seen {
  id: string;
  record: LockRecord | null;
}

/** The locks this process holds, by lock file path: a second open in the same process is refused. */
const held = new Map<string, { record: LockRecord; release: () => void }>();
let exitHook = false;

/** The names of takeover claims (not the temporary files next to them). */
const CLAIM = /^gateflow\.lock\.takeover-[0-9a-f]+-\d+$/;

/** How long to keep trying while another process takes a stale lock over. */
const ACQUIRE_TIMEOUT_MS = 5_000;

/**
 * Takes the lock on `dir` (which must exist) or throws {@link DirectoryLockedError}.
 * A lock left by a dead process on this host is taken over.
 */
export function acquireDirectoryLock(dir: string): DirectoryLock {
  const abs = resolve(dir);
  const file = join(realpathSync(abs), LOCK_FILE);
  const mine = held.get(file);
  if (mine) throw new DirectoryLockedError(abs, holderOf(mine.record));

  const record = ownRecord();
  const content = `${JSON.stringify(record)}\n`;
  const deadline = Date.now() + ACQUIRE_TIMEOUT_MS;
  let last: LockRecord | null = null;
  while (Date.now() < deadline) {
    if (createExclusive(file, content)) return register(abs, file, record);
    const seen = read(file);
    if (!seen) continue; // released in between: try again
    if (seen.record === null) {
      // Empty or garbled: a crash while writing, or (without hard links) a writer still at it. Look again.
      sleep(100);
      if (read(file)?.id !== seen.id) continue;
    } else if (!isStale(seen.record)) {
      throw new DirectoryLockedError(abs, holderOf(seen.record));
    }
    const outcome = takeOver(file, seen, content);
    if (outcome === true) return register(abs, file, record);
    if (outcome) last = outcome;
    sleep(20 + Math.random() * 30); // someone else is taking it over: look again
  }
  if (last) throw new DirectoryLockedError(abs, holderOf(last));
  throw new Error(`could not lock the PGlite directory ${abs}: ${file} keeps changing`);
}

/**
 * Replaces the stale lock `stale` with ours. Race-safe: deleting a file by name
 * is not compare-and-swap (A deletes the stale lock and writes its own, B
 * then deletes A's believing it stale, and both think they won), so a
 * takeover first creates a claim `gateflow.lock.takeover-<id of the stale
 * file>-<n>`. Creating it is exclusive, so one process only works on that
 * stale file; with the claim it checks the lock is still that very file and
 * renames its own over it (atomic: the name is never missing). A loser finds
 * the claim, or finds the lock changed, and starts over, now seeing a live
 * holder. A claimant that died mid-takeover leaves its claim: the next one
 * uses claim n+1 (no claim is ever deleted while its stale file can still be
 * replaced, so no two live processes hold claims on the same file).
 * Returns true when won, else the live claimant if one was seen.
 */
function takeOver(file: string, stale: Seen, content: string): true | LockRecord | null {
  for (let n = 0; ; n++) {
    const claim = `${file}.takeover-${stale.id}-${n}`;
    if (!createExclusive(claim, content)) {
      const claimant = read(claim);
      if (claimant?.record && !isStale(claimant.record)) return claimant.record; // a live process is at it
      if (claimant?.record === null) {
        // Never half-written with hard links; without them, give its writer a moment.
        sleep(100);
        if (read(claim)?.id !== claimant.id) return null;
      }
      continue; // its claimant died mid-takeover, or a winner removed it (claim n+1 will find the lock changed)
    }
    if (read(file)?.id !== stale.id) {
      rmSync(claim, { force: true });
      return null;
    }
    const tmp = tempName(file);
    writeFileSync(tmp, content);
    renameSync(tmp, file);
    // Every claim is obsolete now (claims only name files that are gone); others' temporary files are not.
    for (const name of readdirSync(dirname(file))) if (CLAIM.test(name)) rmSync(join(dirname(file), name), { force: true });
    return true;
  }
}

function register(dir: string, file: string, record: LockRecord): DirectoryLock {
  const release = () => {
    if (held.get(file)?.record.token !== record.token) return;
    held.delete(file);
    try {
      if (read(file)?.record?.token === record.token) unlinkSync(file);
    } catch {
      // The directory may be gone already (a removed temp dir): nothing to release.
    }
  };
  held.set(file, { record, release });
  if (!exitHook) {
    exitHook = true;
    // A store never closed: the lock goes with the process (sync, as 'exit' requires).
    process.on('exit', () => {
      for (const lock of [...held.values()]) lock.release();
    });
  }
  return { dir, release };
}

/**
 * Stale: on this host, and the pid is gone (or a zombie), or it is alive with
 * another start time (the pid was reused), or it is our own pid while this
 * process holds no such lock. A lock from another host is never stale: we
 * cannot see its processes.
 */
function isStale(record: LockRecord): boolean {
  if (record.hostname !== hostname()) return false;
  if (record.pid === process.pid) return true; // `held` was checked first
  try {
    process.kill(record.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
    // EPERM: alive, another user's.
  }
  const stat = procStat(record.pid);
  if (stat === null) return false; // no /proc (macOS): alive as far as we can tell
  return stat.state === 'Z' || stat.state === 'X' || (record.procStart !== null && stat.startTime !== record.procStart);
}

/** Fields 3 (state) and 22 (starttime, in clock ticks after boot) of /proc/<pid>/stat; null without /proc. */
function procStat(pid: number): { state: string; startTime: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2, the command name in parentheses, may itself hold spaces and parentheses.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return fields[19] === undefined ? null : { state: fields[0]!, startTime: fields[19] };
  } catch {
    return null;
  }
}

function ownRecord(): LockRecord {
  const command = [basename(process.argv0 || process.execPath), ...process.argv.slice(1)].join(' ');
  return {
    pid: process.pid,
    hostname: hostname(),
    command: command.length > 160 ? `${command.slice(0, 159)}…` : command,
    startedAt: new Date(performance.timeOrigin).toISOString(),
    procStart: procStat(process.pid)?.startTime ?? null,
    token: randomBytes(12).toString('hex'),
  };
}

function holderOf(record: LockRecord): LockHolder {
  const { pid, hostname, command, startedAt } = record;
  return { pid, hostname, ...(command !== undefined && { command }), startedAt };
}

/** The file and what it names, or null when there is none. Read through one descriptor, so the id and content belong together. */
function read(file: string): Seen | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    const text = readFileSync(fd, 'utf8');
    const id = createHash('sha1').update(`${stat.ino}:${stat.mtimeNs}:${text}`).digest('hex').slice(0, 16);
    return { id, record: parse(text) };
  } finally {
    closeSync(fd);
  }
}

function parse(text: string): LockRecord | null {
  try {
    const r = JSON.parse(text) as Partial<LockRecord> | null;
    const ok =
      typeof r === 'object' &&
      r !== null &&
      Number.isInteger(r.pid) &&
      (r.pid as number) > 0 &&
      typeof r.hostname === 'string' &&
      typeof r.startedAt === 'string' &&
      typeof r.token === 'string' &&
      (r.procStart === null || typeof r.procStart === 'string') &&
      (r.command === undefined || typeof r.command === 'string');
    return ok ? (r as LockRecord) : null;
  } catch {
    return null;
  }
}

/** Creates `file` with `content` unless it exists; true when created. */
function createExclusive(file: string, content: string): boolean {
  const tmp = tempName(file);
  writeFileSync(tmp, content);
  try {
    linkSync(tmp, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    // A file system without hard links (FAT, some network shares): `wx`, briefly empty (see the garbled case above).
    try {
      writeFileSync(file, content, { flag: 'wx' });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  } finally {
    rmSync(tmp, { force: true });
  }
}

const tempName = (file: string) => `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
