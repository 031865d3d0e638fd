import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { documentLimits, DocumentLimitsSchema, type DocumentLimitsInput } from '../documents/limits.js';
import type { EventStreamLimits } from '../server/events.js';
import type { GraphLimits } from '../graph/age-graph.js';
import type { GoalLimits } from '../../machines/task-agent.js';
import type { ActLimits } from '../../machines/document-agent.js';
import { ActLimitsSchema } from '../document-agent/act-limits.js';
import { GoalLimitsSchema } from '../task-agent/goal-limits.js';
import { CliError } from './io.js';

/**
 * The caps `gateflow serve` takes from a JSON file (`--limits FILE`, or the
 * file named by GATEFLOW_LIMITS): each optional, the rest keep their defaults.
 * Unknown keys are refused, so that a misspelt cap is said, not ignored.
 */
export const ServeLimitsSchema = z.strictObject({
  /** The document agent's caps (`documentAgent.limits`): sizes, names, texts, list pages, counts of projects, documents, chats, messages. */
  documents: DocumentLimitsSchema.partial().optional(),
  /** The task agent's limits per goal (steps, model and tool calls, prompt bytes, time). */
  goal: GoalLimitsSchema.optional(),
  /** The document agent's limits per message (its wall time). */
  act: ActLimitsSchema.optional(),
  /** How many nodes and edges one owner's task-agent graph may hold. */
  graph: z.strictObject({ maxNodes: z.number().int().min(1).max(1_000_000_000).optional(), maxEdges: z.number().int().min(1).max(1_000_000_000).optional() }).optional(),
  /** Concurrent event streams, per caller (429 beyond) and in total (503 beyond). */
  eventStreams: z.strictObject({ perCaller: z.number().int().min(1).max(1_000_000).optional(), total: z.number().int().min(1).max(1_000_000).optional() }).optional(),
  /** Turns one session takes (409 `turn_limit_reached` beyond). */
  maxTurnsPerSession: z.number().int().min(1).max(1_000_000_000).optional(),
});

export interface ServeLimits {
  documents?: DocumentLimitsInput;
  goal?: Partial<GoalLimits>;
  act?: Partial<ActLimits>;
  graph?: Partial<GraphLimits>;
  eventStreams?: EventStreamLimits;
  maxTurnsPerSession?: number;
}

/** The most bytes a limits file may have: it is a few caps, not data. */
const MAX_LIMITS_FILE_BYTES = 64 * 1024;

/**
 * The caps in a limits file, checked: a file that cannot be read, is not
 * JSON, or names a cap wrongly stops `serve` with one line naming the file
 * and the key. `where` is how the file was given (`--limits`, GATEFLOW_LIMITS).
 */
export function readServeLimits(file: string, where: string): ServeLimits {
  let text: string;
  try {
    const buffer = readFileSync(file);
    if (buffer.length > MAX_LIMITS_FILE_BYTES) throw new CliError(`gateflow serve: ${where} ${file} is ${buffer.length} bytes; a limits file has at most ${MAX_LIMITS_FILE_BYTES}`, 2);
    text = buffer.toString('utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`gateflow serve: ${where} ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 2);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliError(`gateflow serve: ${where} ${file} is not JSON: ${(error as Error).message}`, 2);
  }
  const parsed = ServeLimitsSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(the file)'}: ${i.message}`);
    throw new CliError(`gateflow serve: ${where} ${file}: ${issues.join('; ')}`, 2);
  }
  const limits = stripUndefined(parsed.data) as ServeLimits;
  // The checks across caps (a default page larger than the largest), said here rather than as a server that fails to start.
  try {
    documentLimits(limits.documents);
  } catch (error) {
    throw new CliError(`gateflow serve: ${where} ${file}: ${(error as Error).message}`, 2);
  }
  return limits;
}

/** The limits file `serve` reads: `--limits FILE`, else GATEFLOW_LIMITS; none when neither is given. */
export function serveLimits(flag: string | undefined, env: Record<string, string | undefined>): ServeLimits | undefined {
  if (flag !== undefined) return readServeLimits(flag, '--limits');
  const file = env.GATEFLOW_LIMITS?.trim();
  return file ? readServeLimits(file, 'GATEFLOW_LIMITS') : undefined;
}

/** JSON has no undefined; this keeps `exactOptionalPropertyTypes` readers happy. */
function stripUndefined(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, stripUndefined(v)]));
}

/** Where each cap of a limits file goes in `startServer`'s options (the server's, the task agent's, the document agent's). */
export function limitsOptions(caps: ServeLimits | undefined): {
  server: { eventStreams?: EventStreamLimits; maxTurnsPerSession?: number };
  taskAgent: { limits?: Partial<GoalLimits>; graphLimits?: Partial<GraphLimits> };
  documentAgent: { limits?: DocumentLimitsInput; actLimits?: Partial<ActLimits> };
} {
  return {
    server: { ...(caps?.eventStreams && { eventStreams: caps.eventStreams }), ...(caps?.maxTurnsPerSession !== undefined && { maxTurnsPerSession: caps.maxTurnsPerSession }) },
    taskAgent: { ...(caps?.goal && { limits: caps.goal }), ...(caps?.graph && { graphLimits: caps.graph }) },
    documentAgent: { ...(caps?.documents && { limits: caps.documents }), ...(caps?.act && { actLimits: caps.act }) },
  };
}
