/**
 * The runtime behind the input-gate stories: the example refund flow and a
 * small delivery check (one input of each type a form shows), run in the
 * page on the in-memory store with a clock the stories can move, so a
 * deadline can pass on request. A customer's widget and a manager's inbox
 * share one runtime through two local transports, as two pages share a
 * server.
 */
import refundApprovalJson from '../machines/flows/refund-approval.json' with { type: 'json' };
import { parseFlowValue } from '../src/flow/parse.js';
import type { FlowDocument } from '../src/flow/schema.js';
import { flowWorkflow } from '../src/flow/workflow.js';
import { createLocalTransport } from '../src/react/local-transport.js';
import type { Transport } from '../src/react/transport.js';
import { createRuntime, type Runtime } from '../src/runtime/runtime.js';
import { createMemoryStore } from '../src/store/memory.js';

export const refundApproval = parseFlowValue(refundApprovalJson, 'machines/flows/refund-approval.json');

/**
 * A delivery check that waits for four typed inputs (a yes/no, a number, a
 * choice, a date): from the person in the conversation, or from `to` (a
 * role) when given.
 */
export function deliveryCheck(to?: string): FlowDocument {
  return parseFlowValue(
    {
      id: to ? `delivery-check-${to}` : 'delivery-check',
      version: 1,
      title: 'Delivery check',
      start: 'check',
      nodes: [
        {
          kind: 'input',
          id: 'check',
          message: to ? 'Thanks. A warehouse reviewer checks the delivery now.' : 'Please tell us about the delivery.',
          ...(to && { to }),
          deadline: 'PT2H',
          inputs: [
            { name: 'received', type: 'boolean', description: 'Did the parcel arrive?' },
            { name: 'parcels', type: 'integer', min: 1, max: 10, description: 'How many parcels?' },
            {
              name: 'condition',
              type: 'enum',
              description: 'In what condition?',
              options: [
                { label: 'Intact', value: 'intact' },
                { label: 'Box damaged', value: 'box_damaged' },
                { label: 'Contents damaged', value: 'contents_damaged' },
              ],
            },
            { name: 'delivered_on', type: 'date', min: '2020-01-01', max: 'today', description: 'Delivered on' },
          ],
        },
        { kind: 'terminal', id: 'thanks', outcome: 'completed', message: 'Thank you: {answers.parcels} parcel(s), {answers.condition}, delivered on {answers.delivered_on}.' },
        { kind: 'terminal', id: 'late', outcome: 'handoff', message: 'Nobody answered in time: a person takes over.' },
      ],
      edges: [
        { from: 'check', to: 'thanks', on: 'done' },
        { from: 'check', to: 'late', on: 'timeout' },
      ],
    },
    'stories/input-gates-script.ts',
  );
}

/** A runtime in the page with a clock that `advance` moves, and a transport for each page that uses it. */
export interface Stage {
  runtime: Runtime;
  /** A transport on the shared runtime (one per widget, as each page has its own connection). */
  transport(): Transport;
  /** Moves the runtime's clock forward and fires the deadlines that have passed. */
  advance(ms: number): Promise<void>;
}

export function createStage(flows: FlowDocument[]): Stage {
  let offset = 0;
  const runtime = createRuntime({
    workflows: flows.map((flow) => flowWorkflow(flow)),
    store: createMemoryStore(),
    clock: () => new Date(Date.now() + offset),
  });
  return {
    runtime,
    transport: () => createLocalTransport({ runtime }),
    advance: async (ms) => {
      offset += ms;
      await runtime.fireDeadlines();
    },
  };
}

/** Chats the refund flow to the manager's approval (order AB1234, 250 EUR, damaged, confirmed): the session id. */
export async function refundAtTheWait(runtime: Runtime): Promise<string> {
  const { sessionId } = await runtime.start(refundApproval.id);
  for (const turn of [{ text: 'AB1234' }, { text: '250' }, { text: 'it arrived broken' }, { button: 'confirm' }]) await runtime.turn(sessionId, turn);
  const reply = (await runtime.session(sessionId)).reply;
  if (reply.status !== 'waiting') throw new Error(`the refund flow did not get to the manager's approval: ${reply.message}`);
  return sessionId;
}
