import { GateflowError } from '../error/gateflow-error.js';
import { GoalTimeUp } from '../workflow/goal-time.js';

/** Why a web search failed: no answer in time, an HTTP error, an answer that is not search results, or no connection. */
export type WebSearchFailure = 'timeout' | 'http' | 'invalid_response' | 'unreachable';

/**
 * The web search provider failed (seed 002, "If needs_web_search"): the
 * upstream is at fault, hence 502. The message names the provider (never its
 * credentials) and says what went wrong, so that an operator can fix it.
 */
export class WebSearchError extends GateflowError {
  override readonly name = 'WebSearchError';
  readonly code = 'web_search_failed';
  readonly status = 502;
  /** The HTTP status the provider answered with, when `reason` is `http`. */
  readonly httpStatus: number | undefined;
  constructor(
    /** The provider's name, e.g. `SearXNG at http://127.0.0.1:8888`. */
    readonly provider: string,
    readonly reason: WebSearchFailure,
    detail: string,
    options?: { httpStatus?: number; cause?: unknown },
  ) {
    super(`web search failed: ${detail}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.httpStatus = options?.httpStatus;
  }
}

/**
 * A model call of the document agent gave nothing usable: it failed (HTTP
 * error, timeout) or answered outside the schema. The agent says so and writes nothing.
 * `detail` is what may be shown (the kind of failure in plain words); the
 * provider's own text (`AI_RetryError`, URLs, hosts, stacks) is `internal`,
 * for the trace and the log only.
 */
export class DocumentAgentModelError extends GateflowError {
  override readonly name = 'DocumentAgentModelError';
  readonly code = 'model_error';
  readonly status = 502;
  /** The calls made before it failed: 1, or 0 when there was no model to call. */
  readonly modelCalls: number;
  constructor(
    readonly purpose: 'decide' | 'rewrite' | 'converse',
    readonly reason: 'model_error' | 'invalid_output',
    readonly detail: string,
    options: { called?: boolean; internal?: string } = {},
  ) {
    super(
      `${reason === 'invalid_output' ? 'the language model answered in a form I could not use' : 'the language model could not be reached'} while ${
        purpose === 'decide' ? 'working out what to do' : purpose === 'rewrite' ? 'rewriting the document' : 'writing the answer'
      } (${detail})`,
    );
    this.modelCalls = options.called === false ? 0 : 1;
    this.internal = options.internal ?? detail;
  }
  /** The provider's text, for logs and traces: never put in a reply or an answer. */
  readonly internal: string;
}

/**
 * The act's time ran out while an actor was under way (its model call or
 * search was stopped): not a failure of the step, but the end of the act,
 * which the machine answers with what was done and what was not. A
 * `GoalTimeUp` by name, which is how the machine tells it (machines/ imports
 * no values of src/).
 */
export class ActTimeUp extends GoalTimeUp {
  constructor(
    limit: string,
    /** The model calls the actor had begun (counted as made). */
    readonly modelCalls: number,
  ) {
    super(limit);
  }
}

/** What a person is told when a step failed for a reason that is not theirs to fix: plain words, one per step. */
const STEP_FAILURES = {
  load_context: 'the project could not be read',
  decide: 'I could not work out what to do',
  search: 'the search service could not be used',
  create: 'the document could not be created',
  edit: 'the document could not be changed',
  converse: 'the answer could not be written',
} as const;
export type DocumentAgentStep = keyof typeof STEP_FAILURES;

/**
 * A step of the document agent failed in a way whose own text is not for
 * people (a store's driver error, a provider's message): the reply says which
 * step, the original is the `cause` (and the step's span records it).
 */
export class DocumentAgentStepError extends GateflowError {
  override readonly name = 'DocumentAgentStepError';
  readonly code = 'agent_failed';
  readonly status = 502;
  constructor(
    readonly step: DocumentAgentStep,
    options: { said?: string; cause?: unknown } = {},
  ) {
    super(options.said ?? STEP_FAILURES[step], { cause: options.cause });
  }
}

/** Web search failures in plain words (the provider's name holds its URL). */
const SEARCH_FAILURES: Record<WebSearchFailure, string> = {
  timeout: 'the search service did not answer in time',
  http: 'the search service answered with an error',
  invalid_response: 'the search service gave an answer I could not read',
  unreachable: 'the search service could not be reached',
};

/**
 * The error a step's failure becomes for the machine (which says its message
 * to the person): gateflow's own errors whose message is public as they are;
 * a web search's by its kind; anything else (a driver's, a provider's) as the
 * step's plain sentence, the original kept as the cause.
 */
export function publicStepError(step: DocumentAgentStep, error: unknown): Error {
  if (error instanceof WebSearchError) return new DocumentAgentStepError(step, { said: `${SEARCH_FAILURES[error.reason]}${error.httpStatus ? ` (HTTP ${error.httpStatus})` : ''}`, cause: error });
  if (error instanceof GateflowError && error.publicMessage === error.message) return error;
  if (error instanceof GateflowError) return new DocumentAgentStepError(step, { said: error.publicMessage, cause: error });
  return new DocumentAgentStepError(step, { cause: error });
}
