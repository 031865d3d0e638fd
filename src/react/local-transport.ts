import type { AnyActorLogic } from 'xstate';
import { GateflowError } from '../error/gateflow-error.js';
import { createRuntime, MAX_HISTORY_PAGE_SIZE } from '../runtime/runtime.js';
import { createMemoryStore } from '../store/memory.js';
import type { Workflow } from '../workflow/types.js';
import { readWholeSession, TransportError, type Transport } from './transport.js';

/**
 * The runtime in the page: the in-memory store (and for flows the offline
 * matcher), no server. For stories, demos and tests; sessions live as long as
 * the page. Flows are served as `flowWorkflow(doc)`.
 */
export function createLocalTransport(options: { workflows: Workflow[]; actors?: Record<string, AnyActorLogic> }): Transport {
  const runtime = createRuntime({ workflows: options.workflows, store: createMemoryStore(), ...(options.actors && { actors: options.actors }) });
  const wrap = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof GateflowError) throw new TransportError(error.code, error.publicMessage, error.status);
      throw new TransportError('internal', (error as Error).message);
    }
  };
  return {
    flows: async () => runtime.workflows(),
    start: (flowId) => wrap(() => runtime.start(flowId)),
    turn: (sessionId, turn) => wrap(() => runtime.turn(sessionId, turn)),
    session: (sessionId) => wrap(() => readWholeSession((after) => runtime.session(sessionId, {}, { after, limit: MAX_HISTORY_PAGE_SIZE }))),
  };
}
