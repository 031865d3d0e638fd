/**
 * Flow documents on disk (Node only): a directory of flow files read and
 * checked as a whole, and where the example flows are. The application side
 * of flows, as the CLI is: `gateflow/server` offers it beside `startServer`,
 * which itself knows workflows, not flow documents.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GateflowError } from '../error/gateflow-error.js';
import { FlowDocumentError } from '../flow/errors.js';
import { parseFlowText } from '../flow/parse.js';
import type { FlowDocument } from '../flow/schema.js';

/** The most flow files one directory may hold: a bound on what a server loads at start. */
export const MAX_FLOW_FILES = 1000;

/** A flow directory that cannot be served: unreadable, empty, or with refused documents (each listed with its problems). */
export class FlowDirectoryError extends GateflowError {
  override readonly name = 'FlowDirectoryError';
  readonly code = 'invalid_flow_directory';
  readonly status = 500;
}

/**
 * Every flow document in a directory (`*.json`, not its subfolders), checked
 * and sorted by file name: what `gateflow serve --flows DIR` serves. Every
 * file that cannot be read or is refused is reported at once, with all its
 * problems, so that an author fixing a folder sees the whole list.
 */
export function loadFlowsDir(dir: string): FlowDocument[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  } catch (error) {
    throw new FlowDirectoryError(`cannot read flows from ${dir}: ${(error as Error).message}`);
  }
  if (files.length === 0) throw new FlowDirectoryError(`no flow documents (*.json) in ${dir}`);
  if (files.length > MAX_FLOW_FILES) throw new FlowDirectoryError(`${dir} holds ${files.length} flow files; at most ${MAX_FLOW_FILES} are served`);
  const flows: FlowDocument[] = [];
  const refused: string[] = [];
  for (const f of files) {
    const path = join(dir, f);
    try {
      flows.push(parseFlowText(readFileSync(path, 'utf8'), path));
    } catch (error) {
      if (error instanceof FlowDocumentError) refused.push(error.message);
      else if ((error as { code?: unknown }).code !== undefined) refused.push(`cannot read ${path}: ${(error as Error).message}`);
      else throw error;
    }
  }
  if (refused.length > 0)
    throw new FlowDirectoryError(`${refused.length} of ${files.length} flow files in ${dir} ${refused.length === 1 ? 'is' : 'are'} invalid:\n${refused.join('\n')}`);
  return flows;
}

/** The example flows shipped with gateflow (`machines/flows`, also importable as `gateflow/flows/<name>.json`). */
export function exampleFlowsDir(): string {
  return join(packageRoot(), 'machines', 'flows');
}

/** The package's root: the nearest folder up from this file with gateflow's package.json (from src/ and dist/ alike). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'gateflow') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('gateflow: cannot find the package root');
    dir = up;
  }
}
