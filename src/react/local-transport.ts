import type { FlowDocument } from '../flow/schema.js';
import {
  ConversationFinishedError,
  FlowNotFoundError,
  InvalidTurnError,
  SessionNotFoundError,
  TurnIdReusedError,
  TurnLimitError,
} from '../runtime/errors.js';
import { createRuntime, MAX_HISTORY_PAGE_SIZE } from '../runtime/runtime.js';
import { createMemoryStore } from '../store/memory.js';
import { readWholeSession, TransportError, type Transport } from './transport.js';

const CODES: [new (...args: never[]) => Error, string][] = [
  [InvalidTurnError, 'invalid_turn'],
  [FlowNotFoundError, 'flow_not_found'],
  [SessionNotFoundError, 'session_not_found'],
  [ConversationFinishedError, 'session_finished'],
  [TurnLimitError, 'turn_limit_reached'],
  [TurnIdReusedError, 'turn_id_reused'],
];

/**
 * The runtime in the page: the in-memory store and the offline matcher, no
 * server. For stories, demos and tests; sessions live as long as the page.
 */
export function createLocalTransport(options: { flows: FlowDocument[] }): Transport {
  const runtime = createRuntime({ flows: options.flows, store: createMemoryStore() });
  const wrap = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      const code = CODES.find(([kind]) => error instanceof kind)?.[1] ?? 'internal';
      throw new TransportError(code, (error as Error).message);
    }
  };
  return {
    flows: async () => runtime.flows(),
    start: (flowId) => wrap(() => runtime.start(flowId)),
    turn: (sessionId, turn) => wrap(() => runtime.turn(sessionId, turn)),
    session: (sessionId) => wrap(() => readWholeSession((after) => runtime.session(sessionId, {}, { after, limit: MAX_HISTORY_PAGE_SIZE }))),
  };
}
