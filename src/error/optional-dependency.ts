import { GateflowError } from './gateflow-error.js';

/**
 * The optional peer dependencies, with the versions gateflow is tested on
 * (package.json's `peerDependencies` says the same; a test keeps them equal).
 * Each is loaded only by the part that uses it, so an app that does not use
 * that part need not install it.
 */
export const OPTIONAL_DEPENDENCIES = {
  '@ai-sdk/openai': '^4.0.118',
  '@electric-sql/pglite': '^0.5.14',
  '@electric-sql/pglite-age': '0.0.15',
  '@statelyai/inspect': '^0.7.2',
  elkjs: '^0.12.1',
  pg: '^8.23.1',
} as const;

export type OptionalDependency = keyof typeof OPTIONAL_DEPENDENCIES;

/**
 * `@electric-sql/pglite-age` 0.0.15 pins its PGlite peer at 0.5.14 exactly: an
 * app that installed a later PGlite cannot add the graph (npm refuses with
 * ERESOLVE). So the PGlite to install is that one, and AGE is installed with it.
 */
const AGE_PGLITE = '0.5.14';

/** The command that installs a missing package, at the version to install. */
function installCommand(packageName: string): string {
  if (packageName === '@electric-sql/pglite') return `npm install '@electric-sql/pglite@${AGE_PGLITE}'`;
  if (packageName === '@electric-sql/pglite-age')
    return `npm install '@electric-sql/pglite-age@${OPTIONAL_DEPENDENCIES['@electric-sql/pglite-age']}' '@electric-sql/pglite@${AGE_PGLITE}'`;
  const range = (OPTIONAL_DEPENDENCIES as Record<string, string>)[packageName];
  return `npm install ${range ? `'${packageName}@${range}'` : packageName}`;
}

/** A part of gateflow was used whose optional dependency is not installed: the message names the package and the command. */
export class MissingDependencyError extends GateflowError {
  readonly code = 'missing_dependency';
  readonly status = 500;

  constructor(
    /** The package to install. */
    readonly packageName: string,
    /** What needs it, e.g. `the PGlite store`. */
    readonly feature: string,
    options?: { cause?: unknown },
  ) {
    super(`${feature} needs the package ${packageName}, which is not installed: ${installCommand(packageName)}`, options);
    this.name = 'MissingDependencyError';
  }
}

/**
 * Loads an optional dependency on use. `load` is the literal
 * `() => import('<package>')`, so that bundlers still see the import. A module
 * that cannot be found (the package itself, or one it needs) becomes a
 * {@link MissingDependencyError} naming the package to install; any other
 * failure is passed on as it is.
 */
export async function importOptional<T>(packageName: OptionalDependency, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = missingPackage(error);
    if (missing !== null) throw new MissingDependencyError(missing === packageName || !missing ? packageName : missing, feature, { cause: error });
    throw error;
  }
}

/**
 * The package a failed import could not find: Node says `Cannot find package
 * '<name>'` (ERR_MODULE_NOT_FOUND); `''` when the error is a missing module
 * without a package name; null when it is another failure.
 */
function missingPackage(error: unknown): string | null {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return null;
  const named = typeof message === 'string' ? /Cannot find (?:package|module) '((?:@[^/']+\/)?[^/']+)/.exec(message) : null;
  return named?.[1] ?? '';
}
