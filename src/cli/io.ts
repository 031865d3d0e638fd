import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFlowText, type FlowDocument } from '../flow/index.js';

/** The example flows shipped with the package (src/cli → machines/flows, and dist/cli alike). */
export const EXAMPLE_FLOWS_DIR = fileURLToPath(new URL('../../machines/flows/', import.meta.url));

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
