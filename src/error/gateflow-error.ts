/**
 * The base of every error gateflow raises on purpose: it carries its own
 * stable `code` and the HTTP `status` it stands for, as Hono's HTTPException
 * and the AI SDK's errors do, so that the server, the CLI and the transports
 * report it without a table of their own. Anything else is an internal error.
 */
export abstract class GateflowError extends Error {
  /** A stable, machine-readable code, e.g. `session_not_found`. */
  abstract readonly code: string;
  /** The HTTP status this error answers with. */
  abstract readonly status: number;

  /** What a caller is told: the message, unless the error hides details (a store outage does). */
  get publicMessage(): string {
    return this.message;
  }

  /** `{ code, message }`, as the API and `chat --json` write errors. */
  toJSON(): { code: string; message: string } {
    return { code: this.code, message: this.publicMessage };
  }
}

export const isGateflowError = (error: unknown): error is GateflowError => error instanceof GateflowError;
