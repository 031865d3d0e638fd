import { GateflowError } from '../../error/gateflow-error.js';
import { DuplicateToolError, ToolInputError, ToolNotFoundError } from '../errors.js';
import { issuesOf } from '../model.js';
import type { PropertyGraph } from '../property-graph.js';
import { TOOL_NAME, type GraphTool, type ToolContext } from './tool.js';

/** A call's outcome as the model and the task agent read it: the result, or the error's code and message. */
export type ToolOutcome = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };

/**
 * The tools a task agent may call, by name. `resolve` is the check before a
 * call (the tool exists, the arguments fit its schema); `call` runs it.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, GraphTool>();
  #revision = 0;

  constructor(tools: readonly GraphTool[] = []) {
    this.register(...tools);
  }

  /** Adds tools; a name taken already, or one a model API would refuse, is an error. */
  register(...tools: GraphTool[]): this {
    for (const tool of tools) {
      if (!TOOL_NAME.test(tool.name)) throw new Error(`tool name ${JSON.stringify(tool.name)}: letters, digits, _ and -, starting with a letter, at most 64`);
      if (this.#tools.has(tool.name)) throw new DuplicateToolError(tool.name);
      this.#tools.set(tool.name, tool);
    }
    this.#revision++;
    return this;
  }

  /** Changes each time tools are added: what is derived from the list (the schemas models are sent) is rebuilt then. */
  get revision(): number {
    return this.#revision;
  }

  get(name: string): GraphTool | undefined {
    return this.#tools.get(name);
  }

  names(): string[] {
    return [...this.#tools.keys()];
  }

  list(): GraphTool[] {
    return [...this.#tools.values()];
  }

  /** The tool and its parsed arguments; ToolNotFoundError or ToolInputError otherwise. */
  resolve(name: string, args: unknown): { tool: GraphTool; args: unknown } {
    const tool = this.#tools.get(name);
    if (!tool) throw new ToolNotFoundError(name, this.names());
    const parsed = tool.inputSchema.safeParse(args);
    if (!parsed.success) throw new ToolInputError(name, issuesOf(parsed.error));
    return { tool, args: parsed.data };
  }

  /** Checks and runs a call. Errors gateflow raises on purpose are the outcome; anything else is thrown. */
  async call(graph: PropertyGraph, name: string, args: unknown, context?: ToolContext): Promise<ToolOutcome> {
    try {
      const resolved = this.resolve(name, args);
      return { ok: true, result: await resolved.tool.run(graph, resolved.args, context) };
    } catch (error) {
      if (error instanceof GateflowError && error.status < 500) return { ok: false, error: error.toJSON() };
      throw error;
    }
  }
}
