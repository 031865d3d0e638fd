import { openAgeGraph, type GraphLimits } from '../graph/age-graph.js';
import type { CypherLimits } from '../graph/cypher-query.js';
import type { PropertyGraph } from '../graph/property-graph.js';
import type { ToolOutcome, ToolRegistry } from '../graph/tools/registry.js';
import type { SqlDatabase, SqlTransaction } from '../store/types.js';
import { GateflowError } from '../error/gateflow-error.js';
import type { ToolSignature } from './schemas.js';
import { writesToReplay } from './write-footprint.js';

/**
 * How the task agent's graph changes commit with the session (seed 004, issue
 * 13): a tool call runs in a transaction that is always rolled back, after
 * the writes this step made before it that it can depend on are replayed
 * there (so it sees the graph as the step left it, as far as it can tell;
 * see write-footprint.ts); the step's writes are applied for good only
 * in the transaction that saves the session's snapshot. A crash before that
 * leaves the graph as it was, and a replayed turn (same turnId) applies
 * nothing, because nothing of it was applied before the save.
 */

/** A write that applied in the preview no longer applies when the step is saved (the graph changed meanwhile). */
export class GraphChangedError extends GateflowError {
  override readonly name = 'GraphChangedError';
  readonly code = 'graph_changed';
  readonly status = 409;
  constructor(
    readonly call: ToolSignature,
    readonly reason: string,
  ) {
    super(`the graph changed while the agent worked: ${call.tool} no longer applies (${reason}); nothing of this step was saved, send it again`);
  }
}

/** A tool call that took longer than allowed; the preview is rolled back. */
export class ToolTimeoutError extends GateflowError {
  override readonly name = 'ToolTimeoutError';
  readonly code = 'tool_timeout';
  readonly status = 504;
  constructor(
    readonly tool: string,
    readonly timeoutMs: number,
  ) {
    super(`${tool} took longer than ${timeoutMs} ms`);
  }
}

const ROLLBACK = Symbol('rollback');

export interface GraphStepsOptions {
  database: SqlDatabase;
  registry: ToolRegistry;
  cypherLimits?: Partial<CypherLimits>;
  graphLimits?: Partial<GraphLimits>;
}

/** The owner's graph in `tx`, with the host's bounds. */
const graphIn = (tx: SqlTransaction, owner: string | null, options: Omit<GraphStepsOptions, 'database' | 'registry'>, reserved?: { nodes: number; edges: number }) =>
  openAgeGraph(tx, {
    owner,
    ...(options.cypherLimits && { cypherLimits: options.cypherLimits }),
    ...(options.graphLimits && { graphLimits: options.graphLimits }),
    ...(reserved && { reserved }),
  });

/** Runs `fn` on the owner's graph in a transaction that is rolled back whatever happens. */
async function inRolledBack<T>(
  options: GraphStepsOptions,
  owner: string | null,
  fn: (graph: PropertyGraph) => Promise<T>,
  reserved?: { nodes: number; edges: number },
): Promise<T> {
  let result: { value: T } | undefined;
  try {
    await options.database.transaction(async (tx) => {
      const graph = await graphIn(tx, owner, options, reserved);
      result = { value: await fn(graph) };
      throw ROLLBACK;
    });
  } catch (error) {
    if (error !== ROLLBACK) throw error;
  }
  return result!.value;
}

/** Applies writes in order; a refused one means the graph is not what the preview saw. */
async function replay(registry: ToolRegistry, graph: PropertyGraph, writes: readonly ToolSignature[]): Promise<void> {
  for (const call of writes) {
    const outcome = await registry.call(graph, call.tool, call.args);
    if (!outcome.ok) throw new GraphChangedError(call, outcome.error.message);
  }
}

/**
 * One call, previewed: this step's earlier writes replayed, then the call,
 * then everything rolled back. Returns the call's outcome (a refusal is an
 * outcome; an outage or a timeout is thrown) and whether it writes.
 */
export async function previewCall(
  options: GraphStepsOptions,
  request: {
    owner: string | null;
    call: ToolSignature;
    replay: readonly ToolSignature[];
    timeoutMs: number;
    /** Stops the wait (the goal's time ran out): the call rejects with the signal's reason. */
    signal?: AbortSignal;
  },
): Promise<{ outcome: ToolOutcome; write: boolean }> {
  const tool = options.registry.get(request.call.tool);
  if (request.signal?.aborted) throw request.signal.reason;
  // Only the earlier writes this call can depend on: not every write again for each call.
  const replayed = writesToReplay(options.registry, request.call, request.replay);
  // The adds not replayed still count against the graph's caps, as they will when the step commits.
  const skipped = request.replay.filter((w) => !replayed.includes(w));
  const reserved = { nodes: skipped.filter((w) => w.tool === 'add_node').length, edges: skipped.filter((w) => w.tool === 'add_edge').length };
  const work = inRolledBack(
    options,
    request.owner,
    async (graph) => {
      await replay(options.registry, graph, replayed);
      return options.registry.call(graph, request.call.tool, request.call.args, request.signal && { signal: request.signal });
    },
    reserved,
  );
  work.catch(() => undefined); // settled after a timeout: nobody waits for it any more
  let timer: ReturnType<typeof setTimeout> | undefined;
  const { signal } = request;
  let stopped: (() => void) | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ToolTimeoutError(request.call.tool, request.timeoutMs)), request.timeoutMs);
    stopped = () => reject(signal!.reason);
    if (signal?.aborted) stopped();
    else signal?.addEventListener('abort', stopped, { once: true });
  });
  try {
    // The database finishes (and rolls back) a statement it started; the agent stops waiting for it.
    const outcome = await Promise.race([work, timeout]);
    return { outcome: jsonSafe(outcome), write: !(tool?.readOnly ?? false) };
  } finally {
    clearTimeout(timer);
    if (stopped) signal?.removeEventListener('abort', stopped);
  }
}

/** The writes a step made, applied in the transaction that saves the step. */
export function commitWrites(options: Omit<GraphStepsOptions, 'database'>, owner: string | null, writes: readonly ToolSignature[]) {
  return async (tx: SqlTransaction): Promise<void> => {
    const graph = await graphIn(tx, owner, options);
    await replay(options.registry, graph, writes);
  };
}

/** A result as the snapshot keeps it (JSON): what a tool returned, minus what JSON cannot hold. */
const jsonSafe = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
