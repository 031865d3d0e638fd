import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { flowWorkflow, parseFlowText, type FlowDocument } from '../flow/index.js';
import type { Workflow } from '../workflow/types.js';
import { closestName as closest } from '../extract/suggest.js';
import { FlowDirectoryError, loadFlowsDir, packageRoot } from '../flow-files/index.js';

const ROOT = packageRoot();

/** The example flows shipped with the package. */
export const EXAMPLE_FLOWS_DIR = join(ROOT, 'machines', 'flows') + '/';

/** Layouts of the example flows made at build time (`npm run build:layouts`), served before any is laid out. */
export const BUNDLED_LAYOUTS_FILE = join(ROOT, 'machines', 'layouts.generated.json');

/** The demo page, built by `npm run build:demo` (vite) into dist/demo at the package root. */
export const DEMO_DIR = join(ROOT, 'dist', 'demo') + '/';

/** What `serve` says when there is no demo page: built in gateflow's own repository, never shipped in the package. */
export const NO_DEMO_PAGE = existsSync(join(ROOT, 'demo', 'index.html'))
  ? 'gateflow: no demo page (run npm run build:demo)'
  : 'gateflow: the API alone (the demo page and the viewer are built in gateflow\'s repository, not shipped in the package)';

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

/** The names of the example flows (`patient-intake`, ...), sorted. */
export function exampleFlowNames(): string[] {
  try {
    return readdirSync(EXAMPLE_FLOWS_DIR)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -'.json'.length))
      .sort();
  } catch {
    return [];
  }
}

/**
 * Resolves `<flow>`: a path to a JSON file, or the name of an example flow.
 * Neither is a usage error (exit 2) that lists the example flows, and names
 * the one probably meant.
 */
export function resolveFlowPath(arg: string): string {
  if (existsSync(arg)) return arg;
  const named = `${EXAMPLE_FLOWS_DIR}${arg.replace(/\.json$/, '')}.json`;
  if (!arg.includes('/') && existsSync(named)) return named;
  const names = exampleFlowNames();
  const guess = closest(arg.replace(/\.json$/, ''), names);
  const available = `available: ${names.join(', ')}`;
  if (arg.includes('/') || arg.endsWith('.json')) throw new CliError(`no such file "${arg}"; a flow is a JSON file or the name of an example flow (${available})`, 2);
  throw new CliError(`unknown flow "${arg}"${guess ? `; did you mean ${guess}? ${available}` : `; ${available}`}`, 2);
}

/** Reads and checks a flow file; a bad document throws FlowDocumentError naming the file. */
export function readFlow(arg: string): { flow: FlowDocument; path: string } {
  const path = resolveFlowPath(arg);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw cannotRead(path, error);
  }
  return { flow: parseFlowText(text, path), path };
}

/** Whether a chat argument names a module whose default export is a workflow (a hand-written machine), not a flow document. */
const isModulePath = (arg: string) => /\.(m?js|ts)$/.test(arg);

/**
 * The workflow a chat runs: a flow document (a path or an example's name), or
 * a module whose default export is a workflow (`defineWorkflow(...)`).
 */
export async function readWorkflow(arg: string): Promise<Workflow> {
  if (!isModulePath(arg)) return flowWorkflow(readFlow(arg).flow);
  const path = resolve(arg);
  let module: { default?: unknown };
  try {
    module = (await importModule(path)) as { default?: unknown };
  } catch (error) {
    throw new CliError(`cannot load ${path}: ${(error as Error).message}`);
  }
  const workflow = module.default as Partial<Workflow> | undefined;
  if (!workflow || typeof workflow.id !== 'string' || typeof workflow.machine !== 'function' || typeof workflow.reply !== 'function' || typeof workflow.toEvent !== 'function')
    throw new CliError(`${path}: its default export is not a workflow (make it with defineWorkflow)`);
  return workflow as Workflow;
}

/**
 * Imports a workflow module. A TypeScript file goes through tsx when Node
 * cannot strip its types itself (before Node 22.18): tsx is looked up from the
 * file's folder (the app's own dependencies), and when it is not there the
 * error says what to do.
 */
async function importModule(path: string): Promise<unknown> {
  try {
    return await import(pathToFileURL(path).href);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_UNKNOWN_FILE_EXTENSION' || !/\.[mc]?ts$/.test(path)) throw error;
    let api: string;
    try {
      api = tsxEsmApi(createRequire(path).resolve('tsx/package.json'));
    } catch {
      throw new Error(`this Node (${process.version}) cannot load TypeScript by itself: install tsx in your app (npm install -D tsx), use Node 22.18 or later, or compile the workflow to .js`);
    }
    const { tsImport } = (await import(pathToFileURL(api).href)) as { tsImport: (specifier: string, parent: string) => Promise<unknown> };
    return tsImport(pathToFileURL(path).href, import.meta.url);
  }
}

/** tsx's ESM API (`tsx/esm/api`, its `import` condition) from the path of its package.json. */
function tsxEsmApi(manifest: string): string {
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown> };
  const entry = exports?.['./esm/api'] as { import?: string | { default?: string } } | undefined;
  const target = typeof entry?.import === 'string' ? entry.import : entry?.import?.default;
  if (!target) throw new Error('tsx has no ESM API');
  return join(dirname(manifest), target);
}

export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw cannotRead(path, error);
  }
}

/** A file that cannot be read, said plainly (a failure at run time, exit 1), not as Node's error code. */
function cannotRead(path: string, error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new CliError(`no such file "${path}"`);
  if (code === 'EISDIR') return new CliError(`"${path}" is a directory; give a file`);
  if (code === 'EACCES') return new CliError(`no permission to read "${path}"`);
  return new CliError(`cannot read "${path}": ${(error as Error).message}`);
}

/** Every flow document in a directory, checked (see `loadFlowsDir`): a refused directory is a CLI failure (exit 1) with the whole list. */
export function readFlowsDir(dir: string): FlowDocument[] {
  try {
    return loadFlowsDir(dir);
  } catch (error) {
    if (error instanceof FlowDirectoryError) throw new CliError(error.message);
    throw error;
  }
}
