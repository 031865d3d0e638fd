import type { AnyActorLogic } from 'xstate';
import { GateflowError } from '../error/gateflow-error.js';
import { createRuntime, MAX_HISTORY_PAGE_SIZE, type Runtime } from '../runtime/runtime.js';
import { createMemoryStore } from '../store/memory.js';
import type { Workflow } from '../workflow/types.js';
import { eventMatches, readWholeSession, TransportError, type Transport } from './transport.js';

/**
 * The runtime in the page: the in-memory store, no server. For stories, demos
 * and tests; sessions live as long as the page. It runs workflows, as the
 * runtime does: a flow document is one once compiled, so
 * `createLocalTransport({ workflows: [flowWorkflow(doc)] })` (flowWorkflow
 * from `gateflow`; flows read free text with the offline matcher). Pass a
 * `runtime` to share one between several transports (a customer's widget and
 * a manager's inbox on one page) or to drive it from outside (deadlines in
 * stories).
 */
export function createLocalTransport(options: { workflows: Workflow[]; actors?: Record<string, AnyActorLogic> } | { runtime: Runtime }): Transport {
  const runtime =
    'runtime' in options
      ? options.runtime
      : createRuntime({ workflows: options.workflows, store: createMemoryStore(), ...(options.actors && { actors: options.actors }) });
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
    inputs: (query) => wrap(() => runtime.inputs({}, query)),
    answer: (gateId, value) => wrap(() => runtime.answer(gateId, value)),
    cancel: (sessionId) => wrap(() => runtime.cancel(sessionId)),
    events: (listener, query = {}, handlers = {}) => {
      const stop = runtime.subscribe((event) => {
        if (eventMatches(event, query)) listener(event);
      });
      // Listening from now on: whatever happened before is read again by whoever is told it is open.
      let open = true;
      setTimeout(() => open && handlers.onOpen?.(), 0);
      return () => {
        open = false;
        stop();
      };
    },
  };
}
