import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time of the files under `paths` (relative to `root`): to tell a stale build. */
export function newestMtime(root: string, paths: string[]): number {
  let newest = 0;
  const walk = (path: string) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const path of paths) walk(join(root, path));
  return newest;
}
