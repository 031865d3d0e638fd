import { GateflowError } from '../error/gateflow-error.js';

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
    options: { called?: boolean } = {},
  ) {
    super(
      `${reason === 'invalid_output' ? 'the language model answered in a form I could not use' : 'the language model could not be reached'} while ${
        purpose === 'decide' ? 'working out what to do' : purpose === 'rewrite' ? 'rewriting the document' : 'writing the answer'
      } (${detail})`,
    );
    this.modelCalls = options.called === false ? 0 : 1;
  }
}
