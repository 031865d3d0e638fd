import type { z } from 'zod';
import type { PropertyGraph } from '../property-graph.js';

/**
 * A tool a model may call: a name, what it does (the model reads this), a zod
 * schema for its arguments (the single source of their validation, and of the
 * JSON Schema the model sees) and what it does with them. The graph tools are
 * defined this way, and hosts define theirs the same way.
 */
export interface GraphTool<S extends z.ZodType = z.ZodType, O = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: S;
  /**
   * True for a tool that only reads. A task agent saves a step's writes with
   * its snapshot by running them again in that transaction, so a tool that is
   * not read-only must change nothing but the graph it is given.
   */
  readonly readOnly?: boolean;
  /** `context.signal` aborts when the caller stops waiting (a task agent's goal ran out of time): a long tool should stop then. */
  run(graph: PropertyGraph, args: z.output<S>, context?: ToolContext): Promise<O>;
}

/** What a tool is told besides its arguments. */
export interface ToolContext {
  signal?: AbortSignal;
}

/** A tool, typed by its schema (so `run` gets the parsed arguments). */
export const defineTool = <S extends z.ZodType, O>(tool: GraphTool<S, O>): GraphTool<S, O> => tool;

/** Tool names as model APIs accept them. */
export const TOOL_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;
