import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { FlowDocument } from '../flow/schema.js';
import { readFlow } from './io.js';

/** How long a file must stay unchanged before it is read (editors write in several steps). */
const SETTLE_MS = 200;

/**
 * `serve --watch`: the flow documents in `dir` read again when they change.
 * A document that parses and differs from what is served is handed to
 * `onFlow`; one that does not parse is reported (the served one stays).
 * Returns the function that stops watching.
 */
export function watchFlows(
  dir: string,
  served: () => readonly FlowDocument[],
  onFlow: (flow: FlowDocument, file: string) => void,
  onRefused: (message: string) => void,
): () => void {
  const timers = new Map<string, NodeJS.Timeout>();
  const read = (file: string) => {
    timers.delete(file);
    const path = join(dir, file);
    let flow: FlowDocument;
    try {
      flow = readFlow(path).flow;
    } catch (error) {
      // A file removed (or renamed away) while an editor saves is not a mistake in it.
      if ((error as Error).message.includes('ENOENT')) return;
      onRefused(`${path}: ${(error as Error).message}`);
      return;
    }
    const before = served().find((f) => f.id === flow.id);
    if (before && JSON.stringify(before) === JSON.stringify(flow)) return;
    onFlow(flow, path);
  };
  const watcher: FSWatcher = watch(dir, (_event, file) => {
    if (typeof file !== 'string' || !file.endsWith('.json')) return;
    clearTimeout(timers.get(file));
    timers.set(file, setTimeout(() => read(file), SETTLE_MS));
  });
  return () => {
    watcher.close();
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
  };
}
