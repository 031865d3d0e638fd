import { tool, type ToolSet } from 'ai';
import type { PropertyGraph } from '../property-graph.js';
import type { ToolRegistry } from './registry.js';

/**
 * The registry's tools as AI SDK tools (`generateText({ tools })`), bound to
 * one graph (the turn's transaction). Arguments are checked by the tool's zod
 * schema; a refusal (a missing node, a write in cypher_query) is the tool's
 * result, `{ ok: false, error: { code, message } }`, so the model reads why
 * and may try again; an outage is thrown.
 */
export function asAiSdkTools(registry: ToolRegistry, graph: PropertyGraph): ToolSet {
  return Object.fromEntries(
    registry.list().map((t) => [
      t.name,
      tool({
        description: t.description,
        inputSchema: t.inputSchema,
        execute: (args: unknown) => registry.call(graph, t.name, args),
      }),
    ]),
  );
}
