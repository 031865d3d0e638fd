import { z } from 'zod';
import { nodeFields } from '../fields.js';
import type { NodeKind } from './kind.js';
import { working } from './shared.js';

/** A branch point: its edges are tried in order, the first whose guard holds is taken; the last is `else`. */
export const DecisionNodeSchema = z.strictObject({
  kind: z.literal('decision').describe('"decision": asks nothing; its edges\' guards are tried in order and the first true one is taken.'),
  ...nodeFields,
});

export type DecisionNode = z.infer<typeof DecisionNodeSchema>;

/**
 * A decision: passed within the turn that reaches it (its state's `always`
 * takes the first edge whose guard holds), so a reply from it is only seen
 * while something after it is still working.
 */
export const decision: NodeKind<typeof DecisionNodeSchema> = {
  kind: 'decision',
  schema: DecisionNodeSchema,
  outcomes: ['next'],
  checkEdges(_node, c) {
    c.need('next', 'to continue on');
  },
  // No event between entering and leaving it: a loop of decisions would never stop.
  silence: () => 'instant',
  state: (p, c) => ({ ...c.traced(p), always: c.route(p, 'next') }),
  reply: (_node, r) => working(r.messages.DEFAULT_WORKING_MESSAGE),
};

