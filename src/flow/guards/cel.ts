import { Environment, type ASTNode, type TypeCheckResult } from '@marcbachmann/cel-js';

/**
 * Guards written in CEL (the Common Expression Language) over `answers` and
 * `context`: parsed and type-checked once, when a flow is compiled, then
 * evaluated as often as needed. CEL has no side effects, loops or I/O, so a
 * flow document can never run code of its own.
 *
 * Numbers are doubles (`answers.wattage > 200.0`); an optional answer needs
 * `has(answers.key)` before it is read.
 */

/** What a guard may read. A validator also reads `value`, the answer being checked. */
export interface GuardScope {
  answers: Record<string, unknown>;
  context: Record<string, unknown>;
  /** The flow's named constraints, each true or false. */
  constraints?: Record<string, boolean>;
  value?: unknown;
}

/** A guard on an edge or a `when`; a validator (which may also read `value`). */
export type GuardKind = 'guard' | 'validator';

/** Why a guard was refused, and where in its text (0-based character offset). */
export interface GuardProblem {
  code: string;
  message: string;
  position?: number;
  /** A problem the guard can live with (it may still be true): reported, not refused. Error when absent. */
  severity?: 'warning';
}

export class GuardCompileError extends Error {
  override readonly name = 'GuardCompileError';
  constructor(
    readonly source: string,
    readonly problem: GuardProblem,
  ) {
    super(`guard ${JSON.stringify(source)}${problem.position !== undefined ? ` at ${problem.position}` : ''}: ${problem.message}`);
  }
}

export interface CompiledGuard {
  readonly source: string;
  /**
   * True or false. A guard that fails while it runs (a key read without
   * `has()`, say) is false, and the reason is given to `onError`.
   */
  evaluate(scope: GuardScope, onError?: (problem: GuardProblem) => void): boolean;
}

/** The maximum length of a guard; longer text is refused before it is parsed. */
export const MAX_GUARD_LENGTH = 2000;

function environment(kind: GuardKind) {
  const env = new Environment({ limits: { maxAstNodes: 500, maxDepth: 32, maxListElements: 100, maxMapEntries: 100, maxCallArguments: 8 } })
    .registerVariable('answers', 'map')
    .registerVariable('context', 'map')
    .registerVariable('constraints', 'map');
  return kind === 'validator' ? env.registerVariable('value', 'dyn') : env;
}
const environments: Record<GuardKind, ReturnType<typeof environment>> = {
  guard: environment('guard'),
  validator: environment('validator'),
};

/**
 * Type-checks a guard: an empty list when it is a boolean expression over
 * `answers`, `context` and `constraints` (and `value`, for a validator).
 */
export function checkGuard(source: string, kind: GuardKind = 'guard'): GuardProblem[] {
  if (source.length > MAX_GUARD_LENGTH) return [{ code: 'too_long', message: `longer than ${MAX_GUARD_LENGTH} characters` }];
  let result: TypeCheckResult;
  try {
    result = environments[kind].check(source);
  } catch (error) {
    return [problemOf(error)];
  }
  if (!result.valid) return [problemOf(result.error)];
  if (result.type !== 'bool' && result.type !== 'dyn')
    return [{ code: 'not_boolean', message: `a guard must be true or false, this is ${result.type}`, position: 0 }];
  return [];
}

/**
 * The syntax tree of a guard (cel-js's AST, with each node's character
 * range), for checks CEL cannot make alone (guards/types.ts). Throws on a
 * guard that does not parse.
 */
export function guardAst(source: string, kind: GuardKind = 'guard'): ASTNode {
  return environments[kind].parse(source).ast;
}

/** Checks and parses a guard once; throws {@link GuardCompileError} when it is refused. */
export function compileGuard(source: string, kind: GuardKind = 'guard'): CompiledGuard {
  const [problem] = checkGuard(source, kind);
  if (problem) throw new GuardCompileError(source, problem);
  const run = environments[kind].parse(source);
  return {
    source,
    evaluate(scope, onError) {
      try {
        const value: unknown = run({
          answers: scope.answers,
          context: scope.context,
          constraints: scope.constraints ?? {},
          ...(kind === 'validator' && { value: scope.value ?? null }),
        });
        if (typeof value === 'boolean') return value;
        onError?.({ code: 'not_boolean', message: `evaluated to ${typeof value}, not true or false` });
        return false;
      } catch (error) {
        onError?.(problemOf(error));
        return false;
      }
    },
  };
}

function problemOf(error: unknown): GuardProblem {
  const e = error as { code?: unknown; summary?: unknown; message?: unknown; range?: { start?: unknown } } | undefined;
  const position = typeof e?.range?.start === 'number' ? e.range.start : undefined;
  return {
    code: typeof e?.code === 'string' ? e.code : 'invalid',
    message: typeof e?.summary === 'string' ? e.summary : String(e?.message ?? error),
    ...(position !== undefined && { position }),
  };
}
