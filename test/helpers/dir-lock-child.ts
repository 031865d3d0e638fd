/**
 * A process that takes directory locks when told, for test/store/dir-lock.test.ts.
 * Run with `node --import tsx`. One JSON command per stdin line, one JSON answer per stdout line:
 *   { "op": "acquire", "dir": "...", "at": <epoch ms, optional: spin until then, to race> }
 *     -> { "result": "won" } | { "result": "refused", "holderPid": n, "message": "..." } | { "result": "error", "message": "..." }
 *   { "op": "release" } -> { "result": "released" }
 * Exits when stdin ends (a lock still held is released by the exit hook).
 */
import { createInterface } from 'node:readline';
import { acquireDirectoryLock, DirectoryLockedError, type DirectoryLock } from '../../src/store/dir-lock.js';

const held: DirectoryLock[] = [];
const answer = (value: object) => process.stdout.write(`${JSON.stringify(value)}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as { op: 'acquire'; dir: string; at?: number } | { op: 'release' };
  if (command.op === 'release') {
    for (const lock of held.splice(0)) lock.release();
    answer({ result: 'released' });
    continue;
  }
  if (command.at !== undefined) {
    if (command.at - Date.now() > 20) await new Promise((r) => setTimeout(r, command.at! - Date.now() - 20));
    while (Date.now() < command.at); // the last milliseconds spinning, so that the racers start together
  }
  try {
    held.push(acquireDirectoryLock(command.dir));
    answer({ result: 'won' });
  } catch (error) {
    if (error instanceof DirectoryLockedError) answer({ result: 'refused', holderPid: error.holder.pid, message: error.message });
    else answer({ result: 'error', message: String(error) });
  }
}
