import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFlowText, type FlowDocument } from '../flow/index.js';

/** The package's root: the nearest folder up from this file with gateflow's package.json (from src/ and dist/ alike). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'gateflow') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('gateflow: cannot find the package root');
    dir = up;
  }
}
const ROOT = packageRoot();

/** The example flows shipped with the package. */
export const EXAMPLE_FLOWS_DIR = join(ROOT, 'machines', 'flows') + '/';

/** The demo page, built by `npm run build:demo` (vite) into dist/demo at the package root. */
export const DEMO_DIR = join(ROOT, 'dist', 'demo') + '/';

/** A CLI failure: printed on stderr, with the exit code. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Resolves `<flow>`: a path to a JSON file, or the name of an example flow. */
export function resolveFlowPath(arg: string): string {
  if (existsSync(arg)) return arg;
  const named = `${EXAMPLE_FLOWS_DIR}${arg.replace(/\.json$/, '')}.json`;
  if (!arg.includes('/') && existsSync(named)) return named;
  throw new CliError(`cannot find flow "${arg}": not a file, nor an example flow in ${EXAMPLE_FLOWS_DIR}`);
}

/** Reads and checks a flow file; a bad document throws FlowDocumentError naming the file. */
export function readFlow(arg: string): { flow: FlowDocument; path: string } {
  const path = resolveFlowPath(arg);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
  return { flow: parseFlowText(text, path), path };
}

export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** Every flow document in a directory (`*.json`), checked; the first bad one throws. */
export function readFlowsDir(dir: string): FlowDocument[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  } catch (error) {
    throw new CliError(`cannot read flows from ${dir}: ${(error as Error).message}`);
  }
  return files.map((f) => readFlow(join(dir, f)).flow);
}
